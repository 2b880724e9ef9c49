"""Extra condition-language names for the `then:` assertions of scenarios.

A child of the ruleset's registry (`Registry(parent=ruleset.registry)`): everything a ruleset
may say is available, plus a few ways to name concrete things of a position that an action
never needs (a player by seat, a slot by location and index, a market's cubes, the open
question…). Expressions run in `assertion_env(game)`. Documented in docs/scenarios.md.
"""

from __future__ import annotations

from typing import Any

from brass_dsl import BOOL, INT, STR, Env, ListType, Param, RecordType, Registry
from interpreter.engine.game import Game
from interpreter.engine.table import Table
from interpreter.ruleset.primitives import game

QUESTION_VAR = "@question"  # '@' is not in names: no expression can name it
_cache: dict[int, tuple[Any, Registry]] = {}


def scenario_registry(ruleset: Any) -> Registry:
    """The ruleset's registry plus the scenario names (built once per ruleset)."""
    found = _cache.get(id(ruleset))
    if found is not None and found[0] is ruleset:
        return found[1]
    registry = _build(ruleset)
    _cache[id(ruleset)] = (ruleset, registry)
    return registry


def _first(ids: Any) -> str:
    return str(next(iter(ids), "x"))


def _build(rs: Any) -> Registry:
    parent = rs.registry
    reg = Registry(parent=parent)
    player, slot, tile = parent.lookup_type("player"), parent.lookup_type("slot"), parent.lookup_type("tile")
    location, link = parent.lookup_type("location"), parent.lookup_type("link")
    industry, merchant_tile = parent.lookup_type("industry"), parent.lookup_type("merchant_tile")
    market = reg.add_type(RecordType("market", "A resource market, by id.", ids=lambda: list(rs.markets)))
    seat, where, index = Param("seat", INT), Param("location", location), Param("index", INT)
    p = Param("p", player)
    # the examples name ids of this ruleset: a market, a location with slots, a merchant, an industry
    mkt, town = _first(rs.markets), _first(lid for lid, loc in rs.locations.items() if loc.slots)
    merchant, an_industry = _first(rs.merchants), _first(rs.industries)
    fn, name = reg.add_function, reg.add_name

    fn("player", (seat,), player, "The player in a seat.", "player(1).money == 17",
       lambda env, s: _player(env, s))
    fn("vp", (seat,), INT, "VP of the player in a seat.", "vp(1) == 13", lambda env, s: _player(env, s).vp)
    fn("money", (seat,), INT, "Money of the player in a seat.", "money(2) == 0",
       lambda env, s: _player(env, s).money)
    fn("market", (Param("m", market),), INT, "Cubes in a market.", f"market(\"{mkt}\") == 12",
       lambda env, m: game(env).state.markets.get(m, 0))
    fn("slot_at", (where, index), slot, "A slot by location and index.", f"slot_at(\"{town}\", 0)",
       lambda env, loc, i: _slot(rs, loc, i))
    fn("tile_at", (where, index), tile, "The tile on a slot.", f"tile_at(\"{town}\", 0).cubes == 1",
       lambda env, loc, i: game(env).tile_in(_slot(rs, loc, i)))
    fn("occupied", (where, index), BOOL, "A tile stands on the slot.", f"not occupied(\"{town}\", 0)",
       lambda env, loc, i: not game(env).slot_free(_slot(rs, loc, i)))
    fn("link_seat", (Param("link", link),), INT, "Seat of the link's owner, 0 if none.", "link_seat(\"L04\") == 1",
       lambda env, k: game(env).state.links.get(k, 0))
    fn("merchant_at", (where, index), merchant_tile, "The merchant tile on a merchant space.",
       f"merchant_at(\"{merchant}\", 0).has_beer", lambda env, loc, i: _merchant(env, loc, i))
    fn("mat_level", (p, Param("industry", industry)), INT, "Level of the lowest tile left on the mat (0: none).",
       f"mat_level(player(1), \"{an_industry}\") == 2", lambda env, q, i: _mat_level(env, q, i))
    fn("removed", (p,), INT, "Tiles of the player that left the board for good.", "removed(player(2)) == 1",
       lambda env, q: q.removed)
    fn("hand_faces", (p,), ListType(STR), "Faces of the cards in hand.", f"\"{town}\" in hand_faces(player(1))",
       lambda env, q: [c.face for c in q.hand])
    fn("place", (seat,), INT, "Place in the standings.", "place(1) == 1", lambda env, s: _place(env, s))
    name("to_act", player, "The player whose turn it is.", "to_act == player(2)", lambda env: game(env).me)
    name("asked", INT, "Seat asked the open question, 0 if none.", "asked == 1",
         _asked)
    name("options", ListType(STR), "Answers of the open question.", f"options == [\"{town}/0\"]",
         _options)
    name("turn_order", ListType(INT), "Seats in turn order.", "turn_order == [2, 1]",
         lambda env: list(game(env).state.turn_order))
    name("game_over", BOOL, "The game has ended.", "game_over", lambda env: game(env).state.finished)
    name("deck_faces", ListType(STR), "Faces of the cards in the draw deck, top card last.",
         f"count(f in deck_faces where f == \"{town}\") == 2", lambda env: [c.face for c in game(env).state.deck])
    name("set_aside_faces", ListType(STR), "Faces of the cards set aside face down (eras' `set_aside`).",
         f"\"{town}\" not in set_aside_faces", lambda env: [c.face for c in game(env).state.aside])
    fn("discard_faces", (p,), ListType(STR), "Faces of the cards on the discard pile.",
       f"discard_faces(player(1)) == [\"{town}\"]", lambda env, q: [c.face for c in q.discard])
    fn("wild_pile", (Param("kind", STR),), INT,
       "Cards left on a wild card pile (\"wild_location\", \"wild_industry\").",
       "wild_pile(\"wild_location\") == 4", lambda env, k: _wild_pile(env, k))
    return reg


