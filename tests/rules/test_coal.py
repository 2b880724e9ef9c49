"""Consuming coal (rules.md §2.9, R-COAL-01 … R-COAL-07)."""

from __future__ import annotations

from position import card_id, cubes, era, hand, link, market, new_game, refused, set_mat, set_player, tile, turn


def acting(players: int = 2):
    g = new_game(players)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    return g


def build_manufacturer(g, **extra) -> None:
    """Player 1 builds their lowest Manufacturer at Birmingham (a Manufacturer-only slot)."""
    g.apply({"action": "build", "card": card_id(g, 1, "birmingham"), "industry": "manufacturer",
             "location": "birmingham", "slot": "birmingham/1", **extra})


def test_R_COAL_01_coal_needs_a_connected_source() -> None:
    """R-COAL-01: Manufacturer I (£8 + 1 coal) at Birmingham with no mine, no link, no merchant
    connection is refused; with a Coal Mine in Birmingham itself (distance 0) it is built and the
    mine goes 2 → 1."""
    g = acting()
    assert "R-BUILD-10" in refused(g, {"action": "build", "card": card_id(g, 1, "birmingham"),
                                       "industry": "manufacturer", "location": "birmingham",
                                       "slot": "birmingham/1"})
    tile(g, 2, "coventry/1", "coal", 1)  # a mine, but not connected to Birmingham
    assert "R-BUILD-10" in refused(g, {"action": "build", "card": card_id(g, 1, "birmingham"),
                                       "industry": "manufacturer", "location": "birmingham",
                                       "slot": "birmingham/1"})
    link(g, 2, "L03")
    build_manufacturer(g)
    assert cubes(g, "coventry/1") == 1
    assert (g.table.player(1).money, g.state.markets["coal"]) == (9, 13)


def test_R_COAL_02_the_closest_mine_first() -> None:
    """R-COAL-02: mines at Dudley (1 link away, 2 cubes) and Wolverhampton (2 links, 3 cubes):
    the Dudley mine gives the coal."""
    g = acting()
    tile(g, 2, "dudley/0", "coal", 1)
    tile(g, 2, "wolverhampton/1", "coal", 2)
    link(g, 2, "L04", "L27")
    build_manufacturer(g)
    assert (cubes(g, "dudley/0"), cubes(g, "wolverhampton/1")) == (1, 3)
    assert g.table.player(1).money == 9


def test_R_COAL_02_next_closest_when_the_closest_runs_out() -> None:
    """R-COAL-02: Manufacturer III needs 2 coal: the last cube of Dudley (which flips, its owner's
    income +4) then one from Wolverhampton (3 → 2); £12 paid, nothing bought."""
    g = acting()
    set_mat(g, 1, "manufacturer", 3)
    tile(g, 2, "dudley/0", "coal", 1, cubes=1)
    tile(g, 2, "wolverhampton/1", "coal", 2)
    link(g, 2, "L04", "L27")
    build_manufacturer(g)
    assert g.state.tiles["birmingham/1"].spec.level == 3
    assert (cubes(g, "dudley/0"), cubes(g, "wolverhampton/1")) == (0, 2)
    assert g.state.tiles["dudley/0"].flipped
    assert (g.table.player(1).money, g.table.player(2).income_position, g.state.markets["coal"]) == (5, 14, 13)


def test_R_COAL_02_equally_close_mines_the_player_chooses() -> None:
    """R-COAL-02: mines at Dudley and at Coventry, both 1 link from Birmingham: the player is asked
    and may take the Coventry one."""
    g = acting()
    tile(g, 2, "dudley/0", "coal", 1)
    tile(g, 2, "coventry/1", "coal", 2, cubes=2)
    link(g, 2, "L04", "L03")
    for decision in ({"action": "build"}, {"card": card_id(g, 1, "birmingham")}, {"industry": "manufacturer"},
                     {"location": "birmingham"}, {"slot": "birmingham/1"}):
        g.apply(decision)
    assert sorted(d["answer"] for d in g.legal_actions()) == ["coventry/1", "dudley/0"]
    g.apply({"answer": "coventry/1"})
    assert (cubes(g, "dudley/0"), cubes(g, "coventry/1")) == (2, 1)
    assert g.state.tiles["birmingham/1"].owner.seat == 1


def test_R_COAL_03_market_coal_needs_a_merchant_connection_cheapest_first() -> None:
    """R-COAL-03: no mine connected, Birmingham linked to Oxford: Manufacturer III's 2 coal cost
    £1 + £2 from the market (13 → 11 cubes): £17 - £12 - £3 = £2, all of it spent."""
    g = acting()
    set_mat(g, 1, "manufacturer", 3)
    tile(g, 1, "cannock/1", "coal", 2)  # own mine, not connected: cannot be used
    link(g, 2, "L06")
    build_manufacturer(g)
    p1 = g.table.player(1)
    assert (p1.money, p1.spent, g.state.markets["coal"], cubes(g, "cannock/1")) == (2, 15, 11, 3)


