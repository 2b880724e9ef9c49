"""A position written as data (a scenario's `given:`), applied on top of a fresh game's setup.

    game = Game.from_setup(load_ruleset("birmingham"), players=2, given={
        "round": 2, "current": 1,
        "players": {1: {"money": 30, "hand": ["birmingham", "coal_mine"]}},
        "tiles": [{"slot": "dudley/0", "owner": 2, "industry": "coal", "level": 1, "cubes": 1}],
        "links": [{"link": "L04", "owner": 2}],
        "markets": {"coal": 5},
    })

The keys are the YAML form of the helpers of `tests/rules/position.py`, with the same meaning
and the same bookkeeping (cards are moved, never created or lost; a placed tile is taken off its
owner's mat; a placed link uses one of the owner's link tiles). Anything not given keeps its
setup value. An impossible position (a tile on a slot without its icon, a level that does not
exist, more cubes than a market holds, an unknown location, card or player, a card that is not
in this player count's deck…) is refused with a located error: `FILE:LINE:COL: message` when the
given came from a YAML `Document`, else `<given>: message`. See docs/scenarios.md.

Order of application: era and round; players' numbers; hands; deck; tiles; mats; links;
links_left; markets; merchants; turn order, player to act and actions left.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from brass_dsl.registry import did_you_mean
from brass_dsl.source import SourcePos
from interpreter.engine.flow import start_turn
from interpreter.engine.state import Card, PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.engine.values import bounds_problem
from interpreter.ruleset.errors import Diagnostic, RulesetError
from interpreter.ruleset.yaml_source import Document, kind_name

__all__ = ["GIVEN_KEYS", "PLAYER_KEYS", "TILE_KEYS", "GivenError", "apply_given", "plain"]

GIVEN_KEYS = ("era", "round", "turn_order", "current", "actions_left", "players", "tiles", "links", "markets",
              "merchants", "deck")
TRACKS_KEY, STACKS_KEY = "tracks", "stacks"  # accepted (and offered in messages) only by a ruleset that has them
PLAYER_KEYS = ("money", "income", "vp", "spent", "hand", "mat", "links_left")
TILE_KEYS = ("slot", "location", "owner", "industry", "level", "flipped", "cubes")
LINK_KEYS = ("link", "owner")
MERCHANT_KEYS = ("tile",)  # and the barrel: the key named after the resource merchants hold


class GivenError(RulesetError):
    """A `given` position that cannot exist; `diagnostics` lists every problem found."""


def apply_given(table: Table, given: Mapping[str, Any], *, doc: Document | None = None,
                path: Sequence[Any] = ()) -> None:
    """Apply a position to the table of a new game, before any move; raise GivenError listing every
    problem. (`Game.from_setup` does this; a game in progress cannot be given a position.)

    `doc` and `path` locate `given` in a YAML document (`path` is where `given` sits in it), so
    that each error is reported at the value that is wrong."""
    with table.editing():
        applier = _Applier(table, doc, tuple(path))
        problem = bounds_problem(given, "given")
        if problem is not None:  # a number, text or nesting no position has: nothing else is judged
            raise GivenError([Diagnostic(applier.pos(()) or SourcePos("<given>", 1, 1), problem)])
        applier.apply(given)
        applier.raise_if_any()
        _account_for_tiles_gone_before(table)


def _account_for_tiles_gone_before(table: Table) -> None:
    """Tiles a `mat:` took off the mat beyond those given on the board left it before the position
    (developed or removed earlier): record them so the tile count still adds up."""
    for player in table.state.players:
        on_board = sum(1 for t in table.state.tiles.values() if t.owner is player)
        player.gone_before = sum(player.mat_used.values()) - on_board - player.removed


def plain(value: Any) -> Any:
    """A deep copy of a position as JSON data (seat keys become the text JSON allows: "1"), as a
    game saves it."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


class _Stop(Exception):
    """One value is wrong: it was reported; skip what depends on it."""


