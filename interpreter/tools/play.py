"""The terminal front end: `brass play` (people against bots) and `brass replay`.

Everything is driven by the engine's own lists: a person picks a number from
`game.legal_actions()`, so the terminal never needs to know the rules; typing a
decision or a whole action as JSON is also accepted, and when the engine refuses
it `?` shows every reason with the text of the rule it cites. Input is read line
by line, so a game can be played to the end from a pipe.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from interpreter.engine.game import FORMAT, Game, GameFileError, IllegalAction
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots import BOTS, Bot, bot_seed, deciding_seat, make_bot
from interpreter.tools.guards import ENGINE_SLIPS, MAX_MOVE_CHARS, clip, move_problem, parse_json, read_text, slip_text

HUMAN = "human"
HELP = ("type a listed number; or a decision / whole action as JSON (e.g. {\"action\": \"loan\", \"card\": …}); "
        "? explains the last refusal, b shows the board, s saves, q quits")

ReadLine = Callable[[], str | None]  # None at the end of the input


# == reading and writing saved games ============================================================

def read_saved(ruleset: Ruleset, path: str | Path) -> Game:
    """A saved game (`Game.to_json` text) from a file; GameFileError for anything unreadable."""
    return parse_saved(ruleset, read_text(path, str(path), GameFileError), str(path))


def parse_saved(ruleset: Ruleset, text: str, name: str = "the saved game") -> Game:
    """Game.from_json, with every malformed input turned into a GameFileError naming the file.

    `Game.from_json` lets a few malformed files through as raw Python errors (JSON that is
    not an object, a missing "state"); they are caught here so that no user sees a traceback.
    """
    data = parse_json(text, name, GameFileError)  # NaN, Infinity and deep nesting are refused here
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"{name} is not a saved game (expected a JSON object with format {FORMAT!r})")
    if data.get("ruleset") not in (None, ruleset.name):
        raise GameFileError(f"{name} is a game of ruleset {data.get('ruleset')!r}, not {ruleset.name!r}")
    try:
        return Game.from_json(ruleset, text)
    except GameFileError as error:
        raise GameFileError(f"{name}: {error}") from None
    except ENGINE_SLIPS as error:
        raise GameFileError(f"{name} cannot be read: {slip_text(error)}") from None


def save(game: Game, path: str | Path) -> None:
    """Write the game so that a crash or a full disk never destroys the previous save: a fresh
    temporary file in the same folder (never a fixed name, which a planted symlink could
    redirect), flushed to the disk, then renamed over `path`; removed again on any failure."""
    write_atomically(Path(path), game.to_json() + "\n")


def write_atomically(target: Path, text: str) -> None:
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _new_file_mode())  # mkstemp's 0600 would hide the save from the user's group
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    """The permissions an ordinary new file gets under the current umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


# == describing the game ===========================================================================

def board_view(game: Game, seats: Sequence[str] | None = None) -> list[Any]:
    """The state compactly: header, players, tiles by location, links, markets, merchants."""
    return [Text(_header(game)), _players_table(game, seats), Text(_tiles_text(game)), Text(_links_text(game)),
            Text(_markets_text(game)), Text(_merchants_text(game))]


def _header(game: Game) -> str:
    state = game.state
    era = game.ruleset.eras[state.era_index].name
    if game.is_over:
        return f"{era}: the game is over"
    return (f"{era}, round {state.round}: {game.table.me.name} to act ({state.actions_left} action(s) left this turn); "
            f"draw deck {len(state.deck)} card(s)")


def _players_table(game: Game, seats: Sequence[str] | None) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False)
    for column in ("", "seat", "who", "money", "income", "VP", "links left", "hand", "spent", "tiles"):
        table.add_column(column, justify="left" if column in ("", "who") else "right")
    on_board = {p.seat: 0 for p in game.table.players}
    for tile in game.state.tiles.values():
        on_board[tile.owner.seat] += 1
    for p in game.table.players:
        marker = ">" if not game.is_over and p is game.table.me else ""
        who = seats[p.seat - 1] if seats else ""
        income = f"{p.income_position} ({game.table.income_level(p):+d})"
        table.add_row(marker, str(p.seat), who, f"£{p.money}", income, str(p.vp), str(p.links_left),
                      str(len(p.hand)), f"£{p.spent}", str(on_board[p.seat]))
    return table


