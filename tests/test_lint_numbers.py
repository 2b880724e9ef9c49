"""`brass lint` W110 (issue 27, item 5a): a number in a rule's text, a precondition's message or a
`doc` that the data contradicts. Each test changes one number of the data in a copy of a shipped
ruleset, as a designer's slip would, and expects the texts that still say the old number, located
at that number, naming both the text's number and the data's. The shipped rulesets stay clean
(test_lint.py, test_every_shipped_ruleset_lints_clean).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulesets
from interpreter.ruleset.loader import clear_cache, load_ruleset
from interpreter.tools.authoring.lint import lint

FIX = ("write the number as a {…} part that reads the data (docs/ruleset-format.md, texts that follow "
       "the data), or correct it")


@pytest.fixture
def slip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`slip(game, file, old, new)`: the W110 warnings of a copy of `game` in which `old` (found once
    in `file`) reads `new`, as "FILE:LINE:COL message", files named from the copy's `rulesets/`."""
    monkeypatch.chdir(tmp_path)

    def lint_with(game: str, file: str, old: str, new: str) -> list[str]:
        folder = tmp_path / "rulesets" / game
        shutil.copytree(rulesets.builtin_path(game), folder)
        text = (folder / file).read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        (folder / file).write_text(text.replace(old, new), encoding="utf-8")
        clear_cache()
        return [f"{f.pos}: {f.message.removesuffix('; ' + FIX)}"
                for f in lint(load_ruleset(folder), scenarios=[]) if f.code == "W110"]

    yield lint_with
    clear_cache()


def test_scout_discarding_two_cards(slip) -> None:
    """The Scout's third discard step removed: its doc and R-TURN-04 still say three."""
    assert slip("birmingham", "actions.yaml", "      - discard: third_card\n", "") == [
        "rulesets/birmingham/actions.yaml:247:18: the doc of Scout says 'Discard three', but Scout's effects "
        "discard 2 cards",
        "rulesets/birmingham/rules.yaml:56:90: the text of R-TURN-04 says 'Scout discards 3', but Scout's effects "
        "discard 2 cards",
    ]


def test_develop_of_up_to_three_tiles(slip) -> None:
    """The Develop's repeat max 3: R-DEV-01 and the doc still say one or two."""
    assert slip("birmingham", "actions.yaml", "      rule: R-DEV-01                 # one or two tiles\n"
                                              "      min: 1\n      max: 2\n",
                "      rule: R-DEV-01\n      min: 1\n      max: 3\n") == [
        "rulesets/birmingham/actions.yaml:161:36: the doc of Develop says 'one or two tiles', but the repeat "
        "'tiles' takes 1 to 3",
        "rulesets/birmingham/rules.yaml:315:39: the text of R-DEV-01 says '1 or 2 industry tiles', but the repeat "
        "'tiles' takes 1 to 3",
    ]


def test_develop_paying_two_iron_a_tile(slip) -> None:
    assert slip("birmingham", "actions.yaml", "consume: {resource: iron, amount: 1, at: []}",
                "consume: {resource: iron, amount: 2, at: []}") == [
        "rulesets/birmingham/actions.yaml:161:75: the doc of Develop says '1 iron', but Develop's effects consume "
        "2 iron",
        "rulesets/birmingham/rules.yaml:318:19: the text of R-DEV-02 says '1 iron', but Develop's effects consume "
        "2 iron",
    ]


def test_a_lancashire_loan_of_15(slip) -> None:
    """The loan step £15: the Loan's doc still offers £10 and £20 (its choices are now £15, £30, £45)."""
    assert slip("lancashire", "setup.yaml", "loan: {amount: 10,", "loan: {amount: 15,") == [
        "rulesets/lancashire/actions.yaml:353:34: the doc of Loan says £10, but the data of Loan says £15, £30, £45",
        "rulesets/lancashire/actions.yaml:353:39: the doc of Loan says £20, but the data of Loan says £15, £30, £45",
    ]


def test_a_double_action_build_discarding_one_card(slip) -> None:
    """Its second discard removed: L-TURN-04 names it before "discards", its doc and L-BUILD-04 say
    "discard any two"; its message still counts its two card choices, which are unchanged. (The doc
    is a folded block over two lines: its finding is at the block's start, as for any such text.)"""
    assert slip("lancashire", "actions.yaml", "      - discard: {card: second_card, rule: L-TURN-04}\n", "") == [
        "rulesets/lancashire/actions.yaml:111:7: the doc of Double Action Build says 'Discard any two', but "
        "Double Action Build's effects discard 1 card",
        "rulesets/lancashire/rules.yaml:53:129: the text of L-TURN-04 says 'Double Action Build (L-BUILD-04) "
        "discards 2', but Double Action Build's effects discard 1 card",
        "rulesets/lancashire/rules.yaml:194:84: the text of L-BUILD-04 says 'discard any 2', but Double Action "
        "Build's effects discard 1 card",
    ]


def test_a_scout_asking_for_four_cards_keeps_its_message_true_of_three(slip) -> None:
    """"Scout needs three different cards" counts the Scout's card choices: with a fourth discard
    step but still three choices, only the texts about discards are wrong."""
    found = slip("birmingham", "actions.yaml", "      - discard: third_card\n",
                 "      - discard: third_card\n      - discard: third_card\n")
    assert [line.split(": the ")[0] for line in found] == ["rulesets/birmingham/actions.yaml:247:18",
                                                          "rulesets/birmingham/rules.yaml:56:90"]
