"""Network action (rules.md §2.15, R-LINK-01 … R-LINK-07)."""

from __future__ import annotations

import pytest

from interpreter.engine.game import IllegalAction

from position import card_id, cubes, era, hand, link, merchants, new_game, refused, set_player, tile, turn


def acting(era_id: str = "canal", money: int = 17):
    g = new_game(2)
    era(g, era_id, round=2)
    turn(g, 1, order=[1, 2])
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    set_player(g, 1, money=money)
    return g


def network(g, *links: str, face: str = "birmingham", **extra) -> dict:
    return {"action": "network", "card": card_id(g, 1, face), "links": [{"link": k} for k in links], **extra}


def test_R_LINK_01_next_to_the_network() -> None:
    """R-LINK-01: with a tile at Birmingham, Birmingham–Dudley is allowed (£3, 13 links left);
    Dudley–Wolverhampton (not touching the network) is not."""
    g = acting()
    tile(g, 1, "birmingham/1", "manufacturer", 1, flipped=True)
    assert "R-LINK-01" in refused(g, network(g, "L27"))
    g.apply(network(g, "L04"))
    assert (g.state.links, g.table.player(1).money, g.table.player(1).links_left) == ({"L04": 1}, 14, 13)


def test_R_LINK_01_an_occupied_line_is_refused() -> None:
    """R-LINK-01: a line with player 2's link on it cannot take another link."""
    g = acting()
    tile(g, 1, "birmingham/1", "manufacturer", 1, flipped=True)
    link(g, 2, "L04")
    assert "R-LINK-01" in refused(g, network(g, "L04"))


def test_R_LINK_01_no_tiles_any_line() -> None:
    """R-LINK-01/R-BUILD-07: with no tile on the board any line may be taken (Dudley–Wolverhampton)."""
    g = acting()
    tile(g, 2, "birmingham/1", "manufacturer", 1, flipped=True)
    g.apply(network(g, "L27"))
    assert g.state.links == {"L27": 1}


def test_R_LINK_02_canal_one_link_for_3() -> None:
    """R-LINK-02: a canal link costs £3 and a Network action places only one."""
    g = acting()
    tile(g, 1, "birmingham/1", "manufacturer", 1, flipped=True)
    assert "R-LINK-02" in refused(g, network(g, "L04", "L10"))
    g.apply(network(g, "L04"))
    p1 = g.table.player(1)
    assert (p1.money, p1.spent, p1.links_left, g.table.me.seat) == (14, 3, 13, 1)


def test_R_LINK_03_rail_one_link_for_5_and_a_coal() -> None:
    """R-LINK-03: one rail link Birmingham–Dudley: £5 and 1 coal from the mine at Dudley (3 → 2)."""
    g = acting("rail")
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    g.apply(network(g, "L04"))
    assert (g.table.player(1).money, cubes(g, "dudley/0"), g.table.player(1).links_left) == (12, 2, 13)


def test_R_LINK_03_rail_two_links_for_15_a_beer_and_two_coal() -> None:
    """R-LINK-03: Birmingham–Dudley and Dudley–Kidderminster in one action: £15, 2 coal (Dudley mine
    3 → 1), 1 beer from player 1's Brewery (2 → 1): £30 → £15."""
    g = acting("rail", money=30)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    g.apply(network(g, "L04", "L26"))
    p1 = g.table.player(1)
    assert (p1.money, p1.spent, cubes(g, "dudley/0"), cubes(g, "stafford/0"), p1.links_left) == (15, 15, 1, 1, 12)


def test_R_LINK_04_each_rail_link_needs_coal_when_placed() -> None:
    """R-LINK-04: the only mine is at Kidderminster: Birmingham–Worcester then Kidderminster–Worcester
    is refused (the first link reaches no coal), though coal would be connected after both."""
    g = acting("rail", money=30)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    tile(g, 2, "kidderminster/0", "coal", 2, cubes=3)
    assert "R-LINK-04" in refused(g, network(g, "L10", "L30"))
    assert "R-LINK-04" in refused(g, network(g, "L10"))


def test_R_LINK_04_market_coal_through_a_merchant() -> None:
    """R-LINK-04: no mine, but the link Birmingham–Oxford touches a merchant: coal £1 from the market:
    £17 - £5 - £1 = £11; market 13 → 12."""
    g = acting("rail")
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    g.apply(network(g, "L06"))
    assert (g.table.player(1).money, g.state.markets["coal"]) == (11, 12)


def test_R_LINK_05_merchant_beer_cannot_pay_for_the_second_rail() -> None:
    """R-LINK-05: barrels at Oxford (connected) do not count: the second link is refused."""
    g = acting("rail", money=30)
    merchants(g, {"oxford/0": "cotton", "oxford/1": "manufacturer"})
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    link(g, 2, "L06")
    assert "R-LINK-05" in refused(g, network(g, "L04", "L26"))


