"""The state of a game in progress, and its canonical JSON form.

Plain mutable dataclasses; the rules that change them live elsewhere (effects,
flow). Objects the condition language sees (players, placed tiles, cards,
merchant spaces) are these objects themselves, compared by identity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.ruleset.model import Slot, TileSpec


# One object per card of a game: identity is equality (fast hashing in memos).
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card. `locations`/`industries` say what it lets you build."""

    id: str
    face: str  # the card spec or wild card id it was made from
    kind: str  # location | industry | wild_location | wild_industry
    name: str
    locations: tuple[str, ...]
    industries: tuple[str, ...]

    @property
    def wild(self) -> bool:
        return self.kind.startswith("wild_")


@dataclass(eq=False)
class Player:
    seat: int  # from 1
    money: int
    income_position: int
    vp: int
    links_left: int
    spent: int = 0
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    mat_used: dict[str, int] = field(default_factory=dict)  # tiles gone from the mat, per industry
    removed: int = 0  # industry tiles that left the board for good (overbuilt, obsolete, shortfall)
    # Tiles off the mat and not on the board when a given position started the game (developed or
    # removed before it): they are accounted for like removed tiles, never counted as removed.
    gone_before: int = 0

    @property
    def name(self) -> str:
        return f"player {self.seat}"


@dataclass(eq=False)
class PlacedTile:
    owner: Player
    spec: TileSpec
    slot: Slot
    flipped: bool = False
    cubes: int = 0


@dataclass(eq=False)
class MerchantSpace:
    location: str
    index: int
    tile: str  # merchant tile id (blank, cotton, …)
    buys: tuple[str, ...]
    has_beer: bool

    @property
    def id(self) -> str:
        return f"{self.location}/{self.index}"


@dataclass
class GameState:
    players: list[Player]
    tiles: dict[str, PlacedTile]  # slot id -> tile
    links: dict[str, int]  # link id -> owner seat
    markets: dict[str, int]  # market id -> cubes in it
    merchants: list[MerchantSpace]
    deck: list[Card]
    wild_piles: dict[str, list[Card]]
    era_index: int = 0
    round: int = 1
    turn_order: list[int] = field(default_factory=list)  # seats, first to act first
    turn_index: int = 0
    actions_left: int = 0
    finished: bool = False
    rng_state: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    tracks: dict[str, int] = field(default_factory=dict)  # the ruleset's `tracks:`, id -> value
    stacks: dict[str, list[int]] = field(default_factory=dict)  # `stacks:`, id -> face-down tiles, top last
    drawn: dict[str, list[int]] = field(default_factory=dict)  # id -> tiles drawn from it, face up, in order
    aside: list[Card] = field(default_factory=list)  # set aside face down, unseen by all (eras' `set_aside`)


def state_to_dict(state: GameState) -> dict[str, Any]:
    """Everything of a state as plain JSON values (ids instead of objects)."""
    return {
        "era_index": state.era_index,
        "round": state.round,
        "turn_order": list(state.turn_order),
        "turn_index": state.turn_index,
        "actions_left": state.actions_left,
        "finished": state.finished,
        "rng_state": state.rng_state,
        "players": [_player_to_dict(p) for p in state.players],
        "tiles": {sid: {"owner": t.owner.seat, "industry": t.spec.industry, "level": t.spec.level,
                        "flipped": t.flipped, "cubes": t.cubes} for sid, t in sorted(state.tiles.items())},
        "links": dict(sorted(state.links.items())),
        "markets": dict(sorted(state.markets.items())),
        "merchants": [{"space": m.id, "tile": m.tile, "has_beer": m.has_beer} for m in state.merchants],
        "deck": [c.id for c in state.deck],
        "wild_piles": {k: [c.id for c in v] for k, v in sorted(state.wild_piles.items())},
        "log": state.log,
        # only a ruleset with tracks has the key: the saves of the others stay as they were
        **({"tracks": dict(sorted(state.tracks.items()))} if state.tracks else {}),
        **({"stacks": _piles(state.stacks), "drawn": _piles(state.drawn)} if state.stacks else {}),
        **({"aside": [c.id for c in state.aside]} if state.aside else {}),
    }


def _piles(piles: dict[str, list[int]]) -> dict[str, list[int]]:
    return {key: list(pile) for key, pile in sorted(piles.items())}


