"""Scout (rules.md §2.7, R-SCOUT-01 … R-SCOUT-03)."""

from __future__ import annotations

import pytest

from position import card_id, faces, hand, link, new_game, refused, turn


def scout(g, seat: int = 1) -> None:
    g.apply({"action": "scout", "card": card_id(g, seat, "birmingham"), "second_card": card_id(g, seat, "dudley"),
             "third_card": card_id(g, seat, "coventry")})


def test_R_SCOUT_01_three_cards_for_two_wild_cards() -> None:
    """R-SCOUT-01: discard 3 (hand 5 → 2 + 2 wild = 4), discard pile 1 → 4, wild piles 4 → 3 each."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry", "stafford", "cannock"])
    scout(g)
    p1 = g.table.player(1)
    assert sorted(faces(p1.hand)) == ["cannock", "stafford", "wild_industry", "wild_location"]
    assert faces(p1.discard)[1:] == ["birmingham", "dudley", "coventry"]
    assert {k: len(v) for k, v in g.state.wild_piles.items()} == {"wild_location": 3, "wild_industry": 3}
    assert (p1.money, p1.spent, g.state.actions_left) == (17, 0, 1)


def test_R_SCOUT_01_needs_three_different_cards() -> None:
    """R-SCOUT-01: the same card twice is refused."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley"])
    b = card_id(g, 1, "birmingham")
    rules = refused(g, {"action": "scout", "card": b, "second_card": b, "third_card": card_id(g, 1, "dudley")})
    assert "R-SCOUT-01" in rules


@pytest.mark.parametrize("wild", ["wild_location", "wild_industry"])
def test_R_SCOUT_02_not_while_holding_a_wild_card(wild: str) -> None:
    """R-SCOUT-02: holding a wild card of either kind forbids Scout."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry", wild])
    assert refused(g, {"action": "scout", "card": card_id(g, 1, "birmingham"),
                       "second_card": card_id(g, 1, "dudley"), "third_card": card_id(g, 1, "coventry")}) \
        == ["R-SCOUT-02"]
    assert {"action": "scout"} not in g.legal_actions()


def test_R_SCOUT_03_wild_location_is_any_town_but_not_a_farm_brewery() -> None:
    """R-SCOUT-03: for a Brewery a Wild Location card offers the 8 towns with a brewery space, not the
    2 Farm Breweries; a Wild Industry card builds a Brewery at a farm in the network (Canal: 1 barrel,
    £5 + 1 iron from the market £2) and goes back to its pile."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["wild_location", "wild_industry"])
    g.apply({"action": "build"})
    g.apply({"card": card_id(g, 1, "wild_location")})
    g.apply({"industry": "brewery"})
    offered = {d["location"] for d in g.legal_actions()}
    assert offered == {"stone", "uttoxeter", "derby", "stafford", "burton_on_trent", "walsall", "coalbrookdale",
                       "nuneaton"}
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["wild_location", "wild_industry"])
    link(g, 1, "L16")
    g.apply({"action": "build", "card": card_id(g, 1, "wild_industry"), "industry": "brewery",
             "location": "farm_north", "slot": "farm_north/0"})
    assert g.state.tiles["farm_north/0"].cubes == 1
    assert g.table.player(1).money == 17 - 5 - 2
    assert len(g.state.wild_piles["wild_industry"]) == 4  # back on its pile
    assert faces(g.table.player(1).hand) == ["wild_location"]
