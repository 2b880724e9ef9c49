"""The README's quick start works as written: its scenario passes and its variant loads and
changes exactly the loan amount (the files are the README's own `# name` YAML blocks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.tools.cli.main import main

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture
def quick_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    blocks = re.findall(r"```yaml\n# (\S+)\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert {name for name, _ in blocks} >= {"loan.yaml", "cheap-loans/ruleset.yaml"}
    for name, body in blocks:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_quick_start_scenario_passes(quick_start: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "loan.yaml"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("1 passed, 0 failed")


def test_the_quick_start_variant_changes_the_loan_only(quick_start: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "cheap-loans"]) == 0
    capsys.readouterr()
    assert main(["diff", "birmingham", "cheap-loans"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "cheap-loans/ruleset.yaml:6:18: value changed: economy.loan.amount [R-LOAN-01]: 30 → 40"
    assert lines[0] == "cheap-loans against birmingham: 4 changes"  # name, title, version, the loan
