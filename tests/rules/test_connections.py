"""Network and connections (rules.md §2.8, R-CONN-01 … R-CONN-03)."""

from __future__ import annotations

from position import card_id, hand, link, merchants, new_game, refused, tile, turn


def test_R_CONN_01_network_is_own_tiles_and_own_link_ends() -> None:
    """R-CONN-01: player 1 owns a tile at Coalbrookdale and the link Dudley–Wolverhampton:
    Coalbrookdale, Dudley and Wolverhampton are in the network; Birmingham (next to Dudley, no own
    link) and Cannock (an opponent's tile and link) are not."""
    g = new_game(2)
    tile(g, 1, "coalbrookdale/1", "iron", 1, flipped=True)
    link(g, 1, "L27")
    tile(g, 2, "cannock/1", "coal", 1, flipped=True)
    link(g, 2, "L19")
    p1 = g.table.player(1)
    in_network = {loc for loc in g.ruleset.locations if g.table.in_network(p1, loc)}
    assert in_network == {"coalbrookdale", "dudley", "wolverhampton"}


def test_R_CONN_01_industry_card_builds_only_in_the_network() -> None:
    """R-CONN-01/R-BUILD-04: with a Coal Mine card player 1 may build at Wolverhampton (own link)
    but not at Cannock (only the opponent's link and tile there)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["coal_mine", "birmingham"])
    link(g, 1, "L27")
    tile(g, 2, "cannock/0", "coal", 1, cubes=2)
    link(g, 2, "L19")
    assert "R-BUILD-04" in refused(g, {"action": "build", "card": card_id(g, 1, "coal_mine"), "industry": "coal",
                                       "location": "cannock", "slot": "cannock/1"})
    g.apply({"action": "build", "card": card_id(g, 1, "coal_mine"), "industry": "coal",
             "location": "wolverhampton", "slot": "wolverhampton/1"})
    assert g.state.tiles["wolverhampton/1"].owner.seat == 1
    assert g.table.player(1).money == 12


def test_R_CONN_02_links_of_any_player_connect() -> None:
    """R-CONN-02: player 1's Manufacturer I at Redditch sells to Oxford over player 2's link
    Redditch–Oxford (income 10 → 15); its Cotton Mill I at Worcester, with no link, cannot."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley"])
    merchants(g, {"oxford/0": "wild"})
    tile(g, 1, "worcester/0", "cotton", 1)
    tile(g, 1, "redditch/0", "manufacturer", 1)
    link(g, 2, "L33")
    assert "R-SELL-02" in refused(g, {"action": "sell", "card": card_id(g, 1, "birmingham"),
                                      "sales": [{"tile": "worcester/0", "merchant": "oxford/0",
                                                 "merchant_beer": True}]})
    g.apply({"action": "sell", "card": card_id(g, 1, "birmingham"),
             "sales": [{"tile": "redditch/0", "merchant": "oxford/0", "merchant_beer": True}]})
    assert g.state.tiles["redditch/0"].flipped
    assert g.table.player(1).income_position == 10 + 5 + 2  # Manufacturer I +5, Oxford barrel +2


def test_R_CONN_02_distance_is_the_fewest_links_and_zero_to_itself() -> None:
    """R-CONN-02: Birmingham–Dudley–Wolverhampton and Birmingham–Walsall–Wolverhampton: distance 2;
    Birmingham to itself 0; Shrewsbury not connected."""
    g = new_game(2)
    link(g, 1, "L04", "L27")
    link(g, 2, "L09", "L39", "L22")
    assert g.table.connected("birmingham", "birmingham")
    g.table.network.update(g.state.links)
    assert g.table.network.distance(["birmingham"], "birmingham") == 0
    assert g.table.network.distance(["birmingham"], "wolverhampton") == 2
    assert g.table.network.distance(["birmingham"], "coalbrookdale") == 3
    assert g.table.network.distance(["birmingham"], "shrewsbury") is None
    assert g.table.connected("walsall", "coalbrookdale") and not g.table.connected("walsall", "shrewsbury")


def test_R_CONN_03_kidderminster_worcester_link_reaches_the_south_farm() -> None:
    """R-CONN-03: only L30 touches the south Farm Brewery (with Kidderminster and Worcester); only L16
    touches the north one (with Cannock). L30 puts all three in its owner's network and connects them."""
    g = new_game(2)
    ends = {k: set(v.ends) for k, v in g.ruleset.links.items()}
    assert [k for k, e in ends.items() if "farm_south" in e] == ["L30"]
    assert ends["L30"] == {"kidderminster", "worcester", "farm_south"}
    assert [k for k, e in ends.items() if "farm_north" in e] == ["L16"]
    assert ends["L16"] == {"cannock", "farm_north"}
    link(g, 1, "L30")
    p1 = g.table.player(1)
    in_network = {loc for loc in g.ruleset.locations if g.table.in_network(p1, loc)}
    assert in_network == {"kidderminster", "worcester", "farm_south"}
    assert g.table.connected("farm_south", "kidderminster") and g.table.connected("worcester", "farm_south")
    assert not g.table.connected("farm_north", "cannock")


def test_R_CONN_03_opponent_farm_brewery_beer_over_the_kidderminster_worcester_link() -> None:
    """R-CONN-03/R-BEER-02: player 2's Brewery at the south farm is connected to a Cotton Mill at
    Kidderminster through L30 alone: its barrel is used (it flips: player 2's income +4)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley"])
    merchants(g, {"shrewsbury/0": "cotton"}, others="blank")
    tile(g, 1, "kidderminster/1", "cotton", 1)
    tile(g, 2, "farm_south/0", "brewery", 1)
    link(g, 2, "L30")
    link(g, 1, "L20", "L21")  # Kidderminster–Coalbrookdale–Shrewsbury
    g.apply({"action": "sell", "card": card_id(g, 1, "birmingham"),
             "sales": [{"tile": "kidderminster/1", "merchant": "shrewsbury/0", "merchant_beer": False}]})
    assert g.state.tiles["farm_south/0"].flipped and g.state.tiles["farm_south/0"].cubes == 0
    assert (g.table.player(1).income_position, g.table.player(2).income_position) == (15, 14)


def test_R_CONN_02_routes_through_a_merchant_location() -> None:
    """R-CONN-02 (rules.md §4.5): Birmingham–Oxford–Redditch–Gloucester is a route: player 1's
    Manufacturer I at Birmingham sells to Gloucester with its barrel (+5 income; the Gloucester bonus
    removes the chosen Coal Mine I from the mat: 6 coal tiles left)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley"])
    merchants(g, {"gloucester/0": "manufacturer"})
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    link(g, 2, "L06", "L33", "L28")
    assert g.table.connected("birmingham", "gloucester")
    g.apply({"action": "sell", "card": card_id(g, 1, "dudley"),
             "sales": [{"tile": "birmingham/1", "merchant": "gloucester/0", "merchant_beer": True}],
             "answers": ["coal"]})
    assert g.state.tiles["birmingham/1"].flipped
    assert (g.table.player(1).income_position, g.table.tiles_left(g.table.player(1), "coal")) == (15, 6)