def test_R_COAL_03_no_market_coal_without_a_merchant_connection() -> None:
    """R-COAL-03: Birmingham linked only to Dudley (no mine, no merchant): the build is refused."""
    g = acting()
    link(g, 2, "L04")
    assert "R-BUILD-10" in refused(g, {"action": "build", "card": card_id(g, 1, "birmingham"),
                                       "industry": "manufacturer", "location": "birmingham",
                                       "slot": "birmingham/1"})


def test_R_COAL_03_a_merchant_without_a_tile_gives_market_access() -> None:
    """R-COAL-03 (rules.md §4.3): at 2 players Warrington has no merchant tile but its market-access
    icon still lets Stoke-on-Trent buy coal: Manufacturer I there costs £8 + £1."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["wild_location"])
    link(g, 2, "L36")
    g.apply({"action": "build", "card": card_id(g, 1, "wild_location"), "industry": "manufacturer",
             "location": "stoke_on_trent", "slot": "stoke_on_trent/2"})
    assert (g.table.player(1).money, g.state.markets["coal"]) == (8, 12)


def test_R_COAL_04_empty_coal_market_sells_at_8() -> None:
    """R-COAL-04: market empty: 1 coal costs £8 (£17 - £8 - £8 = £1); with 1 cube left, 2 coal cost
    £7 + £8."""
    g = acting()
    link(g, 2, "L06")
    market(g, coal=0)
    build_manufacturer(g)
    assert (g.table.player(1).money, g.state.markets["coal"]) == (1, 0)
    g = acting()
    link(g, 2, "L06")
    market(g, coal=1)
    set_mat(g, 1, "manufacturer", 3)
    set_player(g, 1, money=30)
    build_manufacturer(g)
    assert (g.table.player(1).money, g.state.markets["coal"]) == (30 - 12 - 15, 0)


def test_R_COAL_05_consumed_coal_goes_to_the_supply_unpaid() -> None:
    """R-COAL-05: coal from player 2's mine: player 2 gets no money, the cube does not go to the
    market (13), it leaves the board (2 → 1)."""
    g = acting()
    tile(g, 2, "dudley/0", "coal", 1)
    link(g, 2, "L04")
    build_manufacturer(g)
    assert (g.table.player(2).money, g.state.markets["coal"], cubes(g, "dudley/0")) == (17, 13, 1)
    assert sum(t.cubes for t in g.state.tiles.values()) == 1


def test_R_COAL_06_no_farther_mine_and_no_market_while_a_closer_mine_has_coal() -> None:
    """R-COAL-06: Dudley (1 link) and Wolverhampton (2 links) mines, Birmingham also linked to
    Oxford: the player is not asked; Dudley gives the cube; the market is untouched."""
    g = acting()
    tile(g, 2, "dudley/0", "coal", 1)
    tile(g, 1, "wolverhampton/1", "coal", 2)
    link(g, 2, "L04", "L27", "L06")
    for decision in ({"action": "build"}, {"card": card_id(g, 1, "birmingham")}, {"industry": "manufacturer"},
                     {"location": "birmingham"}, {"slot": "birmingham/1"}):
        g.apply(decision)
    assert g.question is None
    assert (cubes(g, "dudley/0"), cubes(g, "wolverhampton/1"), g.state.markets["coal"]) == (1, 3, 13)
    assert g.table.player(1).money == 9


def test_R_COAL_07_rail_link_coal_distance_from_its_nearer_end() -> None:
    """R-COAL-07: a rail link Birmingham–Dudley: the mine in Dudley is at distance 0 (from the Dudley
    end), the Coventry mine at 1 (from Birmingham): Dudley gives the coal, nobody is asked; £5."""
    g = new_game(2)
    era(g, "rail", round=2)
    turn(g, 1, order=[1, 2])
    hand(g, 1, ["birmingham", "dudley"])
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=2)
    tile(g, 2, "coventry/1", "coal", 2, cubes=2)
    link(g, 2, "L03")
    for decision in ({"action": "network"}, {"card": card_id(g, 1, "dudley")}, {"link": "L04"}):
        g.apply(decision)
    assert g.question is None
    assert (cubes(g, "dudley/0"), cubes(g, "coventry/1")) == (1, 2)
    assert (g.table.player(1).money, g.state.links["L04"]) == (12, 1)


def test_R_COAL_03_the_mine_first_then_the_market_for_the_rest() -> None:
    """R-COAL-03: Manufacturer III needs 2 coal; the connected Dudley mine has 1 (it flips, +4 for
    player 2), the other is bought through Oxford at £1: £17 - £12 - £1 = £4; market 12."""
    g = acting()
    set_mat(g, 1, "manufacturer", 3)
    tile(g, 2, "dudley/0", "coal", 1, cubes=1)
    link(g, 2, "L04", "L06")
    build_manufacturer(g)
    assert (g.table.player(1).money, g.state.markets["coal"], g.table.player(2).income_position) == (4, 12, 14)
