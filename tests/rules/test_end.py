"""End of the game (rules.md §2.21, R-END-01 … R-END-02)."""

from __future__ import annotations

from position import era, last_cards, new_game, pass_round, set_player, tile, turn


def final_round():
    """The last Rail round: empty deck, one card each; player 1 to act."""
    g = new_game(2)
    era(g, "rail", round=10)
    turn(g, 1, order=[1, 2])
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    return g


def test_R_END_01_most_vp_after_rail_scoring_wins() -> None:
    """R-END-01: player 1 has 20 VP, player 2 15 VP + a flipped Cotton Mill IV (12) = 27: player 2 wins."""
    g = final_round()
    set_player(g, 1, vp=20)
    set_player(g, 2, vp=15)
    tile(g, 2, "worcester/0", "cotton", 4, flipped=True)
    pass_round(g)
    assert g.is_over and g.legal_actions() == []
    assert [(s["place"], s["seat"], s["vp"]) for s in g.standings()] == [(1, 2, 27), (2, 1, 20)]


def test_R_END_02_tie_broken_by_income_track_space() -> None:
    """R-END-02: 30 VP each; spaces 12 and 11 are both income level 1: the higher space (player 1) wins."""
    g = final_round()
    set_player(g, 1, vp=30, income=12, money=5)
    set_player(g, 2, vp=30, income=11, money=50)
    pass_round(g)
    assert [(s["place"], s["seat"]) for s in g.standings()] == [(1, 1), (2, 2)]


def test_R_END_02_then_money() -> None:
    """R-END-02: same VP and income space: more money (£9 against £5) wins."""
    g = final_round()
    set_player(g, 1, vp=30, income=20, money=5)
    set_player(g, 2, vp=30, income=20, money=9)
    pass_round(g)
    assert [(s["place"], s["seat"]) for s in g.standings()] == [(1, 2), (2, 1)]


def test_R_END_02_still_tied_shared_result() -> None:
    """R-END-02: same VP, income space and money: both share first place."""
    g = final_round()
    set_player(g, 1, vp=30, income=20, money=9)
    set_player(g, 2, vp=30, income=20, money=9)
    pass_round(g)
    assert [s["place"] for s in g.standings()] == [1, 1]
