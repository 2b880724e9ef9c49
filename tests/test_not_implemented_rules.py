"""A rule an index marks `not_implemented` is listed apart by `brass verify --coverage`, with its
reason, and counts neither as covered nor as uncovered (rulesets/lancashire: L-CLASSIC-02/03, whose
data the reference lacks)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.scenarios.verify import verify

ROOT = Path(__file__).resolve().parent.parent


def _variant(tmp_path: Path, reason: str | None) -> Path:
    """A variant of the two-buyers test ruleset with one new rule and one scenario citing another."""
    folder = tmp_path / "v"
    folder.mkdir()
    marked = f"\n    not_implemented: {reason}" if reason else ""
    (folder / "ruleset.yaml").write_text(
        f"name: marked\ntitle: marked\nversion: '1'\nextends: {ROOT / 'tests/data/two-buyers'}\n"
        "rules:\n"
        f"  X-NEW-01:\n    text: A rule nobody plays.{marked}\n"
        "  X-NEW-02:\n    text: A rule a scenario shows.\n"
        "actions:\n  pass:\n    rules: [X-NEW-01]\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text(  # beside the folder: every YAML file inside it is part of the ruleset
        "ruleset: v\nrules: [X-NEW-02]\nplayers: 2\nthen:\n  - money(1) == 17\n", encoding="utf-8")
    return folder


def _run(folder: Path, *flags: str) -> str:
    out = io.StringIO()
    assert verify([folder.parent / "s.yaml"], out, show_coverage=True, as_json="--json" in flags) == 0
    return out.getvalue()


def test_a_marked_rule_is_listed_with_its_reason_and_left_out_of_the_share(tmp_path: Path) -> None:
    text = _run(_variant(tmp_path, "no data for it"))
    assert "  X-NEW-01  not implemented: no data for it" in text
    assert "coverage (marked): 1/1 rule IDs = 100.0% (1 more not implemented: X-NEW-01)" in text


def test_without_the_mark_the_same_rule_is_uncovered(tmp_path: Path) -> None:
    text = _run(_variant(tmp_path, None))
    assert "  X-NEW-01  none" in text
    assert "coverage (marked): 1/2 rule IDs = 50.0%" in text


def test_the_json_report_gives_the_reasons(tmp_path: Path) -> None:
    report = json.loads(_run(_variant(tmp_path, "no data for it"), "--json"))
    table = report["coverage"]["marked"]
    assert (table["covered"], table["rules"], table["not_implemented"]) == (1, 1, {"X-NEW-01": "no data for it"})


def test_lancashire_marks_exactly_the_two_classic_rules_whose_data_is_missing() -> None:
    rules = load_ruleset("lancashire").rules
    marked = sorted(rid for rid, rule in rules.items() if rule.not_implemented)
    assert marked == ["L-CLASSIC-02", "L-CLASSIC-03"]
    assert "Alternate Map" in rules["L-CLASSIC-03"].not_implemented
