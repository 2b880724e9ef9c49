"""Overbuilding (rules.md §2.14, R-OVER-01 … R-OVER-06)."""

from __future__ import annotations

from position import (
    card_id,
    cubes,
    era,
    hand,
    last_cards,
    link,
    market,
    new_game,
    pass_round,
    refused,
    set_mat,
    set_player,
    tile,
    turn,
)


def acting(cards=("dudley", "coventry", "worcester"), era_id: str = "canal"):
    g = new_game(2)
    era(g, era_id, round=2)
    turn(g, 1, order=[1, 2])
    hand(g, 1, list(cards))
    return g


def build(g, face: str, industry: str, slot: str) -> dict:
    return {"action": "build", "card": card_id(g, 1, face), "industry": industry,
            "location": slot.split("/")[0], "slot": slot}


def test_R_OVER_01_own_tile_replaced_by_a_higher_level_of_the_same_industry() -> None:
    """R-OVER-01: player 1's flipped Coal Mine I at Dudley is replaced by Coal Mine II (£7, 3 cubes;
    no merchant connection, so it keeps them), paid with the Dudley card."""
    g = acting()
    tile(g, 1, "dudley/0", "coal", 1, flipped=True)
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    t = g.state.tiles["dudley/0"]
    assert (t.spec.level, t.cubes, t.flipped, g.table.player(1).money) == (2, 3, False, 10)


def test_R_OVER_01_not_another_industry_nor_the_same_level() -> None:
    """R-OVER-01: a Coal Mine may not replace player 1's Manufacturer at Coventry; a Coal Mine II may not
    replace a Coal Mine II."""
    g = acting()
    tile(g, 1, "coventry/1", "manufacturer", 1, flipped=True)
    assert "R-OVER-01" in refused(g, build(g, "coventry", "coal", "coventry/1"))
    g = acting()
    tile(g, 1, "dudley/0", "coal", 2, flipped=True)
    assert g.table.lowest_tile(g.table.player(1), "coal").level == 2
    assert "R-OVER-01" in refused(g, build(g, "dudley", "coal", "dudley/0"))


def test_R_OVER_02_own_tile_of_any_industry_its_cubes_leave() -> None:
    """R-OVER-02: own unflipped Cotton Mill I at Worcester → Cotton Mill II (£14 + coal £1 via
    Gloucester): £2 left. Own Coal Mine I with 1 cube → Coal Mine II: the old cube goes to the supply,
    not the market (13), the new tile has 3."""
    g = acting()
    tile(g, 1, "worcester/0", "cotton", 1)
    set_mat(g, 1, "cotton", 2)
    link(g, 2, "L29")
    g.apply(build(g, "worcester", "cotton", "worcester/0"))
    assert (g.state.tiles["worcester/0"].spec.level, g.table.player(1).money) == (2, 2)
    g = acting()
    tile(g, 1, "dudley/0", "coal", 1, cubes=1)
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    assert (cubes(g, "dudley/0"), g.state.markets["coal"]) == (3, 13)


def test_R_OVER_03_opponent_mine_only_when_no_coal_is_left_anywhere() -> None:
    """R-OVER-03: player 2's flipped Coal Mine I at Dudley: refused while the market holds coal, and
    while any board tile holds coal; allowed once there is none."""
    g = acting()
    tile(g, 2, "dudley/0", "coal", 1, flipped=True)
    set_mat(g, 1, "coal", 2)
    assert "R-OVER-03" in refused(g, build(g, "dudley", "coal", "dudley/0"))
    market(g, coal=0)
    tile(g, 2, "cannock/1", "coal", 2, cubes=1)
    assert "R-OVER-03" in refused(g, build(g, "dudley", "coal", "dudley/0"))
    g = acting()
    tile(g, 2, "dudley/0", "coal", 1, flipped=True)
    tile(g, 2, "cannock/1", "coal", 2, flipped=True)
    set_mat(g, 1, "coal", 2)
    market(g, coal=0)
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    t = g.state.tiles["dudley/0"]
    assert (t.owner.seat, t.spec.level, t.cubes, g.table.player(1).money) == (1, 2, 3, 10)


