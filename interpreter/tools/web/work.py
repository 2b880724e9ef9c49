"""The engine work of `brass serve` (bots, loading a game, drawing the board) off the event loop.

A bot's decision is pure Python that may take seconds (a `search` bot: about 1 s of CPU an
action, one 4-player decision measured at 7 s). Run on the event loop it stopped every other
request and the signal handlers with it: one `advance` of four search bots froze the server for
over 240 s and ignored Ctrl-C and SIGTERM (issue 25). So a handler hands its work to a thread and
awaits it; the loop goes on answering the other games meanwhile.

The threads are daemon threads of their own, not anyio's or concurrent.futures' pools: Python
joins those at exit, so a stopped server would wait for a search bot to finish its decision.
A game's own work is still one request at a time (`PlaySession.lock`, taken by the handlers).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from typing import TypeVar

from interpreter.tools.web.sessions import WebError

T = TypeVar("T")

# Threads doing engine work at once: more would only share the same CPUs (and the GIL) among more
# requests; the others wait their turn on the event loop, which stays free for cheap requests.
MAX_THREADS = 8


class Worker:
    """Runs a function in a daemon thread of its own and lets the caller await its result."""

    def __init__(self, limit: int = MAX_THREADS) -> None:
        # asyncio's semaphore binds to the loop only when a request has to wait: one per server
        self._slots = asyncio.Semaphore(limit)

    async def run(self, work: Callable[[], T]) -> T:
        """`work()`'s result, or the exception it raised, as if it had been called here."""
        async with self._slots:
            loop = asyncio.get_running_loop()
            done: asyncio.Future[T] = loop.create_future()
            threading.Thread(target=_deliver, args=(work, loop, done), name="brass serve work", daemon=True).start()
            try:
                return await done
            except asyncio.CancelledError:
                # Only when the server stops (uvicorn cancels what is still running after its grace
                # time): the client gets a JSON answer rather than a traceback in the server's log;
                # the thread finishes alone, or dies with the process, and nobody reads its game.
                raise WebError(503, "the server is stopping: this request was cut short") from None


def _deliver(work: Callable[[], T], loop: asyncio.AbstractEventLoop, done: asyncio.Future[T]) -> None:
    """In the thread: run `work` and settle `done` on the loop's own thread (futures are not thread-safe)."""
    try:
        result = work()
    except Exception as error:  # the request raises it: a WebError becomes its 4xx, a bug its 500
        _settle(loop, done, partial(done.set_exception, error))  # bound now: `error` is unset after `except`
    else:
        _settle(loop, done, partial(done.set_result, result))


def _settle(loop: asyncio.AbstractEventLoop, done: asyncio.Future[T], settle: Callable[[], None]) -> None:
    def on_loop() -> None:
        if not done.cancelled():  # the request was cancelled meanwhile: nobody waits for the result
            settle()
    with suppress(RuntimeError):  # the loop has closed: the server stopped while this ran
        loop.call_soon_threadsafe(on_loop)
