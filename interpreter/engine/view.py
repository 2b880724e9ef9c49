"""What one seat sees of a game, and games consistent with it: what a bot is given.

A `SeatView` shows the public board, markets, merchants, every player's public figures (money,
VP, income, links left, money spent, tiles left on the mat), every discard pile as it lies face
up, the sizes of hands and of the draw deck, and the seat's own hand — never another player's
hand, a card dealt face down (the seat's own setup discard included) or set aside, the order of
the draw deck or of a stack's face-down tiles, the state of the shuffle that will make the next
one, or the game's seed (left out of the log: with it and the moves every hand could be worked
out). Hidden cards are shown as placeholders (`HIDDEN`), so the queries of its `table` work as on
the real game and simply find nothing to see.

`legal_actions()` and `whole_actions()` come from the real game (they name only cards of the
seat's own hand; the whole actions are searched in the seat's `canonical_world`, see there).
`determinize(rng)` makes a complete game consistent with what the seat has
seen: the cards it has not seen are dealt at random into the hidden places (other hands, face-down
discards, the deck, the cards set aside), the face-down tiles of the ruleset's stacks are put in a
new random order, and the shuffle's state is drawn anew; it depends only on the view and `rng`,
so a search on it cannot learn anything the seat does not know.
"""

from __future__ import annotations

from typing import Any, Protocol

from interpreter.engine.decisions import Pending
from interpreter.engine.errors import SetupError
from interpreter.engine.refusals import Refusals
from interpreter.engine.rng import Rng
from interpreter.engine.state import Card, GameState, copy_state
from interpreter.engine.table import Table
from interpreter.ruleset.model import Ruleset


class ViewedGame(Protocol):
    """What a view reads of its game (a `Game`; named here so that this module needs no import of
    `game.py`, which imports it)."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def table(self) -> Table: ...
    @property
    def state(self) -> GameState: ...
    @property
    def deciding_seat(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def pending(self) -> Pending | None: ...
    @property
    def question(self) -> dict[str, Any] | None: ...
    @property
    def moves(self) -> list[dict[str, Any]]: ...

    def legal_actions(self) -> list[dict[str, Any]]: ...
    def whole_actions(self) -> list[dict[str, Any]]: ...
    def copy(self) -> Any: ...

HIDDEN = "hidden"  # the face of a placeholder card
CANONICAL_RNG_STATE = 0x9E3779B97F4A7C15  # the shuffle's state in a canonical world: any fixed number


def placeholder(n: int) -> Card:
    """A card the seat cannot see (the n-th hidden place of the view)."""
    return Card(f"{HIDDEN}#{n}", HIDDEN, HIDDEN, "a card you cannot see", (), ())


def hidden_discards(state: GameState, face_down: int) -> int:
    """How many cards at the bottom of each discard pile lie face down: the setup's face-down
    discards, until the first era's end gathers the discard piles into the new deck."""
    return face_down if state.era_index == 0 and not _deck_was_rebuilt(state) else 0


def _deck_was_rebuilt(state: GameState) -> bool:
    return any(entry.get("event") == "new draw deck" for entry in state.log)


