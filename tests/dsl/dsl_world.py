"""A toy world for testing the condition language: players and locations.

The language knows nothing about Brass, so its tests use a small registry of
their own rather than the interpreter's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from brass_dsl import INT, STR, Env, ListType, Param, RecordType, Registry


@dataclass(frozen=True)
class Player:
    name: str
    money: int
    vp: int


@dataclass(frozen=True)
class Location:
    name: str


LOCATIONS = {name: Location(name) for name in ("leek", "derby", "birmingham")}
DISTANCES = {
    frozenset(("leek", "derby")): 2,
    frozenset(("derby", "birmingham")): 1,
    frozenset(("leek", "birmingham")): 3,
}


@dataclass
class World:
    players: list[Player]
    me: Player
    here: Location


def _player_by_number(env: Env, number: int) -> Player:
    if not 1 <= number <= len(env.context.players):
        raise ValueError(f"there is no player {number}")
    return env.context.players[number - 1]


def _distance(env: Env, a: Location, b: Location) -> int:
    return 0 if a == b else DISTANCES[frozenset((a.name, b.name))]


def build_registry() -> Registry:
    registry = Registry()
    player = registry.add_type(RecordType("player", "Someone playing the game."))
    player.add_field("money", INT, "Coins in hand.", lambda env, p: p.money)
    player.add_field("vp", INT, "Victory points.", lambda env, p: p.vp)
    player.add_field("name", STR, "The player's name.", lambda env, p: p.name)
    location = registry.add_type(
        RecordType("location", "A town on the board.", ids=lambda: LOCATIONS.keys(), from_literal=LOCATIONS.__getitem__)
    )
    location.add_field("name", STR, "The town's name.", lambda env, loc: loc.name)
    registry.add_name("me", player, "The current player.", "me.money >= 5", lambda env: env.context.me)
    registry.add_name(
        "players", ListType(player), "Everyone, in turn order.", "count(p in players)", lambda env: env.context.players
    )
    registry.add_name("locations", ListType(location), "Every town.", "", lambda env: list(LOCATIONS.values()))
    registry.add_name("here", location, "Where the action happens.", 'here == "leek"', lambda env: env.context.here)
    registry.add_function(
        "income_level",
        [Param("p", player)],
        INT,
        "Income level of a player.",
        "income_level(me) > 3",
        lambda env, p: p.money // 3,
    )
    registry.add_function(
        "distance",
        [Param("a", location), Param("b", location)],
        INT,
        "Links between two towns.",
        'distance(here, "derby")',
        _distance,
    )
    registry.function("player", [Param("n", INT)], player, doc="The n-th player.", example="player(1).vp")(
        _player_by_number
    )
    return registry


def make_env(**vars: Any) -> Env:
    alice, bob, carol = Player("alice", 7, 10), Player("bob", 2, 25), Player("carol", 12, 3)
    return Env(World([alice, bob, carol], alice, LOCATIONS["leek"]), dict(vars))
