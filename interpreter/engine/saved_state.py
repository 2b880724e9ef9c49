"""A saved state read back: the `state` of a checked save, as `Game.from_json` restores it.

Every field is checked as it is read: its type, its range, and that each id it names exists in
the ruleset (a card of this game, a slot, a link, a market, a merchant space, a tile's level).
A problem is a `GameFileError` naming its place in the save, e.g.
`state.players[1].hand[3]: 'leek#9' is not a card of this game`. What holds between the fields
(each card in one place, the tiles of a mat accounted for, cubes within their bounds) is then
checked by `invariants.py`; together they make a state the engine can play on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from interpreter.engine.errors import GameFileError
from interpreter.engine.rng import MASK
from interpreter.engine.state import Card, GameState, MerchantSpace, PlacedTile, Player
from interpreter.ruleset.model import Ruleset, TileSpec

T = TypeVar("T")
Path = tuple[str | int, ...]

STATE_KEYS = ("era_index", "round", "turn_order", "turn_index", "actions_left", "finished", "rng_state", "players",
              "tiles", "links", "markets", "merchants", "deck", "wild_piles", "log")
OPTIONAL_STATE_KEYS = ("tracks", "stacks", "drawn", "aside")
PLAYER_KEYS = ("seat", "money", "income_position", "vp", "links_left", "spent", "hand", "discard", "mat_used",
               "removed")
OPTIONAL_PLAYER_KEYS = ("gone_before",)
TILE_KEYS = ("owner", "industry", "level", "flipped", "cubes")
MERCHANT_KEYS = ("space", "tile", "has_beer")


def where(path: Path) -> str:
    """A place in a save as a reader writes it: `state.players[1].hand[3]`."""
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text


def refuse(path: Path, message: str) -> GameFileError:
    return GameFileError(f"the saved game cannot be read: {where(path)}: {message}")


def shown(value: Any) -> str:
    """A value found in a save, for a message: a container by its kind, anything else as written."""
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    written = "null" if value is None else str(value).lower() if isinstance(value, bool) else repr(value)
    return written if len(written) <= 40 else written[:37] + "..."


# == values of one type ================================================================================

def whole(value: Any, path: Path, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse(path, f"expected a whole number, not {shown(value)}")
    if abs(value) > MASK:
        raise refuse(path, f"{shown(value)} is beyond any number a game holds")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f"{low} or more"
        raise refuse(path, f"{value} is outside {bounds}")
    return value


def flag(value: Any, path: Path) -> bool:
    if not isinstance(value, bool):
        raise refuse(path, f"expected true or false, not {shown(value)}")
    return value


def text(value: Any, path: Path) -> str:
    if not isinstance(value, str):
        raise refuse(path, f"expected text, not {shown(value)}")
    return value


def listed(value: Any, path: Path) -> list[Any]:
    if not isinstance(value, list):
        raise refuse(path, f"expected a list, not {shown(value)}")
    return value


def mapping(value: Any, path: Path, keys: tuple[str, ...] | None = None, optional: tuple[str, ...] = ()) -> dict:
    """A mapping; with `keys`, exactly those keys besides the `optional` ones."""
    if not isinstance(value, dict):
        raise refuse(path, f"expected a mapping, not {shown(value)}")
    if keys is not None:
        missing = [key for key in keys if key not in value]
        if missing:
            raise refuse(path, f"missing {', '.join(map(repr, missing))}")
        unknown = sorted(str(key) for key in value if key not in keys and key not in optional)
        if unknown:
            raise refuse(path, f"unknown {', '.join(map(repr, unknown))}")
    return value


def each(value: Any, path: Path, read: Callable[[Any, Path], T]) -> list[T]:
    """A list, each item read by `read`."""
    return [read(item, path + (n,)) for n, item in enumerate(listed(value, path))]


def by_key(value: Any, path: Path, read: Callable[[Any, Path], T], keys: Any = None, what: str = "") -> dict[str, T]:
    """A mapping, each value read by `read`; with `keys`, each key must be one of them."""
    found = {}
    for key, item in mapping(value, path).items():
        if keys is not None and key not in keys:
            raise refuse(path, f"{key!r} is not a {what} of this game")
        found[key] = read(item, path + (key,))
    return found


def exactly(found: dict[str, T], path: Path, keys: Any, what: str) -> dict[str, T]:
    """`found`, which must have a value for each of `keys` (and, being read with them, no other)."""
    missing = [key for key in keys if key not in found]
    if missing:
        raise refuse(path, f"no value for the {what} {', '.join(map(repr, missing))}")
    return found


# == the state =========================================================================================

class _Reader:
    """Reads one saved state of a ruleset at a player count."""

    def __init__(self, ruleset: Ruleset, players: int, cards: dict[str, Card]) -> None:
        self.rs = ruleset
        self.players = players
        self.cards = cards
        self.seats = range(1, players + 1)

    def card(self, value: Any, path: Path) -> Card:
        found = self.cards.get(text(value, path))
        if found is None:
            raise refuse(path, f"{value!r} is not a card of this game")
        return found

    def cards_at(self, value: Any, path: Path) -> list[Card]:
        return each(value, path, self.card)

    def seat(self, value: Any, path: Path) -> int:
        return whole(value, path, 1, self.players)

    def state(self, data: Any, path: Path) -> GameState:
        data = mapping(data, path, STATE_KEYS, OPTIONAL_STATE_KEYS)
        rs = self.rs
        players = [self.player(player, path + ("players", n), n + 1)
                   for n, player in enumerate(listed(data["players"], path + ("players",)))]
        if len(players) != self.players:
            raise refuse(path + ("players",), f"{len(players)} players in a game of {self.players}")
        turn_order = each(data["turn_order"], path + ("turn_order",), self.seat)
        if sorted(turn_order) != list(self.seats):
            raise refuse(path + ("turn_order",), f"{turn_order} is not an order of the seats 1 to {self.players}")
        finished = flag(data["finished"], path + ("finished",))
        # Between actions someone is to act; only a game over has gone past the last of the order.
        turn_index = whole(data["turn_index"], path + ("turn_index",), 0, self.players - (0 if finished else 1))
        most_actions = max(max(era.first_round_actions, era.actions_per_turn) for era in rs.eras)
        markets = exactly(by_key(data["markets"], path + ("markets",), whole, rs.markets, "market"),
                          path + ("markets",), rs.markets, "market")
        wild_piles = exactly(by_key(data["wild_piles"], path + ("wild_piles",), self.cards_at, rs.wild_cards,
                                    "wild card pile"), path + ("wild_piles",), rs.wild_cards, "wild card pile")
        return GameState(
            players, self.tiles(data["tiles"], path + ("tiles",), players),
            by_key(data["links"], path + ("links",), self.seat, rs.links, "link"), markets,
            self.merchants(data["merchants"], path + ("merchants",)), self.cards_at(data["deck"], path + ("deck",)),
            wild_piles, whole(data["era_index"], path + ("era_index",), 0, len(rs.eras) - 1),
            whole(data["round"], path + ("round",), 1), turn_order, turn_index,
            whole(data["actions_left"], path + ("actions_left",), 0, most_actions), finished,
            whole(data["rng_state"], path + ("rng_state",), 0, MASK), self.log(data["log"], path + ("log",)),
            by_key(data.get("tracks", {}), path + ("tracks",), whole),
            by_key(data.get("stacks", {}), path + ("stacks",), self.pile),
            by_key(data.get("drawn", {}), path + ("drawn",), self.pile),
            self.cards_at(data.get("aside", []), path + ("aside",)))

    def player(self, data: Any, path: Path, seat: int) -> Player:
        """The player in `seat` (the players are listed in seat order)."""
        data = mapping(data, path, PLAYER_KEYS, OPTIONAL_PLAYER_KEYS)
        if whole(data["seat"], path + ("seat",)) != seat:
            raise refuse(path + ("seat",), f"the player listed in place {seat} has seat {data['seat']}")
        def number(key: str) -> int:
            return whole(data.get(key, 0), path + (key,))
        return Player(seat, number("money"), number("income_position"), number("vp"), number("links_left"),
                      number("spent"), self.cards_at(data["hand"], path + ("hand",)),
                      self.cards_at(data["discard"], path + ("discard",)),
                      by_key(data["mat_used"], path + ("mat_used",), whole), number("removed"), number("gone_before"))

    def tiles(self, data: Any, path: Path, players: list[Player]) -> dict[str, PlacedTile]:
        slots = {slot.id: slot for slot in self.rs.slots}
        tiles = {}
        for slot_id, tile in mapping(data, path).items():
            at = path + (slot_id,)
            if slot_id not in slots:
                raise refuse(path, f"{slot_id!r} is not a slot of the board")
            tile = mapping(tile, at, TILE_KEYS)
            owner = self.seat(tile["owner"], at + ("owner",))
            tiles[slot_id] = PlacedTile(players[owner - 1], self.tile_spec(tile, at), slots[slot_id],
                                        flag(tile["flipped"], at + ("flipped",)), whole(tile["cubes"], at + ("cubes",)))
        return tiles

    def tile_spec(self, tile: dict[str, Any], path: Path) -> TileSpec:
        industry = text(tile["industry"], path + ("industry",))
        if industry not in self.rs.tiles:
            raise refuse(path + ("industry",), f"{industry!r} is not an industry with tiles")
        level = whole(tile["level"], path + ("level",))
        spec = next((s for s in self.rs.tiles[industry] if s.level == level), None)
        if spec is None:
            raise refuse(path + ("level",), f"{industry} has no tile of level {level}")
        return spec

    def merchants(self, data: Any, path: Path) -> list[MerchantSpace]:
        spaces, seen = [], set()
        for n, space in enumerate(listed(data, path)):
            at = path + (n,)
            space = mapping(space, at, MERCHANT_KEYS)
            location, _, index = text(space["space"], at + ("space",)).rpartition("/")
            merchant = self.rs.merchants.get(location)
            if merchant is None or not index.isdecimal() or int(index) >= merchant.spaces.get(self.players, 0) \
                    or space["space"] in seen:
                raise refuse(at + ("space",), f"{space['space']!r} is not a merchant space of this game, or is "
                                              f"listed twice")
            seen.add(space["space"])
            tile = self.rs.merchant_tiles.get(text(space["tile"], at + ("tile",)))
            if tile is None:
                raise refuse(at + ("tile",), f"{space['tile']!r} is not a merchant tile")
            spaces.append(MerchantSpace(location, int(index), tile.id, tile.buys, flag(space["has_beer"],
                                                                                     at + ("has_beer",))))
        return spaces

    def log(self, data: Any, path: Path) -> list[dict[str, Any]]:
        """The log: entries written by the engine, each a mapping with its event; an action's entry
        names the seat that took it (the tiles developed are counted from them)."""
        entries = listed(data, path)
        for n, entry in enumerate(entries):
            text(mapping(entry, path + (n,)).get("event"), path + (n, "event"))
            if entry["event"] == "action":
                self.seat(entry.get("player"), path + (n, "player"))
        return list(entries)

    def pile(self, data: Any, path: Path) -> list[int]:
        return each(data, path, whole)


def state_from_dict(data: Any, ruleset: Ruleset, players: int, cards: dict[str, Card]) -> GameState:
    """The state a save holds (`state_to_dict` output), every field checked (see the module's
    docstring); a GameFileError names the first wrong one."""
    return _Reader(ruleset, players, cards).state(data, ("state",))
