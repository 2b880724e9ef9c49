"""The Introductory Game (rulesets/birmingham-intro): the Canal Era, then three extra scores.

R-INTRO-01 … R-INTRO-04, with exact VP for a concrete end of the Canal Era.
"""

from __future__ import annotations

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from tests.rules.position import last_cards, pass_round, set_player, tile, turn


def intro_game() -> Game:
    return Game.new(load_ruleset("birmingham-intro"), 2, seed=1)


def end_of_canal(g: Game) -> None:
    """Both players hold their last card in the last Canal round; they pass and the game ends."""
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    pass_round(g)


def test_R_INTRO_01_the_game_ends_after_the_canal_era_with_its_normal_scoring() -> None:
    """R-INTRO-01: after the last Canal round the game is over, still in the Canal Era; the
    Canal Era's scoring happened (a flipped Cotton Mill I scores its 5 VP) and no income was paid."""
    g = intro_game()
    set_player(g, 1, money=20, income=20, vp=0)
    tile(g, 1, "birmingham/0", "cotton", 1, flipped=True)
    end_of_canal(g)
    assert g.is_over and g.table.era == "canal"
    p1 = g.table.player(1)
    # 5 (Cotton I, era scoring) + 5 (£20 / 4) + 5 (income level 5) + 0 (no level II+ tile)
    assert (p1.vp, p1.money) == (15, 20)
    assert not g.state.tiles  # level I tiles left the board at the end of the Canal Era


def test_R_INTRO_02_to_04_extra_scores() -> None:
    """R-INTRO-02: £37 gives 9 VP, £80 is capped at 15; R-INTRO-03: income level 5 gives +5,
    level −3 takes 3; R-INTRO-04: a flipped Manufacturer II (5 VP) scores again, a Cotton Mill I
    (removed at the end of the era) does not."""
    g = intro_game()
    set_player(g, 1, money=37, income=20, vp=0)   # space 20 = level 5
    set_player(g, 2, money=80, income=7, vp=2)    # space 7 = level -3
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 1, "birmingham/0", "cotton", 1, flipped=True)
    end_of_canal(g)
    p1, p2 = g.table.player(1), g.table.player(2)
    assert p1.vp == 5 + 5 + 9 + 5 + 5   # era: Manufacturer II + Cotton I; intro: money, income, Manufacturer II again
    assert p2.vp == 2 + 15 - 3
    assert [s["seat"] for s in g.standings()] == [1, 2]


def test_R_INTRO_03_negative_income_cannot_take_vp_below_zero() -> None:
    """R-INTRO-03 with the VP marker at 0: £0 and income level −10 leave the player at 0 VP."""
    g = intro_game()
    set_player(g, 2, money=0, income=0, vp=0)
    end_of_canal(g)
    assert g.table.player(2).vp == 0