def test_R_LINK_05_opponent_brewery_connected_to_the_second_link() -> None:
    """R-LINK-05: player 2's Brewery at the south farm is connected (via L30) only once
    Dudley–Kidderminster is placed: allowed; the barrel is used (2 → 1)."""
    g = acting("rail", money=30)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    tile(g, 2, "farm_south/0", "brewery", 2, cubes=2)
    link(g, 2, "L30")
    g.apply(network(g, "L04", "L26"))
    assert (cubes(g, "farm_south/0"), cubes(g, "dudley/0"), g.table.player(1).money) == (1, 1, 15)


def test_R_LINK_05_opponent_brewery_not_connected() -> None:
    """R-LINK-05: without L30 the same Brewery is not connected to the second link: refused."""
    g = acting("rail", money=30)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    tile(g, 2, "farm_south/0", "brewery", 2, cubes=2)
    assert "R-LINK-05" in refused(g, network(g, "L04", "L26"))


def test_R_LINK_06_two_network_actions_four_rail_links() -> None:
    """R-LINK-06: two double-rail actions: 4 links, £30, 4 coal (Coal Mine IV at Dudley 5 → 1), 2 beer
    (own Brewery 2 → 0, flips: income +5)."""
    g = acting("rail", money=40)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 4, cubes=5)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    g.apply(network(g, "L04", "L26"))
    g.apply(network(g, "L27", "L20", face="dudley"))
    p1 = g.table.player(1)
    assert sorted(g.state.links) == ["L04", "L20", "L26", "L27"]
    assert (p1.money, p1.links_left, cubes(g, "dudley/0"), cubes(g, "stafford/0")) == (10, 10, 1, 0)
    assert p1.income_position == 15


def test_R_LINK_07_line_types_from_the_board() -> None:
    """R-LINK-07: the 8 rail-only lines and the 1 canal-only line (components.md §1.4)."""
    links = new_game(2).ruleset.links
    pairs = {frozenset(k.ends): (k.takes("canal"), k.takes("rail")) for k in links.values()}
    rail_only = [("birmingham", "nuneaton"), ("birmingham", "redditch"), ("coventry", "nuneaton"),
                 ("derby", "uttoxeter"), ("stone", "uttoxeter"), ("belper", "leek"),
                 ("burton_on_trent", "cannock"), ("tamworth", "walsall")]
    for a, b in rail_only:
        assert pairs[frozenset((a, b))] == (False, True)
    assert pairs[frozenset(("burton_on_trent", "walsall"))] == (True, False)
    assert sum(1 for c, r in pairs.values() if c and not r) == 1
    assert sum(1 for c, r in pairs.values() if r and not c) == 8


@pytest.mark.parametrize("era_id, line", [("canal", "L05"), ("rail", "L15")])
def test_R_LINK_07_no_canal_on_a_rail_line_no_rail_on_a_canal_line(era_id: str, line: str) -> None:
    """R-LINK-07: Birmingham–Nuneaton takes no canal; Burton–Walsall takes no rail."""
    g = acting(era_id)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 1, "walsall/0", "manufacturer", 2, flipped=True)
    tile(g, 2, "burton_on_trent/0", "coal", 2, cubes=3)
    assert "R-LINK-07" in refused(g, network(g, line))


def test_R_BUILD_07_no_tiles_any_line_but_a_rail_link_still_needs_coal() -> None:
    """R-BUILD-07/R-LINK-01: with no tiles, Rail Era: Dudley–Wolverhampton (no coal reachable) is refused;
    Birmingham–Oxford is placed, its coal bought through Oxford: £17 - £5 - £1 = £11."""
    g = acting("rail")
    tile(g, 2, "stafford/0", "brewery", 2, cubes=2)
    assert "R-LINK-04" in refused(g, network(g, "L27"))
    g.apply(network(g, "L06"))
    assert (g.state.links, g.table.player(1).money, g.state.markets["coal"]) == ({"L06": 1}, 11, 12)


def test_R_LINK_02_no_network_action_without_a_link() -> None:
    """R-LINK-02: with £2 no canal link (£3) can be paid: Network is not a legal action, and a Network
    action placing no link is refused (card kept, 2 actions left)."""
    g = acting(money=2)
    tile(g, 1, "birmingham/1", "manufacturer", 1, flipped=True)
    assert {"action": "network"} not in g.legal_actions()
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply(network(g))
    assert g.to_json() == before


def test_R_LINK_03_explain_agrees_that_a_double_rail_is_legal() -> None:
    """R-LINK-03/R-LINK-01: the second link Dudley–Kidderminster is next to the network once
    Birmingham–Dudley is placed: `explain` must call the whole action legal, as `apply` accepts it."""
    g = acting("rail", money=30)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)
    action = network(g, "L04", "L26")
    result = g.explain(action)
    g.apply(action)
    assert sorted(g.state.links) == ["L04", "L26"]
    assert (result["legal"], result["failures"]) == (True, [])
