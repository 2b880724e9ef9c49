"""Built-in rulesets shipped with the package, each a folder of YAML files."""

from __future__ import annotations

from pathlib import Path

BUILTIN_DIR = Path(__file__).resolve().parent
# The ruleset a command uses when none is named (`brass check`, a scenario without `ruleset:`); the
# interpreter's Python names no game, so the name is written here, beside the rulesets.
DEFAULT = "birmingham"


def builtin_names() -> list[str]:
    """Names of the rulesets shipped inside the package, sorted."""
    return sorted(p.name for p in BUILTIN_DIR.iterdir() if (p / "ruleset.yaml").is_file())


def builtin_path(name: str) -> Path | None:
    """The folder of the built-in ruleset called `name`, or None if there is none."""
    path = BUILTIN_DIR / name
    return path if (path / "ruleset.yaml").is_file() else None
