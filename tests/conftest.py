"""Fixtures shared by the tests: the `brass` command in this process, the errors of a small variant, a local Ray."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.cli.main import main


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


VARIANT_HEADER = "name: bad\ntitle: Bad\nversion: '1'\nextends: birmingham\n"


@pytest.fixture
def variant_errors(tmp_path: Path) -> Callable[[str], list[tuple[int, str]]]:
    """The errors of a variant of birmingham whose ruleset.yaml is a header and then `text`, as
    (line within `text`, message); the variant must be refused."""
    def errors(text: str) -> list[tuple[int, str]]:
        folder = tmp_path / "bad"
        folder.mkdir(exist_ok=True)
        (folder / "ruleset.yaml").write_text(VARIANT_HEADER + text)
        with pytest.raises(RulesetError) as error:
            load_ruleset(folder)
        header = VARIANT_HEADER.count("\n")
        return [(d.pos.line - header, d.message) for d in error.value.diagnostics]
    return errors


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One small local Ray instance for the module (starting one takes seconds)."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'brass-rules[ray]')")
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
    try:
        yield
    finally:
        ray.shutdown()
