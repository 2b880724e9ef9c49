"""A tuning run's file (--out): JSON lines, written as the run goes, read back by --resume.

    {"tune": 2, "ruleset": …, "fingerprint": …, "players": 4, "seed": 0, …}   the header: what the run is
    {"generation": 3, "candidate": 1, "margins": [4.3, -2.0, …], "seconds": 10.2}   one judged candidate
    {"verdict": 900017, "after": 2, "margin": 3.7, "vp": 61, …}   one game of the verdict, after 2 steps

A line is written whole as soon as its games are in, Ctrl-C deferred while it is written, so an
interrupted run loses at most the candidate whose games were being played. The header must match
the run being resumed (ruleset, players, seed, candidates, rounds, the space and the starting
parameters): a resumed run replays the same search.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from interpreter.ruleset.errors import BrassError
from interpreter.tools.simulate.pool import sigint_replaced
from interpreter.tools.simulate.stats import t_quantile

FORMAT = 2  # 2: a step is taken only when sure at 90 % over the generation (1: the mean less its error)
FALSE_STEP = 0.1  # the chance a generation of candidates no better than the best takes a step anyway


class CheckpointError(BrassError):
    """A tuning file that cannot be resumed or written."""


@dataclass
class Saved:
    """What a tuning file holds besides its header."""

    candidates: int = 1  # judged in each generation (the score's caution grows with them)
    # (generation, candidate) → its score (`cautious_mean`): above 0 only when the candidate is surely
    # better than the best, so that a candidate merely lucky in a few games seldom replaces it (`evolve`)
    scores: dict[tuple[int, int], float] = field(default_factory=dict)
    games: int = 0  # tuning games played
    seconds: float = 0.0  # their time, summed over the games (CPU time, whatever the workers)
    # (steps taken, seed) → the game's line: a run resumed with a larger budget may step again, and
    # the verdict of the parameters it then has is played anew, not read from the earlier one's games
    verdict: dict[tuple[int, int], dict[str, float]] = field(default_factory=dict)
    margins: list[float] = field(default_factory=list)  # every tuning game's margin, for their spread

    def add(self, line: dict[str, Any]) -> None:
        if "verdict" in line:  # the numbers the verdict reads, checked now: a damaged line is named at its line
            key = (int(line.get("after", -1)), int(line["verdict"]))
            self.verdict[key] = {name: float(line[name]) for name in ("margin", "vp", "others")}
            return
        margins = [float(m) for m in line["margins"]]
        self.scores[(int(line["generation"]), int(line["candidate"]))] = cautious_mean(margins, self.candidates)
        self.margins += margins
        self.games += len(margins)
        self.seconds += float(line["seconds"])

    def spread(self) -> float | None:
        """The standard deviation of a tuning game's margin (None under two games)."""
        count = len(self.margins)
        if count < 2:
            return None
        mean = sum(self.margins) / count
        return math.sqrt(sum((m - mean) ** 2 for m in self.margins) / (count - 1))


def cautious_mean(margins: list[float], candidates: int = 1) -> float:
    """The lower bound of the mean margin's one-sided Student t interval at 1 − FALSE_STEP / candidates
    (−inf under two games, which say nothing of their spread).

    A generation takes its best candidate when this is above 0. Were no candidate better than the
    best, each would pass with a chance of at most FALSE_STEP / candidates, so the generation steps
    with a chance of at most FALSE_STEP (Bonferroni): a step is a finding, not the luckiest of a few
    noisy means. (The mean less one standard error, the rule of the first format, let a generation of
    4 candidates of 4 games step on noise alone more than half the time; the tuned parameters of such
    runs lost to the starting ones.)"""
    count = len(margins)
    if count < 2:
        return -math.inf
    mean = sum(margins) / count
    error = math.sqrt(sum((m - mean) ** 2 for m in margins) / (count - 1) / count)
    return mean - t_quantile(1 - FALSE_STEP / candidates, count - 1) * error


def open_run(path: Path, header: dict[str, Any], resume: bool) -> Saved:
    """What the file holds of this run (nothing for a new one); CheckpointError if it holds another
    run, a broken line, or is missing on --resume / present without it."""
    if not resume:
        if path.exists() and path.stat().st_size > 0:
            raise CheckpointError(f"{path} already holds a tuning run: give --resume to continue it, or "
                                  "another --out")
        _append(path, header)
        return Saved(int(header["candidates"]))
    if not path.exists():
        raise CheckpointError(f"{path}: no such file to resume (--resume continues the run saved in --out)")
    lines = list(_read(path))
    if not lines:
        raise CheckpointError(f"{path}: empty; it holds no tuning run to resume")
    _check_header(path, lines[0], header)
    saved = Saved(int(header["candidates"]))
    for number, line in lines[1:]:
        try:
            saved.add(line)
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
            raise CheckpointError(f"{path}:{number}: not a line of a tuning run ({error!r})") from None
    return saved


def _read(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CheckpointError(f"{path}: cannot be read ({error})") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as error:
            raise CheckpointError(f"{path}:{number}: not JSON ({error.msg}, column {error.colno}); the file "
                                  "is damaged") from None
        if not isinstance(line, dict):
            raise CheckpointError(f"{path}:{number}: a line of a tuning run is a JSON object")
        yield number, line


def _check_header(path: Path, found: tuple[int, dict[str, Any]], header: dict[str, Any]) -> None:
    number, line = found
    if isinstance(line.get("tune"), int) and line["tune"] < FORMAT:
        raise CheckpointError(f"{path}:{number}: a tuning run of an earlier brass tune, whose rule for taking a step "
                              "differs: start a new run (another --out)")
    if line.get("tune") != FORMAT:
        raise CheckpointError(f"{path}:{number}: not the file of a tuning run (its first line has no "
                              f'"tune": {FORMAT})')
    differ = [key for key in header if line.get(key) != header[key]]
    if differ:
        said = "; ".join(_difference(key, line.get(key), header[key]) for key in differ[:3])
        raise CheckpointError(f"{path}:{number}: the file holds another tuning run ({said}); give the same "
                              "ruleset and options to resume it, or another --out")


def _difference(key: str, was: Any, now: Any) -> str:
    """One difference of two headers in words: the values when short, else only that they differ
    (the starting parameters are dozens of numbers)."""
    if len(repr(was)) + len(repr(now)) > 80:
        return f"other {key} in the file than now"
    return f"{key} {was!r} in the file, {now!r} now"


class Writer:
    """Appends lines to the tuning file, each whole (Ctrl-C waits until it is written)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, line: dict[str, Any]) -> None:
        pressed: list[int] = []
        with sigint_replaced(lambda number, frame: pressed.append(number)):
            _append(self.path, line)
        if pressed:
            raise KeyboardInterrupt


def _append(path: Path, line: dict[str, Any]) -> None:
    try:
        with path.open("a", encoding="utf-8") as out:
            _line(out, line)
    except OSError as error:
        raise CheckpointError(f"{path}: cannot be written ({error.strerror or error})") from None


def _line(out: TextIO, line: dict[str, Any]) -> None:
    out.write(json.dumps(line, separators=(",", ":")) + "\n")
    out.flush()
