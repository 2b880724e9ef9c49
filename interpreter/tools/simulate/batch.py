"""The unit of work of a parallel simulation: a batch of seeds played with one ruleset, anywhere.

Workers play exactly the ruleset `brass` loaded, never its files as they are by the time a
worker starts (a person may edit them during a run, and the run is recorded under the
fingerprint of what `brass` loaded). A loaded ruleset holds compiled closures, which do not
pickle, so what is sent is what its load concluded (`Shipment`: the resolved document, the
folders), once per worker process (`pool`) or once into Ray's object store (`ray_cluster`);
a worker builds the ruleset from it, reading no file, when its first batch needs it
(`ruleset_for`), checks that it has the fingerprint it was sent under, and keeps it. A batch
names its ruleset by that fingerprint, so a run of 100,000 games sends a short string per
batch. A game depends only on its ruleset, players, bots and seed, so a batch gives the same
records wherever and in whatever order it is played.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from interpreter.ruleset.bot_params import BotParams
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import ruleset_from_document
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.yaml_source import Document
from interpreter.tools.simulate.games import GameRecord, play_game, seating
from interpreter.tools.simulate.store import fingerprint

ROLES = ("ruleset", "against")  # the variant's games, and those of the --against base


@dataclass(frozen=True)
class Batch:
    """Games to play: the same ruleset, players and bots, one game per seed."""

    role: str  # one of ROLES: which of the run's rulesets
    ruleset: str  # the ruleset's fingerprint (`store.fingerprint`), the key of `ruleset_for`
    players: int
    bots: tuple[str, ...]  # per seat, before any rotation
    check: bool
    seeds: tuple[int, ...]
    rotate: bool = False  # seats rotated game by game (`simulate.seating`): the games of a comparison
    # Per seat before any rotation, the parameters its bot judges with (a tuner's candidates, `tools.tune`);
    # None: every bot judges with the ruleset's own.
    params: tuple[BotParams, ...] | None = None


@dataclass(frozen=True)
class Shipment:
    """A loaded ruleset as it travels to a worker: what its load concluded, which pickles (about
    250 kB for a variant of Birmingham), and the fingerprint it must have once built again."""

    name: str
    fingerprint: str
    document: Document
    folders: tuple[str, ...]
    rule_folders: dict[str, str]


def shipment(ruleset: Ruleset) -> Shipment:
    """What a worker needs to play exactly `ruleset`."""
    if ruleset.source is None:
        raise BrassError(f"ruleset {ruleset.name} was not loaded from its files: it cannot be sent to workers")
    return Shipment(ruleset.name, fingerprint(ruleset), ruleset.source, tuple(ruleset.folders),
                    dict(ruleset.rule_folders))


# In a worker: the rulesets sent to it, and those built from them, by fingerprint.
_received: dict[str, Shipment] = {}
_built: dict[str, Ruleset] = {}


def receive(shipments: Iterable[Shipment]) -> None:
    """Keep what was sent; each ruleset is built when a batch first needs it."""
    for sent in shipments:
        _received.setdefault(sent.fingerprint, sent)


def has_received(key: str) -> bool:
    return key in _received


def ruleset_for(key: str) -> Ruleset:
    """The ruleset sent under the fingerprint `key`, built once from what was sent."""
    if key not in _built:
        sent = _received.get(key)
        if sent is None:
            raise BrassError(f"no ruleset with fingerprint {key} was sent to this worker")
        ruleset = ruleset_from_document(sent.document, sent.folders, sent.rule_folders)
        if fingerprint(ruleset) != key:  # never seen: the same document compiles to the same data
            raise BrassError(f"ruleset {sent.name} built in a worker has fingerprint {fingerprint(ruleset)}, "
                             f"not {key} as sent")
        _built[key] = ruleset
    return _built[key]


def play_batch(batch: Batch, ruleset: Ruleset) -> list[GameRecord]:
    """Every game of the batch with `ruleset`, in seed order (InvariantViolation, with --check, stops it)."""
    return [play_game(ruleset, batch.players, seed, seating(batch.bots, seed, batch.rotate), batch.check,
                      params=None if batch.params is None else seating(batch.params, seed, batch.rotate))
            for seed in batch.seeds]


def play_sent_batch(batch: Batch) -> list[GameRecord]:
    """A worker's task: the batch played with the ruleset sent to it (`receive`)."""
    return play_batch(batch, ruleset_for(batch.ruleset))


def batch_size(games: int, workers: int, largest: int) -> int:
    """Seeds per batch: about 4 batches per worker so the last ones finish together, at most
    `largest` (so that results arrive steadily and an interruption loses little work)."""
    return max(1, min(largest, games // (4 * max(workers, 1))))


def make_batches(todo: dict[tuple[str, str], list[int]], players: int, bots: Iterable[str], check: bool,
                 size: int, rotate: bool = False) -> list[Batch]:
    """The batches of `todo` ((role, fingerprint) → seeds), ordered by seed: an interrupted run
    with --against holds both rulesets' games for the same seeds."""
    found = [Batch(role, key, players, tuple(bots), check, tuple(chunk), rotate)
             for (role, key), seeds in todo.items() for chunk in _chunks(sorted(seeds), size)]
    return sorted(found, key=lambda batch: (batch.seeds[0], ROLES.index(batch.role)))


def _chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def in_this_process(batches: Iterable[Batch],
                    rulesets: Mapping[str, Ruleset]) -> Iterator[tuple[Batch, list[GameRecord]]]:
    """The runner of `--jobs 1`: every batch here, one after the other, with the rulesets this
    process loaded (by fingerprint)."""
    for batch in batches:
        yield batch, play_batch(batch, rulesets[batch.ruleset])
