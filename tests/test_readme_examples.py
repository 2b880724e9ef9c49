"""The README's tour works as written: its scenario passes, its variant loads and changes exactly
the loan amount (the files are the README's own `# name` YAML blocks), its commands give what it
says, and its Python session prints what the calls return."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.tools.cli.main import main
from interpreter.tools.scenarios.verify import scenario_files

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


def readme_block(language: str, containing: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return next(block for block in blocks if containing in block)


def test_the_api_example_prints_what_the_calls_return() -> None:
    """The README's Python session, run as a doctest: the refusal it shows is the refusal given."""
    import doctest

    examples = doctest.DocTestParser().get_doctest(readme_block("python", ">>>"), {}, "README.md", str(README), 0)
    results = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(examples)
    assert results.attempted >= 8 and results.failed == 0


# The tour's commands that are run here; the others start a server, wait for keys or play many
# games (their own tests cover them: test_web_*, test_play_*, test_simulate_*, test_report, test_tune).
NOT_RUN_HERE = ("brass play", "brass simulate", "brass report", "brass serve", "pip install", "brass replay",
                "brass tune",
                "brass verify scenarios/birmingham --mutate")


def tour_commands() -> list[str]:
    lines = [line.split("  #")[0].strip() for line in readme_block("sh", "brass verify loan.yaml").splitlines()]
    return [line for line in lines if line and not line.startswith(NOT_RUN_HERE)]


def test_the_tour_commands_work_as_written(quick_start: Path, run) -> None:
    import shlex

    (quick_start / "scenarios").symlink_to(README.parent / "scenarios")  # the repository's own
    expected = {"brass check cheap-loans": 0, "brass lint cheap-loans": 0, "brass diff birmingham cheap-loans": 0,
                "brass rule R-LOAN-01 --ruleset cheap-loans": 0, "brass verify loan.yaml": 0,
                "brass verify scenarios --coverage": 0, 'brass explain loan.yaml "{action: sell, card: leek}"': 1}
    assert tour_commands() == list(expected)
    outputs = {}
    for command, status in expected.items():
        got, out, err = run(*shlex.split(command)[1:])
        assert got == status, (command, out, err)
        outputs[command] = out
    assert "economy.loan.amount [R-LOAN-01]: 30 → 40" in outputs["brass diff birmingham cheap-loans"]
    scenario_count = len(scenario_files([README.parent / "scenarios"]))  # a folder's equivalents file is not one
    assert f"the repo's {scenario_count} scenarios" in README.read_text(encoding="utf-8")
    assert outputs["brass verify scenarios --coverage"].count(f"{scenario_count} passed, 0 failed") == 1
    assert "[R-SELL-01]" in outputs['brass explain loan.yaml "{action: sell, card: leek}"']
