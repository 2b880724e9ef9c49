"""Develop action (rules.md §2.16, R-DEV-01 … R-DEV-04)."""

from __future__ import annotations

import pytest

from interpreter.engine.game import IllegalAction

from position import card_id, cubes, era, hand, link, new_game, refused, set_mat, set_player, tile, turn


def acting(era_id: str = "canal"):
    g = new_game(2)
    era(g, era_id, round=2)
    turn(g, 1, order=[1, 2])
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    return g


def develop(g, *industries: str, face: str = "birmingham") -> dict:
    return {"action": "develop", "card": card_id(g, 1, face), "tiles": [{"industry": i} for i in industries]}


def test_R_DEV_01_one_or_two_lowest_tiles_of_any_industries() -> None:
    """R-DEV-01: Coal and Iron: the lowest of each leaves the mat (6 coal, 3 iron left); Cotton twice:
    two Cotton I (9 left, lowest still Cotton I); nothing goes on the board."""
    g = acting()
    g.apply(develop(g, "coal", "iron"))
    p1 = g.table.player(1)
    assert (g.table.tiles_left(p1, "coal"), g.table.tiles_left(p1, "iron")) == (6, 3)
    assert (g.table.lowest_tile(p1, "coal").level, g.table.lowest_tile(p1, "iron").level) == (2, 2)
    g.apply(develop(g, "cotton", "cotton", face="dudley"))
    assert (g.table.tiles_left(p1, "cotton"), g.table.lowest_tile(p1, "cotton").level) == (9, 1)
    assert g.state.tiles == {}


def test_R_DEV_01_only_one_tile() -> None:
    """R-DEV-01: a single tile may be developed (Brewery I: 6 left, £2 for the iron)."""
    g = acting()
    g.apply(develop(g, "brewery"))
    assert (g.table.tiles_left(g.table.player(1), "brewery"), g.table.player(1).money) == (6, 15)


def test_R_DEV_02_one_iron_per_tile_from_the_market() -> None:
    """R-DEV-02: two tiles, no Iron Works: 2 iron bought at £2 + £2: £13; iron market 8 → 6."""
    g = acting()
    g.apply(develop(g, "coal", "manufacturer"))
    assert (g.table.player(1).money, g.table.player(1).spent, g.state.markets["iron"]) == (13, 4, 6)


def test_R_DEV_02_one_iron_per_tile_from_iron_works() -> None:
    """R-DEV-02: two tiles, player 2's Iron Works with 3 iron: 3 → 1, free, market untouched."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 1, cubes=3)
    g.apply(develop(g, "coal", "manufacturer"))
    assert (g.table.player(1).money, cubes(g, "dudley/1"), g.state.markets["iron"]) == (17, 1, 8)


def test_R_DEV_03_lightbulb_potteries_cannot_be_developed() -> None:
    """R-DEV-03: Pottery I (lightbulb) is refused; after it is built, Pottery II can be developed, but
    then Pottery III (lightbulb) cannot, in the same action or later."""
    g = acting()
    assert "R-DEV-03" in refused(g, develop(g, "pottery"))
    set_mat(g, 1, "pottery", 2)
    refused(g, develop(g, "pottery", "pottery"))  # its reasons: see the next test
    g.apply(develop(g, "pottery"))
    p1 = g.table.player(1)
    assert (g.table.lowest_tile(p1, "pottery").level, g.table.tiles_left(p1, "pottery")) == (3, 3)
    assert "R-DEV-03" in refused(g, develop(g, "pottery", face="dudley"))


def test_R_DEV_03_explain_sees_the_second_tile_is_a_lightbulb() -> None:
    """R-DEV-03: with Pottery II lowest, developing Pottery twice removes II then meets III (lightbulb):
    `explain` must call that action illegal, citing R-DEV-03, as `apply` does."""
    g = acting()
    set_mat(g, 1, "pottery", 2)
    result = g.explain(develop(g, "pottery", "pottery"))
    assert result["legal"] is False
    assert [f.rule for f in result["failures"]] == ["R-DEV-03"]


def test_R_DEV_04_develop_clears_level_1_tiles_in_the_rail_era() -> None:
    """R-DEV-04: in the Rail Era Cotton Mill I cannot be built; after developing the three Cotton I
    (3 iron: £2 + £2 + £3), Cotton Mill II is built at Worcester (£14 + 1 coal from the Kidderminster
    mine): £30 - £7 - £14 = £9."""
    g = acting("rail")
    hand(g, 1, ["worcester", "dudley", "coventry", "birmingham"])
    set_player(g, 1, money=30)
    tile(g, 2, "kidderminster/0", "coal", 2, cubes=3)
    link(g, 2, "L30")
    build = {"action": "build", "card": card_id(g, 1, "worcester"), "industry": "cotton",
             "location": "worcester", "slot": "worcester/0"}
    assert refused(g, build)
    g.apply({"action": "develop", "card": card_id(g, 1, "dudley"),
             "tiles": [{"industry": "cotton"}, {"industry": "cotton"}]})
    g.apply({"action": "develop", "card": card_id(g, 1, "coventry"), "tiles": [{"industry": "cotton"}]})
    assert g.table.lowest_tile(g.table.player(1), "cotton").level == 2
    turn(g, 1)
    g.apply(build)
    assert g.state.tiles["worcester/0"].spec.id == "cotton/2"
    assert (g.table.player(1).money, cubes(g, "kidderminster/0")) == (30 - 7 - 14, 2)


def test_R_DEV_02_no_develop_without_iron() -> None:
    """R-DEV-02: with £1, no Iron Works and iron at £2 in the market, no tile can be developed: Develop
    is not a legal action, and a Develop removing nothing is refused."""
    g = acting()
    set_player(g, 1, money=1)
    assert {"action": "develop"} not in g.legal_actions()
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply({"action": "develop", "card": card_id(g, 1, "birmingham"), "tiles": []})
    assert g.to_json() == before
