"""Real-game traces in bulk: replay many traces and summarise where each stops.

    summary = replay_traces(ruleset, ["../shared/real-games/generated"])   # a folder: every *.trace.json
    summary.to_dict()              # a stable JSON document (`brass replay --trace DIR --json`)
    print_summary(summary, console)  # the table (`brass replay --trace DIR`)

Each game is replayed as `replay_trace_file` does, one after the other; a trace that cannot be read
is that game's error, never the end of the run. The first difference of every game is grouped by
what differs (`Difference.group`: `players: VP`, `coal source`, `legality` …) and the rules it cites.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.trace.importer import load_trace
from interpreter.tools.trace.mapping import TraceError
from interpreter.tools.trace.replay import Difference, replay_trace

FORMAT = "brass-replay-summary/v1"
SUFFIX = ".trace.json"


def trace_files(paths: Iterable[str | Path]) -> list[Path]:
    """The trace files named: a folder means every `*.trace.json` directly in it, sorted by name."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            files = sorted(p for p in path.glob(f"*{SUFFIX}") if p.is_file())
            if not files:
                raise BrassError(f"{path} holds no *{SUFFIX} file")
            found += files
        elif path.exists():
            found.append(path)
        else:
            raise BrassError(f"no such trace file or folder: {path}")
    return found


def game_name(path: str | Path) -> str:
    return Path(path).name.removesuffix(SUFFIX).removesuffix(".json")


@dataclass
class GameReplay:
    """One trace's replay: how far it matched and its first difference (or why it could not be read)."""

    name: str
    file: str
    players: int | None = None
    actions: int = 0  # the trace's steps
    matched: int = 0  # steps applied and matched
    difference: Difference | None = None
    error: str | None = None  # the trace could not be read or does not fit together
    final: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def to_the_end(self) -> bool:
        return self.error is None and self.difference is None and self.matched == self.actions

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.name, "file": self.file, "players": self.players, "actions": self.actions,
                "matched": self.matched, "to_the_end": self.to_the_end,
                "difference": None if self.difference is None else self.difference.to_dict(),
                "error": self.error,
                "final_vp": [row["vp"] for row in sorted(self.final, key=lambda r: r["seat"])] or None}


@dataclass
class ReplaySummary:
    ruleset: str
    games: list[GameReplay]
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Every game replayed to the end with 0 differences."""
        return all(game.to_the_end for game in self.games)

    def groups(self) -> list[tuple[str, list[str], list[GameReplay]]]:
        """The games that stopped, grouped by what differs and the rules cited; most games first."""
        grouped: dict[tuple[str, tuple[str, ...]], list[GameReplay]] = {}
        for game in self.games:
            if game.to_the_end:
                continue
            if game.difference is not None:
                key = (game.difference.group, tuple(game.difference.rules))
            else:
                key = ("trace not readable" if game.error else "steps left", ())
            grouped.setdefault(key, []).append(game)
        ordered = sorted(grouped.items(), key=lambda item: (-len(item[1]), item[0]))
        return [(what, list(rules), games) for (what, rules), games in ordered]

    def to_dict(self) -> dict[str, Any]:
        """A stable JSON document: no timings, games in file order, groups by size then name."""
        return {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "games": len(self.games),
            "to_the_end": sum(game.to_the_end for game in self.games),
            "actions": sum(game.actions for game in self.games),
            "matched": sum(game.matched for game in self.games),
            "ok": self.ok,
            "results": [game.to_dict() for game in self.games],
            "differences": [
                {"what": what, "rules": rules, "count": len(games),
                 "games": [_stop(game) for game in games]}
                for what, rules, games in self.groups()],
        }


def _stop(game: GameReplay) -> dict[str, Any]:
    difference = game.difference
    if difference is None:
        return {"game": game.name, "seq": None, "trace": None, "ours": game.error}
    return {"game": game.name, "seq": difference.seq, "trace": difference.trace, "ours": difference.ours}


def replay_traces(ruleset: Ruleset, paths: Sequence[str | Path],
                  progress: Callable[[int, int], None] | None = None) -> ReplaySummary:
    """Replay every trace `paths` names (folders: every *.trace.json in them), one after the other."""
    files = trace_files(paths)
    summary = ReplaySummary(ruleset.name, [])
    start = time.perf_counter()
    for done, path in enumerate(files):
        summary.games.append(replay_one(ruleset, path))
        if progress is not None:
            progress(done + 1, len(files))
    summary.seconds = time.perf_counter() - start
    return summary


def replay_one(ruleset: Ruleset, path: str | Path) -> GameReplay:
    """One trace's replay as a `GameReplay`; a trace that cannot be read is its `error`."""
    game = GameReplay(game_name(path), str(path))
    start = time.perf_counter()
    try:
        trace = load_trace(path)
        game.players, game.actions = trace["playerCount"], len(trace["steps"])
        result = replay_trace(ruleset, trace, game.name, source=str(path))
    except TraceError as error:
        game.error = str(error)
    else:
        game.matched, game.final = result.steps, result.final
        game.difference = result.differences[0] if result.differences else None
    game.seconds = time.perf_counter() - start
    return game