def _tiles_text(game: Game) -> str:
    by_location: dict[str, list[str]] = {}
    for tile in game.table.board_tiles():
        text = f"{tile.slot.index}:{tile.spec.industry} {tile.spec.level} p{tile.owner.seat}"
        if tile.flipped:
            text += " flipped"
        elif tile.cubes:
            text += f" {tile.cubes} cubes"
        by_location.setdefault(tile.slot.location, []).append(text)
    if not by_location:
        return "Tiles: none"
    names = game.ruleset.locations
    return "Tiles:\n" + "\n".join(f"  {names[loc].name}: {', '.join(items)}" for loc, items in by_location.items())


def _links_text(game: Game) -> str:
    by_owner: dict[int, list[str]] = {}
    for link_id, seat in sorted(game.state.links.items()):
        ends = "–".join(game.ruleset.locations[e].name for e in game.ruleset.links[link_id].ends)
        by_owner.setdefault(seat, []).append(f"{link_id} {ends}")
    if not by_owner:
        return "Links: none"
    return "Links:\n" + "\n".join(f"  p{seat}: {', '.join(items)}" for seat, items in sorted(by_owner.items()))


def _markets_text(game: Game) -> str:
    parts = []
    for market_id, cubes in sorted(game.state.markets.items()):
        market = game.ruleset.markets[market_id]
        price = market.prices[market.capacity - cubes] if cubes > 0 else market.empty_price
        parts.append(f"{market_id} {cubes}/{market.capacity} cubes (next cube £{price})")
    return "Markets: " + ("; ".join(parts) or "none")


def _merchants_text(game: Game) -> str:
    parts = [f"{m.id} {m.tile}{' +beer' if m.has_beer else ''}" for m in game.state.merchants]
    return "Merchants: " + ("; ".join(parts) or "none")


def hand_text(game: Game, seat: int) -> str:
    cards = game.table.player(seat).hand
    return f"Hand of player {seat}: " + (", ".join(f"{c.id} ({c.name})" for c in cards) or "empty")


def prompt_text(game: Game) -> str:
    """What is being decided now."""
    if game.question is not None:
        return f"player {game.question['player']}: {game.question['prompt']}"
    if game.pending is None:
        return f"{game.table.me.name}: choose an action"
    pending = game.pending
    if pending.in_repeat:
        assert pending.action.repeat is not None  # only an action with a repetition is ever in one
        part = pending.action.repeat.part
    else:
        part = pending.action.part
    name = part.params[pending.index].name if pending.index < len(part.params) else "?"
    return f"{game.table.me.name}, {pending.action.name}: choose {name}"


def describe_decision(game: Game, decision: dict[str, Any]) -> str:
    """A listed decision in words, with what a player needs to pick well."""
    if len(decision) != 1:
        return json.dumps(decision)
    (name, value), = decision.items()
    describe = _DESCRIBERS.get(name)
    try:
        return describe(game, value) if describe else f"{name}: {value}"
    except (KeyError, ValueError, AttributeError):
        return f"{name}: {value}"


def _d_action(game: Game, value: Any) -> str:
    action = game.ruleset.actions[value]
    return f"{action.name} — {action.doc}"


def _d_card(game: Game, value: Any) -> str:
    card = game.table.cards[value]
    return f"card {card.id} ({card.name}, {card.kind.replace('_', ' ')})"


def _d_location(game: Game, value: Any) -> str:
    return f"location {game.ruleset.locations[value].name}"


