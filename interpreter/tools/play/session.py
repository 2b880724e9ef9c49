"""A game at the terminal: people choose with fixed keys and numbered lists, bots play their seats.

Everything offered comes from the engine's own lists (`legal_actions`), so the terminal never
needs to know the rules. Between actions a person sees their mat and a compact summary and picks
an action by its letter (impossible ones are dimmed, `?LETTER` says why with the rule IDs);
inside an action the choices are numbered; a choice with only one possibility is taken at once,
without reading a line; `x` backs out of a half-made action by restoring the copy of the game
taken when it began. Input is read line by line, so a game can be played from a pipe.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rich.console import Console
from rich.table import Table
from rich.text import Text

from interpreter.engine.game import Game, IllegalAction
from interpreter.ruleset.errors import BrassError
from interpreter.tools.bots.ladder import HUMAN, Bot, bot_seed, deciding_seat, make_bot
from interpreter.tools.files.guards import ENGINE_SLIPS, MAX_MOVE_CHARS, clip, move_problem, parse_json, slip_text
from interpreter.tools.play.keys import (
    BACK,
    BOARD,
    EXPLAIN,
    HELP,
    QUIT,
    SAVE,
    action_keys,
    help_text,
    key_for,
    menu,
    why_not,
)
from interpreter.tools.play.tables import Figures, figures, full_board, header, standings_table, summary
from interpreter.tools.wording.names import (
    TOO_LATE_TO_BACK_OUT,
    decision_name,
    entry_text,
    failure_lines,
    move_name,
    param_type,
    prompt_text,
    seat_label,
)

LONG_LIST = 10  # more choices than this are shown in two columns when their names are short

ReadLine = Callable[[], str | None]  # None at the end of the input
Choice = tuple[str, dict[str, Any]]  # what the player reads, the decision it stands for
Command = Literal["quit", "again", "restart", "none"]


@dataclass
class Refusal:
    """The last input that was refused, kept so that `?` can explain it in full."""

    summary: str
    detail: list[str] = field(default_factory=list)


def numbered(choices: Sequence[Choice], width: int) -> Text | Table:
    """The choices numbered, one per line; a long list of mostly short names in two columns,
    down the first column first (a longer name wraps in its column), so that it fits a screen."""
    labels = [f"{n:3d}  {label}" for n, (label, _) in enumerate(choices, start=1)]
    lengths = sorted(map(len, labels))
    if len(labels) <= LONG_LIST or lengths[len(lengths) * 9 // 10] > width // 2 - 2:
        return Text("\n".join(labels))
    rows = -(-len(labels) // 2)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(max_width=width // 2)
    grid.add_column()
    for row in range(rows):
        grid.add_row(labels[row], labels[row + rows] if row + rows < len(labels) else "")
    return grid


class TerminalGame:
    """A game at the terminal: people choose by keys and numbers, bots play their own seats."""

    def __init__(self, game: Game, seats: Sequence[str], console: Console, read_line: ReadLine,
                 save_path: str | None = None, save: Callable[[Game, str], None] | None = None) -> None:
        self.game = game
        self.seats = list(seats)
        self.console = console
        self.read_line = read_line
        self.save_path = save_path
        self.save = save
        self.keys = action_keys(game.ruleset)
        self.bots: dict[int, Bot] = {n: make_bot(kind, bot_seed(game.seed, n))
                                     for n, kind in enumerate(self.seats, start=1) if kind != HUMAN}
        self.refusal: Refusal | None = None
        self.bot_moves: list[str] = []
        self.action_start: Game | None = None  # the game as it was when the person's action began
        self.chosen = 0  # decisions of that action the person typed (forced ones are not counted)
        self.prompts = 0  # lines asked for: what a forced decision never costs
        self.seen: dict[int, Figures] = {}  # the figures each person saw in their last summary

    def say(self, text: str | Text = "") -> None:
        """Print wrapped at the console's width (nothing wider), without markup in the text."""
        self.console.print(text, markup=False, highlight=False)

    def show(self, parts: Sequence[Any]) -> None:
        for part in parts:
            self.console.print(part, markup=False, highlight=False)

    def run(self) -> int:
        """Play until the game ends or a person quits; 0 either way."""
        self.say(Text("h shows the keys; ", style="dim").append("m the full board", style="dim"))
        while not self.game.is_over:
            seat = deciding_seat(self.game)
            if seat in self.bots:
                self._bot_turn(seat)
            elif not self._human_step(seat):
                return 0
        self.say()
        self.show(full_board(self.game))
        self.console.print(standings_table(self.game, self.seats))
        return 0

    # -- bots ---------------------------------------------------------------------------------------

    def _bot_turn(self, seat: int) -> None:
        move = self.bots[seat].choose(self.game.view(seat))
        self.bot_moves.append(move_name(self.game, move))
        before = len(self.game.state.log)
        self.game.apply(move)
        if self.game.pending is None:  # the action is over (a question after it is said apart)
            self.say(seat_label(seat).append(f" ({self.seats[seat - 1]}): " + ", ".join(self.bot_moves)))
            self.bot_moves = []
        self._show_entries(self.game.state.log[before:])

    def _show_entries(self, entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            text = entry_text(self.game, entry)
            if text is not None:
                self.say(text)

    # -- people ---------------------------------------------------------------------------------------

    def _human_step(self, seat: int) -> bool:
        """One decision of a person: taken at once when it is forced, else asked until one is
        applied; False when the person quits (or the input ends)."""
        game = self.game
        between = game.pending is None and game.question is None
        if between and self.action_start is None:
            self.show(summary(game, self.seats, seat, self.seen.get(seat)))
            self.seen[seat] = figures(game)
            self.action_start, self.chosen = game.copy(), 0
        legal = game.legal_actions()
        choices = self.offered(legal)
        if len(choices) == 1:
            self.say(Text(f"  {self._prompt()}: {choices[0][0]} (the only choice)", style="dim"))
            return bool(self._apply(choices[0][1], seat, typed=False))
        self._show_choices(choices, between)
        while True:
            self.prompts += 1
            line = self.read_line()
            if line is None:
                self.say("end of input: quitting (the game is not saved unless you typed s)")
                return False
            outcome = self._handle(line.strip(), choices, between, seat)
            if outcome is not None:
                return outcome

    def offered(self, legal: list[dict[str, Any]]) -> list[Choice]:
        """The legal decisions as the player reads them; cards of the same face are one choice
        (which copy is discarded changes nothing)."""
        choices: list[Choice] = []
        seen: set[str] = set()
        for decision in legal:
            label = decision_name(self.game, decision)
            if self._is_card(decision):
                if label in seen:
                    continue
                seen.add(label)
            choices.append((label, decision))
        return choices

    def _is_card(self, decision: dict[str, Any]) -> bool:
        return len(decision) == 1 and param_type(self.game, next(iter(decision))) == "card"

    def _prompt(self) -> str:
        """What is being decided now: `Build: card`, or a question's own words."""
        question = self.game.question
        return str(question["prompt"]) if question is not None else prompt_text(self.game)

    def _show_choices(self, choices: list[Choice], between: bool) -> None:
        if between:
            self.say(menu(self.keys, self.game.legal_actions()))
            return
        back = ", x backs out" if self._can_back_out() else ""
        asked = self.game.question
        whose = Text.assemble(seat_label(int(asked["player"])), ": ") if asked is not None else Text()
        self.say(Text.assemble(whose, (self._prompt(), "bold"), (f" (type a number{back})", "dim")))
        self.console.print(numbered(choices, self.console.width), markup=False, highlight=False)

    def _handle(self, text: str, choices: list[Choice], between: bool, seat: int) -> bool | None:
        """True: a decision was applied (or the action backed out of); False: quit; None: ask again."""
        command = self._command(text, between)
        if command != "none":
            return {"quit": False, "again": None, "restart": True}[command]
        if text.startswith("{"):
            return self._apply_json(text, seat)
        if between:
            key = key_for(self.keys, text)
            if key is not None and {"action": key.action} not in (c[1] for c in choices):
                reasons = why_not(self.game, key)
                self._refuse(f"refused: {reasons[0]} (? for every reason)", reasons[1:])
                return None
            if key is not None:
                return self._apply({"action": key.action}, seat)
        elif text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= len(choices):
            return self._apply(choices[int(text) - 1][1], seat)
        expected = "a key of the menu" if between else f"one of the numbers 1..{len(choices)}"
        self._refuse(f"refused: {clip(text)!r} is not {expected} (h for help)",
                     help_text(self.game.ruleset).splitlines())
        return None

    def _command(self, text: str, between: bool) -> Command:
        """Carry out a command: `quit`, ask `again`, `restart` the decision (backed out of an
        action), or `none` when the text is no command."""
        lowered = text.lower()
        why = key_for(self.keys, lowered[1:]) if lowered.startswith(EXPLAIN) and len(lowered) > 1 else None
        if lowered in (QUIT, "quit"):
            self.say("quitting")
            return "quit"
        if lowered == BACK and not between:
            return "restart" if self._back_out() else "again"
        if why is not None:
            for line in why_not(self.game, why)[1:] or why_not(self.game, why):
                self.say(line)
        elif lowered == EXPLAIN:
            self._explain()
        elif lowered in (SAVE, "save"):
            self._save()
        elif lowered in (BOARD, "board", "map"):
            self.show(full_board(self.game))
        elif lowered in (HELP, "help"):
            self.say(help_text(self.game.ruleset))
            self.show([Text("The actions:", style="bold"), self._actions_help()])
        else:
            return "none"
        return "again"

    def _actions_help(self) -> Table:
        """Each action's key, name and the ruleset's own description of it (wrapped beside the key)."""
        grid = Table.grid(padding=(0, 2))
        grid.add_column()
        grid.add_column()
        for number, key in enumerate(self.keys, start=1):
            doc = self.game.ruleset.actions[key.action].doc
            grid.add_row(f"  {key.key or number}", Text.assemble((key.name, "bold"), f": {doc}"))
        return grid

    # -- backing out --------------------------------------------------------------------------------

    def _can_back_out(self) -> bool:
        return self.game.can_take_back and self.action_start is not None and self.chosen > 0

    def _back_out(self) -> bool:
        """Put the game back exactly as it was when the action began (the copy taken then)."""
        if not self._can_back_out():
            self.say(TOO_LATE_TO_BACK_OUT if self.game.pending is not None and not self.game.can_take_back
                     else "nothing to back out of: every choice of this action so far was forced"
                     if self.game.pending is not None else "nothing to back out of")
            return False
        assert self.action_start is not None and self.game.pending is not None
        name = self.game.pending.action.name
        self.game, self.action_start = self.action_start, None
        self.say(f"backed out of {name}: nothing was changed")
        return True

    # -- applying -------------------------------------------------------------------------------------

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

    def _apply(self, move: Any, seat: int, typed: bool = True) -> bool | None:
        before = len(self.game.state.log)
        name = move_name(self.game, move) if isinstance(move, dict) else repr(move)
        try:
            self.game.apply(move)
        except IllegalAction as error:
            self._refuse_illegal(error)
            return None
        if typed:
            self.chosen += 1
            self.say(seat_label(seat).append(f": {name}"))
        if self.game.pending is None:
            self.action_start = None  # the action is over: there is nothing to back out of
        self._show_entries(self.game.state.log[before:])
        if self.game.is_over:
            self.say(header(self.game))
        return True

    def _refuse(self, summary: str, detail: list[str] | None = None) -> None:
        self.refusal = Refusal(summary, detail or [])
        self.say(summary)

    def _refuse_illegal(self, error: IllegalAction) -> None:
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
        if not self.save_path or self.save is None:
            self.say("no file to save to: start with --save FILE (or --load FILE)")
            return
        try:
            self.save(self.game, self.save_path)
        except OSError as error:
            self._say_whole(f"could not save to {self.save_path}: {error}")
            return
        self._say_whole(f"saved to {self.save_path}")

    def _say_whole(self, text: str) -> None:
        """A line naming a file, printed whole however long, so that the path can be copied."""
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)
