"""The game on the table: what the rules read of it, and the changes the effects make to it.

A `Table` holds one game's state with its ruleset and cards. It is the object behind every
condition-language expression (it implements `GameQueries` of `ruleset/primitives.py`), the
object every effect step changes, and the one sourcing reads. It checks no rule: the
preconditions (`decisions.py`) and the effect steps (`effect_impls.py`) are the rules; the
changes here are their building blocks, each keeping the state's bookkeeping consistent.

Anything derived from the state (networks, remembered preconditions) is cached until
`changed()` says the state changed: the flow says so after every automatic step, and a
position edited by hand (a scenario's given, a trace's deal, a test) says so through
`editing()`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from brass_dsl import Env
from interpreter.engine.named_sources import NamedSources
from interpreter.engine.network import LinkNetwork
from interpreter.engine.rng import Rng, stream
from interpreter.engine.setup import deal_merchant_tiles
from interpreter.engine.sourcing import Sourcing
from interpreter.engine.state import Card, GameState, MerchantSpace, PlacedTile, Player, copy_state
from interpreter.engine.values import describe
from interpreter.ruleset.model import EffectStep, Resource, Ruleset, Slot, TileSpec
from interpreter.ruleset.primitives import GameQueries


class NeedDecision(Exception):
    """Raised inside an effect that needs a player's choice before it can change anything."""

    def __init__(self, question: dict[str, Any]) -> None:
        super().__init__(question["prompt"])
        self.question = question


