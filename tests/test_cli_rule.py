"""`brass rule ID…`: a rule's statement, the places of the ruleset citing it, and the scenarios
verifying that statement (a variant's rewritten rule is a different statement)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.tools.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_a_rule_with_its_citations_and_scenarios(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "R-BUILD-02"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("R-BUILD-02: With a location card, build any industry at the named location, even outside "
                        "your network.")
    assert lines[1] == "  source: RB-a Build 1"
    assert lines[2].startswith("  stated at: rulesets/birmingham/rules.yaml:")
    assert any(line.startswith("    rulesets/birmingham/actions.yaml:") and
               line.endswith(": actions.build.requires[1]: This location card lets you build only in {card.name}.")
               for line in lines)
    assert "    scenarios/birmingham/build_location_card_outside_the_network.yaml" in lines


def test_a_variant_rewritten_rule_has_the_variant_scenarios_only(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "R-LINK-05", "--ruleset", "summary-es"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("R-LINK-05: (Spanish summary, C-03)")
    assert "scenarios/summary-es/summary_es_double_rail_beer_not_from_an_opponent.yaml" in out
    assert "rail_double_beer_opponent_brewery" not in out  # the full game's R-LINK-05, another statement
    assert main(["rule", "R-LINK-05"]) == 0
    out = capsys.readouterr().out
    assert "scenarios/birmingham/rail_double_beer_opponent_brewery.yaml" in out and "summary_es" not in out


def test_a_prefix_lists_every_rule_of_a_section(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "R-LOAN", "--scenarios"]) == 0
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("R-")] == [
        "R-LOAN-01", "R-LOAN-02", "R-LOAN-03"]
    assert out.count("  scenarios: none") == 3  # no folder searched


def test_an_unknown_rule_is_an_error(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "R-BILD-02"]) != 0
    assert "no rule 'R-BILD-02' in the index of birmingham; did you mean 'R-BUILD-02'?" in capsys.readouterr().err