def _d_industry(game: Game, value: Any) -> str:
    industry = game.ruleset.industries[value]
    me = game.table.me
    if game.table.tiles_left(me, value) <= 0:
        return f"{industry.name} (no tile left)"
    t = game.table.lowest_tile(me, value)
    return (f"{industry.name}: level {t.level}, £{t.cost}, coal {t.coal}, iron {t.iron}, beer {t.beer}, "
            f"{t.vp} VP, income +{t.income}")


def _d_slot(game: Game, value: Any) -> str:
    tile = game.state.tiles.get(value)
    slot = next(s for s in game.ruleset.slots if s.id == value)
    where = f"slot {value} ({'/'.join(slot.industries)})"
    if tile is None:
        return where + " free"
    return where + f" overbuild {tile.spec.industry} {tile.spec.level} of p{tile.owner.seat}"


def _d_link(game: Game, value: Any) -> str:
    ends = "–".join(game.ruleset.locations[e].name for e in game.ruleset.links[value].ends)
    return f"link {value} {ends}"


def _d_tile(game: Game, value: Any) -> str:
    tile = game.state.tiles[value]
    return f"tile {tile.spec.industry} {tile.spec.level} at {value} ({tile.spec.vp} VP, income +{tile.spec.income})"


def _d_merchant(game: Game, value: Any) -> str:
    space = next(m for m in game.state.merchants if m.id == value)
    return f"merchant {value} ({space.tile}{', has beer' if space.has_beer else ''})"


_DESCRIBERS: dict[str, Callable[[Game, Any], str]] = {
    "action": _d_action, "card": _d_card, "second_card": _d_card, "third_card": _d_card,
    "location": _d_location, "industry": _d_industry, "slot": _d_slot, "link": _d_link, "tile": _d_tile,
    "merchant": _d_merchant, "merchant_beer": lambda g, v: f"use the merchant's beer: {'yes' if v else 'no'}",
    "done": lambda g, v: "done (end this action)", "answer": lambda g, v: f"answer {v}",
}


def failure_lines(ruleset: Ruleset, failures: Sequence[Any]) -> list[str]:
    """Each failed precondition (rule, message, YAML place), followed by the text of its rule."""
    lines = []
    for failure in failures:
        rule = ruleset.rules.get(failure.rule) if failure.rule else None
        lines.append(f"- {failure}")
        if rule is not None:
            lines.append(f"    {failure.rule}: {rule.text.strip()}")
    return lines


def format_entry(entry: dict[str, Any]) -> str:
    """One log entry on one line: its event, then its details as key=value."""
    details = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in entry.items() if k != "event")
    return f"{entry.get('event', '?')}: {details}" if details else str(entry.get("event", "?"))


def standings_table(game: Game, seats: Sequence[str] | None = None) -> Table:
    table = Table(title="Final standings" if game.is_over else "Standings so far", box=None)
    columns = ("place", "seat", "who", "VP", "income space", "money") if seats else \
        ("place", "seat", "VP", "income space", "money")
    for column in columns:
        table.add_column(column, justify="left" if column == "who" else "right")
    for row in game.standings():
        who = [seats[row["seat"] - 1]] if seats else []
        table.add_row(str(row["place"]), str(row["seat"]), *who, str(row["vp"]),
                      f"{row['income_position']} ({row['income_level']:+d})", f"£{row['money']}")
    return table


# == brass play ========================================================================================

@dataclass
class Refusal:
    """The last input that was refused, kept so that `?` can explain it in full."""

    summary: str
    detail: list[str] = field(default_factory=list)


