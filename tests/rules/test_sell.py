"""Sell action and merchant beer (rules.md §2.17, R-SELL-01 … R-SELL-07)."""

from __future__ import annotations

import pytest

from interpreter.engine.game import IllegalAction

from position import (
    card_id,
    cubes,
    era,
    faces,
    hand,
    link,
    merchant,
    merchant_space,
    merchants,
    new_game,
    pass_round,
    refused,
    tile,
    turn,
)


def acting(tiles: dict[str, str] | None = None):
    """Player 1 to act, cards Birmingham/Dudley/Coventry; Birmingham linked to Oxford (player 2's link)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    merchants(g, tiles or {"oxford/0": "cotton", "oxford/1": "manufacturer"})
    link(g, 2, "L06")
    return g


def sell(g, *sales: tuple[str, str, bool], face: str = "dudley") -> dict:
    return {"action": "sell", "card": card_id(g, 1, face),
            "sales": [{"tile": t, "merchant": m, "merchant_beer": b} for t, m, b in sales]}


def test_R_SELL_01_any_card() -> None:
    """R-SELL-01: a Coal Mine card pays for a Sell; it goes on the discard pile."""
    g = acting()
    hand(g, 1, ["coal_mine", "dudley"])
    tile(g, 1, "birmingham/0", "cotton", 1)
    g.apply(sell(g, ("birmingham/0", "oxford/0", True), face="coal_mine"))
    assert faces(g.table.player(1).discard)[-1] == "coal_mine"
    assert g.state.tiles["birmingham/0"].flipped


@pytest.mark.parametrize("merchant_tile, ok", [("cotton", True), ("wild", True), ("manufacturer", False),
                                               ("pottery", False), ("blank", False)])
def test_R_SELL_02_merchant_must_show_the_icon(merchant_tile: str, ok: bool) -> None:
    """R-SELL-02: a Cotton Mill sells to a Cotton or all-goods merchant, not to a Manufacturer,
    Pottery or blank one."""
    g = acting({"oxford/0": merchant_tile})
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    action = sell(g, ("birmingham/0", "oxford/0", False))
    if ok:
        g.apply(action)
        assert g.table.player(1).income_position == 15
    else:
        assert "R-SELL-02" in refused(g, action)


def test_R_SELL_02_only_own_unflipped_cotton_manufacturer_pottery() -> None:
    """R-SELL-02: not an opponent's Cotton Mill, not an own flipped one, not a Coal Mine."""
    g = acting({"oxford/0": "wild"})
    tile(g, 2, "birmingham/0", "cotton", 1)
    tile(g, 1, "birmingham/1", "manufacturer", 1, flipped=True)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    tile(g, 1, "redditch/0", "coal", 2, cubes=1)
    link(g, 2, "L33")
    for slot in ("birmingham/0", "birmingham/1", "redditch/0"):
        assert "R-SELL-02" in refused(g, sell(g, (slot, "oxford/0", False)))


def test_R_SELL_02_nothing_to_sell_sell_is_not_listed() -> None:
    """R-SELL-02: with no tile that could be sold, Sell is not among the legal actions."""
    g = acting()
    assert {"action": "sell"} not in g.legal_actions()


def test_R_SELL_02_a_sell_without_a_sale_is_refused() -> None:
    """R-SELL-02: a Sell action selling nothing is refused (it may not serve as a pass); the player
    keeps the card and both actions."""
    g = acting()
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply({"action": "sell", "card": card_id(g, 1, "dudley"), "sales": []})
    assert g.to_json() == before


def test_R_SELL_02_refusal_cites_the_rule() -> None:
    """R-SELL-02: the IllegalAction for an unconnected sale (Worcester, while Birmingham could sell)
    lists the R-SELL-02 precondition."""
    g = acting()
    tile(g, 1, "worcester/0", "cotton", 1)
    tile(g, 1, "birmingham/0", "cotton", 1)
    with pytest.raises(IllegalAction) as refusal:
        g.apply(sell(g, ("worcester/0", "oxford/0", True)))
    assert "R-SELL-02" in [f.rule for f in refusal.value.failures]


