"""`brass check` reports every independent error of every stage in one run, and the designer's hints:
an unquoted word, a forgotten rule ID, a check value that starts with a quote.

A structure error leaves out only what it is about (its action, or the section it is in); the
cross-reference checks and the compiling of the condition language still run on the rest. What
the model is built from is never built after an error in its bounds (tests/test_hostile_ruleset.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import clear_cache, load_ruleset
from interpreter.tools.cli.main import main

HEADER = 'name: v\ntitle: V\nversion: "1"\nextends: birmingham\n'  # 4 lines: a variant's text starts at line 5


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    clear_cache()
    yield tmp_path
    clear_cache()


def errors(text: str) -> list[str]:
    folder = Path("v")
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(HEADER + text, encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(folder)
    return [d.message if d.pos is None else f"{d.pos.line}:{d.pos.col}: {d.message}" for d in refused.value.diagnostics]


SCOUT_CANAL = """\
  scout:
    requires:
      - rule: R-SCOUT-02
        check: era.link_kind == "canal" and count(c in hand(me)) >= "3"
        message: Not in the canal era.
"""


def test_a_structure_error_and_a_condition_error_elsewhere_are_both_reported() -> None:
    found = errors("actions:\n  loan:\n    colour: red\n" + SCOUT_CANAL)
    assert len(found) == 2
    assert found[0].startswith("7:5: unknown key 'colour' in actions.loan")
    assert found[1] == "11:66: cannot compare int with str"   # the type error inside the scout's check


def test_every_stage_reports_in_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    """A structure error (an action), a cross-reference error (a merchant's player count), an
    unknown rule ID (economy) and a condition-language error: four errors, four stages' worth."""
    folder = Path("v")
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(HEADER + "actions:\n  loan:\n    colour: red\n" + SCOUT_CANAL
                                         + "merchants:\n  oxford:\n    spaces: {2: 2, 3: 2, 4: 2, 5: 1}\n"
                                         + "economy:\n  loan: {rule: R-LOAN-99}\n", encoding="utf-8")
    assert main(["check", "v"]) == 1
    err = capsys.readouterr().err
    located = [line.split(": ")[0] for line in err.splitlines() if line.startswith("v/")]
    assert located == ["v/ruleset.yaml:7:5", "v/ruleset.yaml:11:66", "v/ruleset.yaml:15:32", "v/ruleset.yaml:17:16"]
    assert err.splitlines()[-1] == "4 errors"


def test_a_section_with_a_structure_error_is_left_out_of_the_later_checks() -> None:
    """The merchant with a wrong key is not cross-checked or compiled (which would only add noise),
    and the scout's condition error is still found."""
    found = errors("merchants:\n  oxford:\n    beer_bonus: [{gain_vp: lots}]\n    colour: red\n"
                   "actions:\n" + SCOUT_CANAL)
    assert [f.split(": ")[0] for f in found] == ["8:5", "13:66"]


def test_a_broken_bound_stops_the_model_but_not_the_other_checks() -> None:
    found = errors("income_track:\n  bands:\n    - {levels: [-10, 30], spaces: 1000000000}\n"
                   "economy:\n  loan: {rule: R-LOAN-99}\n")
    assert found[0] == "7:35: income_track.bands.0.spaces must be at most 100, not 1000000000"
    assert found[1].startswith("9:16: unknown rule ID 'R-LOAN-99'")
    assert len(found) == 2


# -- hints ----------------------------------------------------------------------------------------


def test_an_unquoted_id_suggests_the_quotes() -> None:
    found = errors("actions:\n  scout:\n    requires:\n      - rule: R-SCOUT-02\n        check: era == canal\n"
                   "        message: Not in the canal era.\n")
    assert found == ["9:23: unknown name 'canal'; ids are written in quotes: did you mean the era \"canal\"?"]


def test_an_unquoted_word_compared_with_text_suggests_the_quotes() -> None:
    found = errors("actions:\n  scout:\n    requires:\n      - rule: R-SCOUT-02\n"
                   "        check: card.kind != harbour\n        message: x\n")
    assert found[0].endswith("unknown name 'harbour'; to compare with the word harbour, write it in quotes: "
                             "\"harbour\"")


def test_a_forgotten_rule_id_says_where_rule_ids_are_declared() -> None:
    found = errors("economy:\n  loan: {rule: R-LOAN-99}\n")
    assert len(found) == 1
    assert found[0].startswith("6:16: unknown rule ID 'R-LOAN-99'; did you mean 'R-LOAN-03'? (a rule ID must first "
                               "be declared in the rule index: the 'rules:' section of ")
    assert found[0].endswith("rulesets/birmingham/rules.yaml, or a 'rules:' section in this ruleset's own files)")


def test_a_check_starting_with_a_quote_explains_the_quoting() -> None:
    found = errors("actions:\n  scout:\n    requires:\n      - rule: R-SCOUT-02\n"
                   "        check: \"coal\" in me.hand\n        message: x\n")
    assert len(found) == 1
    assert found[0].startswith("9:23: ")
    assert found[0].endswith("a value that starts with a quote ends at its closing quote, so the text after it is "
                             "left over: to write an expression or a message that starts with a quoted word, quote "
                             "all of it: '\"coal\" in me.hand'")


def test_a_scenario_citing_a_forgotten_rule_id_says_where_rule_ids_are_declared(
        capsys: pytest.CaptureFixture[str]) -> None:
    Path("sc.yaml").write_text('players: 2\nrules: [R-LOAN-99]\nthen: ["true"]\n', encoding="utf-8")
    assert main(["verify", "sc.yaml"]) == 1
    out = capsys.readouterr().out
    assert ("  sc.yaml:2:9: unknown rule ID 'R-LOAN-99'; did you mean 'R-LOAN-03'? (not in the rule index of "
            "birmingham, the 'rules:' section of ") in out
    assert "rulesets/birmingham/rules.yaml)\n" in out
    assert out.endswith("0 passed, 1 failed\n")
