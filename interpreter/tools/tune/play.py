"""The games of a tuning run, played where the options say: here (`--jobs 1`), in worker
processes (`--jobs N`, simulate's pool) or on Ray (`--ray`), as batches of simulate's kind that
carry each seat's parameters (`Batch.params`).

A judged game is reduced to its margin: the VP of the seat under test (a candidate, or the tuned
parameters in the verdict) minus the mean VP of the other seats. The seat under test is the first
of the batch's list before rotation (`seating`), so over `players` consecutive seeds it sits in
each seat once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from interpreter.ruleset.bot_params import BotParams
from interpreter.ruleset.model import Ruleset
from interpreter.tools.cluster.ray_connect import connected
from interpreter.tools.simulate.batch import Batch, batch_size, in_this_process, shipment
from interpreter.tools.simulate.games import GameRecord, seating
from interpreter.tools.simulate.pool import in_worker_processes
from interpreter.tools.simulate.ray_cluster import on_ray

BOT = "heuristic"
LARGEST_BATCH = 4


@dataclass(frozen=True)
class Where:
    """Where games are played: worker processes (1: here), or a Ray address ('' : a local Ray)."""

    jobs: int = 1
    ray: str | None = None


@dataclass(frozen=True)
class Margin:
    """One game seen from the seat under test."""

    seed: int
    margin: float  # its VP minus the mean VP of the other seats
    vp: int
    others: float  # the mean VP of the other seats
    seconds: float


def margin(record: GameRecord, players: int) -> Margin:
    """The game's margin for the seat under test (the first of the list, seated by `seating`)."""
    seat = seating(list(range(players)), record.seed, True).index(0) + 1
    vp = {int(row["seat"]): int(row["vp"]) for row in record.standings}
    others = sum(v for s, v in vp.items() if s != seat) / (players - 1)
    return Margin(record.seed, vp[seat] - others, vp[seat], others, record.seconds)


def batches(key: str, players: int, tested: BotParams, others: BotParams, seeds: Sequence[int],
            size: int) -> list[Batch]:
    """The games of one side under test, in batches of `size` seeds."""
    params = (tested, *[others] * (players - 1))
    return [Batch("ruleset", key, players, (BOT,) * players, False, tuple(seeds[i:i + size]), True, params)
            for i in range(0, len(seeds), size)]


def size_for(games: int, where: Where) -> int:
    """Seeds per batch: simulate's rule, so workers finish together and little work is lost on Ctrl-C."""
    return batch_size(games, max(where.jobs, 1), LARGEST_BATCH)


def play(ruleset: Ruleset, todo: Sequence[Batch], where: Where,
         notice: Callable[[str], None] | None = None) -> Iterator[tuple[Batch, list[GameRecord]]]:
    """Each batch with its records, as batches finish (in no particular order)."""
    sent = [shipment(ruleset)]
    if where.ray is not None:
        with connected(where.ray or None) as ray:
            yield from on_ray(ray, todo, sent)
        return
    if where.jobs <= 1 or len(todo) <= 1:
        yield from in_this_process(todo, {sent[0].fingerprint: ruleset})
    else:
        yield from in_worker_processes(todo, min(where.jobs, len(todo)), sent, notice or _warn)


def _warn(text: str) -> None:
    print(text, file=sys.stderr)