class _Applier:
    def __init__(self, table: Table, doc: Document | None, root: tuple[Any, ...]) -> None:
        self.g = table
        self.rs = table.ruleset
        self.doc = doc
        self.root = root
        self.errors: list[Diagnostic] = []
        self.seen_slots: set[str] = set()

    # -- reporting -----------------------------------------------------------------------

    def pos(self, path: tuple[Any, ...], key: bool = False) -> SourcePos | None:
        if self.doc is None:
            return None
        return self.doc.pos(self.root + path, key=key)

    def error(self, path: tuple[Any, ...], message: str, key: bool = False) -> _Stop:
        where = self.pos(path, key)
        if where is None:  # no YAML document: name the value instead
            where, message = SourcePos("<given>", 1, 1), f"given.{'.'.join(map(str, path))}: {message}"
        self.errors.append(Diagnostic(where, message))
        return _Stop()

    def raise_if_any(self) -> None:
        if self.errors:
            raise GivenError(list(dict.fromkeys(self.errors)))

    def attempt(self, fn: Any, *args: Any) -> None:
        with contextlib.suppress(_Stop):  # reported already; what depends on it is skipped
            fn(*args)

    # -- value checks ----------------------------------------------------------------------

    def mapping(self, value: Any, path: tuple[Any, ...], keys: Sequence[str] | None = None,
                required: Sequence[str] = ()) -> dict:
        if not isinstance(value, dict):
            raise self.error(path, f"expected a mapping, not {kind_name(value)}")
        if keys is not None:
            for key in value:
                if key not in keys:
                    raise self.error(path + (key,), f"unknown key {key!r}{did_you_mean(str(key), keys)}; "
                                                    f"expected one of: {', '.join(keys)}", key=True)
        for key in required:
            if key not in value:
                raise self.error(path, f"missing key {key!r}")
        return value

    def integer(self, value: Any, path: tuple[Any, ...], low: int | None = None, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(path, f"expected an integer, not {kind_name(value)}")
        if low is not None and value < low:
            raise self.error(path, f"{value} is below the lowest possible value, {low}")
        if high is not None and value > high:
            raise self.error(path, f"{value} is above the highest possible value, {high}")
        return value

    def boolean(self, value: Any, path: tuple[Any, ...]) -> bool:
        if not isinstance(value, bool):
            raise self.error(path, f"expected true or false, not {kind_name(value)}")
        return value

    def text(self, value: Any, path: tuple[Any, ...]) -> str:
        if not isinstance(value, str):
            raise self.error(path, f"expected a string, not {kind_name(value)}")
        return value

    def one_of(self, value: Any, path: tuple[Any, ...], choices: Sequence[str], what: str) -> str:
        value = self.text(value, path)
        if value not in choices:
            raise self.error(path, f"unknown {what} {value!r}{did_you_mean(value, choices)}")
        return value

    def seat(self, value: Any, path: tuple[Any, ...]) -> Player:
        seats = len(self.g.state.players)
        if isinstance(value, str) and value.isdigit():
            value = int(value)  # a seat key of a position read back from JSON (a saved game)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= seats:
            raise self.error(path, f"unknown player {value!r}: this game has seats 1 to {seats}")
        return self.g.player(value)

    # -- the whole position -------------------------------------------------------------------

    def apply(self, given: Any) -> None:
        try:
            given = self.mapping(given, (), GIVEN_KEYS + ((TRACKS_KEY,) if self.rs.tracks else ())
                                 + ((STACKS_KEY,) if self.rs.stacks else ()))
        except _Stop:
            return
        self.attempt(self.time_first, given)
        players = given.get("players") or {}
        if "players" in given:
            try:
                self.mapping(given["players"], ("players",))
            except _Stop:
                players = {}
        entries = []
        for seat, data in players.items():
            try:
                player = self.seat(seat, ("players", seat))
                entries.append((player, self.mapping(data, ("players", seat), PLAYER_KEYS)))
            except _Stop:
                continue
        for player, data in entries:
            self.attempt(self.numbers, player, data)
        chosen: list[Card] = []
        for player, data in entries:
            if "hand" in data:
                self.attempt(self.hand, player, data["hand"], chosen)
        if "deck" in given:
            self.attempt(self.deck, given["deck"], chosen)
        for n, item in enumerate(self.list_of(given, "tiles")):
            self.attempt(self.tile, item, ("tiles", n))
        for player, data in entries:
            for industry, level in (self.mapping_or_empty(data, player, "mat")).items():
                self.attempt(self.mat, player, industry, level)
        for n, item in enumerate(self.list_of(given, "links")):
            self.attempt(self.link, item, ("links", n))
        for player, data in entries:
            if "links_left" in data:
                self.attempt(self.links_left, player, data["links_left"])
        if "markets" in given:
            self.attempt(self.markets, given["markets"])
        if "merchants" in given:
            self.attempt(self.merchants, given["merchants"])
        if TRACKS_KEY in given:
            self.attempt(self.tracks, given[TRACKS_KEY])
        if STACKS_KEY in given:
            self.attempt(self.stacks, given[STACKS_KEY])
        self.attempt(self.time_last, given)

    def list_of(self, given: dict, key: str) -> list:
        if key not in given:
            return []
        if not isinstance(given[key], list):
            self.error((key,), f"expected a list, not {kind_name(given[key])}")
            return []
        return given[key]

    def mapping_or_empty(self, data: dict, player: Player, key: str) -> dict:
        if key not in data:
            return {}
        try:
            return self.mapping(data[key], ("players", player.seat, key))
        except _Stop:
            return {}

    # -- time ---------------------------------------------------------------------------------

    def time_first(self, given: dict) -> None:
        state = self.g.state
        if "era" in given:
            eras = [e.id for e in self.rs.eras]
            state.era_index = eras.index(self.one_of(given["era"], ("era",), eras, "era"))
        if "round" in given:
            rounds = self.rs.setup.rounds_per_era[len(state.players)]
            state.round = self.integer(given["round"], ("round",), low=1)
            if state.round > rounds:
                raise self.error(("round",), f"an era has {rounds} rounds with {len(state.players)} players, "
                                             f"not {state.round} (R-SETUP-12)")

    def time_last(self, given: dict) -> None:
        state = self.g.state
        seats = sorted(p.seat for p in state.players)
        current = state.turn_order[state.turn_index]
        if "turn_order" in given:
            order = given["turn_order"]
            if not isinstance(order, list) or sorted(o for o in order if isinstance(o, int)) != seats \
                    or any(isinstance(o, bool) for o in order):
                raise self.error(("turn_order",), f"the turn order must list every seat once: a permutation of {seats}")
            state.turn_order = list(order)
        if "current" in given:
            current = self.seat(given["current"], ("current",)).seat
        state.turn_index = state.turn_order.index(current)
        start_turn(self.g)
        if "actions_left" in given:  # at most a whole turn of this round (R-TURN-02/03)
            state.actions_left = self.integer(given["actions_left"], ("actions_left",), low=1,
                                              high=state.actions_left)

    # -- players ---------------------------------------------------------------------------------

    def numbers(self, player: Player, data: dict) -> None:
        at = ("players", player.seat)
        if "money" in data:
            # below 0 only in a ruleset whose shortfall leaves unpaid income owed (economy.shortfall.money_floor)
            player.money = self.integer(data["money"], at + ("money",), low=self.rs.economy.shortfall_money_floor)
        if "income" in data:
            player.income_position = self.integer(data["income"], at + ("income",), low=0,
                                                  high=self.rs.income.positions - 1)
        if "vp" in data:
            player.vp = self.integer(data["vp"], at + ("vp",), low=0)
        if "spent" in data:
            player.spent = self.integer(data["spent"], at + ("spent",), low=0)

    def links_left(self, player: Player, value: Any) -> None:
        at = ("players", player.seat, "links_left")
        placed = sum(1 for seat in self.g.state.links.values() if seat == player.seat)
        player.links_left = self.integer(value, at, low=0, high=self.rs.setup.links_per_player - placed)

    # -- cards -----------------------------------------------------------------------------------

    def faces(self) -> list[str]:
        return list(self.rs.cards) + list(self.rs.wild_cards)

    def piles(self) -> list[list[Card]]:
        s = self.g.state
        return ([s.deck, s.aside] + [p.discard for p in s.players] + [p.hand for p in s.players]
                + list(s.wild_piles.values()))

    def take(self, face: Any, path: tuple[Any, ...], keep: list[Card]) -> Card:
        """Remove a card of this face from wherever it lies (deck first; never one of `keep`)."""
        face = self.one_of(face, path, self.faces(), "card")
        for pile in self.piles():
            for card in reversed(pile):
                if card.face == face and card not in keep:
                    pile.remove(card)
                    for p in self.g.state.players:  # a card taken from another hand is replaced from the deck
                        if pile is p.hand and self.g.state.deck:
                            pile.append(self.g.state.deck.pop(0))
                    return card
        total = sum(1 for c in self.g.cards.values() if c.face == face)
        players = len(self.g.state.players)
        if total == 0:
            raise self.error(path, f"card {face!r} is not in the {players}-player game")
        raise self.error(path, f"no card {face!r} is left: the {players}-player game has {total}, "
                               f"all of them already given")

    def hand(self, player: Player, faces: Any, chosen: list[Card]) -> None:
        at = ("players", player.seat, "hand")
        if not isinstance(faces, list):
            raise self.error(at, f"expected a list of card faces, not {kind_name(faces)}")
        if len(faces) > self.rs.setup.hand_size:
            raise self.error(at, f"a hand holds at most {self.rs.setup.hand_size} cards, not {len(faces)}")
        old, player.hand = player.hand, []
        for card in old:  # old cards: wild ones back to their pile, others to the bottom of the deck
            if card.wild:
                self.g.state.wild_piles[card.face].append(card)
            else:
                self.g.state.deck.insert(0, card)
        cards = []
        for n, face in enumerate(faces):
            try:
                card = self.take(face, at + (n,), chosen)
            except _Stop:
                continue
            cards.append(card)
            chosen.append(card)
        player.hand = cards

    def deck(self, value: Any, chosen: list[Card]) -> None:
        s = self.g.state
        if isinstance(value, list):
            wanted: list[Card] = []
            for n, face in enumerate(value):
                try:
                    card = self.take(face, ("deck", n), chosen + wanted)
                except _Stop:
                    continue
                if card.wild:
                    s.wild_piles[card.face].append(card)
                    raise self.error(("deck", n), f"a wild card ({card.face}) is never in the draw deck")
                wanted.append(card)
            leaving, s.deck = s.deck, wanted
        else:
            size = self.integer(value, ("deck",), low=0, high=len(s.deck))
            keep = s.deck[len(s.deck) - size:] if size else []
            leaving, s.deck = s.deck[: len(s.deck) - len(keep)], keep
        for n, card in enumerate(leaving):  # as if played, seat by seat
            s.players[n % len(s.players)].discard.append(card)

    # -- board -----------------------------------------------------------------------------------

    def tile(self, item: Any, at: tuple[Any, ...]) -> None:
        item = self.mapping(item, at, TILE_KEYS, required=("owner", "industry", "level"))
        if "slot" in item and "location" in item:
            raise self.error(at, f"a tile is placed on a 'slot' ({item['slot']}) or in a 'location' "
                                 f"({item['location']}), one of the two")
        if "slot" not in item and "location" not in item:
            raise self.error(at, "a tile is placed on a 'slot' or in a 'location': give one of the two")
        if "location" in item:
            item = dict(item, slot=self.slot_in(item, at))
            at_slot = at + ("location",)
        else:
            at_slot = at + ("slot",)
        slot_id = self.text(item["slot"], at_slot)
        slot = self.g.slots.get(slot_id)
        if slot is None:
            location, _, index = slot_id.rpartition("/")
            if location not in self.rs.locations:
                raise self.error(at + ("slot",), f"unknown location {location or slot_id!r}"
                                                 f"{did_you_mean(location or slot_id, self.rs.locations)}")
            count = len(self.rs.locations[location].slots)
            raise self.error(at + ("slot",), f"{self.rs.locations[location].name} has no slot {index!r}: "
                                             f"its slots are {location}/0 to {location}/{count - 1}"
                             if count else f"{self.rs.locations[location].name} has no industry slots")
        player = self.seat(item["owner"], at + ("owner",))
        industry = self.one_of(item["industry"], at + ("industry",), list(self.rs.industries), "industry")
        if industry not in slot.industries:
            raise self.error(at + ("industry",), f"slot {slot_id} shows no {industry} icon "
                                                 f"(it shows: {', '.join(slot.industries)})")
        level = self.integer(item["level"], at + ("level",))
        stack = self.g.mat_stack(industry)
        levels = [i for i, spec in enumerate(stack) if spec.level == level]
        if not levels:
            known = sorted({spec.level for spec in stack})
            raise self.error(at + ("level",), f"{self.rs.industries[industry].name} has no level {level} "
                                              f"(levels {known[0]} to {known[-1]})")
        used = player.mat_used.get(industry, 0)
        if used > levels[-1]:
            raise self.error(at + ("level",), f"player {player.seat} has no {industry} level {level} tile "
                                              f"left on the mat")
        if slot_id in self.seen_slots:
            raise self.error(at_slot, f"slot {slot_id} is given twice")
        self.seen_slots.add(slot_id)
        spec = stack[levels[0]]
        built = self.rs.industries[industry].flips == "built"  # flipped as soon as it is built
        flipped = self.boolean(item.get("flipped", built), at + ("flipped",))
        if built and not flipped:
            raise self.error(at + ("flipped",), f"a {self.rs.industries[industry].name} flips as soon as it is "
                                                f"built, so it cannot lie unflipped")
        produces = self.rs.industries[industry].produces
        if "cubes" in item:
            most = max(spec.output.values(), default=0) if produces else 0
            cubes = self.integer(item["cubes"], at + ("cubes",), low=0, high=most)
            if flipped and cubes and self.rs.industries[industry].flips == "emptied":
                raise self.error(at + ("cubes",), f"a flipped {self.rs.industries[industry].name} holds no cubes")
        else:
            cubes = 0 if flipped or not produces else spec.output.get(self.g.era, 0)
        player.mat_used[industry] = max(used, levels[0]) + 1
        old = self.g.state.tiles.get(slot_id)
        if old is not None:
            old.owner.removed += 1
        self.g.state.tiles[slot_id] = PlacedTile(player, spec, slot, flipped, cubes)

    def slot_in(self, item: dict, at: tuple[Any, ...]) -> str:
        """The slot of a tile given by location: the first free one there showing its industry,
        a slot showing only that industry first (as a Build must use it first, R-BUILD-09)."""
        location = self.one_of(item["location"], at + ("location",), list(self.rs.locations), "location")
        industry = self.one_of(item["industry"], at + ("industry",), list(self.rs.industries), "industry")
        free = [s for s in self.rs.locations[location].slots
                if industry in s.industries and s.id not in self.seen_slots]
        if not free:
            raise self.error(at + ("location",), f"{self.rs.locations[location].name} has no free slot showing the "
                                                 f"{industry} icon")
        return min(free, key=lambda s: (len(s.industries) > 1, s.index)).id

    def mat(self, player: Player, industry: Any, level: Any) -> None:
        at = ("players", player.seat, "mat", industry)
        industry = self.one_of(industry, at, list(self.rs.industries), "industry")
        stack = self.g.mat_stack(industry)
        if level is None or level == "none":
            used = len(stack)
        else:
            level = self.integer(level, at)
            found = [i for i, spec in enumerate(stack) if spec.level == level]
            if not found:
                known = sorted({spec.level for spec in stack})
                raise self.error(at, f"{self.rs.industries[industry].name} has no level {level} "
                                     f"(levels {known[0]} to {known[-1]}; 'none' when every tile is gone)")
            # Tiles given on the board already left the mat: the lowest left is never below them.
            used = max(found[0], player.mat_used.get(industry, 0))
            if used >= len(stack) or stack[used].level != level:
                lowest = f"level {stack[used].level}" if used < len(stack) else "none"
                raise self.error(at, f"player {player.seat}'s {industry} tiles on the board have taken every level "
                                     f"{level} tile off the mat (the lowest left is {lowest})")
        on_board = sum(1 for t in self.g.state.tiles.values() if t.owner is player and t.spec.industry == industry)
        if on_board > used:
            raise self.error(at, f"player {player.seat} has {on_board} {industry} tile(s) on the board, more than "
                                 f"the {used} that have left the mat below level {level}")
        player.mat_used[industry] = used

    def link(self, item: Any, at: tuple[Any, ...]) -> None:
        item = self.mapping(item, at, LINK_KEYS, required=("link", "owner"))
        link = self.one_of(item["link"], at + ("link",), list(self.rs.links), "link")
        player = self.seat(item["owner"], at + ("owner",))
        if link in self.g.state.links:
            raise self.error(at + ("link",), f"link {link} is given twice")
        if player.links_left <= 0:
            raise self.error(at, f"player {player.seat} has no link tile left")
        self.g.state.links[link] = player.seat
        player.links_left -= 1

    def tracks(self, value: Any) -> None:
        """The value of each track named (the ruleset's `tracks:`), within its min..max."""
        for track_id, number in self.mapping(value, (TRACKS_KEY,), list(self.rs.tracks)).items():
            track = self.rs.tracks[track_id]
            self.attempt(self._track_value, track_id, number, track.min, track.max)

    def _track_value(self, track_id: str, number: Any, low: int, high: int) -> None:
        self.g.state.tracks[track_id] = self.integer(number, (TRACKS_KEY, track_id), low=low, high=high)

    def stacks(self, value: Any) -> None:
        """The face-down tiles of each stack named, top last; the stack's other tiles lie drawn."""
        for stack_id, tiles in self.mapping(value, (STACKS_KEY,), list(self.rs.stacks)).items():
            self.attempt(self._stack, stack_id, tiles)

    def _stack(self, stack_id: str, tiles: Any) -> None:
        at = (STACKS_KEY, stack_id)
        if not isinstance(tiles, list):
            raise self.error(at, f"expected the values of the face-down tiles, top last, not {kind_name(tiles)}")
        rest = self.rs.stacks[stack_id].pile(len(self.g.state.players))
        for n, tile in enumerate(tiles):
            if self.integer(tile, at + (n,)) not in rest:
                raise self.error(at + (n,), f"no tile {tile} is left for the {stack_id} stack "
                                            f"(its tiles: {self.rs.stacks[stack_id].pile(len(self.g.state.players))})")
            rest.remove(tile)
        self.g.state.stacks[stack_id], self.g.state.drawn[stack_id] = list(tiles), rest

    def markets(self, value: Any) -> None:
        value = self.mapping(value, ("markets",), list(self.rs.markets))
        for market, cubes in value.items():
            capacity = len(self.rs.markets[market].prices)
            try:
                cubes = self.integer(cubes, ("markets", market), low=0)
                if cubes > capacity:
                    raise self.error(("markets", market), f"the {market} market holds at most {capacity} cubes, "
                                                          f"not {cubes}")
                self.g.state.markets[market] = cubes
            except _Stop:
                pass

    def merchants(self, value: Any) -> None:
        value = self.mapping(value, ("merchants",))
        spaces = {m.id: m for m in self.g.state.merchants}
        for space_id, data in value.items():
            at = ("merchants", space_id)
            try:
                space = spaces.get(space_id)
                if space is None:
                    location = str(space_id).rpartition("/")[0]
                    if location not in self.rs.merchants:
                        raise self.error(at, f"unknown merchant space {space_id!r}"
                                             f"{did_you_mean(str(space_id), list(spaces))}", key=True)
                    raise self.error(at, f"merchant space {space_id} is not in use with "
                                         f"{len(self.g.state.players)} players (in use: {', '.join(spaces)})", key=True)
                if isinstance(data, str):
                    data = {"tile": data}
                barrel = self.rs.barrel_resource  # `beer: false`: the space's barrel has been taken
                keys = (*MERCHANT_KEYS, barrel) if barrel is not None else MERCHANT_KEYS
                data = self.mapping(data, at, keys, required=("tile",))
                face = self.one_of(data["tile"], at + ("tile",), list(self.rs.merchant_tiles), "merchant tile")
                spec = self.rs.merchant_tiles[face]
                held = (self.boolean(data[barrel], at + (barrel,)) if barrel is not None and barrel in data
                        else bool(spec.buys))
                space.tile, space.buys, space.has_beer = spec.id, spec.buys, held
            except _Stop:
                continue
