"""`brass simulate --jobs N`: batches of games in N worker processes on this machine.

Workers are started with the "spawn" method: a fresh interpreter, not a fork of this one
(forking a process that runs threads, such as the pool's own manager thread, can deadlock).
Each worker is sent the run's rulesets once, when it starts (`batch.Shipment`: what `brass`
loaded, never the files as they are by then), and builds each when its first batch needs it.

Workers ignore Ctrl-C: the terminal sends SIGINT to the whole process group, and only this
process should react (stop the workers, say what was saved). A worker that dies (killed,
out of memory) breaks the pool; its unfinished batches are played again in a new pool, and
only finished batches are ever returned, so no game is lost or counted twice.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.tools.simulate.batch import Batch, Shipment, play_sent_batch, receive
from interpreter.tools.simulate.games import GameRecord

START_METHOD = "spawn"
MAX_BROKEN_POOLS = 3  # in a row without a finished batch: not bad luck but a cause; stop and say so
BATCHES_PER_WORKER = 2  # in flight at once: enough to keep every worker busy, few to cancel


class WorkersFailed(BrassError):
    """The worker processes kept dying; the games finished before are kept."""


def in_worker_processes(batches: Sequence[Batch], jobs: int, shipments: Sequence[Shipment],
                        notice: Callable[[str], None] = print) -> Iterator[tuple[Batch, list[GameRecord]]]:
    """Each batch with its records, as batches finish (not in order), played with the rulesets
    `shipments` carries; `notice` is told when a worker died and its games are played again."""
    queue = deque(batches)
    broken = 0  # pools broken in a row, none finishing a batch
    while queue:
        finished = False
        try:
            for item in _drain(queue, jobs, tuple(shipments)):
                finished = True
                yield item
        except BrokenProcessPool:
            broken = 1 if finished else broken + 1
            if broken >= MAX_BROKEN_POOLS:
                raise WorkersFailed(f"worker processes died {broken} times in a row before finishing a batch "
                                    "(killed, or out of memory?); stopped") from None
            notice("warning: a worker process died (killed, or out of memory?); the games not finished are "
                   "played again in new workers")


def _drain(queue: deque[Batch], jobs: int, shipments: tuple[Shipment, ...]) -> Iterator[tuple[Batch, list[GameRecord]]]:
    """Play the queue's batches in one pool; if the pool breaks, put the unfinished ones back
    on the queue and raise BrokenProcessPool."""
    in_flight: dict[Future[list[GameRecord]], Batch] = {}
    submitted = 0
    with _pool(jobs, shipments) as pool:
        try:
            while queue or in_flight:
                while queue and len(in_flight) < jobs * BATCHES_PER_WORKER:
                    batch = queue.popleft()
                    in_flight[_submit(pool, batch, starts_worker=submitted < jobs)] = batch
                    submitted += 1
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    records = future.result()  # BrokenProcessPool if its worker died
                    yield in_flight.pop(future), records
        except BrokenProcessPool:
            queue.extendleft(in_flight.values())
            raise


def _submit(pool: ProcessPoolExecutor, batch: Batch, starts_worker: bool) -> Future[list[GameRecord]]:
    """Submit a batch. The pool starts a worker at each of its first `jobs` submits (none is idle
    yet: a worker takes far longer to start than the submits); a worker must be born with Ctrl-C
    ignored (see the module's docstring). Only those submits ignore it here, so that a Ctrl-C
    pressed during a later one is never lost."""
    with sigint_replaced(signal.SIG_IGN) if starts_worker else contextlib.nullcontext():
        return pool.submit(play_sent_batch, batch)


@contextlib.contextmanager
def _pool(jobs: int, shipments: tuple[Shipment, ...]) -> Iterator[ProcessPoolExecutor]:
    """A pool of `jobs` spawned workers, each sent `shipments` as it starts; on leaving early
    (Ctrl-C, an error) its workers are stopped at once instead of finishing their batches."""
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(START_METHOD),
                               initializer=_start_worker, initargs=(shipments,))
    try:
        yield pool
    except BaseException:  # GeneratorExit included: the caller stopped reading
        _stop_workers(pool)
        raise
    else:
        pool.shutdown(wait=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    # ProcessPoolExecutor has no public way to stop running tasks before Python 3.14
    # (terminate_workers); without it, leaving would wait for every running batch.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _start_worker(shipments: tuple[Shipment, ...]) -> None:
    # Already inherited from the submit that started the worker; this covers a forkserver too.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Only kept here: the rulesets are built by the first batch (`ruleset_for`), as an error in
    # an initializer breaks the whole pool, while a batch's error comes back as itself.
    receive(shipments)


@contextlib.contextmanager
def sigint_replaced(handler: Any) -> Iterator[None]:
    """Ctrl-C handled by `handler` inside, the previous handler put back on leaving."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is None or threading.current_thread() is not threading.main_thread():
        yield  # a handler set outside Python cannot be put back; only the main thread may set one
        return
    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
