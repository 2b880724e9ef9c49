"""The terminal front end: `brass play` (people against bots) and `brass replay`.

This module starts a game (new, loaded, or from a position), saves and reads saved games, and
replays them; the game at the terminal itself is `play_session.TerminalGame`, what it shows is
in `play_board` and `play_names`, its keys in `play_keys`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from interpreter.engine.game import FORMAT, Game, GameFileError, IllegalAction
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import DEFAULT_RULESET
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import BOTS, HUMAN, deciding_seat
from interpreter.tools.files.guards import ENGINE_SLIPS, clip, move_problem, parse_json, read_text, slip_text
from interpreter.tools.files.saves import read_saved, save
from interpreter.tools.play.session import ReadLine, TerminalGame
from interpreter.tools.play.tables import standings_table
from interpreter.tools.wording.names import entry_text, move_name

__all__ = ["parse_seats", "run_play", "run_replay", "stdin_reader"]


def _short(move: Any) -> str:
    if isinstance(move, dict):
        return " ".join(f"{k}={v}" for k, v in move.items())
    return repr(move)


def parse_seats(text: str | None, players: int) -> list[str]:
    """`human,greedy,random` into one kind per seat; default: a person in seat 1, greedy bots elsewhere."""
    if not text:
        return [HUMAN] + ["greedy"] * (players - 1)
    seats = [s.strip().lower() for s in text.split(",")]
    unknown = [s for s in seats if s != HUMAN and s not in BOTS]
    if unknown:
        raise BrassError(f"unknown seat kind {unknown[0]!r}; use {HUMAN}, {', '.join(BOTS)}")
    if len(seats) != players:
        raise BrassError(f"--seats names {len(seats)} seat(s) but the game has {players} players")
    return seats


def stdin_reader(stream: Any) -> ReadLine:
    """Read one line at a time from a stream; None at its end, and when there is no input at all
    (stdin closed: Python's sys.stdin is then None, or reading it fails)."""
    def read() -> str | None:
        if stream is None:
            return None
        try:
            line = stream.readline()
        except (OSError, ValueError):  # a closed or unreadable stream: the input has ended
            return None
        return None if line == "" else line.rstrip("\n")
    return read


def run_play(ruleset: Ruleset, players: int, seed: int, seats_text: str | None, load: str | None,
             save_path: str | None, console: Console, read_line: ReadLine, start: Game | None = None) -> int:
    """`brass play`: a new game, a game from a given position (`start`), or a saved one resumed;
    the seats say who plays where."""
    if start is not None:
        game = start
        console.print(f"{ruleset.name}: started from a given position, {len(game.table.players)} players, "
                      f"seed {game.seed}", markup=False, highlight=False, soft_wrap=True)
    elif load:
        game = read_saved(ruleset, load)
        console.print(f"resumed {load}: {len(game.moves)} moves played", markup=False, highlight=False, soft_wrap=True)
    else:
        if players not in ruleset.players:
            raise BrassError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                             f"not {players}")
        game = Game.new(ruleset, players, seed)
    seats = parse_seats(seats_text, len(game.table.players))
    return TerminalGame(game, seats, console, read_line, save_path or load, save).run()


# == brass replay =========================================================================================

def run_replay(ruleset_for: Callable[[str], Ruleset], path: str, step: bool, console: Console,
               read_line: ReadLine) -> int:
    """Replay a saved game's moves from its seed, printing each decision and what it wrote to the log."""
    data = _read_record(path)
    ruleset = ruleset_for(str(data.get("ruleset") or DEFAULT_RULESET))
    try:
        game = Game.start(ruleset, int(data["players"]), int(data["seed"]), data.get("given"))
        moves = list(data["moves"])
    except ENGINE_SLIPS as error:
        raise GameFileError(f"{path} cannot be replayed: {slip_text(error)}") from None
    out = lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    _print_entries(game, game.state.log, out)
    for n, move in enumerate(moves, start=1):
        seat = deciding_seat(game)
        before = len(game.state.log)
        said = _replay_move(game, move, f"{path}: move {n} ({clip(str(move))})")
        out(f"{n:4d}. player {seat}: {said}")
        _print_entries(game, game.state.log[before:], out)
        if step and not _wait(read_line):
            out("stopped")
            return 0
    console.print(standings_table(game))
    if "state" in data and json.loads(game.to_json())["state"] != data["state"]:
        raise GameFileError(f"{path}: the replayed state differs from the saved one (the file was changed)")
    return 0


def _print_entries(game: Game, entries: list[dict[str, Any]], out: Callable[[Any], None]) -> None:
    """The log entries in the words of the terminal game (`P2 built: Coal Mine, level 1, …`)."""
    for entry in entries:
        text = entry_text(game, entry)
        if text is not None:
            out(Text("    ").append_text(text))


def _replay_move(game: Game, move: Any, what: str) -> str:
    """Apply a saved move and say it in words (named before it is applied: the question it
    answers names its values); a GameFileError naming it when it is malformed or illegal."""
    problem = move_problem(move)
    if problem is not None:
        raise GameFileError(f"{what} is not a move: {problem}")
    try:
        said = move_name(game, move)
    except (KeyError, TypeError, ValueError, AttributeError):  # a value no name is known for: as written
        said = _short(move)
    try:
        game.apply(move)
    except IllegalAction as error:
        raise GameFileError(f"{what} is illegal: {error}") from None
    except ENGINE_SLIPS as error:
        raise GameFileError(f"{what} cannot be replayed: the engine failed with {slip_text(error)} "
                            "(a bug of the engine, which should refuse it with reasons)") from None
    return said


def _read_record(path: str) -> dict[str, Any]:
    data = parse_json(read_text(path, path, GameFileError), path, GameFileError)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"{path} is not a saved game (expected a JSON object with format {FORMAT!r})")
    return data


def _wait(read_line: ReadLine) -> bool:
    """--step: wait for Enter; False when the person types q (the end of input just keeps going)."""
    line = read_line()
    return line is None or line.strip() != "q"