class Board:
    """Lookups derived from the ruleset alone, made once per game and shared by its copies."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.slots = {s.id: s for s in ruleset.slots}
        self.slot_order = {s.id: n for n, s in enumerate(ruleset.slots)}
        self.stacks = {i: [s for s in specs for _ in range(s.count)] for i, specs in ruleset.tiles.items()}
        self.location_order = {lid: n for n, lid in enumerate(ruleset.locations)}


_NETWORK_NOW = ("network now",)  # in the cache: the network was brought up to the placed links


class Table:
    """One game's state with its ruleset: the queries rules read and the changes effects make."""

    def __init__(self, ruleset: Ruleset, state: GameState, cards: dict[str, Card],
                 network: LinkNetwork | None = None, board: Board | None = None) -> None:
        self.ruleset = ruleset
        self.state = state
        self.cards = cards
        self.network = network if network is not None else LinkNetwork(ruleset)
        self.board = board if board is not None else Board(ruleset)
        self.sourcing = Sourcing(ruleset, state, self.network, self.board.slot_order, self.access_through,
                                 self.network_now)
        self.cache: dict[Any, Any] = {}  # facts derived from the state, emptied whenever it changes
        self.answers: dict[str, Any] = {}  # answers to the questions of the effect step now running
        self.step: EffectStep | None = None  # the effect step now running (its rule is cited by its questions)
        # The seat whose questions are answered with their first option as soon as asked, not put to
        # it (a search trying an action's part, `WholeActionSearch.fork`, until the action ends): the
        # step goes on as it would once answered so, without being stopped and run again.
        self.default_answers: int | None = None
        self.named_sources = NamedSources()  # sources a whole action names for the part being decided
        self.slots = self.board.slots
        self._on_change: list[Callable[[], None]] = []
        self._stacks = self.board.stacks
        self._location_order = self.board.location_order

    def copy(self) -> Table:
        """An independent table of a copy of this state (what is derived from the ruleset alone is
        shared; the network keeps the distances it already knows)."""
        return Table(self.ruleset, copy_state(self.state), self.cards, self.network.copy(), self.board)

    # == change notification ====================================================================

    def on_change(self, forget: Callable[[], None]) -> None:
        """Call `forget` whenever the state changes (to drop what was derived from it)."""
        self._on_change.append(forget)

    def changed(self) -> None:
        """The state changed: forget everything derived from it."""
        for forget in self._on_change:
            forget()
        self.cache.clear()

    def set_aside_derived(self) -> tuple[Any, ...]:
        """What is derived from the state now (the cache, the network's graph) set aside, fresh in its
        place: `bring_back_derived` puts it back once the state is again exactly as it was (a search
        that tries a part and puts the state back then need not derive it all again)."""
        kept = (self.cache, self.network.graph())
        self.cache = {}
        return kept

    def bring_back_derived(self, kept: tuple[Any, ...]) -> None:
        self.cache, graph = kept
        self.network.set_graph(graph)

    @contextmanager
    def editing(self) -> Iterator[Table]:
        """Change the position by hand, outside the rules (a given position, a trace's deal, a test);
        everything derived from the old position is forgotten afterwards."""
        try:
            yield self
        finally:
            self.changed()

    # == queries the condition language reads (primitives.GameQueries) ============================

    @property
    def me(self) -> Player:
        """The player whose turn it is."""
        state = self.state  # written out, not self.player(): this is read thousands of times a game
        return state.players[state.turn_order[state.turn_index] - 1]

    @property
    def players(self) -> list[Player]:
        return self.state.players

    @property
    def era(self) -> str:
        return self.ruleset.eras[self.state.era_index].id

    @property
    def round(self) -> int:
        return self.state.round

    def player(self, seat: int) -> Player:
        return self.state.players[seat - 1]

    def hand(self, player: Player) -> list[Card]:
        return list(player.hand)

    def income_level(self, player: Player) -> int:
        return self.ruleset.income.level_at(player.income_position)

    def turn_place(self, player: Player) -> int:
        """1 for the first player of the current turn order, 2 for the next, …"""
        return self.state.turn_order.index(player.seat) + 1

    def tiles_at(self, location: str) -> list[PlacedTile]:
        tiles = self.state.tiles
        return [tiles[s.id] for s in self.ruleset.locations[location].slots if s.id in tiles]

    def board_tiles(self) -> list[PlacedTile]:
        """Every tile on the board, in board order (location, then slot)."""
        return sorted(self.state.tiles.values(), key=lambda t: self._slot_key(t.slot))

    def in_network(self, player: Player, location: str) -> bool:
        return location in self.network_of(player)

    def network_of(self, player: Player) -> frozenset[str]:
        """Locations with the player's tiles or touching their links (R-CONN-01); cached until the state changes."""
        key = ("player_places", player.seat)
        found = self.cache.get(key)
        if found is None:
            places = {t.slot.location for t in self.state.tiles.values() if t.owner is player}
            for link_id, seat in self.state.links.items():
                if seat == player.seat:
                    places.update(self.ruleset.links[link_id].ends)
            found = self.cache[key] = frozenset(places)
        return found

    def connected(self, a: str, b: str) -> bool:
        self.network_now()
        return self.network.connected(a, b)

    def network_now(self) -> None:
        """Bring the network up to the links placed now: looked at once per state (the cache is emptied
        whenever the state changes; `update` compares every link)."""
        cache = self.cache
        if cache.get(_NETWORK_NOW) is None:
            self.network.update(self.state.links)
            cache[_NETWORK_NOW] = True

    def connected_to_merchant(self, location: str, resource: Resource | None = None) -> bool:
        return self.sourcing.connected_to_merchant(location, resource)

    def access_through(self, resource: Resource) -> list[str]:
        """The locations that reach the resource's market now (its `access_through`, which may read
        the board: a tile built there), remembered until the state changes."""
        key = ("access", resource.id)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = [loc for loc in self.ruleset.locations
                                       if resource.access_through(Env(self, {"l": loc}))]
        return found

    def has_board_tiles(self, player: Player) -> bool:
        key = ("has_board_tiles", player.seat)  # remembered until the state changes, as `network_of`
        found = self.cache.get(key)
        if found is None:
            state = self.state
            found = self.cache[key] = (any(t.owner is player for t in state.tiles.values())
                                       or player.seat in state.links.values())
        return found

    def mat_stack(self, industry: str) -> list[TileSpec]:
        """An industry's tiles on a full mat, lowest first, one entry per physical tile."""
        return self._stacks[industry]

    def tiles_left(self, player: Player, industry: str) -> int:
        return len(self._stacks[industry]) - player.mat_used.get(industry, 0)

    def lowest_tile(self, player: Player, industry: str) -> TileSpec:
        used = player.mat_used.get(industry, 0)
        stack = self._stacks[industry]
        if used >= len(stack):
            raise ValueError(f"no {industry} tile is left on {player.name}'s mat")
        return stack[used]

    def slot_free(self, slot: Slot) -> bool:
        return slot.id not in self.state.tiles

    def tile_in(self, slot: Slot) -> PlacedTile:
        tile = self.state.tiles.get(slot.id)
        if tile is None:
            raise ValueError(f"slot {slot.id} is free")
        return tile

    def cubes_available(self, resource: str) -> int:
        on_tiles = sum(t.cubes for t in self.state.tiles.values()
                       if self.ruleset.industries[t.spec.industry].produces == resource)
        market = self.ruleset.resources[resource].market
        return on_tiles + (self.state.markets.get(market, 0) if market else 0)

    def can_source(self, player: Player, resource: str, amount: int, at: Sequence[str],
                   action: str | None = None) -> bool:
        if amount <= 0:  # (as `Sourcing.can_source` answers it, asked first: most needs are none)
            return True
        cache = self.cache
        if cache.get(_NETWORK_NOW) is None:
            self.network_now()
        return self.sourcing.can_source(player, resource, amount, list(at), action, cache)

    def source_cost(self, player: Player, resource: str, amount: int, at: Sequence[str],
                    action: str | None = None) -> int:
        if amount <= 0:  # (as `Sourcing.source_cost` answers it)
            return 0
        cache = self.cache
        if cache.get(_NETWORK_NOW) is None:
            self.network_now()
        return self.sourcing.source_cost(player, resource, amount, list(at), action, cache)

    def link_free(self, link: str) -> bool:
        return link not in self.state.links

    def merchant_tiles(self) -> list[MerchantSpace]:
        return list(self.state.merchants)

    def location_link_icons(self, location: str) -> int:
        """Link icons shown in a location: printed (merchant) icons plus flipped tiles of any owner (R-ERA-02)."""
        printed = self.ruleset.locations[location].link_icons
        return printed + sum(t.spec.link_icons for t in self.tiles_at(location) if t.flipped)

    def _slot_key(self, slot: Slot) -> tuple[int, int]:
        return self._location_order[slot.location], slot.index

    # == where the game stands =====================================================================

    def era_exhausted(self) -> bool:
        """The draw deck and every hand are empty: the era ends with this round."""
        return not self.state.deck and all(not p.hand for p in self.state.players)

    def in_last_era(self) -> bool:
        end = self.ruleset.game_end
        return end is not None and self.era == end.last_era

    def is_last_round(self) -> bool:
        return self.in_last_era() and self.era_exhausted()

    def standings(self) -> list[dict[str, Any]]:
        """Players best first by the ruleset's ranking keys; `place` is shared on a full tie (R-END-02)."""
        keys = self.ruleset.game_end.ranking if self.ruleset.game_end else ()
        scored = [(tuple(k.key(Env(self, {"p": p})) for k in keys), p) for p in self.state.players]
        scored.sort(key=lambda item: tuple(-v for v in item[0]))
        table, place = [], 0
        for n, (values, player) in enumerate(scored):
            if n == 0 or values != scored[n - 1][0]:
                place = n + 1
            table.append({"place": place, "seat": player.seat, "vp": player.vp, "money": player.money,
                          "income_position": player.income_position, "income_level": self.income_level(player),
                          "keys": dict(zip((k.name for k in keys), values, strict=True))})
        return table

    def describe(self, value: Any, type_name: str = "") -> str:
        """A value as a player reads it: names instead of ids, for messages."""
        return describe(self.ruleset, value, type_name)

    # == questions inside effects ==================================================================

    def ask(self, player: Player, key: str, options: list[Any], prompt: str,
            rule: str | None = None, where: str = "", excluded: dict[str, dict[str, Any]] | None = None) -> Any:
        """The player's choice among `options`: the answer already given, the only option, or a
        `NeedDecision` that stops the effect step before it changed anything. The question cites
        `rule` (at `where`), by default the running step's `rule:`, when an answer is refused; an
        answer in `excluded` (value -> `reason`, and the `rule` and `where` that exclude it, if not the
        question's) is refused citing its own rule and reason."""
        if key in self.answers:
            return self.answers[key]
        if len(options) == 1:
            return options[0]
        if player.seat == self.default_answers:  # as that player's default answer would be given
            answer = self.answers[key] = options[0]
            return answer
        step = self.step
        if rule is None and step is not None:
            rule, where = step.rule, str(step.pos) if step.pos else ""
        question = {"key": key, "player": player.seat, "options": options, "prompt": prompt,
                    "rule": rule, "where": where}
        if excluded:
            question["excluded"] = {value: {**why, "rule": why.get("rule") or rule, "where": why.get("where") or where}
                                    for value, why in excluded.items()}
        raise NeedDecision(question)

    # == changes the effects make ==================================================================

    def note(self, event: str, **details: Any) -> None:
        """Add an entry to the game log, as plain JSON data (mapping keys become strings)."""
        self.state.log.append(_as_json({"event": event, **details}))

    def spend(self, player: Player, amount: int) -> None:
        player.money -= amount
        player.spent += amount  # R-TURN-07

    def advance_income(self, player: Player, spaces: int) -> None:
        top = self.ruleset.income.positions - 1
        player.income_position = min(top, player.income_position + spaces)  # R-INC-05

    def set_track(self, track_id: str, value: int) -> None:
        """Move a ruleset's track to `value`, kept within its min..max; the log says where from."""
        was = self.state.tracks[track_id]
        now = self.state.tracks[track_id] = self.ruleset.tracks[track_id].clamp(value)
        self.note("track", track=track_id, was=was, now=now)

    def draws_made(self) -> int:
        """How many face-down tiles have been drawn from the stacks since they were last reshuffled."""
        return sum(len(drawn) for drawn in self.state.drawn.values())

    def draw(self, stack_id: str) -> int | None:
        """The top tile of a stack, now face up (None: the stack is empty). Its order was set by the
        game's own generator, so a replay of the same moves draws the same tiles."""
        pile = self.state.stacks[stack_id]
        value = pile.pop() if pile else None
        if value is not None:
            self.state.drawn[stack_id].append(value)
        self.note("drawn", stack=stack_id, value=value, left=len(pile))
        return value

    def chance(self, purpose: str) -> Rng:
        """The generator of the game's next shuffle, for `purpose`. The game's chance state moves on
        by one step per shuffle, whatever its size, and every shuffle starts from its items in a
        fixed order: a variant whose play differs still shuffles the same cards the same way
        (the same Rail Era deck from the same discards), which keeps a comparison's games alike."""
        rng = stream(self.state.rng_state, purpose)
        self.state.rng_state = Rng(self.state.rng_state).next_u64()
        return rng

    def reshuffle(self, stack_id: str) -> None:
        """The tiles drawn from a stack go back into it, and it is shuffled with the game's generator."""
        pile = self.state.stacks[stack_id] = sorted(self.state.stacks[stack_id] + self.state.drawn[stack_id])
        self.state.drawn[stack_id] = []
        self.chance(f"stack {stack_id}").shuffle(pile)
        self.note("reshuffled", stack=stack_id, tiles=len(pile))

    def deal_merchants(self) -> None:
        """The merchant tiles of this player count are gathered, shuffled with the game's own
        generator and dealt onto the spaces in use, as at setup; the barrels go with the new tiles."""
        dealt = deal_merchant_tiles(self.ruleset, len(self.state.players), self.chance("merchants"))
        for space, new in zip(self.state.merchants, dealt, strict=True):  # the same space objects: a
            space.tile, space.buys, space.has_beer = new.tile, new.buys, new.has_beer  # held one stays valid
        self.note("merchants dealt", merchants={m.id: m.tile for m in self.state.merchants})

    def flip(self, tile: PlacedTile) -> None:
        if tile.flipped:
            return
        tile.flipped = True
        self.advance_income(tile.owner, tile.spec.income)  # R-FLIP-03
        self.note("flipped", tile=tile.slot.id, owner=tile.owner.seat, income=tile.spec.income,
                  income_position=tile.owner.income_position)

    def discard(self, player: Player, card: Card) -> None:
        player.hand.remove(card)
        if card.wild:
            self.state.wild_piles[card.face].append(card)  # R-SCOUT-03
        else:
            player.discard.append(card)

    def take_from_mat(self, player: Player, industry: str) -> TileSpec:
        spec = self.lowest_tile(player, industry)
        player.mat_used[industry] = player.mat_used.get(industry, 0) + 1
        return spec

    def build_tile(self, player: Player, industry: str, slot: Slot) -> None:
        spec = self.take_from_mat(player, industry)
        old = self.state.tiles.pop(slot.id, None)
        if old is not None:  # R-OVER-02/04: the old tile leaves the game with its cubes
            old.owner.removed += 1
            self.note("overbuilt", tile=slot.id, owner=old.owner.seat, level=old.spec.level)
        kind = self.ruleset.industries[industry]
        output = spec.output.get(self.era, 0) if kind.produces else 0
        tile = self.state.tiles[slot.id] = PlacedTile(player, spec, slot, False, output)
        self.note("built", player=player.seat, industry=industry, level=spec.level, slot=slot.id, cubes=output)
        if kind.flips == "built":  # flips as soon as it is built: income now, VP at the era's end
            self.flip(tile)

    def remove_tile(self, tile: PlacedTile) -> None:
        """A tile leaves the board for good (obsolete at an era's end, sold for unpaid income)."""
        del self.state.tiles[tile.slot.id]
        tile.owner.removed += 1

    def place_link(self, player: Player, link: str) -> None:
        self.state.links[link] = player.seat
        self.cache.pop(_NETWORK_NOW, None)
        player.links_left -= 1
        self.note("linked", player=player.seat, link=link)

    def refill_hand(self, player: Player) -> list[Card]:
        missing = max(0, self.ruleset.setup.hand_size - len(player.hand))
        drawn = [self.state.deck.pop() for _ in range(min(missing, len(self.state.deck)))]
        player.hand.extend(drawn)
        return drawn

    def new_draw_deck(self) -> None:
        """Every discard pile and the cards set aside, shuffled with the game's own generator, become
        the draw deck."""
        deck = [c for p in self.state.players for c in p.discard] + self.state.aside
        for player in self.state.players:
            player.discard = []
        self.state.aside = []
        position = {card_id: index for index, card_id in enumerate(self.cards)}
        deck.sort(key=lambda card: position[card.id])  # the same cards, the same deck, however they were played
        self.chance("draw deck").shuffle(deck)
        self.state.deck = deck
        self.note("new draw deck", cards=len(deck))

    def set_aside(self) -> None:
        """As an era after the first begins, its `set_aside` cards leave the top of the draw deck face
        down, unseen by all (the first era's are set aside at setup); `new_draw_deck` takes them back."""
        state = self.state
        count = self.ruleset.eras[state.era_index].set_aside.get(len(state.players), 0)
        if count:
            moved = [state.deck.pop() for _ in range(min(count, len(state.deck)))]
            state.aside.extend(moved)
            self.note("cards set aside", era=self.era, cards=len(moved))


_PLAIN = (str, int, bool, type(None))  # JSON's own values, kept as they are (floats go the long way)


def _as_json(value: Any) -> Any:
    """`value` as it reads back from JSON text (a tuple becomes a list), without writing the text
    for the usual log entry: mappings with text keys, lists, tuples, text, whole numbers, booleans,
    None. Anything else (a number as a key, a float, another type) takes the round trip itself."""
    plain = _plain(value)
    return json.loads(json.dumps(value)) if plain is _NOT_PLAIN else plain


_NOT_PLAIN = object()


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                return _NOT_PLAIN
            if type(item) not in _PLAIN:  # (most are: no call for them)
                item = _plain(item)
                if item is _NOT_PLAIN:
                    return _NOT_PLAIN
            out[key] = item
        return out
    if kind is list or kind is tuple:
        items = [item if type(item) in _PLAIN else _plain(item) for item in value]
        return _NOT_PLAIN if any(item is _NOT_PLAIN for item in items) else items
    return _NOT_PLAIN


def as_queries(table: Table) -> GameQueries:
    """The table as the condition language sees it: mypy checks here that `Table` implements the
    `GameQueries` protocol the vocabulary is written against."""
    return table
