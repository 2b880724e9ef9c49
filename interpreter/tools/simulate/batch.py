"""The unit of work of a parallel simulation: a batch of seeds played with one ruleset, anywhere.

A batch names its ruleset by reference (a built-in name, or a folder's absolute path), never
by the loaded object: a worker process or a Ray worker loads each ruleset once and keeps it
(`ruleset_for`), so a run of 100,000 games sends a short string per batch, not a pickled
ruleset per game. A game depends only on its ruleset, players, bots and seed, so a batch
gives the same records wherever and in whatever order it is played.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import rulesets
from interpreter.ruleset.loader import load_ruleset, resolve_ruleset_path
from interpreter.ruleset.model import Ruleset
from interpreter.tools.simulate.games import GameRecord, play_game, seating

ROLES = ("ruleset", "against")  # the variant's games, and those of the --against base


@dataclass(frozen=True)
class Batch:
    """Games to play: the same ruleset, players and bots, one game per seed."""

    role: str  # one of ROLES: which of the run's rulesets
    ruleset: str  # a reference for `ruleset_for`
    players: int
    bots: tuple[str, ...]  # per seat, before any rotation
    check: bool
    seeds: tuple[int, ...]
    rotate: bool = False  # seats rotated game by game (`simulate.seating`): the games of a comparison


# The rulesets this process has loaded, by reference: a worker serves many batches.
_loaded: dict[str, Ruleset] = {}


def ruleset_reference(name_or_path: str) -> str:
    """What a worker can load the ruleset from: a built-in name as it is (every node has the
    package), another folder as an absolute path (a worker may not share the current directory)."""
    if name_or_path in rulesets.builtin_names():
        return name_or_path
    folder = resolve_ruleset_path(name_or_path)
    return str(folder) if folder is not None else str(Path(name_or_path).resolve())


def ruleset_for(reference: str) -> Ruleset:
    if reference not in _loaded:
        _loaded[reference] = load_ruleset(reference)
    return _loaded[reference]


def play_batch(batch: Batch) -> list[GameRecord]:
    """Every game of the batch, in seed order (InvariantViolation, with --check, stops it)."""
    ruleset = ruleset_for(batch.ruleset)
    return [play_game(ruleset, batch.players, seed, seating(batch.bots, seed, batch.rotate), batch.check)
            for seed in batch.seeds]


def batch_size(games: int, workers: int, largest: int) -> int:
    """Seeds per batch: about 4 batches per worker so the last ones finish together, at most
    `largest` (so that results arrive steadily and an interruption loses little work)."""
    return max(1, min(largest, games // (4 * max(workers, 1))))


def make_batches(todo: dict[tuple[str, str], list[int]], players: int, bots: Iterable[str], check: bool,
                 size: int, rotate: bool = False) -> list[Batch]:
    """The batches of `todo` ((role, reference) → seeds), ordered by seed: an interrupted run
    with --against holds both rulesets' games for the same seeds."""
    found = [Batch(role, reference, players, tuple(bots), check, tuple(chunk), rotate)
             for (role, reference), seeds in todo.items() for chunk in _chunks(sorted(seeds), size)]
    return sorted(found, key=lambda batch: (batch.seeds[0], ROLES.index(batch.role)))


def _chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def in_this_process(batches: Iterable[Batch]) -> Iterator[tuple[Batch, list[GameRecord]]]:
    """The runner of `--jobs 1`: every batch here, one after the other."""
    for batch in batches:
        yield batch, play_batch(batch)
