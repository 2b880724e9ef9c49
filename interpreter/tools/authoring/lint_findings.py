"""A warning of `brass lint` (interpreter/tools/authoring/lint.py) and where it points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from brass_dsl.source import SourcePos
from interpreter.ruleset.model import Ruleset

__all__ = ["Finding", "at"]


@dataclass(frozen=True)
class Finding:
    """One warning: where, its stable code, and what is wrong."""

    pos: SourcePos | None
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.pos or '<ruleset>'}: warning {self.code}: {self.message}"


def at(ruleset: Ruleset, path: tuple[Any, ...], *, key: bool = False) -> SourcePos | None:
    """The position of a value (or, with `key`, of a key) of the resolved ruleset."""
    return ruleset.source.pos(path, key=key) if ruleset.source is not None else None
