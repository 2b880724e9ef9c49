"""`brass verify --mutate --ray [ADDRESS]`: mutants judged as Ray tasks, on one machine or a cluster.

The shipment (the ruleset's resolved document and the scenario files as read) is put into Ray's
object store once; a task carries a reference to it and a few mutants, and a Ray worker keeps the
shipment it fetched for its later tasks. A task judges its mutants as `--jobs` workers do, with the
same CPU limit a mutant (`mutate.judge_limited`), so a runaway mutant is stopped and counted
killed. Only a few tasks per CPU
are in flight, and the verdicts come back in the order of the mutants, so that a run cut short by
its budget has judged a prefix. Ray retries a task whose worker or node died.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Sequence
from types import ModuleType
from typing import Any

from interpreter.tools.cluster.ray_connect import cluster_cpus, task_result
from interpreter.tools.scenarios.mutants import Mutant

__all__ = ["on_ray"]

MUTANTS_PER_TASK = 8  # a task of Birmingham mutants is about a second: scheduling stays small beside it
TASKS_PER_CPU = 2
RETRIES = 3  # of a task whose worker process or node died


def on_ray(ray: ModuleType, shipment: Any, chosen: Sequence[Mutant],
           judge: Callable[[Any, Mutant], Any]) -> Generator[Any, None, None]:
    """The verdict of each chosen mutant, in their order: `judge(shipment, mutant)` run in Ray tasks
    (a module-level function, sent by reference: mutate.judge_limited)."""
    task = ray.remote(max_retries=RETRIES)(_judge_task)
    sent = [ray.put(shipment)]  # in a list: the task gets the reference, not the object fetched anew
    chunks = [list(chosen[i:i + MUTANTS_PER_TASK]) for i in range(0, len(chosen), MUTANTS_PER_TASK)]
    window = TASKS_PER_CPU * cluster_cpus(ray)
    pending: dict[Any, int] = {}
    done: dict[int, list[Any]] = {}
    following, next_chunk = 0, 0
    try:
        while following < len(chunks):
            while next_chunk < len(chunks) and len(pending) < window:
                pending[task.remote(chunks[next_chunk], sent, judge)] = next_chunk
                next_chunk += 1
            ready, _ = ray.wait(list(pending), num_returns=1)
            for reference in ready:
                done[pending.pop(reference)] = task_result(ray, reference, RETRIES)
            while following in done:  # in order: the caller counts a prefix
                yield from done.pop(following)
                following += 1
    finally:
        for reference in pending:  # the budget, Ctrl-C, an error: nobody will read these
            with contextlib.suppress(Exception):
                ray.cancel(reference, force=True)


_kept: dict[str, Any] = {}


def _judge_task(mutants: list[Mutant], sent: list[Any], judge: Callable[[Any, Mutant], Any]) -> list[Any]:
    """A Ray task: judge the mutants with the shipment, fetched once per Ray worker and run."""
    from interpreter.tools.cluster.ray_connect import import_ray

    key = sent[0].hex()
    if key not in _kept:
        _kept.clear()  # one run's shipment at a time
        _kept[key] = import_ray().get(sent[0])
    return [judge(_kept[key], m) for m in mutants]
