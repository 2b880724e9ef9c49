"""The `--out FILE.jsonl` of `brass simulate`: one JSON record per finished game, nothing lost.

Each line is a whole game: which ruleset played it (`role` "ruleset", or "against" for the
base of a comparison), its seed, the players and the bot in each seat (rotated from game to
game in a comparison), the result (standings with VP,
money and income; winners; actions and decisions; actions by kind), what the game was made of
(`profile`: VP by source, money and income by round, tiles built and flipped, for `brass
report`; absent from the files of an older brass, which are read all the same), and `run`, the
parameters of the whole run. A line is written and flushed as soon as its game is back, so
a crash loses at most the line being written; reading ignores a torn last line with a
warning, and `--resume` cuts it off before appending (else the next line would be glued to it).

A run is identified by its parameters, the rulesets' contents included (`fingerprint`): a
file is only ever resumed by the run that wrote it, so two runs' games are never mixed. A
ruleset whose files have changed since is named in the refusal, with what to do. (The workers
play the ruleset `brass` loaded, not its files as they are later: `batch.Shipment`.)
Reading keeps the first record of each (role, seed): a game played twice counts once.

Format 2 added `seating` to the run (a comparison now rotates the seats). A file of format 1
is still read for a single run, whose games are played as they were; its comparisons kept
every bot in one seat, so they are refused, never mixed with rotated games.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.simulate.games import GameRecord, Summary

FORMAT = "brass-simulate/2"
OLD_FORMAT = "brass-simulate/1"  # no `seating`: every bot kept its seat, comparisons included
GAME_FIELDS = ("role", "ruleset", "seed", "winners", "actions", "decisions", "action_counts", "standings",
               "violations")
Key = tuple[str, int]  # (role, seed)


def fingerprint(ruleset: Ruleset, leaving_out: Collection[str] = ()) -> str:
    """A short digest of the resolved ruleset: a changed file gives another fingerprint. Sections
    `leaving_out` are not part of it (a tuning run leaves out `bots`)."""
    data = {key: value for key, value in ruleset.data.items() if key not in leaving_out} if leaving_out \
        else ruleset.data
    text = json.dumps(data, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def run_parameters(rulesets: dict[str, Ruleset], players: int, bots: Sequence[str], check: bool) -> dict[str, Any]:
    """What makes two runs the same run (`rulesets` by role: "ruleset", and "against" if any): all
    that decides a game but its seed. The seeds are not part of it, so a run can be extended
    (a larger --games) or summarised in part (a smaller one)."""
    base = rulesets.get("against")
    return {"format": FORMAT, "ruleset": rulesets["ruleset"].name, "against": base.name if base else None,
            "players": players, "bots": list(bots), "seating": "rotated" if base else "fixed", "check": check,
            "fingerprints": {role: fingerprint(ruleset) for role, ruleset in rulesets.items()}}


def game_line(run: dict[str, Any], role: str, ruleset: str, record: GameRecord) -> dict[str, Any]:
    """The record of one game as written to the file (`bots`: this game's seats)."""
    game = record.to_dict(timings=True, profile=True)
    return {"ruleset": ruleset, "role": role, "seed": game.pop("seed"), "players": run["players"],
            "bots": game.pop("bots") or run["bots"], **game, "run": run}


def prepare(path: Path, resume: bool) -> str | None:
    """Make `path` ready to be appended to; a warning to show, if any. A file holding games is
    only continued with --resume (its torn last line, if any, cut off)."""
    if path.is_dir():
        raise BrassError(f"{path} is a folder; --out needs a file (runs.jsonl, say)")
    if path.exists() and not path.is_file():  # a device or a pipe: /dev/full reads zeros for ever
        raise BrassError(f"{path} is not a plain file; --out needs one, as the summary is read back from it "
                         "(runs.jsonl, say)")
    if not path.exists() or path.stat().st_size == 0:
        return None
    if not resume:
        raise BrassError(f"{path} already holds games: add --resume to finish that run, or give another --out file")
    return _torn_warning(path) if _cut_torn_line(path) else None


def _torn_warning(path: Path) -> str:
    return f"warning: {path}: the last line is incomplete (an interrupted write); it is ignored"


def _cut_torn_line(path: Path) -> bool:
    """Truncate the file after its last newline; whether there was anything after it."""
    with open(path, "rb+") as stream:
        end = stream.seek(0, os.SEEK_END)
        keep = end
        while keep > 0:
            start = max(0, keep - 65536)
            stream.seek(start)
            block = stream.read(keep - start)
            newline = block.rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            keep = start
        if keep == end:
            return False
        stream.truncate(keep)
        return True


def read_games(path: Path, run: dict[str, Any], brief: bool = False,
               folders: Mapping[str, str] | None = None) -> tuple[dict[Key, GameRecord], str | None]:
    """The games of `run` in the file by (role, seed), and a warning for a torn last line. A
    record of another run, or a line that is no record, is an error naming its line (and a
    ruleset that changed since, with its folder from `folders`, by role). `brief`: records with
    only what the statistics read (`GameRecord.from_dict`)."""
    found: dict[Key, GameRecord] = {}
    for number, data in each_record(path):
        if data is None:
            return found, _torn_warning(path)
        refusal = _refusal(upgraded(data["run"], path, number), run, path, number, folders or {})
        if refusal:
            raise BrassError(refusal)
        found.setdefault((data["role"], data["seed"]), GameRecord.from_dict(data, brief))
    return found, None


def read_base_games(paths: Sequence[Path], base: Ruleset, players: int, bots: Sequence[str],
                    played: Collection[int]) -> list[GameRecord]:
    """`--base-from`: the games of `base` (as its files are now) in these --out files, whatever
    run wrote them (a run of the base alone, or the base side of any comparison against it), with
    these players and bots, of the seeds outside `played` (the comparison's own, which it pairs),
    one per seed in seed order. A run that kept the seats counts only when every seat has the
    same bot (then rotating them changes nothing). An error when a file holds none of them."""
    wanted = fingerprint(base)
    found: dict[int, GameRecord] = {}
    for path in paths:
        if not path.is_file():
            raise BrassError(f"--base-from {path}: {'it is a folder' if path.is_dir() else 'no such file'}; give "
                             f"the --out file of a run of {base.name} (brass simulate {base.name} --bot "
                             f"{bots[0]} --games 400 --seed 1000 --out base.jsonl)")
        mismatch, count = None, 0
        for number, data in each_record(path):
            if data is None:
                break
            why = _not_the_base(upgraded(data["run"], path, number), data["role"], wanted, players, bots)
            if why is None:
                count += 1
                if data["seed"] not in played:
                    found.setdefault(data["seed"], GameRecord.from_dict(data, brief=True))
            mismatch = mismatch or (why and f"line {number}: {why}")
        if count == 0:
            raise BrassError(f"--base-from {path} holds no game of {base.name} as it is now with {players} players "
                             f"and bots {','.join(bots)} ({mismatch or 'no games'})")
    return [found[seed] for seed in sorted(found)]


def base_run(paths: Sequence[Path], base: Ruleset, compared: Summary) -> Summary:
    """The games of `base` in the --base-from files that the comparison `compared` (its variant's
    run) did not play itself, as a run of the same players and bots; an error under two."""
    played = {game.seed for game in compared.games}
    games = read_base_games(paths, base, compared.players, compared.bots, played)
    if len(games) < 2:
        raise BrassError(f"--base-from holds {len(games)} game(s) of {base.name} outside seeds {min(played)}.."
                         f"{max(played)}, which the comparison plays itself; a control needs 2 or more (a few "
                         f"hundred to help): play them with brass simulate {base.name} --bot {compared.bots[0]} "
                         f"--games 400 --seed 1000 --out base.jsonl")
    return Summary(base.name, compared.players, games[0].seed, list(compared.bots), compared.checked, games,
                   list(base.actions), compared.rotated)


def _not_the_base(run: dict[str, Any], role: str, wanted: str, players: int, bots: Sequence[str]) -> str | None:
    """Why a record is not a game of the base for a control (None when it is one)."""
    prints = run.get("fingerprints")
    if not isinstance(prints, dict) or prints.get(role) != wanted:
        return f"another ruleset, or its files as they were then ({run.get(role)})"
    if run.get("players") != players:
        return f"{run.get('players')} players"
    if run.get("bots") != list(bots):
        return f"bots {_shown(run.get('bots'))}"
    if run.get("seating") != "rotated" and len(set(bots)) > 1:
        return "its bots kept their seats, and the comparison rotates them"
    return None


def each_record(path: Path) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """Each record of the file with its line number, in the file's order, blank lines skipped; a
    torn last line (an interrupted write) comes as None, and ends it. A line that is no record is
    an error naming it."""
    for number, line in _lines(path):
        if not line.endswith("\n"):
            yield number, None
            return
        if line.strip():
            yield number, _parse(line, path, number)


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    try:
        with open(path, encoding="utf-8", newline="\n") as stream:
            yield from enumerate(stream, 1)
    except FileNotFoundError:
        return
    except (OSError, UnicodeDecodeError) as error:
        raise BrassError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None


def _parse(line: str, path: Path, number: int) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("run"), dict) or \
            any(name not in data for name in GAME_FIELDS):
        raise BrassError(f"line {number} of {path} is not a game record of `brass simulate --out`")
    return data