def _player_to_dict(p: Player) -> dict[str, Any]:
    return {"seat": p.seat, "money": p.money, "income_position": p.income_position, "vp": p.vp,
            "links_left": p.links_left, "spent": p.spent, "hand": [c.id for c in p.hand],
            "discard": [c.id for c in p.discard], "mat_used": dict(sorted(p.mat_used.items())),
            "removed": p.removed, "gone_before": p.gone_before}


def copy_state(state: GameState) -> GameState:
    """An independent copy of a state, fast: new players, tiles, merchant spaces and lists; the
    immutable parts (cards, tile specs, slots, log entries) are shared. The log is copied as a
    list of the same entries (an entry is never changed once written)."""
    players = [Player(p.seat, p.money, p.income_position, p.vp, p.links_left, p.spent, list(p.hand),
                      list(p.discard), dict(p.mat_used), p.removed, p.gone_before) for p in state.players]
    by_seat = {p.seat: p for p in players}
    tiles = {sid: PlacedTile(by_seat[t.owner.seat], t.spec, t.slot, t.flipped, t.cubes)
             for sid, t in state.tiles.items()}
    merchants = [MerchantSpace(m.location, m.index, m.tile, m.buys, m.has_beer) for m in state.merchants]
    return GameState(players, tiles, dict(state.links), dict(state.markets), merchants, list(state.deck),
                     {k: list(v) for k, v in state.wild_piles.items()}, state.era_index, state.round,
                     list(state.turn_order), state.turn_index, state.actions_left, state.finished,
                     state.rng_state, list(state.log), dict(state.tracks), _piles(state.stacks), _piles(state.drawn),
                     list(state.aside))


class Snapshot:
    """A state as it was, to put it back exactly: the same player, tile and merchant-space objects
    with their values of then, so that references a caller (or a search) holds stay valid. Only
    values are kept, no object is copied (a search takes one before every trial of a part), and of
    the log only its length: its entries are only ever appended."""

    def __init__(self, state: GameState) -> None:
        self.players = [(p, p.money, p.income_position, p.vp, p.links_left, p.spent, p.removed, p.gone_before,
                         list(p.hand), list(p.discard), dict(p.mat_used)) for p in state.players]
        self.tiles = dict(state.tiles)  # the objects themselves …
        self.tile_values = [(t, t.flipped, t.cubes) for t in state.tiles.values()]  # … and their values
        self.merchants = list(state.merchants)
        self.merchant_values = [(m, m.tile, m.buys, m.has_beer) for m in state.merchants]
        self.links, self.markets, self.deck = dict(state.links), dict(state.markets), list(state.deck)
        self.wild_piles = {k: list(v) for k, v in state.wild_piles.items()}
        self.scalars = (state.era_index, state.round, list(state.turn_order), state.turn_index, state.actions_left,
                        state.finished, state.rng_state)
        self.tracks, self.stacks, self.drawn = dict(state.tracks), _piles(state.stacks), _piles(state.drawn)
        self.aside, self.log_length = list(state.aside), len(state.log)

    def restore(self, state: GameState) -> None:
        """Put `state` (the one this snapshot was taken of) back as it was."""
        for player, money, income, vp, links_left, spent, removed, gone, hand, discard, mat in self.players:
            player.money, player.income_position, player.vp, player.links_left = money, income, vp, links_left
            player.spent, player.removed, player.gone_before = spent, removed, gone
            player.hand, player.discard, player.mat_used = list(hand), list(discard), dict(mat)
        for tile, flipped, cubes in self.tile_values:
            tile.flipped, tile.cubes = flipped, cubes
        state.tiles = dict(self.tiles)
        for space, tile_id, buys, has_beer in self.merchant_values:
            space.tile, space.buys, space.has_beer = tile_id, buys, has_beer
        state.merchants = list(self.merchants)
        state.links, state.markets, state.deck = dict(self.links), dict(self.markets), list(self.deck)
        state.wild_piles = {k: list(v) for k, v in self.wild_piles.items()}
        era_index, round, turn_order, turn_index, actions_left, finished, rng_state = self.scalars
        state.era_index, state.round, state.turn_order = era_index, round, list(turn_order)
        state.turn_index, state.actions_left, state.finished, state.rng_state = (
            turn_index, actions_left, finished, rng_state)
        state.tracks, state.stacks, state.drawn = dict(self.tracks), _piles(self.stacks), _piles(self.drawn)
        state.aside = list(self.aside)
        del state.log[self.log_length:]
