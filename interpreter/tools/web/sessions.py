"""What `brass serve` keeps between requests: games being played and replays, in memory, by id.

Nothing here knows HTTP: a request that cannot be served raises `WebError` with the status the
server answers (4xx) and a message for the page; `web/api.py` turns it into a JSON response.
A game is changed by one request at a time (its `lock`), in a worker thread (web/work.py).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from interpreter.engine.errors import Failure
from interpreter.engine.game import Game, IllegalAction
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import HUMAN, Bot, bot_seed, decide, make_bot
from interpreter.tools.files.guards import ENGINE_SLIPS, move_problem, slip_text
from interpreter.tools.web.table import TableNote
from interpreter.tools.wording.names import TOO_LATE_TO_BACK_OUT, decision_name

# A bot game ends in a few hundred decisions; this only stops a runaway loop of an engine bug.
MAX_BOT_DECISIONS = 20_000


class WebError(Exception):
    """A request the server refuses: its HTTP status, a message, and (for an illegal move) every reason."""

    def __init__(self, status: int, message: str, failures: list[Failure] | None = None,
                 ruleset: Ruleset | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.failures = failures or []
        self.ruleset = ruleset  # the ruleset whose rule index gives the text of each rule cited
        self.move = ""  # a refused move in the terminal game's words (the page's "Refused:" headline)


def illegal(error: IllegalAction, ruleset: Ruleset) -> WebError:
    return WebError(422, str(error).splitlines()[0], list(error.failures), ruleset)


def action_bot_seed(game: Game, seat: int) -> int:
    """The seed of a room's bot for the action it begins now (`PlaySession.fresh_bots`)."""
    return bot_seed(bot_seed(game.seed, seat), len(game.moves))


@dataclass
class BotRun:
    """What one run of the bots did: the decisions and whole actions taken, and whether it stopped
    because its time was up (the game goes on at the next request) rather than for the game."""

    decisions: int = 0
    actions: int = 0
    out_of_time: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "actions": self.actions, "out_of_time": self.out_of_time}


@dataclass
class PlaySession:
    """A game in the browser: people choose from the legal decisions, bots play their own seats.

    `action_start` is a copy of the game taken when a person began the action now half made, so
    that backing out puts the game back exactly as it was (`Game.copy` is taken between actions)."""

    game: Game
    seats: list[str]
    bots: dict[int, Bot] = field(default_factory=dict)
    action_start: Game | None = None
    board: tuple[str, str] | None = None  # the state's hash and the picture drawn of it (web_view)
    # A room's bots (web/rooms.py): a new bot for each action, seeded by the game's seed, the seat
    # and the number of moves so far, and stopped by the clock only between actions. So a bot's
    # play depends on the game alone, never on a bot object kept in memory: a room reloaded from
    # its database (a restart) goes on exactly as it would have.
    fresh_bots: bool = False
    # Held by every request that reads or changes the game while its work runs in a thread: one
    # request at a time, so none sees a half-changed game (asyncio's: waiting never blocks the loop).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    notes: list[TableNote] = field(default_factory=list)  # said to the table: actions taken back

    @classmethod
    def create(cls, game: Game, seats: list[str]) -> PlaySession:
        bots = {n: make_bot(kind, bot_seed(game.seed, n)) for n, kind in enumerate(seats, start=1) if kind != HUMAN}
        return cls(game, seats, bots)

    @property
    def deciding_seat(self) -> int:
        return self.game.deciding_seat

    @property
    def human_to_decide(self) -> bool:
        return not self.game.is_over and self.deciding_seat not in self.bots

    def decide(self, decision: Any) -> None:
        """A person's decision for the seat to decide; WebError (422 with every reason) when refused."""
        if self.game.is_over:
            raise WebError(409, "the game is over")
        if not self.human_to_decide:
            raise WebError(409, f"player {self.deciding_seat} is a bot: it is not a person's decision")
        problem = move_problem(decision)
        if problem is not None:
            raise WebError(400, f"not a decision: {problem}")
        between = self.game.pending is None and self.game.question is None
        start = self.game.copy() if between else None
        before = self.game.to_json()
        try:
            self.game.apply(decision, seat=self.deciding_seat)
        except IllegalAction as error:
            refused = illegal(error, self.game.ruleset)
            refused.move = _words(self.game, decision)
            raise refused from None
        except ENGINE_SLIPS as error:  # the engine should refuse with reasons; the game must be unchanged
            if self.game.to_json() != before:
                raise
            raise WebError(400, f"the engine could not judge this decision ({slip_text(error)})") from None
        if self.game.pending is None and self.game.question is None:
            self.action_start = None
        elif start is not None:
            self.action_start = start

    def back_out(self) -> None:
        """Undo the half-made action: the game as it was before its first decision."""
        if self.action_start is None:
            raise WebError(409, "no action is half made: there is nothing to back out of")
        if not self.game.can_take_back:
            raise WebError(409, TOO_LATE_TO_BACK_OUT)
        self.game, self.action_start = self.action_start, None

    def take_back(self) -> None:
        """Undo the last whole action of the seat to decide, within its own turn, while it revealed
        nothing hidden (R-TURN-08's draw at the turn's end, a new draw deck, a face-down tile): the
        game is the same seed and moves less that action's, replayed (the engine's games are
        reproducible), and the table is told."""
        game = self.game
        if game.is_over:
            raise WebError(409, "the game is over")
        if game.pending is not None or game.question is not None:
            raise WebError(409, "an action is half made: back out of it first, or finish it")
        if not self.human_to_decide:
            raise WebError(409, f"player {self.deciding_seat} is a bot: it is not a person's decision")
        undone = undo_problem(game)
        if isinstance(undone, str):
            raise WebError(409, undone)
        before, name = undone
        seat = self.deciding_seat
        self.game, self.action_start, self.board = before, None, None
        self.notes.append(TableNote(len(before.log), f"P{seat} took back their {name}"))

    def run_bots(self, max_actions: int | None = None, deadline: float | None = None) -> BotRun:
        """Let the bots decide until a person must, the game ends, `max_actions` actions have ended
        or the clock (`time.monotonic`) passes `deadline` (after one decision at least, so that
        every request moves the game on). The deadline is checked between two decisions, never
        inside one: a bot's choice does not depend on when a request ends, so the game is the
        same however many requests it takes (a search bot's one decision may still take seconds)."""
        run = BotRun()
        while not self.game.is_over and not self.human_to_decide and run.decisions < MAX_BOT_DECISIONS:
            between = self.game.pending is None and self.game.question is None
            if max_actions is not None and run.actions >= max_actions:
                break
            if (deadline is not None and run.decisions and time.monotonic() >= deadline
                    and (between or not self.fresh_bots)):
                run.out_of_time = True
                break
            seat = self.deciding_seat
            if self.fresh_bots and between:
                self.bots[seat] = make_bot(self.seats[seat - 1], action_bot_seed(self.game, seat))
            self.game.apply(decide(self.bots[seat], self.game))
            run.decisions += 1
            if self.game.pending is None and self.game.question is None:
                run.actions += 1
        return run

    def blocked_actions(self) -> list[tuple[str, list[Failure]]]:
        """The actions that cannot be taken now, each with every reason (between actions only)."""
        game = self.game
        if game.is_over or game.pending is not None or game.question is not None:
            return []
        legal = {d.get("action") for d in game.legal_actions()}
        blocked = []
        for action in game.ruleset.actions:
            if action in legal:
                continue
            try:
                game.copy().apply({"action": action})
            except IllegalAction as error:
                blocked.append((action, list(error.failures)))
        return blocked


