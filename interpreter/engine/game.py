"""A game in progress: the public API of the interpreter.

    game = Game.new(load_ruleset("birmingham"), players=4, seed=1)
    game.legal_actions()            # the legal next decisions
    game.apply({"action": "loan", "card": "leek#1"})   # a whole action, atomically …
    game.apply({"action": "loan"}); game.apply({"card": "leek#1"})   # … or one decision at a time
    game.explain({...})             # why an action is (il)legal
    game.to_json() / Game.from_json(ruleset, text)

`Game` only wires the parts together and guards the API: the state and what the rules read of
it (`Table`), the legal decisions (`DecisionEngine`), the decision protocol that takes them
(`DecisionProtocol`), and the one loop that runs everything automatic (`Flow`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from interpreter.engine.decisions import DecisionEngine, Pending
from interpreter.engine.errors import Failure, GameFileError, IllegalAction, SetupError
from interpreter.engine.flow import start_turn
from interpreter.engine.given import GivenError, apply_given, plain
from interpreter.engine.invariants import check_invariants
from interpreter.engine.protocol import DecisionProtocol
from interpreter.engine.saved_state import state_from_dict
from interpreter.engine.setup import all_cards, new_state
from interpreter.engine.state import GameState, Snapshot, state_to_dict
from interpreter.engine.table import Table
from interpreter.engine.values import plain_move, shown
from interpreter.engine.view import SeatView, canonical_world
from interpreter.engine.whole_actions import WholeActionSearch
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.yaml_source import Document

__all__ = ["FORMAT", "Game", "GameFileError", "IllegalAction", "SetupError"]

FORMAT = "brass-game/1"
# Any whole number seeds a game (the generator keeps its low 64 bits); a bound far above that keeps
# every seed printable in a save and a message.
MAX_SEED = 2**256


class Game:
    """One game of a ruleset: decisions in, state out."""

    def __init__(self, table: Table, seed: int, given: dict[str, Any] | None = None,
                 plans: DecisionEngine | None = None) -> None:
        self.seed = seed
        self.given = given  # the position applied on top of setup, if any (saved with the game)
        self._table = table
        self._decisions = DecisionEngine(table, plans)
        self._protocol = DecisionProtocol(table, self._decisions)
        self._protocol.ends = WholeActionSearch(self._protocol, self._decisions)

    # == construction ==============================================================================

    @classmethod
    def new(cls, ruleset: Ruleset, players: int, seed: int = 0) -> Game:
        """A game after the ruleset's setup for `players`, shuffled with `seed`."""
        return cls(_set_up(ruleset, players, seed), seed)

    @classmethod
    def from_setup(cls, ruleset: Ruleset, players: int, given: Mapping[str, Any] | None = None, seed: int = 0,
                   *, doc: Document | None = None, path: Sequence[Any] = ()) -> Game:
        """A game started from a chosen position (a scenario's `given`, see docs/scenarios.md).

        `doc` and `path` locate `given` in a YAML document, so that each error of an impossible
        position is reported at the value that is wrong (GivenError lists them all)."""
        table = _set_up(ruleset, players, seed)
        if not given:
            return cls(table, seed)
        apply_given(table, given, doc=doc, path=path)
        return cls(table, seed, plain(given))

    @classmethod
    def start(cls, ruleset: Ruleset, players: int, seed: int, given: dict[str, Any] | None) -> Game:
        """The start of a saved game: setup, then its given position if it has one.

        A position that no longer applies (the ruleset changed) is a GameFileError."""
        if given is None:
            return cls.new(ruleset, players, seed)
        try:
            return cls.from_setup(ruleset, players, given, seed)
        except GivenError as error:
            problems = "; ".join(d.message for d in error.diagnostics)
            raise GameFileError(f"the saved game's starting position cannot be applied: {problems}") from None

    # == what the game is ==========================================================================

    @property
    def ruleset(self) -> Ruleset:
        return self._table.ruleset

    @property
    def state(self) -> GameState:
        """The state itself (plain data; see `state.py`). Read it; change a position only through
        `table.editing()`, never in the middle of an action."""
        return self._table.state

    @property
    def table(self) -> Table:
        """The game on the table: the queries the rules read (`me`, `player(seat)`, `income_level`,
        `tiles_left`, …, the `GameQueries` of the condition language), its cards and network."""
        return self._table

    @property
    def log(self) -> list[dict[str, Any]]:
        """Everything that happened, as plain JSON data, oldest first."""
        return self._table.state.log

    @property
    def moves(self) -> list[dict[str, Any]]:
        """Every decision taken, in order: with the seed (and the given position) the whole game."""
        return self._protocol.moves

    @property
    def is_over(self) -> bool:
        return self._table.state.finished

    @property
    def pending(self) -> Pending | None:
        """The action being decided (its choices so far), or None between actions."""
        return self._protocol.pending

    @property
    def question(self) -> dict[str, Any] | None:
        """The open question of an effect (`key`, `player`, `options`, `prompt`), or None."""
        return self._protocol.question

    @property
    def deciding_seat(self) -> int:
        """The seat that must make the next decision (a question may be another player's). Once the
        game is over nobody decides: an IllegalAction (R-END-01 in Birmingham)."""
        if self.is_over:
            raise self._protocol.refusals.game_is_over()
        question = self._protocol.question
        return int(question["player"]) if question is not None else self._table.me.seat

    def standings(self) -> list[dict[str, Any]]:
        """Players best first by the ruleset's ranking keys; `place` is shared on a full tie (R-END-02)."""
        return self._table.standings()

    # == decisions =================================================================================

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal next decision (see `decisions.py`)."""
        if self.is_over:
            return []
        return self._protocol.legal_decisions()

    def apply(self, action: dict[str, Any], seat: int | None = None) -> None:
        """Apply one decision, or a whole action atomically; an illegal one changes nothing.

        `seat`, when given, is the player making the move: a move out of turn is refused (R-TURN-01
        in Birmingham). The move is copied: changing the caller's dict afterwards changes nothing."""
        try:
            move = plain_move(action)
        except ValueError as error:
            raise self._protocol.refusals.not_an_action(str(error)) from None
        if self.is_over:
            raise self._protocol.refusals.game_is_over()
        if seat is not None and seat != self.deciding_seat:
            raise self._protocol.refusals.out_of_turn(seat, self.deciding_seat, self.question)
        if "action" in move and len(move) > 1:
            self._apply_whole(move)
        else:
            self._protocol.apply_decision(move)

    def _plain(self, action: Any) -> dict[str, Any]:
        try:
            return plain_move(action)
        except ValueError as error:
            raise self._protocol.refusals.not_an_action(str(error)) from None

    def _apply_whole(self, action: dict[str, Any]) -> None:
        """Take the action once, decision by decision; if it is refused (or anything fails), put the
        game back exactly as it was, the identity of its players included."""
        if self.pending is not None:
            raise self._protocol.refusals.action_open(self.pending)
        if self.question is not None:
            raise self._protocol.refusals.question_open(self.question)
        saved, checkpoint = Snapshot(self._table.state), self._protocol.checkpoint()
        # On trust first (its own choices prove it can be completed: no search for a completion); a
        # refusal is judged again decision by decision, so that it gives its exact reasons.
        for trusting in (True, False):
            self._protocol.trusting = trusting
            try:
                self._protocol.feed(action)  # raises IllegalAction with every reason
                return
            except IllegalAction:
                saved.restore(self._table.state)
                self._protocol.rollback(checkpoint)
                if not trusting:
                    raise
            except BaseException:
                saved.restore(self._table.state)
                self._protocol.rollback(checkpoint)
                raise
            finally:
                self._protocol.trusting = False

    @contextmanager
    def watching_action_ends(self, callback: Callable[[], None]) -> Iterator[None]:
        """Within the block, call `callback()` each time an action's effects are done and its
        end-of-action steps (`after_action`: one action fewer left, at the turn's end the hand
        refilled, R-TURN-08 in Birmingham, and the next player) have not run yet: the state a
        player sees between them. Trial runs of the whole-action search do not call it. The
        callback only reads the game: it is a window, and the game plays exactly as without it."""
        flow = self._protocol.flow

        def watch(kind: str) -> None:
            if kind == "after_action":
                callback()

        outer, flow.watch = flow.watch, watch
        try:
            yield
        finally:
            flow.watch = outer

    def view(self, seat: int) -> SeatView:
        """What player `seat` sees of this game: what a bot is given (see `view.py`)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= len(self.state.players):
            raise SetupError(f"this game has seats 1 to {len(self.state.players)}, not {shown(seat)}")
        return SeatView(self, seat, self._protocol.refusals)

    def whole_actions(self) -> list[dict[str, Any]]:
        """Every legal whole action of this position, each appliable with `apply` (see
        `whole_actions.py`); [] when the game is over. Between actions only: an action half
        decided, or an open question, is an IllegalAction.

        The search runs in the deciding seat's canonical world (`view.canonical_world`), where what
        the seat cannot see is arranged in a fixed way: the search takes actions part by part, and a
        part that draws a face-down tile would otherwise let the list tell what the tile is."""
        if self.is_over:
            return []
        if self.pending is not None:
            raise self._protocol.refusals.action_open(self.pending)
        if self.question is not None:
            raise self._protocol.refusals.question_open(self.question)
        world = canonical_world(self, self.deciding_seat) if self.state.stacks else self
        return WholeActionSearch(world._protocol, world._decisions).run()

    @property
    def can_take_back(self) -> bool:
        """Whether the action being decided may still be taken back (restored from a copy taken before
        it): not once it has drawn a face-down tile, whose value every player has now seen."""
        return self.pending is not None and not self._protocol.committed

    def explain(self, action: dict[str, Any]) -> dict[str, Any]:
        """Whether a whole action is legal now and, if not, every precondition it fails (nothing changes)."""
        try:
            action = self._plain(action)
        except IllegalAction as refused:
            return {"legal": False, "failures": refused.failures}
        if not isinstance(action.get("action"), str) or action["action"] not in self.ruleset.actions:
            unknown = self._protocol.refusals.not_an_action(f"unknown action {action.get('action')!r}")
            return {"legal": False, "failures": unknown.failures}
        if self.is_over:
            return {"legal": False, "failures": [self._game_over()]}
        if self.pending is not None:  # as apply: a whole action is taken between actions only
            return {"legal": False, "failures": self._protocol.refusals.action_open(self.pending).failures}
        if self.question is not None:
            return {"legal": False, "failures": self._protocol.refusals.question_open(self.question).failures}
        try:
            self._clone()._protocol.feed(action)
        except IllegalAction as refused:
            return {"legal": False, "failures": refused.failures or [Failure(None, str(refused), "")]}
        return {"legal": True, "failures": []}

    def decisions_of(self, action: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The decisions a whole action is taken as, one at a time, exactly as `apply` feeds them:
        lazily, because whether a repetition is still open depends on the decisions before it.
        Apply each to this game before asking for the next (a tool that answers the questions of
        the effects itself, such as the trace replayer, takes this path). A move that is not plain
        data is refused at once, a malformed whole action when its decisions are asked for."""
        return self._protocol.decisions_of(self._plain(action))

    def _game_over(self) -> Failure:
        return self._protocol.refusals.game_over()

    # == copies and saves ==========================================================================

    def copy(self) -> Game:
        """An independent copy of this game between actions, e.g. for a bot to look ahead."""
        if self.pending is not None:  # a copy holds no half-made action: the copy would lose it
            raise self._protocol.refusals.action_open(self.pending)
        if self.question is not None:
            raise self._protocol.refusals.question_open(self.question)
        return self._clone()

    def _clone(self) -> Game:
        """An independent copy of this game between actions (no replay needed): a copy of the state;
        the ruleset's derived tables, the moves so far and the log entries are shared."""
        clone = Game(self._table.copy(), self.seed, self.given, self._decisions)
        clone._protocol.moves = list(self.moves)
        return clone

    def to_dict(self) -> dict[str, Any]:
        data = {"format": FORMAT, "ruleset": self.ruleset.name, "players": len(self.state.players),
                "seed": self.seed, "moves": list(self.moves), "state": state_to_dict(self.state)}
        if self.given is not None:  # a game started from a position: replaying needs the position too
            data["given"] = self.given
        return data

    def to_json(self) -> str:
        """Canonical JSON: the same game always gives the same text. Between actions it starts with
        a `check`, the SHA-256 of the rest of the text: a file that still has it is loaded from its
        state alone (`from_json`), without replaying its moves."""
        rest = _canonical(self.to_dict())
        if self.pending is not None or self.question is not None:
            return rest  # a half-made action is restored by replaying the moves
        return f'{{"{CHECK}":"{_digest(rest)}",{rest[1:]}'

    @staticmethod
    def _as_saved(text: str) -> str | None:
        """The text a `check` at the start of a save covers, if it is there and right."""
        prefix = f'{{"{CHECK}":"'
        start = len(prefix) + 64 + 2  # the digest, its closing quote and the comma
        if not text.startswith(prefix) or len(text) <= start:
            return None
        rest = "{" + text[start:]
        return rest if _digest(rest) == text[len(prefix):len(prefix) + 64] else None

    def state_hash(self) -> str:
        return hashlib.sha256(json.dumps(state_to_dict(self.state), sort_keys=True).encode()).hexdigest()

    @classmethod
    def from_json(cls, ruleset: Ruleset, text: str) -> Game:
        """A saved game. A save written between actions and unchanged since (its `check` holds) is
        restored from its state, which must still be a possible state (every field is checked by
        `saved_state.py`, then the invariants); any other save (a half-made action, a file edited or
        re-formatted by hand) is replayed move by move from its seed (and its given position), and
        the saved state must match."""
        _check_ruleset(ruleset)
        if not isinstance(text, str):
            raise GameFileError(f"a saved game is JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text)
        except ValueError as error:
            raise GameFileError(f"the saved game is not JSON: {error}") from None
        except RecursionError:
            raise GameFileError("the saved game is nested deeper than any save can be") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise GameFileError(f"not a saved game (format {found!r}, expected {FORMAT})")
        if data.get("ruleset") != ruleset.name:
            raise GameFileError(f"the game was saved with ruleset {data.get('ruleset')!r}, not {ruleset.name!r}")
        if cls._as_saved(text) is not None:
            return cls._restored(ruleset, data)
        return cls._replayed(ruleset, data)

    @classmethod
    def _restored(cls, ruleset: Ruleset, data: dict[str, Any]) -> Game:
        """The game of a checked save, from its state, between actions."""
        players, seed = _players_of(data, ruleset), _seed_of(data)
        moves = _field(data, "moves")  # the check says they are the moves this engine wrote
        if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
            raise GameFileError("the saved game cannot be read: moves: expected a list of mappings")
        cards = all_cards(ruleset, players)
        table = Table(ruleset, state_from_dict(_field(data, "state"), ruleset, players, cards), cards)
        problems = check_invariants(table)
        if problems:
            raise GameFileError("the saved state is not a possible state: " + "; ".join(problems[:3]))
        game = cls(table, seed, _given_of(data))
        game._protocol.moves = moves
        return game

    @classmethod
    def _replayed(cls, ruleset: Ruleset, data: dict[str, Any]) -> Game:
        """The game of a save, replayed move by move and checked against its saved state."""
        players, seed, moves = _players_of(data, ruleset), _seed_of(data), _field(data, "moves")
        if not isinstance(moves, list):
            raise GameFileError("the saved game cannot be read: moves: expected a list")
        try:
            game = cls.start(ruleset, players, seed, _given_of(data))
        except SetupError as error:
            raise GameFileError(f"the saved game cannot be set up: {error}") from None
        for n, move in enumerate(moves):
            try:
                game.apply(move)
            except IllegalAction as error:
                raise GameFileError(f"move {n + 1} of the saved game is illegal: {error}") from None
        if state_to_dict(game.state) != _field(data, "state"):
            raise GameFileError("the saved state does not match its moves (the file was changed or is corrupt)")
        return game


CHECK = "check"  # sorts before every other key of a save, so the canonical text starts with it


def _canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _field(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise GameFileError(f"the saved game cannot be read: it has no '{key}'")
    return data[key]


def _whole_number(data: dict[str, Any], key: str) -> int:
    value = _field(data, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameFileError(f"the saved game cannot be read: {key}: expected a whole number, not {shown(value)}")
    return value


def _players_of(data: dict[str, Any], ruleset: Ruleset) -> int:
    players = _whole_number(data, "players")
    if players not in ruleset.players:
        raise GameFileError(f"the saved game cannot be read: players: {ruleset.title} is played by "
                            f"{', '.join(map(str, ruleset.players))} players, not {players}")
    return players


def _seed_of(data: dict[str, Any]) -> int:
    seed = _whole_number(data, "seed")
    if abs(seed) > MAX_SEED:
        raise GameFileError(f"the saved game cannot be read: seed: {shown(seed)} is beyond 2**256")
    return seed


def _given_of(data: dict[str, Any]) -> dict[str, Any] | None:
    """The position a saved game started from, if any (a mapping, applied only when it is replayed)."""
    given = data.get("given")
    if given is not None and not isinstance(given, dict):
        raise GameFileError("the saved game cannot be read: given: expected a mapping (the starting position)")
    return given


def _check_ruleset(ruleset: Any) -> None:
    if not isinstance(ruleset, Ruleset):
        raise SetupError(f"a game is played with a ruleset (from load_ruleset), not {type(ruleset).__name__}")


def _set_up(ruleset: Ruleset, players: int, seed: int) -> Table:
    """The table after the ruleset's setup, the first player's turn begun."""
    _check_ruleset(ruleset)
    if isinstance(players, bool) or not isinstance(players, int) or players not in ruleset.players:
        raise SetupError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                         f"not {shown(players)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > MAX_SEED:
        raise SetupError(f"a seed is a whole number (at most 2**256 in size), not {shown(seed)}")
    cards = all_cards(ruleset, players)
    table = Table(ruleset, new_state(ruleset, players, seed, cards), cards)
    start_turn(table)
    return table
