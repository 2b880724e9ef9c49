"""The state of a game in progress, and its canonical JSON form.

Plain mutable dataclasses; the rules that change them live elsewhere (effects,
flow). Objects the condition language sees (players, placed tiles, cards,
merchant spaces) are these objects themselves, compared by identity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.ruleset.model import Ruleset, Slot, TileSpec


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
    }


def _player_to_dict(p: Player) -> dict[str, Any]:
    return {"seat": p.seat, "money": p.money, "income_position": p.income_position, "vp": p.vp,
            "links_left": p.links_left, "spent": p.spent, "hand": [c.id for c in p.hand],
            "discard": [c.id for c in p.discard], "mat_used": dict(sorted(p.mat_used.items())),
            "removed": p.removed, "gone_before": p.gone_before}


def state_from_dict(data: dict[str, Any], ruleset: Ruleset, cards: dict[str, Card]) -> GameState:
    """Rebuild a state from `state_to_dict` output; raises KeyError/ValueError/TypeError on bad data."""
    players = [Player(p["seat"], p["money"], p["income_position"], p["vp"], p["links_left"], p["spent"],
                      [cards[c] for c in p["hand"]], [cards[c] for c in p["discard"]], dict(p["mat_used"]),
                      p["removed"], p.get("gone_before", 0)) for p in data["players"]]
    by_seat = {p.seat: p for p in players}
    slots = {s.id: s for s in ruleset.slots}
    tiles = {}
    for sid, t in data["tiles"].items():
        spec = next(s for s in ruleset.tiles[t["industry"]] if s.level == t["level"])
        tiles[sid] = PlacedTile(by_seat[t["owner"]], spec, slots[sid], t["flipped"], t["cubes"])
    merchants = []
    for m in data["merchants"]:
        location, index = m["space"].rsplit("/", 1)
        merchants.append(MerchantSpace(location, int(index), m["tile"], ruleset.merchant_tiles[m["tile"]].buys,
                                       m["has_beer"]))
    return GameState(players, tiles, dict(data["links"]), dict(data["markets"]), merchants,
                     [cards[c] for c in data["deck"]],
                     {k: [cards[c] for c in v] for k, v in data["wild_piles"].items()},
                     data["era_index"], data["round"], list(data["turn_order"]), data["turn_index"],
                     data["actions_left"], data["finished"], data["rng_state"], list(data["log"]))
