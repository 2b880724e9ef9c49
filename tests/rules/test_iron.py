"""Consuming iron (rules.md §2.10, R-IRON-01 … R-IRON-04)."""

from __future__ import annotations

from position import card_id, cubes, hand, market, new_game, set_player, tile, turn


def acting():
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["stafford", "dudley", "coventry"])
    return g


def build_brewery(g, **extra) -> None:
    """Player 1 builds Brewery I (£5 + 1 iron) at Stafford, which is linked to nothing."""
    g.apply({"action": "build", "card": card_id(g, 1, "stafford"), "industry": "brewery",
             "location": "stafford", "slot": "stafford/0", **extra})


def test_R_IRON_01_iron_needs_no_connection() -> None:
    """R-IRON-01: Stafford and Coalbrookdale are not connected; the iron still comes from player 2's
    Iron Works at Coalbrookdale (4 → 3); £5 paid."""
    g = acting()
    tile(g, 2, "coalbrookdale/1", "iron", 1)
    build_brewery(g)
    assert cubes(g, "coalbrookdale/1") == 3
    assert (g.table.player(1).money, g.state.markets["iron"], g.state.tiles["stafford/0"].cubes) == (12, 8, 1)


def test_R_IRON_02_any_iron_works_the_player_chooses() -> None:
    """R-IRON-02: iron works at Dudley (player 2) and Coalbrookdale (player 1): the player is asked
    and may take the iron from either; it is free."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 1, cubes=2)
    tile(g, 1, "coalbrookdale/1", "iron", 2, cubes=3)
    for decision in ({"action": "build"}, {"card": card_id(g, 1, "stafford")}, {"industry": "brewery"},
                     {"location": "stafford"}, {"slot": "stafford/0"}):
        g.apply(decision)
    assert sorted(d["answer"] for d in g.legal_actions()) == ["coalbrookdale/1", "dudley/1"]
    g.apply({"answer": "coalbrookdale/1"})
    assert (cubes(g, "dudley/1"), cubes(g, "coalbrookdale/1")) == (2, 2)
    assert g.table.player(1).money == 12


def test_R_IRON_02_each_cube_from_a_different_works() -> None:
    """R-IRON-02: developing two tiles (1 iron each) takes one cube from each works when so answered."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 1, cubes=2)
    tile(g, 1, "coalbrookdale/1", "iron", 2, cubes=3)
    g.apply({"action": "develop", "card": card_id(g, 1, "dudley"),
             "tiles": [{"industry": "coal"}, {"industry": "cotton"}], "answers": ["dudley/1", "coalbrookdale/1"]})
    assert (cubes(g, "dudley/1"), cubes(g, "coalbrookdale/1")) == (1, 2)
    assert (g.table.player(1).money, g.table.player(1).mat_used) == (17, {"iron": 2, "coal": 1, "cotton": 1})


def test_R_IRON_03_market_only_without_any_iron_works_no_connection_needed() -> None:
    """R-IRON-03: no Iron Works anywhere: the iron is bought at £2 (cheapest filled space) although
    Stafford is connected to nothing: £17 - £5 - £2 = £10, market 8 → 7."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 1, flipped=True)  # a flipped works holds no iron
    build_brewery(g)
    assert (g.table.player(1).money, g.table.player(1).spent, g.state.markets["iron"]) == (10, 7, 7)


def test_R_IRON_03_market_not_used_while_a_works_has_iron() -> None:
    """R-IRON-03: a works with iron anywhere must be used first: the market keeps its 8 cubes."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 1, cubes=1)
    build_brewery(g)
    assert (g.state.markets["iron"], cubes(g, "dudley/1"), g.table.player(1).money) == (8, 0, 12)
    assert g.state.tiles["dudley/1"].flipped


def test_R_IRON_03_empty_iron_market_sells_at_6() -> None:
    """R-IRON-03: empty iron market: 1 iron costs £6 (£17 - £5 - £6 = £6); with 1 cube left,
    developing two tiles costs £5 + £6."""
    g = acting()
    market(g, iron=0)
    build_brewery(g)
    assert (g.table.player(1).money, g.state.markets["iron"]) == (6, 0)
    g = acting()
    market(g, iron=1)
    g.apply({"action": "develop", "card": card_id(g, 1, "dudley"),
             "tiles": [{"industry": "coal"}, {"industry": "cotton"}]})
    assert (g.table.player(1).money, g.state.markets["iron"]) == (17 - 11, 0)


def test_R_IRON_04_consumed_iron_goes_to_the_general_supply() -> None:
    """R-IRON-04: iron from player 2's works: player 2 is not paid and the cube does not go to the
    market; bought iron leaves the market for good."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 1, cubes=3)
    set_player(g, 2, money=17)
    build_brewery(g)
    assert (g.table.player(2).money, g.state.markets["iron"], cubes(g, "dudley/1")) == (17, 8, 2)
    assert sum(t.cubes for t in g.state.tiles.values() if t.spec.industry == "iron") == 2


def test_R_IRON_03_works_first_then_the_market_for_the_rest() -> None:
    """R-IRON-03: developing two tiles with 1 iron left on player 2's works: that cube (the works flips,
    player 2's income +3), then 1 bought at £2: £15, market 7."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 1, cubes=1)
    g.apply({"action": "develop", "card": card_id(g, 1, "dudley"),
             "tiles": [{"industry": "coal"}, {"industry": "cotton"}]})
    assert (g.table.player(1).money, g.state.markets["iron"], g.table.player(2).income_position) == (15, 7, 13)