def upgraded(found: dict[str, Any], path: Path, number: int) -> dict[str, Any]:
    """A run of format 1 as format 2 says it, if its games are still valid (see the docstring)."""
    if found.get("format") != OLD_FORMAT:
        return found
    if found.get("against") is not None:
        raise BrassError(f"{path} holds a comparison saved by an older brass (line {number}: {OLD_FORMAT}), "
                         "which kept each bot in its seat; comparisons now rotate the seats, so its games "
                         "cannot be reused: give another --out file")
    return {**found, "format": FORMAT, "seating": "fixed"}


def _refusal(found: dict[str, Any], wanted: dict[str, Any], path: Path, number: int,
             folders: Mapping[str, str]) -> str | None:
    """Why a record (line `number`) cannot be counted in this run: the first parameter in which
    its run differs from this one, in words; None when they agree."""
    for key, value in wanted.items():
        if found.get(key) == value:
            continue
        if key == "fingerprints":
            return _changed_ruleset(found.get(key), value, wanted, path, number, folders)
        return (f"{path} holds the games of another run (line {number}: {key} {_shown(found.get(key))}, not "
                f"{_shown(value)}); give that run's arguments to resume it, or another --out file")
    return None


def _changed_ruleset(found: Any, wanted: dict[str, str], run: dict[str, Any], path: Path, number: int,
                     folders: Mapping[str, str]) -> str:
    """The refusal of a file whose games were played with a ruleset that has changed since (the
    other parameters agree, so the same rulesets by name)."""
    found = found if isinstance(found, dict) else {}
    role = next((role for role in wanted if found.get(role) != wanted[role]), None)
    if role is None:  # only a role this run does not have: a damaged record
        return f"line {number} of {path} is not a game record of this run (fingerprints {_shown(found)})"
    name = run[role]
    label = f"ruleset {name}" if role == "ruleset" else f"--against ruleset {name}"
    where = f" ({folders[role]})" if role in folders else ""
    return (f"{path} holds games played with {label}{where} as its files were then (line {number}: fingerprint "
            f"{_shown(found.get(role))}), and its files have changed since (now {wanted[role]}): to finish that "
            f"run, put the files of {name} back as they were; to play {name} as it is now, give another --out file")


def _shown(value: Any) -> str:
    return ",".join(value) if isinstance(value, list) else "none" if value is None else str(value)


class OutFileError(BrassError):
    """The --out file could not be written (a full disk, say): the command adds how many games
    the file holds."""


class GameWriter:
    """Appends game records to the file, one line each, each written to the file at once (no
    buffer: nothing is left to write, or to fail again, when the file is closed). An OSError (a
    full disk) is an OutFileError naming the file; the line it cut short is the torn last line
    that reading ignores and --resume cuts off."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._stream = open(path, "ab", buffering=0)  # noqa: SIM115 - closed by __exit__
        except OSError as error:
            raise BrassError(f"cannot write {path}: {error.strerror or error}") from None

    def write(self, record: dict[str, Any]) -> None:
        data = memoryview((json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8"))
        try:
            while data:
                written = self._stream.write(data)  # a raw write may take only part of it
                if not written:
                    raise OSError(errno.EIO, "nothing could be written")
                data = data[written:]
        except OSError as error:
            raise OutFileError(f"cannot write {self.path}: {error.strerror or error}") from None

    def __enter__(self) -> GameWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stream.close()