def test_R_OVER_03_opponent_iron_works_only_when_no_iron_is_left() -> None:
    """R-OVER-03: player 2's flipped Iron Works I at Dudley: refused with iron in the market; with none
    anywhere, Iron Works II replaces it (£7, coal from Dudley's mine), sells 4 iron to the empty market
    (£5 + £5 + £4 + £4 = £18), flips (income +3): £17 - £7 + £18 = £28."""
    g = acting(cards=("dudley", "coventry"))
    tile(g, 2, "dudley/1", "iron", 1, flipped=True)
    set_mat(g, 1, "iron", 2)
    tile(g, 2, "dudley/0", "coal", 2)
    assert "R-OVER-03" in refused(g, build(g, "dudley", "iron", "dudley/1"))
    market(g, iron=0)
    g.apply(build(g, "dudley", "iron", "dudley/1"))
    p1 = g.table.player(1)
    assert (p1.money, p1.income_position, g.state.markets["iron"], cubes(g, "dudley/0")) == (28, 13, 4, 2)


def test_R_OVER_03_never_an_opponent_s_other_industry() -> None:
    """R-OVER-03: player 2's Cotton Mill I at Worcester cannot be overbuilt by player 1's Cotton Mill."""
    g = acting(cards=("worcester", "dudley"))
    tile(g, 2, "worcester/0", "cotton", 1, flipped=True)
    tile(g, 2, "worcester/1", "cotton", 2, flipped=True)
    market(g, coal=0, iron=0)
    set_mat(g, 1, "cotton", 2)
    set_player(g, 1, money=40)
    assert "R-OVER-03" in refused(g, build(g, "worcester", "cotton", "worcester/0"))


def test_R_OVER_04_overbuilt_tile_leaves_owner_keeps_income_and_vp() -> None:
    """R-OVER-04: player 2 keeps income space 14 and 6 VP; the Coal Mine I leaves the board and is not
    scored at the end of the era (player 2 scores 0 more)."""
    g = acting()
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["dudley", "coventry"], 2: ["birmingham"]})
    tile(g, 2, "dudley/0", "coal", 1, flipped=True)
    set_player(g, 2, income=14, vp=6)
    set_mat(g, 1, "coal", 2)
    market(g, coal=0)
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    assert (g.table.player(2).income_position, g.table.player(2).vp) == (14, 6)
    assert g.state.tiles["dudley/0"].owner.seat == 1
    assert g.table.player(2).removed == 1
    pass_round(g)
    assert g.table.era == "rail"
    assert g.table.player(2).vp == 6


def test_R_OVER_05_canal_own_tile_yes_opponent_mine_where_you_have_a_tile_no() -> None:
    """R-OVER-05: in the Canal Era player 1 may overbuild its own Coal Mine at Dudley (still 1 tile
    there) but not player 2's Coal Mine at Dudley while owning the Iron Works there."""
    g = acting()
    tile(g, 1, "dudley/1", "iron", 1, flipped=True)
    tile(g, 2, "dudley/0", "coal", 1, flipped=True)
    set_mat(g, 1, "coal", 2)
    market(g, coal=0)
    assert "R-BUILD-12" in refused(g, build(g, "dudley", "coal", "dudley/0"))
    g = acting()
    tile(g, 1, "dudley/0", "coal", 1, flipped=True)
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    assert [t.owner.seat for t in g.table.tiles_at("dudley")] == [1]


def test_R_OVER_06_overbuilding_mine_sells_to_the_empty_market() -> None:
    """R-OVER-06: player 2's flipped Coal Mine I at Dudley (no coal anywhere): Coal Mine II, connected to
    Oxford, sells 3 cubes at £7 + £7 + £6 = £20 and flips (+7): £17 - £7 + £20 = £30, space 17."""
    g = acting()
    tile(g, 2, "dudley/0", "coal", 1, flipped=True)
    set_mat(g, 1, "coal", 2)
    market(g, coal=0)
    link(g, 2, "L04", "L06")
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    p1 = g.table.player(1)
    assert (p1.money, p1.income_position, g.state.markets["coal"], cubes(g, "dudley/0")) == (30, 17, 3, 0)


def test_R_OVER_01_overbuilding_ignores_the_slot_preference() -> None:
    """R-OVER-01 (rules.md §4.9): player 1's Manufacturer I on Birmingham's Cotton/Manufacturer space is
    replaced by Manufacturer II (£10 + 1 iron £2) although a Manufacturer-only space is free."""
    g = acting(cards=("birmingham", "dudley"))
    tile(g, 1, "birmingham/0", "manufacturer", 1, flipped=True)
    g.apply(build(g, "birmingham", "manufacturer", "birmingham/0"))
    assert (g.state.tiles["birmingham/0"].spec.level, g.table.player(1).money) == (2, 5)
    assert "birmingham/1" not in g.state.tiles
