"""Income (rules.md §2.4, R-INC-01 … R-INC-06)."""

from __future__ import annotations

import pytest

from position import card_id, era, hand, last_cards, link, merchants, new_game, pass_round, set_player, tile, turn


@pytest.mark.parametrize("position, level", [
    (0, -10), (3, -7), (9, -1), (10, 0), (11, 1), (12, 1), (13, 2), (29, 10), (30, 10), (31, 11),
    (33, 11), (34, 12), (58, 20), (60, 20), (61, 21), (64, 21), (65, 22), (93, 29), (96, 29), (97, 30),
    (99, 30),
])
def test_R_INC_01_income_level_of_each_track_space(position: int, level: int) -> None:
    """R-INC-01: the level is the coin beside the marker's space (components.md §6)."""
    g = new_game(2)
    p = set_player(g, 1, income=position)
    assert g.table.income_level(p) == level


def test_R_INC_01_track_has_100_spaces() -> None:
    """R-INC-01: positions 0–99; level -10 … 30."""
    track = new_game(2).ruleset.income
    assert (track.positions, track.lowest_level, track.highest_level, track.start_position) == (100, -10, 30, 10)


def test_R_INC_02_income_is_collected_or_paid_at_the_end_of_the_round() -> None:
    """R-INC-02: space 25 (level 8) gains £8; space 7 (level -3) pays £3; space 10 (level 0) nothing."""
    g = new_game(3)
    turn(g, 1, order=[1, 2, 3], round=2)
    set_player(g, 1, money=17, income=25)
    set_player(g, 2, money=17, income=7)
    set_player(g, 3, money=4, income=10)
    pass_round(g)
    assert g.table.round == 3
    assert [g.table.player(s).money for s in (1, 2, 3)] == [25, 14, 4]
    assert [g.table.player(s).income_position for s in (1, 2, 3)] == [25, 7, 10]


def test_R_INC_03_income_is_collected_after_the_last_canal_round() -> None:
    """R-INC-03: the last Canal round still pays income (level 8: +£8; level -2: -£2)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    set_player(g, 1, money=17, income=25)
    set_player(g, 2, money=17, income=8)
    pass_round(g)
    assert (g.table.era, g.table.round) == ("rail", 1)
    assert (g.table.player(1).money, g.table.player(2).money) == (25, 15)


def test_R_INC_03_no_income_after_the_last_round_of_the_game() -> None:
    """R-INC-03: the final Rail round neither pays (level 8) nor charges (level -2) income."""
    g = new_game(2)
    era(g, "rail", round=10)
    turn(g, 1, order=[1, 2])
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    set_player(g, 1, money=17, income=25)
    set_player(g, 2, money=17, income=8)
    pass_round(g)
    assert g.is_over
    assert (g.table.player(1).money, g.table.player(2).money) == (17, 17)


def test_R_INC_04_flipping_moves_the_marker_by_spaces() -> None:
    """R-INC-04: at space 30 (level 10) selling a Cotton Mill I (+5) moves to space 35 (level 12),
    not to level 15; the Oxford barrel adds 2 more spaces: 37 (level 13)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["dudley", "coventry"])
    merchants(g, {"oxford/0": "cotton", "oxford/1": "cotton"})
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "stafford/0", "brewery", 2, cubes=2)  # 2 barrels: it does not flip here
    link(g, 2, "L06")
    set_player(g, 1, income=30)
    g.apply({"action": "sell", "card": card_id(g, 1, "dudley"),
             "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": False}]})
    p1 = g.table.player(1)
    assert (p1.income_position, g.table.income_level(p1)) == (35, 12)
    tile(g, 1, "birmingham/1", "manufacturer", 2)  # Manufacturer II: +1 income, 1 beer
    merchants(g, {"oxford/0": "cotton", "oxford/1": "manufacturer"})
    g.apply({"action": "sell", "card": card_id(g, 1, "coventry"),
             "sales": [{"tile": "birmingham/1", "merchant": "oxford/1", "merchant_beer": True}]})
    assert (p1.income_position, g.table.income_level(p1)) == (38, 13)


def test_R_INC_05_income_stops_at_space_99() -> None:
    """R-INC-05: at space 97 (level 30) a +5 flip stops at 99, still level 30."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["dudley"])
    merchants(g, {"oxford/0": "cotton"})
    tile(g, 1, "birmingham/0", "cotton", 1)
    link(g, 2, "L06")
    set_player(g, 1, income=97)
    g.apply({"action": "sell", "card": card_id(g, 1, "dudley"),
             "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": True}]})
    p1 = g.table.player(1)
    assert (p1.income_position, g.table.income_level(p1)) == (99, 30)


def test_R_INC_06_income_scores_no_vp_at_game_end() -> None:
    """R-INC-06: a player at income level 30 with nothing on the board ends with 0 VP."""
    g = new_game(2)
    era(g, "rail", round=10)
    turn(g, 1, order=[1, 2])
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    set_player(g, 1, income=99, vp=0)
    set_player(g, 2, income=10, vp=1)
    pass_round(g)
    assert g.is_over
    assert (g.table.player(1).vp, g.table.player(2).vp) == (0, 1)
    assert [s["seat"] for s in g.standings()] == [2, 1]