class SeatView:
    """One seat's view of a game (see the module's docstring)."""

    def __init__(self, game: ViewedGame, seat: int, refusals: Refusals) -> None:
        self._game = game  # never handed out: the decisions listed from it name only the seat's own cards
        self._refusals = refusals
        self.seat = seat
        self.ruleset = game.ruleset
        self._table: Table | None = None
        self._hidden: list[Card] = []

    @property
    def table(self) -> Table:
        """The table as the seat sees it (made on first use: a bot that only lists decisions never
        pays for the copy)."""
        if self._table is None:
            game = self._game
            state, self._hidden = _redacted(game.state, self.seat, game.ruleset.setup.face_down_discards)
            self._table = Table(game.ruleset, state, game.table.cards, board=game.table.board)
        return self._table

    @property
    def state(self) -> GameState:
        return self.table.state

    # -- where the game stands (public) ------------------------------------------------------------

    @property
    def deciding_seat(self) -> int:
        return self._game.deciding_seat

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def pending(self) -> Pending | None:
        """The action being decided (only the seat's own choices and public values are in it)."""
        if self._game.is_over:
            return None
        return self._game.pending if self._game.deciding_seat == self.seat else None

    @property
    def question(self) -> dict[str, Any] | None:
        return self._game.question

    @property
    def moves(self) -> list[dict[str, Any]]:
        """The decisions taken so far: public (a card played is shown as it is discarded)."""
        return self._game.moves

    # -- the seat's decisions -----------------------------------------------------------------

    def legal_actions(self) -> list[dict[str, Any]]:
        self._must_decide()
        return self._game.legal_actions()

    def whole_actions(self) -> list[dict[str, Any]]:
        self._must_decide()
        return self._game.whole_actions()

    def determinize(self, rng: Rng) -> Any:
        """A complete game (between actions) consistent with this view: the unseen cards dealt at
        random into the hidden places, the shuffle's state drawn anew."""
        if not isinstance(rng, Rng):
            raise SetupError(f"a game is made consistent with a view by drawing from an Rng, not "
                             f"{type(rng).__name__}")
        game = self._game.copy()
        self.table  # noqa: B018 - made now: it sorts out which cards are hidden
        unseen = sorted(self._hidden, key=lambda card: card.id)  # an order that tells nothing
        rng.shuffle(unseen)
        with game.table.editing() as table:
            _deal_hidden(table.state, self.seat, unseen, self.ruleset.setup.face_down_discards)
            for stack_id in sorted(table.state.stacks):  # face-down tiles in an order drawn anew
                pile = table.state.stacks[stack_id] = sorted(table.state.stacks[stack_id])
                rng.shuffle(pile)
            table.state.rng_state = rng.next_u64()
        return game

    def _must_decide(self) -> None:
        if self._game.is_over:
            return  # nobody decides: the game lists nothing
        if self._game.deciding_seat != self.seat:
            raise self._refusals.not_deciding(self.seat, self._game.deciding_seat)


def _redacted(state: GameState, seat: int, face_down: int) -> tuple[GameState, list[Card]]:
    """A copy of the state with every card the seat cannot see replaced by a placeholder, and the
    cards replaced."""
    copy = copy_state(state)
    hidden = _unseen(state, seat, face_down)
    _deal_hidden(copy, seat, [placeholder(n) for n in range(len(hidden))], face_down)
    copy.stacks = {sid: sorted(pile) for sid, pile in copy.stacks.items()}  # which tiles are left, not their order
    copy.rng_state = 0
    copy.log = [public_entry(entry) for entry in copy.log]
    return copy, hidden


def _unseen(state: GameState, seat: int, face_down: int) -> list[Card]:
    """The cards the seat cannot see, in the order of their hidden places (`_deal_hidden` fills the
    same places in the same order): other hands, the face-down discards (its own too), the deck,
    the cards set aside."""
    down = hidden_discards(state, face_down)
    cards: list[Card] = []
    for player in state.players:
        if player.seat != seat:
            cards += player.hand
        cards += player.discard[:down]  # dealt face down: unseen by all
    return cards + state.deck + state.aside


def public_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as every seat may read it: the setup's seed is left out, since with it and the
    moves every hand and the deck's order could be worked out."""
    if entry.get("event") == "setup" and "seed" in entry:
        return {key: value for key, value in entry.items() if key != "seed"}
    return entry


def canonical_world(game: ViewedGame, seat: int) -> Any:
    """A copy of a game (between actions) in which everything `seat` cannot see is put in one fixed
    way that depends only on what it can see: the unseen cards dealt in order of their ids, each
    stack's face-down tiles lowest on top, the shuffle's state fixed. Any two games the seat
    cannot tell apart give the same world, so whatever is computed on it (the whole actions of the
    seat) tells the seat nothing more. Lowest on top: a Distant Market sale in it never ends the
    Sell early, so the whole actions listed include every sale that may follow a draw."""
    world = game.copy()
    table = world.table
    face_down = game.ruleset.setup.face_down_discards
    unseen = _unseen(table.state, seat, face_down)
    with table.editing() as editing:
        _deal_hidden(editing.state, seat, sorted(unseen, key=lambda card: card.id), face_down)
        editing.state.stacks = {sid: sorted(pile, reverse=True) for sid, pile in editing.state.stacks.items()}
        editing.state.rng_state = CANONICAL_RNG_STATE
    return world


def _deal_hidden(state: GameState, seat: int, cards: list[Card], face_down: int) -> None:
    """Put `cards` into the hidden places of `state`, in the view's order of those places."""
    deal = iter(cards)
    down = hidden_discards(state, face_down)
    for player in state.players:
        if player.seat != seat:
            player.hand = [next(deal) for _ in player.hand]
        player.discard = [next(deal) for _ in player.discard[:down]] + player.discard[down:]
    state.deck = [next(deal) for _ in state.deck]
    state.aside = [next(deal) for _ in state.aside]
