"""Public figures the condition language reads (docs/lancashire.md, item 8): `deck_size`,
`actions_left`, `rounds_in_era`, `hand_size(p)`, `discard_size(p)`, and a variant that uses one
(tests/data/late-loans: Brass: Lancashire's L-LOAN-03 written in YAML over Birmingham)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from brass_dsl import DslError, Env, compile_expression
from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset

from position import card_id, deck, era, hand, refused, turn

LATE_LOANS = Path(__file__).resolve().parent / "data" / "late-loans"


def value(g: Game, text: str, table=None) -> object:
    """`text` compiled against the game's ruleset vocabulary and evaluated on its table."""
    return compile_expression(text, g.ruleset.registry)(Env(table or g.table, {}))


@pytest.mark.parametrize("players, deck_left, rounds", [(2, 22, 10), (3, 27, 9), (4, 28, 8)])
def test_figures_after_setup(players: int, deck_left: int, rounds: int) -> None:
    """After setup: 40/54/64 cards less 8 per hand and 1 face down per player; 1 action in the
    first Canal round; 10/9/8 rounds per era."""
    g = Game.new(load_ruleset("birmingham"), players, 1)
    assert value(g, "deck_size") == deck_left
    assert value(g, "[hand_size(me), discard_size(me), actions_left, rounds_in_era]") == (8, 1, 1, rounds)
    assert value(g, "sum(hand_size(p) + discard_size(p) for p in players) + deck_size") == \
        {2: 40, 3: 54, 4: 64}[players]


def test_figures_follow_the_game() -> None:
    """The first player passes: one card more on their discard pile, the hand refilled from the
    deck (22 -> 21); the next player has 1 action, and in round 2 a player has 2."""
    g = Game.new(load_ruleset("birmingham"), 2, 1)
    first = g.table.me
    g.apply({"action": "pass", "card": first.hand[0].id})
    assert value(g, "deck_size") == 21
    assert (len(first.hand), len(first.discard)) == (8, 2)
    assert value(g, "sum(discard_size(p) for p in players)") == 3
    assert value(g, "discard_size(me) + hand_size(me)") == 9
    assert value(g, "actions_left") == 1
    g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    assert (g.state.round, value(g, "actions_left")) == (2, 2)


def test_a_seat_view_reads_the_same_figures() -> None:
    """Sizes are public: a seat's view (hidden cards as placeholders) gives the same numbers."""
    g = Game.new(load_ruleset("birmingham"), 3, 5)
    text = "[deck_size, actions_left, rounds_in_era, sum(hand_size(p) for p in players), " \
           "sum(discard_size(p) for p in players)]"
    assert value(g, text, g.view(2).table) == value(g, text) == (27, 1, 9, 24, 3)


@pytest.mark.parametrize("text, words", [
    ('deck_size == "none"', "int"),
    ("hand_size(1) > 0", "player"),
    ("rounds_in_era(2)", "rounds_in_era"),
])
def test_figures_are_typed(text: str, words: str) -> None:
    with pytest.raises(DslError) as error:
        compile_expression(text, load_ruleset("birmingham").registry)
    assert words in str(error.value)


# -- a variant that reads deck_size ------------------------------------------------------------

def rail_round(ruleset: str | Path, round: int, deck_left: int) -> Game:
    """Player 1 to act in a 2-player Rail Era round with `deck_left` cards in the draw deck."""
    g = Game.new(load_ruleset(ruleset), 2, 1)
    era(g, "rail", round=round)
    turn(g, 1, order=[1, 2])
    deck(g, size=deck_left)
    hand(g, 1, ["birmingham", "dudley"], rest="discard")
    return g


def test_late_loans_refused_once_the_rail_deck_is_empty() -> None:
    """Rail round 7 of 10, empty deck: the variant refuses the Loan with R-LOAN-04 and its message
    (4 rounds left); the full game, same position, gives £30 (£17 -> £47)."""
    g = rail_round(LATE_LOANS, 7, 0)
    loan = {"action": "loan", "card": card_id(g, 1, "birmingham")}
    assert refused(g, loan) == ["R-LOAN-04"]
    failure = g.explain(loan)["failures"][0]
    assert failure.message == "No loans in the Rail Era once the draw deck is empty (4 round(s) left)."
    assert {"action": "loan"} not in g.legal_actions()

    full = rail_round("birmingham", 7, 0)
    full.apply({"action": "loan", "card": card_id(full, 1, "birmingham")})
    assert full.table.player(1).money == 47


@pytest.mark.parametrize("ruleset", [LATE_LOANS, "birmingham"])
def test_late_loans_allowed_while_cards_remain(ruleset: str | Path) -> None:
    """Rail round 6 with 4 cards in the deck: both rulesets give the loan (£17 -> £47)."""
    g = rail_round(ruleset, 6, 4)
    g.apply({"action": "loan", "card": card_id(g, 1, "birmingham")})
    assert g.table.player(1).money == 47


def test_late_loans_allowed_in_the_canal_era_with_an_empty_deck() -> None:
    """The rule names the Rail Era only: Canal round 8 of 10 with an empty deck still lends £30."""
    g = Game.new(load_ruleset(LATE_LOANS), 2, 1)
    era(g, "canal", round=8)
    turn(g, 1, order=[1, 2])
    deck(g, size=0)
    hand(g, 1, ["birmingham", "dudley"], rest="discard")
    g.apply({"action": "loan", "card": card_id(g, 1, "birmingham")})
    assert g.table.player(1).money == 47