def _words(game: Game, decision: dict[str, Any]) -> str:
    """A decision in words; a value of no hashable kind (a list where an id goes) as its JSON."""
    try:
        return decision_name(game, decision)
    except (TypeError, ValueError, KeyError):
        return json.dumps(decision)


def undo_problem(game: Game) -> tuple[Game, str] | str:
    """The game before the deciding seat's last action and that action's name, or why it cannot be
    taken back: it showed something no one knew, or it was not this seat's in this turn."""
    starts, replay = action_starts(game)
    if not starts:
        return "no action has been taken yet: there is nothing to take back"
    if replay.state_hash() != game.state_hash():  # the replay must give the very game
        return "this game cannot be replayed from its moves: its actions cannot be taken back"
    before = Game.start(game.ruleset, len(game.table.players), game.seed, game.given)
    for move in game.moves[:starts[-1]]:
        before.apply(move)
    if _shown_since(before, game):
        return ("that action showed something no one knew (a card drawn from the deck, a face-down tile "
                "drawn, a shuffle): it can no longer be taken back")
    s0, s1 = before.state, game.state
    if (before.deciding_seat != game.deciding_seat or s0.era_index != s1.era_index or s0.round != s1.round
            or s0.turn_index != s1.turn_index):
        return "only an action of your own turn can be taken back, and this turn has had none of yours yet"
    action = game.ruleset.actions.get(str(game.moves[starts[-1]].get("action")))
    return before, action.name if action is not None else "action"


def _shown_since(before: Game, game: Game) -> bool:
    """Whether anything hidden was shown between the two positions: a card drawn (the deck
    shorter, a hand longer), a face-down tile drawn, a new draw deck shuffled, cards set aside."""
    s0, s1 = before.state, game.state
    grown = any(len(p0.hand) < len(p1.hand) for p0, p1 in zip(s0.players, s1.players, strict=True))
    seen = any(entry.get("event") in REVEALING for entry in game.log[len(before.log):])
    return len(s0.deck) != len(s1.deck) or s0.drawn != s1.drawn or grown or seen


# Log events that show what was hidden: a new draw deck is shuffled, cards set aside.
REVEALING = ("new draw deck", "cards set aside")


def action_starts(game: Game) -> tuple[list[int], Game]:
    """The indexes of `game.moves` at which a whole action began (between actions, with no question
    open), from its replay; and the replayed game."""
    replay = Game.start(game.ruleset, len(game.table.players), game.seed, game.given)
    starts = []
    for index, move in enumerate(game.moves):
        if replay.pending is None and replay.question is None and "action" in move:
            starts.append(index)
        replay.apply(move)
    return starts, replay


@dataclass
class ReplayStep:
    """One step of a replay: what was done, the position after it, and what it wrote to the log."""

    label: str
    seat: int | None
    position: Game
    log: list[dict[str, Any]]


@dataclass
class ReplaySession:
    """A finished (or stopped) game to step through: step 0 is the start."""

    name: str
    steps: list[ReplayStep]
    note: str = ""  # why the replay stops early, if it does
    expected_vp: list[int] | None = None  # a trace's recorded final VP by seat


S = TypeVar("S")


class SessionStore(Generic[S]):
    """Sessions by id; the oldest-used one is forgotten beyond `limit`, so memory stays bounded."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[str, S] = OrderedDict()

    def add(self, session: S) -> str:
        key = secrets.token_hex(8)
        self._items[key] = session
        while len(self._items) > self.limit:
            self._items.popitem(last=False)
        return key

    def get(self, key: str, what: str) -> S:
        session = self._items.get(key)
        if session is None:
            raise WebError(404, f"no {what} with id {key!r} (the server forgets the oldest beyond {self.limit}, "
                                "and all of them when it restarts)")
        self._items.move_to_end(key)
        return session

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)
