"""Fixtures shared by the tests of the `brass` command."""

from __future__ import annotations

import io
import sys

import pytest

from interpreter.tools.cli import main


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """Run a `brass` command in this process (the ruleset stays cached) with the given input;
    returns (status, out, err)."""
    def run_(*args: str, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main(list(args))
        captured = capsys.readouterr()
        return status, captured.out, captured.err
    return run_