# == the table =====================================================================================

def short(value: Any, limit: int = 70) -> str:
    """A value in one short line: a refusal by its reasons, anything else as compact JSON."""
    if isinstance(value, str):
        text = _refusal_reasons(value)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _refusal_reasons(text: str) -> str:
    """`illegal: Network: … \\n  - [R-X] message (file:line:col)` as `[R-X] message`."""
    lines = [line.strip() for line in text.splitlines()]
    reasons = [line[2:].rsplit(" (", 1)[0] if line.endswith(")") else line[2:]
               for line in lines if line.startswith("- ")]
    return "; ".join(reasons) if reasons else " ".join(lines)


def print_summary(summary: ReplaySummary, console: Any) -> None:
    """The games, what matched, and the first differences grouped by what differs (rich tables)."""
    from rich.table import Table
    from rich.text import Text

    count = len(summary.games)
    console.print(f"{count} trace(s), ruleset {summary.ruleset}: {summary.seconds:.1f} s "
                  f"({summary.seconds / max(count, 1):.2f} s per game)", highlight=False, soft_wrap=True)
    games = Table(box=None)
    for column in ("game", "players", "actions matched", "to the end", "first difference"):
        games.add_column(column, justify="right" if column in ("players", "actions matched") else "left",
                         no_wrap=column == "game")
    for game in summary.games:
        if game.difference is not None:
            stop = f"seq {game.difference.seq}: {game.difference.group}"
        else:
            stop = f"trace not readable: {short(game.error or '', 60)}" if game.error else ""
        games.add_row(Text(game.name), str(game.players or "?"), f"{game.matched}/{game.actions}",
                      "yes" if game.to_the_end else "no", Text(stop))
    console.print(games)
    ended = sum(game.to_the_end for game in summary.games)
    matched, actions = sum(g.matched for g in summary.games), sum(g.actions for g in summary.games)
    console.print(f"{ended} of {count} games to the end with 0 differences; {matched} of {actions} actions matched",
                  highlight=False, soft_wrap=True)
    groups = summary.groups()
    if not groups:
        return
    console.print("\nFirst differences, by what differs:", highlight=False)
    for what, rules, stopped in groups:
        cited = f" [{', '.join(rules)}]" if rules else ""
        console.print(f"\n{what}{cited}: {len(stopped)} game(s)", highlight=False, markup=False, soft_wrap=True)
        table = Table(box=None, padding=(0, 1, 0, 2))
        for column in ("game", "seq", "trace", "ours"):
            table.add_column(column, justify="right" if column == "seq" else "left", overflow="fold",
                             no_wrap=column == "game")
        for game in stopped:
            row = _stop(game)
            table.add_row(Text(game.name), "" if row["seq"] is None else str(row["seq"]),
                          Text("" if row["trace"] is None else short(row["trace"])), Text(short(row["ours"], 110)))
        console.print(table)
