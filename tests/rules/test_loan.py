"""Loan (rules.md §2.6, R-LOAN-01 … R-LOAN-03)."""

from __future__ import annotations

import pytest

from position import card_id, hand, new_game, refused, set_player, turn


def take_loan(g, seat: int = 1) -> None:
    hand(g, seat, ["birmingham", "dudley"])
    g.apply({"action": "loan", "card": card_id(g, seat, "birmingham")})


@pytest.mark.parametrize("before, after, level", [
    (10, 7, -3),   # level 0 -> -3 (1 space per level below 0)
    (11, 8, -2),   # level 1 (lower space) -> -2
    (12, 8, -2),   # level 1 (upper space) -> -2
    (25, 20, 5),   # level 8 -> 5, whose top space is 20
    (31, 26, 8),   # level 11 -> 8, top space 26
    (47, 39, 13),  # level 16 -> 13, top space 39
    (97, 88, 27),  # level 30 -> 27, top space 88
    (3, 0, -10),   # level -7 -> -10 (R-LOAN-02: the lowest legal loan)
])
def test_R_LOAN_01_three_levels_down_to_the_top_space(before: int, after: int, level: int) -> None:
    """R-LOAN-01: +£30, the marker drops 3 income LEVELS onto the highest space of the new level."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    set_player(g, 1, income=before)
    take_loan(g)
    p1 = g.table.player(1)
    assert (p1.money, p1.income_position, g.table.income_level(p1)) == (47, after, level)
    assert p1.discard[-1].face == "birmingham"


@pytest.mark.parametrize("position", [2, 0])
def test_R_LOAN_02_no_loan_below_level_minus_10(position: int) -> None:
    """R-LOAN-02: at level -8 (space 2) or -10 (space 0) a loan is refused and nothing changes."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    set_player(g, 1, income=position)
    hand(g, 1, ["birmingham", "dudley"])
    rules = refused(g, {"action": "loan", "card": card_id(g, 1, "birmingham")})
    assert rules == ["R-LOAN-02"]
    assert {"action": "loan"} not in g.legal_actions()
    assert (g.table.player(1).money, g.table.player(1).income_position) == (17, position)


def test_R_LOAN_03_the_loan_is_not_money_spent() -> None:
    """R-LOAN-03: the £30 is not spent: player 2 (spent £1, then a loan) stays at £1 spent; player 1
    (only a loan, £0 spent) goes first next round. Nothing is repaid: at the round end each pays
    only the income of level -3 (£47 → £44)."""
    g = new_game(2)
    turn(g, 2, order=[2, 1], round=2, actions_left=1)
    set_player(g, 2, spent=1)
    take_loan(g, seat=2)
    p2 = g.table.player(2)
    assert (p2.money, p2.spent) == (47, 1)
    turn(g, 1, order=[2, 1], round=2, actions_left=1)
    take_loan(g, seat=1)
    p1 = g.table.player(1)
    assert g.table.round == 3  # player 1's loan was the last action of round 2
    assert g.state.turn_order == [1, 2]
    assert (p1.money, p2.money) == (44, 44)
