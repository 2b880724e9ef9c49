"""Merchant beer bonuses (rules.md §2.18, R-MERCH-01 … R-MERCH-04)."""

from __future__ import annotations

from position import card_id, hand, link, merchant_space, merchants, new_game, set_mat, set_player, tile, turn


def acting(players: int, merchant_tiles: dict[str, str]):
    g = new_game(players)
    turn(g, 1, order=list(range(1, players + 1)), round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    merchants(g, merchant_tiles)
    return g


def sell(g, slot: str, merchant: str, **extra) -> dict:
    return {"action": "sell", "card": card_id(g, 1, "dudley"),
            "sales": [{"tile": slot, "merchant": merchant, "merchant_beer": True}], **extra}


def test_R_MERCH_01_gloucester_develops_a_tile_without_iron() -> None:
    """R-MERCH-01: selling Cotton Mill I at Worcester to Gloucester with its barrel: the player chooses
    an industry (not the lightbulb Pottery I) and its lowest tile leaves the mat, no iron: iron market
    stays 8, money stays £17; income +5."""
    g = acting(2, {"gloucester/0": "cotton"})
    tile(g, 1, "worcester/0", "cotton", 1)
    link(g, 2, "L29")
    for d in ({"action": "sell"}, {"card": card_id(g, 1, "dudley")}, {"tile": "worcester/0"},
              {"merchant": "gloucester/0"}, {"merchant_beer": True}):
        g.apply(d)
    options = sorted(d["answer"] for d in g.legal_actions())
    assert options == ["brewery", "coal", "cotton", "iron", "manufacturer"]
    g.apply({"answer": "iron"})
    p1 = g.table.player(1)
    assert (g.table.tiles_left(p1, "iron"), g.table.lowest_tile(p1, "iron").level) == (3, 2)
    assert (p1.money, g.state.markets["iron"], p1.income_position) == (17, 8, 15)
    assert merchant_space(g, "gloucester/0").has_beer is False


def test_R_MERCH_01_gloucester_may_take_pottery_ii() -> None:
    """R-MERCH-01: once Pottery I is built the bonus may remove Pottery II (no iron), leaving III."""
    g = acting(2, {"gloucester/1": "wild"})
    set_mat(g, 1, "pottery", 2)
    tile(g, 1, "worcester/0", "cotton", 1)
    link(g, 2, "L29")
    g.apply(sell(g, "worcester/0", "gloucester/1", answers=["pottery"]))
    assert g.table.lowest_tile(g.table.player(1), "pottery").level == 3
    assert g.state.markets["iron"] == 8


def test_R_MERCH_02_oxford_two_income_spaces() -> None:
    """R-MERCH-02: at space 40 (level 14) selling Cotton Mill IV (+2) with the Oxford barrel: 40 + 2 + 2 = 44
    (level 15)."""
    g = acting(2, {"oxford/1": "cotton"})
    set_mat(g, 1, "cotton", 4)
    tile(g, 1, "birmingham/0", "cotton", 4)
    link(g, 2, "L06")
    set_player(g, 1, income=40)
    g.apply(sell(g, "birmingham/0", "oxford/1"))
    assert (g.table.player(1).income_position, g.table.income_level(g.table.player(1))) == (44, 15)


def test_R_MERCH_03_nottingham_three_vp() -> None:
    """R-MERCH-03: 4 players: Cotton Mill I at Derby sold to Nottingham with its barrel: +3 VP."""
    g = acting(4, {"nottingham/0": "cotton"})
    tile(g, 1, "derby/0", "cotton", 1)
    link(g, 2, "L24")
    g.apply(sell(g, "derby/0", "nottingham/0"))
    assert (g.table.player(1).vp, g.table.player(1).income_position) == (3, 15)


def test_R_MERCH_03_shrewsbury_four_vp() -> None:
    """R-MERCH-03: Cotton Mill I at Kidderminster sold to Shrewsbury (via Coalbrookdale) with its barrel: +4 VP."""
    g = acting(2, {"shrewsbury/0": "wild"})
    tile(g, 1, "kidderminster/1", "cotton", 1)
    link(g, 2, "L20", "L21")
    g.apply(sell(g, "kidderminster/1", "shrewsbury/0"))
    assert (g.table.player(1).vp, g.table.player(1).income_position) == (4, 15)


def test_R_MERCH_04_warrington_five_pounds() -> None:
    """R-MERCH-04: 3 players: Manufacturer I at Stoke-on-Trent sold to Warrington with its barrel: +£5,
    not counted as spent."""
    g = acting(3, {"warrington/0": "manufacturer"})
    tile(g, 1, "stoke_on_trent/2", "manufacturer", 1)
    link(g, 2, "L36")
    g.apply(sell(g, "stoke_on_trent/2", "warrington/0"))
    p1 = g.table.player(1)
    assert (p1.money, p1.spent, p1.vp, p1.income_position) == (22, 0, 0, 15)