class TerminalGame:
    """A game at the terminal: people choose from numbered lists, bots play their own seats."""

    def __init__(self, game: Game, seats: Sequence[str], console: Console, read_line: ReadLine,
                 save_path: str | None = None) -> None:
        self.game = game
        self.seats = list(seats)
        self.console = console
        self.read_line = read_line
        self.save_path = save_path
        self.bots: dict[int, Bot] = {n: make_bot(kind, bot_seed(game.seed, n))
                                     for n, kind in enumerate(self.seats, start=1) if kind != HUMAN}
        self.refusal: Refusal | None = None
        self.bot_moves: list[str] = []

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def show_board(self) -> None:
        for part in board_view(self.game, self.seats):
            self.console.print(part, soft_wrap=True)

    def run(self) -> int:
        """Play until the game ends or a person quits; 0 either way."""
        self.show_board()
        while not self.game.is_over:
            seat = deciding_seat(self.game)
            if seat in self.bots:
                self._bot_turn(seat)
            elif not self._human_turn(seat):
                return 0
        self.say()
        self.show_board()
        self.console.print(standings_table(self.game, self.seats))
        return 0

    # -- bots ---------------------------------------------------------------------------------------

    def _bot_turn(self, seat: int) -> None:
        move = self.bots[seat].choose(self.game.view(seat))
        self.bot_moves.append(_short(move))
        before = len(self.game.state.log)
        self.game.apply(move)
        new = self.game.state.log[before:]
        if any(e.get("event") == "action" for e in new) or (self.game.question is None and self.game.pending is None):
            self.say(f"player {seat} ({self.seats[seat - 1]}): {' '.join(self.bot_moves)}")
            self.bot_moves = []
        self._show_entries(new)

    def _show_entries(self, entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            if entry.get("event") not in ("action",):
                self.say(f"    {format_entry(entry)}")

    # -- people ---------------------------------------------------------------------------------------

    def _human_turn(self, seat: int) -> bool:
        """Ask until one decision is applied; False when the person quits (or the input ends)."""
        game = self.game
        if game.pending is None and game.question is None:
            self.say()
            self.show_board()
        legal = game.legal_actions()
        if game.pending is None or any(_is_card_choice(d) for d in legal):
            self.say(hand_text(game, seat))
        self.say(prompt_text(game))
        for n, decision in enumerate(legal, start=1):
            self.say(f"  {n:3d}. {describe_decision(game, decision)}")
        while True:
            line = self.read_line()
            if line is None:
                self.say("end of input: quitting (the game is not saved unless you typed s)")
                return False
            outcome = self._handle(line.strip(), legal, seat)
            if outcome is not None:
                return outcome

    def _handle(self, text: str, legal: list[dict[str, Any]], seat: int) -> bool | None:
        """True: a decision was applied; False: quit; None: ask again."""
        if text == "q":
            self.say("quitting")
            return False
        if text == "?":
            self._explain()
            return None
        if text == "s":
            self._save()
            return None
        if text == "b":
            self.show_board()
            return None
        if text in ("h", "help"):
            self.say(HELP)
            return None
        if text.startswith("{"):
            return self._apply_json(text, seat)
        # ASCII digits only, and few: int() refuses "²" and numbers of thousands of digits
        if text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= len(legal):
            return self._apply(legal[int(text) - 1], seat)
        self._refuse(f"refused: {clip(text)!r} is not one of the listed numbers 1..{len(legal)} "
                     f"(h for help)", [HELP])
        return None

    def _apply_json(self, text: str, seat: int) -> bool | None:
        """A typed decision or whole action; anything the engine chokes on is refused, not fatal."""
        move = self._typed_move(text)
        if move is None:
            return None
        before = self.game.to_json()
        try:
            return self._apply(move, seat)
        except ENGINE_SLIPS as error:
            if self.game.to_json() != before:
                raise  # the game may be damaged: stop rather than play on
            self._refuse(f"refused: the engine could not check {clip(text)} ({slip_text(error)})",
                         ["this is an engine bug (it should refuse with reasons); the game is unchanged"])
            return None

    def _typed_move(self, text: str) -> Any:
        """The typed line as a move, or None once it is refused (not JSON, too long, too deep…)."""
        if len(text) > MAX_MOVE_CHARS:
            self._refuse(f"refused: the line is {len(text)} characters long; a move is at most {MAX_MOVE_CHARS}")
            return None
        try:
            move = parse_json(text, "the line", BrassError)
        except BrassError as error:
            self._refuse(f"refused: {clip(str(error), 200)}")
            return None
        problem = move_problem(move)
        if problem is not None:
            self._refuse(f"refused: not a move the engine can judge: {problem}")
            return None
        return move

    def _apply(self, move: Any, seat: int) -> bool | None:
        before = len(self.game.state.log)
        try:
            self.game.apply(move)
        except IllegalAction as error:
            self._refuse_illegal(move, error)
            return None
        self.say(f"player {seat}: {_short(move)}")
        self._show_entries(self.game.state.log[before:])
        return True

    def _refuse(self, summary: str, detail: list[str] | None = None) -> None:
        self.refusal = Refusal(summary, detail or [])
        self.say(summary)

    def _refuse_illegal(self, move: Any, error: IllegalAction) -> None:
        detail = failure_lines(self.game.ruleset, error.failures)
        if not detail:
            detail = [f"- {line.strip()}" for line in str(error).splitlines()]
        first = str(error).splitlines()[0]
        self._refuse(f"refused: {first} (? for every reason)", detail)

    def _explain(self) -> None:
        if self.refusal is None:
            self.say("nothing has been refused yet")
            return
        self.say(self.refusal.summary)
        for line in self.refusal.detail:
            self.say(f"  {line}")

    def _save(self) -> None:
        if not self.save_path:
            self.say("no file to save to: start with --save FILE (or --load FILE)")
            return
        try:
            save(self.game, self.save_path)
        except OSError as error:
            self.say(f"could not save to {self.save_path}: {error}")
            return
        self.say(f"saved to {self.save_path}")


def _is_card_choice(decision: dict[str, Any]) -> bool:
    return any(key == "card" or key.endswith("_card") for key in decision)


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
    return TerminalGame(game, seats, console, read_line, save_path or load).run()


# == brass replay =========================================================================================

def run_replay(ruleset_for: Callable[[str], Ruleset], path: str, step: bool, console: Console,
               read_line: ReadLine) -> int:
    """Replay a saved game's moves from its seed, printing each decision and what it wrote to the log."""
    data = _read_record(path)
    ruleset = ruleset_for(str(data.get("ruleset") or "birmingham"))
    try:
        game = Game.start(ruleset, int(data["players"]), int(data["seed"]), data.get("given"))
        moves = list(data["moves"])
    except ENGINE_SLIPS as error:
        raise GameFileError(f"{path} cannot be replayed: {slip_text(error)}") from None
    out = lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    for entry in game.state.log:
        out(format_entry(entry))
    for n, move in enumerate(moves, start=1):
        seat = deciding_seat(game)
        before = len(game.state.log)
        _replay_move(game, move, f"{path}: move {n} ({clip(str(move))})")
        out(f"{n:4d}. player {seat}: {_short(move)}")
        for entry in game.state.log[before:]:
            out(f"      {format_entry(entry)}")
        if step and not _wait(read_line):
            out("stopped")
            return 0
    console.print(standings_table(game))
    if "state" in data and json.loads(game.to_json())["state"] != data["state"]:
        raise GameFileError(f"{path}: the replayed state differs from the saved one (the file was changed)")
    return 0


def _replay_move(game: Game, move: Any, what: str) -> None:
    """Apply a saved move; a GameFileError naming it when it is malformed or illegal."""
    problem = move_problem(move)
    if problem is not None:
        raise GameFileError(f"{what} is not a move: {problem}")
    try:
        game.apply(move)
    except IllegalAction as error:
        raise GameFileError(f"{what} is illegal: {error}") from None
    except ENGINE_SLIPS as error:
        raise GameFileError(f"{what} cannot be replayed: the engine failed with {slip_text(error)} "
                            "(a bug of the engine, which should refuse it with reasons)") from None


def _read_record(path: str) -> dict[str, Any]:
    data = parse_json(read_text(path, path, GameFileError), path, GameFileError)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"{path} is not a saved game (expected a JSON object with format {FORMAT!r})")
    return data


def _wait(read_line: ReadLine) -> bool:
    """--step: wait for Enter; False when the person types q (the end of input just keeps going)."""
    line = read_line()
    return line is None or line.strip() != "q"
