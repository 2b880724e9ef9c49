"""An answer the rules exclude is refused citing the rule that excludes it, and why, in one clause
(issue 27, item 2): the Gloucester bonus answered with a lightbulb Pottery cites R-DEV-03 (the rule
on the Pottery I row of industries.yaml), not the bonus's own R-MERCH-01."""

from __future__ import annotations

import pytest

from interpreter import Game, IllegalAction
from interpreter.ruleset.loader import load_ruleset

GLOUCESTER = {
    "round": 2, "current": 1, "turn_order": [1, 2],
    "players": {1: {"money": 17, "income": 10, "hand": ["birmingham", "dudley", "coventry"]}},
    "tiles": [{"slot": "worcester/0", "owner": 1, "industry": "cotton", "level": 1}],
    "links": [{"link": "L29", "owner": 2}],
    "merchants": {"gloucester/0": {"tile": "cotton", "beer": True}, "gloucester/1": "blank"},
}
SELL = [{"action": "sell"}, {"card": "dudley#2"}, {"tile": "worcester/0"}, {"merchant": "gloucester/0"},
        {"merchant_beer": True}]


def _asked_gloucester() -> Game:
    game = Game.from_setup(load_ruleset("birmingham"), 2, GLOUCESTER)
    for decision in SELL:
        game.apply(decision)
    assert game.question is not None and "pottery" not in game.question["options"]
    return game


def _refusal(game: Game, answer: str) -> IllegalAction:
    before = game.state_hash()
    with pytest.raises(IllegalAction) as refused:
        game.apply({"answer": answer})
    assert game.state_hash() == before
    return refused.value


def test_a_lightbulb_pottery_is_refused_with_the_rule_that_excludes_it():
    [failure] = _refusal(_asked_gloucester(), "pottery").failures
    assert failure.rule == "R-DEV-03"
    assert failure.message == ("'pottery' does not answer: your lowest Pottery tile (level 1) cannot be developed "
                               "(answers: ['cotton', 'coal', 'iron', 'manufacturer', 'brewery']).")
    assert failure.where.startswith("rulesets/birmingham/industries.yaml:87:")


def test_a_value_that_is_no_industry_still_cites_the_question():
    [failure] = _refusal(_asked_gloucester(), "canal").failures
    assert failure.rule == "R-MERCH-01"
    assert failure.message.startswith("'canal' does not answer: Choose an industry whose lowest tile")
