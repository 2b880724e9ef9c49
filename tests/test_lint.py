"""`brass lint` and `brass check --strict` (interpreter/tools/lint*.py): located warnings with stable
codes about likely mistakes in a ruleset that loads; the shipped rulesets have none, and the broken
variant of tests/data/lint has exactly one of each kind.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
import yaml

import rulesets
from interpreter.ruleset.loader import clear_cache, load_ruleset
from interpreter.tools.authoring.lint import CODES, lint
from interpreter.tools.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path("tests/data/lint/rulesets/broken")


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch):
    """From the repository root, so that files are named `rulesets/…` and `tests/…`."""
    monkeypatch.chdir(ROOT)
    clear_cache()
    yield
    clear_cache()


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_every_shipped_ruleset_lints_clean(at_root, capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert main(["lint", name]) == 0
    assert capsys.readouterr() == ("", "")


def test_the_broken_ruleset_gives_each_warning_once_where_it_is(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", str(BROKEN)]) == 1
    out, err = capsys.readouterr()
    where = [(line.split(": warning ")[0], line.split(": warning ")[1][:4]) for line in out.splitlines()]
    assert where == [
        ("rulesets/birmingham/rules.yaml:310:78", "W107"),   # R-LINK-07's "Redditch", renamed in the variant
        (f"{BROKEN}/broken.yaml:3:34", "W106"),                # "£40" where the loan gives £30
        (f"{BROKEN}/broken.yaml:6:3", "W105"),                 # R-LONELY-01, cited by nothing
        (f"{BROKEN}/broken.yaml:11:3", "W102"),                # the town no link reaches
        (f"{BROKEN}/broken.yaml:19:3", "W103"),                # glassworks, on no slot
        (f"{BROKEN}/broken.yaml:24:3", "W101"),                # cotton levels 1, 2, 4
        (f"{BROKEN}/broken.yaml:30:18", "W110"),               # "Discard two cards" where Tinker discards one
        (f"{BROKEN}/broken.yaml:36:29", "W104"),               # "locaton"
        (f"{BROKEN}/broken.yaml:39:16", "W108"),               # a precondition with rules: but no rule:
    ]
    # W109 needs a third era, whose inherited era checks give one warning each: its own test below
    assert sorted(code for _, code in where) == sorted(set(CODES) - {"W109"})
    assert err == "9 warnings\n"


def test_the_messages_say_what_is_wrong(at_root) -> None:
    found = {f.code: f.message for f in lint(load_ruleset(BROKEN))}
    assert found["W101"].startswith("the tiles of 'cotton' skip level 3 (levels 1, 2, 4)")
    assert found["W102"].startswith("town 'lonely' is at the end of no link")
    assert found["W103"] == "no slot shows the industry 'glassworks': it can never be built"
    assert found["W104"].startswith("'locaton' is never a value of card.kind ('location', 'industry', "
                                    "'wild_location', 'wild_industry'); did you mean 'location'?")
    assert found["W105"].startswith("rule R-LONELY-01 is cited nowhere")
    assert found["W106"].startswith("the text says £40, but the data citing R-LOAN-01 says £30")
    assert found["W110"] == ("the doc of Tinker says 'Discard two', but Tinker's effects discard 1 card; "
                             "write the number as a {…} part that reads the data (docs/ruleset-format.md, texts "
                             "that follow the data), or correct it")
    assert found["W108"].startswith("this precondition names no rule: a move it refuses is refused without a rule ID")
    assert found["W107"].startswith("the text of R-LINK-07, inherited from birmingham, names the place "
                                    "'Redditch', which broken does not have; state R-LINK-07's text anew")


def test_strict_check_turns_each_warning_into_an_error(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(BROKEN)]) == 0  # it loads: check alone finds nothing wrong
    capsys.readouterr()
    assert main(["check", "--strict", str(BROKEN)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 10 and lines[-1] == "9 errors (lint warnings, --strict)"
    assert f"{BROKEN}/broken.yaml:36:29: error W104: 'locaton' is never a value of card.kind" in err
    assert main(["check", "--strict", "birmingham"]) == 0
    assert capsys.readouterr().out.startswith("Brass: Birmingham (birmingham 1.0.0): OK")


def test_a_fixed_mistake_is_no_longer_warned_about(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "rulesets" / "broken"
    shutil.copytree(ROOT / BROKEN, folder)
    monkeypatch.chdir(tmp_path)
    clear_cache()
    text = (folder / "broken.yaml").read_text(encoding="utf-8")
    (folder / "broken.yaml").write_text(text.replace('"locaton"', '"location"').replace("£40", "£30")
                                        .replace("Discard two cards", "Discard one card"), encoding="utf-8")
    codes = sorted(f.code for f in lint(load_ruleset(folder), scenarios=[]))
    assert codes == ["W101", "W102", "W103", "W107", "W108"]  # and no W105 without any scenario folder
    clear_cache()


def test_a_scenario_citing_the_rule_silences_w105(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "rulesets" / "broken"
    shutil.copytree(ROOT / BROKEN, folder)
    (tmp_path / "scenarios").mkdir()
    monkeypatch.chdir(tmp_path)
    clear_cache()
    assert "W105" in {f.code for f in lint(load_ruleset(folder))}
    (tmp_path / "scenarios" / "lonely.yaml").write_text(
        "ruleset: ../rulesets/broken\nplayers: 2\nrules: [R-LONELY-01]\nthen: ['true']\n", encoding="utf-8")
    assert "W105" not in {f.code for f in lint(load_ruleset(folder))}
    clear_cache()


def test_w109_a_third_era_that_no_era_condition_names(tmp_path: Path, at_root) -> None:
    """A variant adding a Steam Era (a copy of the Rail Era) inherits the Build's era checks, which name
    "canal" and "rail" only (R-BUILD-13, R-BUILD-14): in the Steam Era a canal-only tile would pass them.
    Each such condition is reported at its era; the shipped rulesets name every era they have."""
    flow = yaml.safe_load((rulesets.builtin_path("birmingham") / "flow.yaml").read_text(encoding="utf-8"))
    steam = {**copy.deepcopy(flow["eras"][1]), "id": "steam", "name": "Steam Era"}
    folder = tmp_path / "steam"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("name: steam\ntitle: Steam\nversion: '0.1'\nextends: birmingham\n"
                                         + yaml.safe_dump({"eras": [*flow["eras"], steam]}, sort_keys=False))
    found = [(str(f.pos), f.code) for f in lint(load_ruleset(folder)) if f.code == "W109"]
    assert found == [(f"rulesets/birmingham/actions.yaml:{line}:23", "W109") for line in (57, 60, 65)]
    message = next(f.message for f in lint(load_ruleset(folder)) if f.code == "W109")
    assert message.startswith("this condition branches on the era ('canal'), but no condition names the era 'steam'")
    for name in rulesets.builtin_names():
        assert not [f for f in lint(load_ruleset(name)) if f.code == "W109"], name