def assertion_env(game: Game) -> Env:
    """The environment a scenario's assertions run in: the game's table, and its open question
    (a game's, not the table's: passed as a variable no expression can name)."""
    return Env(game.table, {QUESTION_VAR: game.question})


def _question(env: Env) -> dict[str, Any] | None:
    question: dict[str, Any] | None = env.vars.get(QUESTION_VAR)
    return question


def _asked(env: Env) -> int:
    question = _question(env)
    return question["player"] if question else 0


def _options(env: Env) -> list[str]:
    question = _question(env)
    return [str(o) for o in question["options"]] if question else []


def _player(env: Env, seat: int) -> Any:
    players = game(env).players
    if not 1 <= seat <= len(players):
        raise ValueError(f"there is no player {seat} (seats 1 to {len(players)})")
    return players[seat - 1]


def _slot(rs: Any, location: str, index: int) -> Any:
    slots = rs.locations[location].slots
    if not 0 <= index < len(slots):
        raise ValueError(f"{rs.locations[location].name} has no slot {index}")
    return slots[index]


def _merchant(env: Env, location: str, index: int) -> Any:
    for m in game(env).state.merchants:
        if m.location == location and m.index == index:
            return m
    raise ValueError(f"merchant space {location}/{index} is not in use")


def _mat_level(env: Env, p: Any, industry: str) -> int:
    g = game(env)
    return 0 if g.tiles_left(p, industry) == 0 else g.lowest_tile(p, industry).level


def _wild_pile(env: Env, kind: str) -> int:
    piles = game(env).state.wild_piles
    if kind not in piles:
        raise ValueError(f"no wild card pile '{kind}' (piles: {', '.join(piles)})")
    return len(piles[kind])


def _place(env: Env, seat: int) -> int:
    _player(env, seat)
    table = game(env)
    assert isinstance(table, Table)  # assertion_env() runs assertions on a Table, which also has standings()
    return next(row["place"] for row in table.standings() if row["seat"] == seat)
