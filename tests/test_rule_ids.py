"""Rule IDs of another game: a ruleset's rule index may use its own letter (Brass: Lancashire's
`L-DM-02` beside Birmingham's `R-BUILD-03`), docs/lancashire.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset

HEAD = "name: ids\ntitle: Ids\nversion: '1'\nextends: birmingham\n"


def write(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "ids"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(HEAD + text)
    return folder


def test_a_rule_id_with_another_letter_is_cited(tmp_path: Path) -> None:
    folder = write(tmp_path, "rules:\n  L-DM-02:\n    text: Draw the top Distant Market tile.\n"
                             "economy:\n  loan: {amount: 30, income_levels: 3, rule: L-DM-02}\n")
    ruleset = load_ruleset(folder)
    assert ruleset.rules["L-DM-02"].text == "Draw the top Distant Market tile."
    assert "R-BUILD-03" in ruleset.rules  # Birmingham's own index is still there


@pytest.mark.parametrize("rule_id", ["l-dm-02", "DM-02", "L-DM-2a"])
def test_a_malformed_rule_id_is_located(tmp_path: Path, rule_id: str) -> None:
    folder = write(tmp_path, f"economy:\n  loan: {{amount: 30, income_levels: 3, rule: {rule_id}}}\n")
    with pytest.raises(RulesetError) as error:
        load_ruleset(folder)
    found = [(d.pos.line, d.message) for d in error.value.diagnostics]
    assert (6, f"economy.loan.rule: '{rule_id}' is not a valid rule ID (like R-BUILD-03)") in found, found
