"""`economy.shortfall.money_floor` (issue 27, item 4): what removed tiles do not raise is taken from
money down to the floor, and only the rest costs VP (R-SHORT-03 with its floor of £0 in the
rulebook); `null` leaves it all owed (Warfrog's Brass, scenarios/lancashire-warfrog/). Shown over
Birmingham, whose R-SHORT-* numbers are the same: the core knows no Warfrog."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.engine.given import GivenError
from interpreter.engine.invariants import check_invariants
from interpreter.ruleset.loader import load_ruleset

SHORT = {"round": 3, "turn_order": [1, 2], "current": 2, "actions_left": 1,
         "players": {1: {"money": 1, "income": 5, "vp": 10}, 2: {"hand": ["birmingham", "coventry"]}}}


def with_floor(tmp_path: Path, floor: str) -> Game:
    """Birmingham with `money_floor: floor`, at the end of round 3: player 1 at income level −5
    (space 5) owes £5 with £1 and no tiles."""
    (tmp_path / "ruleset.yaml").write_text(
        f"name: floor\ntitle: floor\nversion: '1'\nextends: birmingham\n"
        f"economy:\n  shortfall: {{money_floor: {floor}}}\n", encoding="utf-8")
    return Game.from_setup(load_ruleset(tmp_path), 2, SHORT, seed=1)


def end_round(g: Game) -> None:
    g.apply({"action": "pass", "card": g.table.player(2).hand[0].id}, seat=2)


@pytest.mark.parametrize(("floor", "money", "vp"), [
    ("0", 0, 6),       # the rulebook: £1 paid, the £4 still owed cost 4 VP (R-SHORT-03)
    ("-3", -3, 9),     # £3 more owed as money (down to −£3), the last £1 costs 1 VP
    ("null", -4, 10),  # no floor: all £4 owed, no VP lost
])
def test_unpaid_income_is_owed_down_to_the_floor_then_costs_vp(tmp_path: Path, floor: str, money: int,
                                                              vp: int) -> None:
    g = with_floor(tmp_path, floor)
    end_round(g)
    p = g.table.player(1)
    assert (p.money, p.vp, p.income_position, g.state.round) == (money, vp, 5, 4)
    assert check_invariants(g.table) == []


def test_the_base_game_is_unchanged() -> None:
    g = Game.from_setup(load_ruleset("birmingham"), 2, SHORT, seed=1)
    end_round(g)
    assert (g.table.player(1).money, g.table.player(1).vp) == (0, 6)


def test_a_debt_is_owed_with_the_next_income(tmp_path: Path) -> None:
    """No floor: player 1 owes £4 (−£4) and is now at income level +2 (space 14) with a Coal Mine II
    in Dudley (£7): −£4 + £2 = −£2 is still short, so the mine is removed for £3 (R-SHORT-01): £1."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: debt\ntitle: debt\nversion: '1'\nextends: birmingham\n"
        "economy:\n  shortfall: {money_floor: null}\n", encoding="utf-8")
    given = {**SHORT, "players": {1: {"money": -4, "income": 14, "vp": 10}, 2: {"hand": ["birmingham", "coventry"]}},
             "tiles": [{"slot": "dudley/0", "owner": 1, "industry": "coal", "level": 2, "cubes": 1}]}
    g = Game.from_setup(load_ruleset(tmp_path), 2, given, seed=1)
    end_round(g)
    p = g.table.player(1)
    assert (p.money, p.vp, p.removed) == (1, 10, 1) and "dudley/0" not in g.state.tiles


def test_a_position_may_hold_a_debt_only_where_the_ruleset_allows_one(tmp_path: Path) -> None:
    with pytest.raises(GivenError, match="below the lowest possible value, 0"):
        Game.from_setup(load_ruleset("birmingham"), 2, {"players": {1: {"money": -1}}}, seed=1)
    assert with_floor(tmp_path, "-3").table.player(1).money == 1
    g = Game.from_setup(load_ruleset(tmp_path), 2, {"players": {1: {"money": -3}}}, seed=1)
    assert g.table.player(1).money == -3 and check_invariants(g.table) == []
    with pytest.raises(GivenError, match="below the lowest possible value, -3"):
        Game.from_setup(load_ruleset(tmp_path), 2, {"players": {1: {"money": -4}}}, seed=1)