def test_R_SELL_03_merchant_barrel_is_optional_and_gives_the_bonus() -> None:
    """R-SELL-03: with an own Brewery the player may leave the Oxford barrel (income 10 → 15, barrel
    stays); using it gives the Oxford bonus (the next Cotton Mill I: 15 → 22)."""
    g = acting({"oxford/0": "cotton", "oxford/1": "cotton"})
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "worcester/0", "cotton", 1)
    link(g, 2, "L10")
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    g.apply(sell(g, ("birmingham/0", "oxford/0", False)))
    assert (g.table.player(1).income_position, merchant_space(g, "oxford/0").has_beer, cubes(g, "stafford/0")) == \
        (15, True, 1)
    g.apply(sell(g, ("worcester/0", "oxford/0", True), face="coventry"))
    assert (g.table.player(1).income_position, merchant_space(g, "oxford/0").has_beer, cubes(g, "stafford/0")) == \
        (22, False, 1)


def test_R_SELL_04_flip_and_advance_by_the_tile_income() -> None:
    """R-SELL-04: Cotton Mill II (+4 spaces) flips: income space 10 → 14, 16 with the Oxford barrel's
    +2; no VP yet."""
    g = acting()
    tile(g, 1, "birmingham/0", "cotton", 2)
    g.apply(sell(g, ("birmingham/0", "oxford/0", True)))
    assert g.state.tiles["birmingham/0"].flipped
    assert (g.table.player(1).income_position, g.table.player(1).vp) == (16, 0)  # +4, and the Oxford barrel +2


def test_R_SELL_05_several_tiles_of_different_industries_in_one_action() -> None:
    """R-SELL-05: one Sell flips a Cotton Mill I (+5, Oxford barrel +2) and a Manufacturer I (+5, own
    Brewery): 10 → 22; one card used."""
    g = acting()
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    g.apply(sell(g, ("birmingham/0", "oxford/0", True), ("birmingham/1", "oxford/1", False)))
    assert g.state.tiles["birmingham/0"].flipped and g.state.tiles["birmingham/1"].flipped
    assert (g.table.player(1).income_position, len(g.table.player(1).hand)) == (22, 2)


def test_R_SELL_05_further_sales_are_optional() -> None:
    """R-SELL-05: the player may stop after the first sale ({'done': True}); the other tile stays unflipped."""
    g = acting()
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    for d in ({"action": "sell"}, {"card": card_id(g, 1, "dudley")}, {"tile": "birmingham/0"},
              {"merchant": "oxford/0"}, {"merchant_beer": True}):
        g.apply(d)
    assert {"done": True} in g.legal_actions()
    g.apply({"done": True})
    assert not g.state.tiles["birmingham/1"].flipped
    assert (g.table.player(1).income_position, g.state.actions_left) == (17, 1)


def test_R_SELL_06_no_beer_no_sale() -> None:
    """R-SELL-06: Cotton Mill I needs 1 beer; no barrel at the merchant, no Brewery: refused."""
    g = acting()
    merchant(g, "oxford/0", "cotton", beer=False)
    tile(g, 1, "birmingham/0", "cotton", 1)
    assert "R-SELL-06" in refused(g, sell(g, ("birmingham/0", "oxford/0", False)))


def test_R_SELL_07_each_merchant_barrel_once() -> None:
    """R-SELL-07: after the Oxford barrel is used, a second Cotton Mill cannot use it again."""
    g = acting({"oxford/0": "cotton", "oxford/1": "blank"})
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "worcester/0", "cotton", 1)
    link(g, 2, "L10")
    g.apply(sell(g, ("birmingham/0", "oxford/0", True)))
    assert "R-SELL-03" in refused(g, sell(g, ("worcester/0", "oxford/0", True), face="coventry"))


def test_R_SELL_07_merchant_barrels_not_refilled_at_a_round_end() -> None:
    """R-SELL-07: a barrel used in round 2 is still missing in round 3."""
    g = acting()
    tile(g, 1, "birmingham/0", "cotton", 1)
    g.apply(sell(g, ("birmingham/0", "oxford/0", True)))
    pass_round(g)
    assert g.table.round == 3
    assert (merchant_space(g, "oxford/0").has_beer, merchant_space(g, "oxford/1").has_beer) == (False, True)


def test_R_SELL_07_merchant_beer_never_for_network() -> None:
    """R-SELL-07: a double rail link cannot use the (connected) Oxford barrels."""
    g = acting()
    era(g, "rail", round=2)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    g.table.player(1).money = 30
    assert "R-LINK-05" in refused(g, {"action": "network", "card": card_id(g, 1, "dudley"),
                                      "links": [{"link": "L04"}, {"link": "L26"}]})
