"""Flipping (rules.md §2.19, R-FLIP-01 … R-FLIP-03)."""

from __future__ import annotations

import pytest

from position import (
    card_id,
    cubes,
    hand,
    last_cards,
    link,
    market,
    merchants,
    new_game,
    pass_round,
    set_player,
    tile,
    turn,
)


def acting():
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    return g


@pytest.mark.parametrize("industry, slot, income", [("cotton", "birmingham/0", 15),
                                                     ("manufacturer", "birmingham/1", 15),
                                                     ("pottery", "coventry/0", 15)])
def test_R_FLIP_01_sold_industries_flip_when_sold(industry: str, slot: str, income: int) -> None:
    """R-FLIP-01: Cotton Mill I, Manufacturer I, Pottery I flip when sold (each +5 income)."""
    g = acting()
    merchants(g, {"oxford/0": "wild"})
    link(g, 2, "L06", "L03")
    tile(g, 1, slot, industry, 1)
    assert not g.state.tiles[slot].flipped
    g.apply({"action": "sell", "card": card_id(g, 1, "dudley"),
             "sales": [{"tile": slot, "merchant": "oxford/0", "merchant_beer": True}]})
    assert g.state.tiles[slot].flipped
    assert g.table.player(1).income_position == income + 2  # and the Oxford barrel


def test_R_FLIP_02_coal_mine_flips_when_an_opponent_takes_its_last_coal() -> None:
    """R-FLIP-02: player 1's Manufacturer I takes the last cube of player 2's Coal Mine II at Dudley:
    it flips during player 1's action and player 2's income goes 10 → 17 at once."""
    g = acting()
    tile(g, 2, "dudley/0", "coal", 2, cubes=1)
    link(g, 2, "L04")
    g.apply({"action": "build", "card": card_id(g, 1, "birmingham"), "industry": "manufacturer",
             "location": "birmingham", "slot": "birmingham/1"})
    assert g.state.tiles["dudley/0"].flipped and cubes(g, "dudley/0") == 0
    assert (g.table.player(2).income_position, g.table.me.seat) == (17, 1)


def test_R_FLIP_02_iron_works_flips_when_developing_takes_its_last_iron() -> None:
    """R-FLIP-02: Develop takes the last iron of player 2's Iron Works II: flips, player 2 income +3."""
    g = acting()
    tile(g, 2, "dudley/1", "iron", 2, cubes=1)
    g.apply({"action": "develop", "card": card_id(g, 1, "dudley"), "tiles": [{"industry": "coal"}]})
    assert g.state.tiles["dudley/1"].flipped
    assert g.table.player(2).income_position == 13


def test_R_FLIP_02_brewery_flips_when_its_last_barrel_is_drunk() -> None:
    """R-FLIP-02: player 1's sale drinks the last barrel of its own Brewery II: flips (+5), and the
    Cotton Mill I (+5): 10 → 20."""
    g = acting()
    merchants(g, {"oxford/0": "cotton"})
    link(g, 2, "L06")
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=1)
    g.apply({"action": "sell", "card": card_id(g, 1, "dudley"),
             "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": False}]})
    assert g.state.tiles["stafford/0"].flipped
    assert g.table.player(1).income_position == 20


def test_R_FLIP_02_emptied_by_selling_to_the_market() -> None:
    """R-FLIP-02: a new Iron Works I that sells all 4 iron to the market (market 6 → 10) flips (+3)."""
    g = acting()
    hand(g, 1, ["coalbrookdale", "dudley"])
    tile(g, 2, "coalbrookdale/2", "coal", 2)
    market(g, iron=6)
    g.apply({"action": "build", "card": card_id(g, 1, "coalbrookdale"), "industry": "iron",
             "location": "coalbrookdale", "slot": "coalbrookdale/1"})
    assert g.state.tiles["coalbrookdale/1"].flipped
    assert (g.table.player(1).income_position, g.state.markets["iron"]) == (13, 10)


def test_R_FLIP_03_unflipped_tiles_give_no_vp_flipped_ones_do() -> None:
    """R-FLIP-03: at the end of the Canal Era player 1's unflipped Cotton Mill II scores 0 and its
    flipped Manufacturer II 5; neither changes income at the era end."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    tile(g, 1, "worcester/0", "cotton", 2)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    set_player(g, 1, income=16)
    pass_round(g)
    assert g.table.era == "rail"
    assert (g.table.player(1).vp, g.table.player(1).income_position) == (5, 16)
