"""Where the games of `brass serve` come from: a new game, a saved one, a scenario's position, a
saved game or a real-game trace to replay. Each reads the fields of a request's JSON body and
raises `WebError` (400, 403, 404, 422) for anything it cannot use.

Files are read only below the folders the server was started with (`--traces`, `--scenarios`):
a path that resolves anywhere else (`..`, a symbolic link out) is refused with 403. So is a
scenario's `ruleset:` (uploaded or not) unless it is built in or a folder below `--scenarios`:
otherwise an uploaded file could load, and show, any ruleset folder of the server's disk.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rulesets
from interpreter.engine.game import Game, GameFileError
from interpreter.ruleset.errors import BrassError, RulesetError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import BOTS, HUMAN
from interpreter.tools.files.guards import ENGINE_SLIPS, move_problem, parse_json, slip_text
from interpreter.tools.files.saves import parse_saved
from interpreter.tools.scenarios.scenario import RulesetOutside, Scenario, load_setup
from interpreter.tools.scenarios.verify import EQUIVALENTS_FILE
from interpreter.tools.web.sessions import PlaySession, ReplaySession, ReplayStep, WebError
from interpreter.tools.wording.names import move_name, moves_words

MAX_UPLOAD_CHARS = 4_000_000  # as much as a request may carry (web_api.MAX_BODY_BYTES)
MAX_LISTED_FILES = 500  # a folder of thousands of files would make the page's lists useless anyway
SEAT_KINDS = (HUMAN, *BOTS)


@dataclass
class Folders:
    """The folders whose files the page may open (resolved, so that a path can be checked against them)."""

    traces: list[Path]
    scenarios: list[Path]
    reports: list[Path] = field(default_factory=list)  # the --out files of comparisons (web/reports.py)

    @classmethod
    def of(cls, traces: list[str], scenarios: list[str], reports: Sequence[str] = ()) -> Folders:
        def existing(paths: Sequence[str]) -> list[Path]:
            return list(dict.fromkeys(Path(p).resolve() for p in paths if Path(p).is_dir()))
        return cls(existing(traces), existing(scenarios), existing(reports))

    def listing(self) -> dict[str, list[str]]:
        return {"traces": _files(self.traces, "*.trace.json"), "scenarios": _files(self.scenarios, "*.yaml"),
                "reports": _files(self.reports, "*.jsonl")}

    def trace(self, value: Any) -> Path:
        return inside(value, self.traces, "trace")

    def scenario(self, value: Any) -> Path:
        return inside(value, self.scenarios, "scenario")


def _files(roots: list[Path], pattern: str) -> list[str]:
    found: list[str] = []
    for root in roots:  # a scenario folder's list of equivalent mutants is not a scenario
        found += sorted(str(p) for p in root.rglob(pattern) if p.is_file() and p.name != EQUIVALENTS_FILE)
    return found[:MAX_LISTED_FILES]


def inside(value: Any, roots: list[Path], what: str) -> Path:
    """The file `value` names, if it lies below one of `roots` (after resolving links and `..`)."""
    if not isinstance(value, str) or not value or "\0" in value:
        raise WebError(400, f"'{what}' must be the path of a {what} file")
    path = Path(value).resolve()
    if not any(path.is_relative_to(root) for root in roots):
        allowed = ", ".join(map(str, roots)) or "none (start brass serve with --traces / --scenarios / --reports)"
        raise WebError(403, f"{value} is not below a folder this server opens {what} files from: {allowed}")
    if not path.is_file():
        raise WebError(404, f"no {what} file {value}")
    return path


# == the fields of a request ===========================================================================

def text_field(body: dict[str, Any], name: str, default: str | None = None, limit: int = 200) -> str:
    value = body.get(name, default)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise WebError(400, f"'{name}' must be a non-empty text of at most {limit} characters")
    return value


def int_field(body: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WebError(400, f"'{name}' must be a whole number from {low} to {high}, not {value!r}")
    return value


def ruleset_field(body: dict[str, Any]) -> Ruleset:
    """A built-in ruleset by name (a page never names a folder of the server's disk)."""
    name = text_field(body, "ruleset", DEFAULT_RULESET)
    if name not in rulesets.builtin_names():
        raise WebError(400, f"unknown ruleset {name!r}; built-in: {', '.join(rulesets.builtin_names())}")
    return load_ruleset(name)


def seats_field(body: dict[str, Any], players: int) -> list[str]:
    seats = body.get("seats", [HUMAN] + ["greedy"] * (players - 1))
    if not isinstance(seats, list) or len(seats) != players or any(s not in SEAT_KINDS for s in seats):
        raise WebError(400, f"'seats' must list one of {', '.join(SEAT_KINDS)} for each of the {players} players")
    return list(seats)


# == games to play ======================================================================================

def new_game(body: dict[str, Any]) -> PlaySession:
    ruleset = ruleset_field(body)
    players = int_field(body, "players", 2, 1, 99)
    if players not in ruleset.players:
        raise WebError(400, f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                            f"not {players}")
    seed = int_field(body, "seed", 0, 0, 2**63 - 1)
    return PlaySession.create(Game.new(ruleset, players, seed), seats_field(body, players))


def loaded_game(body: dict[str, Any]) -> PlaySession:
    game = _saved_game(body)
    return PlaySession.create(game, seats_field(body, len(game.table.players)))


def _saved_game(body: dict[str, Any]) -> Game:
    """The game of an uploaded save (`Game.to_json` text), with the built-in ruleset it names."""
    text = text_field(body, "save", limit=MAX_UPLOAD_CHARS)
    try:
        data = parse_json(text, "the uploaded game", GameFileError)
        name = data.get("ruleset") if isinstance(data, dict) else None
        ruleset = ruleset_field({"ruleset": name if isinstance(name, str) and name else DEFAULT_RULESET})
        return parse_saved(ruleset, text, "the uploaded game")
    except GameFileError as error:
        raise WebError(422, str(error)) from None


def scenario_game(body: dict[str, Any], folders: Folders) -> PlaySession:
    """A game at a scenario (or setup) file's position: a file below the scenario folders, or uploaded text."""
    if "text" in body:
        text = text_field(body, "text", limit=MAX_UPLOAD_CHARS)
        with tempfile.TemporaryDirectory(prefix="brass-web-") as folder:
            path = Path(folder, _upload_name(body.get("name")))
            path.write_text(text, encoding="utf-8")
            setup = _setup(path, folders, uploaded=True)
    else:
        setup = _setup(folders.scenario(body.get("path")), folders)
    if "seed" in body:
        setup.seed = int_field(body, "seed", 0, 0, 2**63 - 1)
    try:
        game = setup.start()
    except RulesetError as error:
        raise WebError(422, _diagnostics(error)) from None
    return PlaySession.create(game, seats_field(body, setup.players))


def _upload_name(name: Any) -> str:
    """The uploaded file's name, for the messages about it: letters, digits, `.`, `-` and `_` of
    its last part only (never `..`, a folder or a NUL, which the temporary file could not be named)."""
    kept = re.sub(r"[^\w.-]", "_", str(name or "").replace("\\", "/").rsplit("/", 1)[-1])[-100:]
    return kept if kept.strip(".") else "uploaded.yaml"


def _setup(path: Path, folders: Folders, uploaded: bool = False) -> Scenario:
    try:
        return load_setup(path, ruleset_roots=folders.scenarios)
    except RulesetOutside as error:
        raise WebError(403, _outside(error.value, folders, uploaded)) from None
    except RulesetError as error:
        raise WebError(422, _diagnostics(error)) from None
    except BrassError as error:
        raise WebError(422, str(error)) from None


def _outside(value: str, folders: Folders, uploaded: bool) -> str:
    """Why a scenario's `ruleset:` is refused, naming the places it may be (and nothing of the place it names)."""
    below = ", ".join(map(str, folders.scenarios)) or "none (start brass serve with --scenarios)"
    where = " (an uploaded file is read in a temporary folder: name a folder by its absolute path)" if uploaded else ""
    return (f"the scenario's ruleset {value!r} is refused: this server opens a built-in ruleset "
            f"({', '.join(rulesets.builtin_names())}) or a ruleset folder below a folder it opens scenario files "
            f"from: {below}{where}")


def _diagnostics(error: RulesetError) -> str:
    return "\n".join(str(d) for d in error.diagnostics) or str(error)


# == replays ===========================================================================================

def saved_replay(body: dict[str, Any]) -> ReplaySession:
    """Every action of an uploaded save, from its start: one step per action (and per answer between actions)."""
    saved = _saved_game(body)
    try:
        game = Game.start(saved.ruleset, len(saved.table.players), saved.seed, saved.given)
    except GameFileError as error:
        raise WebError(422, str(error)) from None
    steps = [ReplayStep("the start", None, game.copy(), list(game.log))]
    decisions: list[dict[str, Any]] = []
    words: list[str] = []  # each decision named as the terminal game names it, before it is applied
    seat, before = game.deciding_seat, len(game.log)
    for move in saved.moves:
        if not decisions:
            seat, before = game.deciding_seat, len(game.log)
        words.append(move_name(game, move) if isinstance(move, dict) else str(move))
        _apply_saved(game, move, len(decisions) + 1)
        decisions.append(move)
        if game.pending is None and game.question is None:
            steps.append(ReplayStep(f"P{seat}: {', '.join(words)}", seat, game.copy(), game.log[before:]))
            decisions, words = [], []
    note = "the save ends in the middle of an action" if decisions else ""
    return ReplaySession("saved game", steps, note)


def _apply_saved(game: Game, move: Any, n: int) -> None:
    problem = move_problem(move)
    if problem is not None:
        raise WebError(422, f"move {n} of the save is not a move: {problem}")
    try:
        game.apply(move)
    except ENGINE_SLIPS as error:
        raise WebError(422, f"move {n} of the save cannot be replayed: {slip_text(error)}") from None
    except BrassError as error:
        raise WebError(422, f"move {n} of the save is illegal: {error}") from None


def trace_replay(body: dict[str, Any], folders: Folders) -> ReplaySession:
    """A real game's trace (`brass replay --trace`), one step per recorded action, up to the first
    difference with our engine (named in the replay's note)."""
    from interpreter.tools.trace.importer import (
        TraceError,
        TraceMapping,
        game_from_trace_setup,
        load_trace,
        replay_trace,
    )
    from interpreter.tools.trace.importer import ruleset_with_links as with_links

    path = folders.trace(body.get("path"))
    ruleset = ruleset_field(body)
    if body.get("links_per_player") is not None:
        ruleset = with_links(ruleset.name, int_field(body, "links_per_player", 14, 1, 99))
    name = path.name.removesuffix(".trace.json")
    try:
        trace = load_trace(path)
        start = game_from_trace_setup(ruleset, trace, TraceMapping(ruleset, trace, str(path)))
        steps = [ReplayStep("the start", None, start, list(start.log))]
        seen = {"log": len(start.log), "moves": 0}

        def keep(step: dict[str, Any], game: Game) -> None:
            seat = int(step["player"]) + 1  # the trace numbers players from 0 (TraceMapping.player)
            label = f"seq {step['seq']}, P{seat}: {moves_words(game, game.moves[seen['moves']:])}"
            steps.append(ReplayStep(label, seat, game.copy(), game.log[seen["log"]:]))
            seen.update(log=len(game.log), moves=len(game.moves))

        result = replay_trace(ruleset, trace, name, on_step=keep, source=str(path))
    except TraceError as error:
        raise WebError(422, str(error)) from None
    note = "\n".join(d.describe() for d in result.differences)
    if note:
        note = f"the replay stops after {result.steps} of {result.total} steps:\n{note}"
    final = trace.get("scores", {}).get("finalVP")
    return ReplaySession(name, steps, note, list(final) if isinstance(final, list) else None)
