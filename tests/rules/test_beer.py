"""Consuming beer (rules.md §2.11, R-BEER-01 … R-BEER-04)."""

from __future__ import annotations

from position import (
    card_id,
    cubes,
    hand,
    link,
    merchant,
    merchant_space,
    merchants,
    new_game,
    refused,
    set_mat,
    tile,
    turn,
)


def acting():
    """Player 1 to act; a Manufacturer merchant (with its barrel) at Oxford, linked to Birmingham."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    merchants(g, {"oxford/0": "manufacturer", "oxford/1": "cotton"})
    link(g, 2, "L06")
    return g


def sale(g, slot: str, merchant: str = "oxford/0", beer: bool = False, **extra) -> dict:
    return {"action": "sell", "card": card_id(g, 1, "dudley"),
            "sales": [{"tile": slot, "merchant": merchant, "merchant_beer": beer}], **extra}


def test_R_BEER_01_tiles_that_need_no_beer() -> None:
    """R-BEER-01: Manufacturer III shows 0 beer: it sells with no beer anywhere (income +4: 14)."""
    g = acting()
    merchants(g, {"oxford/0": "manufacturer"}, others="blank")  # no barrel at Oxford's other space
    merchant(g, "oxford/0", "manufacturer", beer=False)
    set_mat(g, 1, "manufacturer", 3)
    tile(g, 1, "birmingham/1", "manufacturer", 3)
    g.apply(sale(g, "birmingham/1"))
    assert g.state.tiles["birmingham/1"].flipped
    assert g.table.player(1).income_position == 14


def test_R_BEER_01_a_tile_showing_beer_needs_it() -> None:
    """R-BEER-01/R-SELL-06: Manufacturer I shows 1 beer: no brewery and no barrel → refused."""
    g = acting()
    merchant(g, "oxford/0", "manufacturer", beer=False)
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    assert "R-SELL-06" in refused(g, sale(g, "birmingham/1"))


def test_R_BEER_01_printed_beer_amounts() -> None:
    """R-BEER-01: the beer shown on the sold tiles (components.md §2)."""
    tiles = new_game(2).ruleset.tiles
    assert [t.needs["beer"] for t in tiles["cotton"]] == [1, 1, 1, 1]
    assert [t.needs["beer"] for t in tiles["manufacturer"]] == [1, 1, 0, 1, 2, 1, 0, 1]
    assert [t.needs["beer"] for t in tiles["pottery"]] == [1, 1, 2, 1, 2]


def test_R_BEER_02_own_brewery_anywhere_without_connection() -> None:
    """R-BEER-02: player 1's Brewery at Stafford (not connected) serves a sale at Birmingham
    (2 barrels → 1)."""
    g = acting()
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    g.apply(sale(g, "birmingham/1"))
    assert cubes(g, "stafford/0") == 1
    assert merchant_space(g, "oxford/0").has_beer
    assert g.table.player(1).income_position == 15


def test_R_BEER_02_opponent_brewery_only_when_connected() -> None:
    """R-BEER-02: player 2's Brewery at Walsall is refused while not connected to Birmingham, used
    once the link Birmingham–Walsall lies (it flips: player 2's income +4)."""
    g = acting()
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    tile(g, 2, "walsall/1", "brewery", 1)
    assert "R-SELL-06" in refused(g, sale(g, "birmingham/1"))
    link(g, 2, "L09")
    g.apply(sale(g, "birmingham/1"))
    assert (cubes(g, "walsall/1"), g.state.tiles["walsall/1"].flipped) == (0, True)
    assert (g.table.player(1).income_position, g.table.player(2).income_position) == (15, 14)


def test_R_BEER_02_merchant_barrel_only_of_the_merchant_sold_to() -> None:
    """R-BEER-02: the barrel at Oxford's other space cannot serve a sale to oxford/0 whose barrel is
    gone."""
    g = acting()
    merchant(g, "oxford/0", "manufacturer", beer=False)
    assert merchant_space(g, "oxford/1").has_beer
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    rules = refused(g, sale(g, "birmingham/1", beer=True))
    assert "R-SELL-03" in rules
    assert "R-SELL-06" in refused(g, sale(g, "birmingham/1", beer=False))


def test_R_BEER_03_two_barrels_from_two_sources() -> None:
    """R-BEER-03: Manufacturer V needs 2 beer: one from player 1's Brewery at Stafford and one from
    player 2's Brewery at Walsall (connected); both flip (+4 income each); Manufacturer V +2."""
    g = acting()
    merchant(g, "oxford/0", "manufacturer", beer=False)
    set_mat(g, 1, "manufacturer", 5)
    tile(g, 1, "birmingham/1", "manufacturer", 5)
    tile(g, 1, "stafford/0", "brewery", 1)
    tile(g, 2, "walsall/1", "brewery", 1)
    link(g, 2, "L09")
    g.apply(sale(g, "birmingham/1"))
    assert (cubes(g, "stafford/0"), cubes(g, "walsall/1")) == (0, 0)
    assert (g.table.player(1).income_position, g.table.player(2).income_position) == (10 + 2 + 4, 14)


def test_R_BEER_03_merchant_barrel_plus_own_brewery() -> None:
    """R-BEER-03: Manufacturer V: the Oxford barrel (+2 income bonus) and 1 of 2 own barrels."""
    g = acting()
    set_mat(g, 1, "manufacturer", 5)
    tile(g, 1, "birmingham/1", "manufacturer", 5)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    g.apply(sale(g, "birmingham/1", beer=True))
    assert (cubes(g, "stafford/0"), merchant_space(g, "oxford/0").has_beer) == (1, False)
    assert g.table.player(1).income_position == 10 + 2 + 2


def test_R_BEER_03_the_player_chooses_which_brewery() -> None:
    """R-BEER-03/R-BEER-02: own Brewery and a connected opponent's Brewery both qualify for 1 beer:
    the player is asked and may take the opponent's barrel."""
    g = acting()
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    tile(g, 2, "walsall/1", "brewery", 2, cubes=2)
    link(g, 2, "L09")
    g.apply(sale(g, "birmingham/1", answers=["walsall/1"]))
    assert (cubes(g, "stafford/0"), cubes(g, "walsall/1")) == (2, 1)


def test_R_BEER_04_consumed_barrels_leave_and_a_flipped_brewery_has_none() -> None:
    """R-BEER-04: the last barrel of player 1's Brewery I is used: it flips (income +4, and +5 for the
    Manufacturer I: 19); a second sale has no beer left: refused."""
    g = acting()
    merchant(g, "oxford/0", "manufacturer", beer=False)
    merchant(g, "oxford/1", "manufacturer", beer=False)
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    tile(g, 1, "stafford/0", "brewery", 1)
    g.apply(sale(g, "birmingham/1"))
    assert g.state.tiles["stafford/0"].flipped and cubes(g, "stafford/0") == 0
    assert g.table.player(1).income_position == 19
    tile(g, 1, "birmingham/3", "manufacturer", 2)
    assert "R-SELL-06" in refused(g, {"action": "sell", "card": card_id(g, 1, "coventry"),
                                      "sales": [{"tile": "birmingham/3", "merchant": "oxford/0",
                                                 "merchant_beer": False}]})
