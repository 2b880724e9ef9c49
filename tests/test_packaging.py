"""Packaging: `brass --version` and the licence."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_version_is_the_installed_distributions(run) -> None:
    status, out, err = run("--version")
    assert (status, err) == (0, "")
    assert out == f"brass {metadata.version('brass-rules')}\n"
    assert re.fullmatch(r"brass \d+\.\d+\.\d+\S*\n", out)


def test_version_without_an_installed_distribution(run, monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert run("--version") == (0, "brass unknown (brass-rules is not installed)\n", "")


def test_license_file_names_the_licence_pyproject_declares() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "MIT License"
    assert "Copyright (c) 2026 The brass-rules authors" in text
    assert "Permission is hereby granted, free of charge" in text
