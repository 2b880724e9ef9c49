"""Fixtures for the loader tests: temporary ruleset folders with predictable names."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

MakeRuleset = Callable[..., Path]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test from tmp_path so display names are short relative paths."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def make_ruleset(in_tmp: Path) -> MakeRuleset:
    """make_ruleset("name", {"ruleset.yaml": "...", ...}) -> folder tmp/name.

    File texts are dedented so tests can write them indented like code.
    """

    def make(name: str, files: dict[str, str]) -> Path:
        folder = in_tmp / name
        folder.mkdir(parents=True, exist_ok=True)
        for file_name, text in files.items():
            (folder / file_name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return folder

    return make


def sibling_resolver(value: str, folder: Path) -> Path | None:
    """The caller's name resolution used in tests: a sibling folder of that name."""
    candidate = folder.parent / value
    return candidate if candidate.is_dir() else None


@pytest.fixture
def resolver() -> Callable[[str, Path], Path | None]:
    return sibling_resolver
