"""`brass explain SETUP ACTION`: why an action is illegal in a position (every failed
precondition with its rule and the rule's text), or what it would do; never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.tools.cli.main import main

POSITION = """\
players: 2
given:
  round: 2
  current: 1
  players:
    1: {hand: [coventry, dudley]}
"""


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "position.yaml"
    path.write_text(POSITION, encoding="utf-8")
    return path


def test_an_illegal_action_is_explained_with_its_rules(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["explain", str(position), "{action: build, card: coventry, industry: coal, location: dudley, "
                                             "slot: dudley/0}"])
    out = capsys.readouterr().out
    assert status == 1
    assert "  - [R-BUILD-02] 'dudley' is not a possible location (rulesets/birmingham/actions.yaml:" in out
    assert ("  - [R-BUILD-02] This location card lets you build only in Coventry. "
            "(rulesets/birmingham/actions.yaml:") in out
    assert "      R-BUILD-02: With a location card, build any industry at the named location" in out


def test_a_legal_action_shows_what_it_would_do(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-LOAN-01 from level 0 (space 10): £17 + £30, down 3 levels to space 7; the position is not changed."""
    assert main(["explain", str(position), '{"action": "loan", "card": "dudley"}']) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == 'player 1: {"action": "loan", "card": "dudley#1"}'
    assert "  player 1: money £17 → £47, income space 10 → 7" in out


@pytest.mark.parametrize("action, message", [
    ("[1,", "ACTION is neither JSON nor YAML"),
    ("[1, 2]", "ACTION is a whole action"),
])
def test_a_malformed_action_is_an_error(position: Path, capsys: pytest.CaptureFixture[str], action: str,
                                        message: str) -> None:
    assert main(["explain", str(position), action]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
