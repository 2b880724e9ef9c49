"""An action that takes more than one of the turn's actions (`use_actions`, with `actions_left`
read by its precondition), docs/lancashire.md item 9, shown with tests/data/double-pass: the
mechanism of Brass: Lancashire's two-card Double Action Build (L-BUILD-04, L-TURN-08)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset

from position import card_id, hand, refused, turn

DOUBLE_PASS = Path(__file__).resolve().parent / "data" / "double-pass"


def acting(ruleset: Path = DOUBLE_PASS, round: int = 2) -> Game:
    g = Game.new(load_ruleset(ruleset), 2, 1)
    turn(g, 1, order=[1, 2], round=round)
    hand(g, 1, ["birmingham", "dudley", "coventry", "stafford", "cannock", "walsall", "tamworth", "redditch"])
    return g


def double_pass(g: Game) -> dict:
    return {"action": "double_pass", "card": card_id(g, 1, "birmingham"), "second_card": card_id(g, 1, "dudley")}


def test_a_double_pass_takes_both_actions_and_refills_two_cards() -> None:
    """Round 2: both cards go to the discard pile, the turn ends at once (player 2 to act), and
    player 1's hand is refilled 6 -> 8 from the deck."""
    g = acting()
    one, deck, discard = g.table.player(1), len(g.state.deck), len(g.table.player(1).discard)
    g.apply(double_pass(g))
    assert g.table.me.seat == 2 and g.state.actions_left == 2
    assert (len(one.hand), len(one.discard), len(g.state.deck)) == (8, discard + 2, deck - 2)
    events = [e for e in g.state.log if e["event"] in ("actions used", "end of turn")][-2:]
    assert events == [{"event": "actions used", "player": 1, "actions": 1, "left": 1},
                      {"event": "end of turn", "player": 1, "drew": 2}]


def test_a_double_pass_needs_two_actions_left() -> None:
    """In the first Canal round (one action) and as a turn's second action it is refused."""
    g = acting(round=1)
    assert refused(g, double_pass(g)) == ["R-DOUBLE-01"]
    assert g.explain(double_pass(g))["failures"][0].message == \
        "A Double Pass takes both actions of a turn, and you have 1 left."
    assert {"action": "double_pass"} not in g.legal_actions()
    g = acting()
    g.apply({"action": "pass", "card": card_id(g, 1, "coventry")})
    assert (g.table.me.seat, g.state.actions_left) == (1, 1)
    assert refused(g, double_pass(g)) == ["R-DOUBLE-01"]


def test_use_actions_never_uses_the_action_being_taken(tmp_path: Path) -> None:
    """`use_actions: 5` with two actions left uses only the other one: the turn ends as before."""
    folder = tmp_path / "greedy"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        f"name: greedy\ntitle: Greedy\nversion: '1'\nextends: {DOUBLE_PASS}\n"
        "actions:\n  double_pass:\n    effects: [discard: card, discard: second_card, use_actions: 5]\n")
    g = acting(folder)
    g.apply(double_pass(g))
    assert g.table.me.seat == 2
    assert [e for e in g.state.log if e["event"] == "actions used"] == [
        {"event": "actions used", "player": 1, "actions": 1, "left": 1}]


def test_use_actions_belongs_in_actions(tmp_path: Path) -> None:
    from interpreter.ruleset.errors import RulesetError

    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: bad\ntitle: Bad\nversion: '1'\nextends: birmingham\nround_end:\n  - use_actions: 1\n")
    with pytest.raises(RulesetError) as error:
        load_ruleset(folder)
    assert [(d.pos.line, d.message) for d in error.value.diagnostics] == [
        (6, "effect 'use_actions' cannot be used here (round); it belongs in: action")]


def test_the_variant_plays_with_invariants_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.tools.cli.main import main

    assert main(["simulate", str(DOUBLE_PASS), "--players", "3", "--games", "2", "--seed", "2", "--check"]) == 0
    assert "2 game(s), 3 players" in capsys.readouterr().out
