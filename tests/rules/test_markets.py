"""Selling coal and iron to the markets when built (rules.md §2.13, R-MKT-01 … R-MKT-05)."""

from __future__ import annotations

from position import card_id, cubes, hand, link, market, new_game, set_mat, tile, turn


def acting(cards=("dudley", "birmingham", "coventry")):
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, list(cards))
    return g


def build(g, face: str, industry: str, slot: str) -> None:
    g.apply({"action": "build", "card": card_id(g, 1, face), "industry": industry,
             "location": slot.split("/")[0], "slot": slot})


def test_R_MKT_01_connected_coal_mine_fills_the_dearest_empty_spaces() -> None:
    """R-MKT-01: coal market with 10 cubes (empty: £1 £1 £2 £2); Coal Mine II at Dudley, connected to
    Oxford via Birmingham, must sell its 3 cubes at £2 + £2 + £1 = £5: £17 - £7 + £5 = £15; market 13.
    R-MKT-03: it is emptied, flips, income +7 (space 17)."""
    g = acting()
    set_mat(g, 1, "coal", 2)
    market(g, coal=10)
    link(g, 2, "L04", "L06")
    build(g, "dudley", "coal", "dudley/0")
    p1 = g.table.player(1)
    assert (p1.money, g.state.markets["coal"], cubes(g, "dudley/0")) == (15, 13, 0)
    assert g.state.tiles["dudley/0"].flipped and p1.income_position == 17
    assert p1.spent == 7


def test_R_MKT_01_as_many_as_the_market_takes() -> None:
    """R-MKT-01: coal market 13 (one £1 space empty): Coal Mine I sells 1 cube for £1 and keeps 1."""
    g = acting()
    link(g, 2, "L04", "L06")
    build(g, "dudley", "coal", "dudley/0")
    assert (g.table.player(1).money, g.state.markets["coal"], cubes(g, "dudley/0")) == (13, 14, 1)
    assert not g.state.tiles["dudley/0"].flipped


def test_R_MKT_01_merchant_location_without_a_merchant_tile() -> None:
    """R-MKT-01: at 2 players Warrington has no tile, but a Coal Mine I at Leek linked to it
    (Leek–Stoke–Warrington) still sells 1 cube (£1) to the market."""
    g = acting(cards=("wild_location", "dudley"))
    link(g, 2, "L31", "L36")
    assert not any(m.location == "warrington" for m in g.state.merchants)
    build(g, "wild_location", "coal", "leek/1")
    assert (g.table.player(1).money, g.state.markets["coal"], cubes(g, "leek/1")) == (13, 14, 1)


def test_R_MKT_02_iron_works_sells_regardless_of_connection() -> None:
    """R-MKT-02: iron market with 5 cubes (empty: £1 £1 £2 £2 £3); Iron Works I at Coalbrookdale
    (no link anywhere) sells its 4 iron at £3 + £2 + £2 + £1 = £8: £17 - £5 + £8 = £20; market 9.
    R-MKT-03: emptied → flipped, income +3 (space 13)."""
    g = acting(cards=("coalbrookdale", "dudley"))
    tile(g, 2, "coalbrookdale/2", "coal", 2)
    market(g, iron=5)
    build(g, "coalbrookdale", "iron", "coalbrookdale/1")
    p1 = g.table.player(1)
    assert (p1.money, g.state.markets["iron"], cubes(g, "coalbrookdale/1")) == (20, 9, 0)
    assert g.state.tiles["coalbrookdale/1"].flipped and p1.income_position == 13


def test_R_MKT_03_emptied_by_the_market_sale_flips_and_raises_income() -> None:
    """R-MKT-03: coal market 12 (both £1 spaces empty): Coal Mine I sells both cubes (£2), flips:
    income 10 → 14; money £17 - £5 + £2 = £14."""
    g = acting()
    market(g, coal=12)
    link(g, 2, "L04", "L06")
    build(g, "dudley", "coal", "dudley/0")
    p1 = g.table.player(1)
    assert (p1.money, p1.income_position, g.state.tiles["dudley/0"].flipped) == (14, 14, True)


def test_R_MKT_04_only_during_the_build_action() -> None:
    """R-MKT-04: a Coal Mine II built at Redditch with no link keeps 3 cubes; linking Redditch to Oxford
    in the next action sells nothing (market stays 10)."""
    g = acting(cards=("redditch", "dudley"))
    set_mat(g, 1, "coal", 2)
    market(g, coal=10)
    build(g, "redditch", "coal", "redditch/0")
    g.apply({"action": "network", "card": card_id(g, 1, "dudley"), "links": [{"link": "L33"}]})
    assert (cubes(g, "redditch/0"), g.state.markets["coal"], g.table.player(1).money) == (3, 10, 17 - 7 - 3)


def test_R_MKT_05_unconnected_coal_mine_keeps_its_cubes() -> None:
    """R-MKT-05: Coal Mine II at Dudley linked only to Birmingham (no merchant) keeps its 3 cubes
    although the coal market has 9 empty spaces; £10 left."""
    g = acting()
    set_mat(g, 1, "coal", 2)
    market(g, coal=5)
    link(g, 2, "L04")
    build(g, "dudley", "coal", "dudley/0")
    assert (cubes(g, "dudley/0"), g.state.markets["coal"], g.table.player(1).money) == (3, 5, 10)
