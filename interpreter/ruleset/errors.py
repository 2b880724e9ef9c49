"""The error types of the ruleset loader.

A ruleset error is never a Python traceback: the loader collects every problem it
finds as a `Diagnostic` (position + message) and raises one `RulesetError` holding
all of them, so that `brass check` can list them all at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from brass_dsl.source import SourcePos


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in a ruleset: where it is and what is wrong."""

    pos: SourcePos | None
    message: str
    detail: str = ""  # extra lines printed under the message (source line and caret)

    def __str__(self) -> str:
        where = str(self.pos) if self.pos else "<ruleset>"
        text = f"{where}: {self.message}"
        return f"{text}\n{self.detail}" if self.detail else text


class BrassError(Exception):
    """Base class of every error the project reports to a user."""


@dataclass
class RulesetError(BrassError):
    """A ruleset could not be loaded; `diagnostics` lists every problem found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics)


class DiagnosticSink:
    """Collects diagnostics during one load so that all of them can be reported."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, pos: SourcePos | None, message: str, detail: str = "") -> None:
        self.items.append(Diagnostic(pos, message, detail))

    def extend(self, diagnostics: list[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    def raise_if_any(self) -> None:
        if self.items:
            raise RulesetError(sorted_diagnostics(self.items))


def sorted_diagnostics(items: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file/line/column order, duplicates removed, for stable output."""
    unique = list(dict.fromkeys(items))
    return sorted(unique, key=lambda d: (d.pos.file, d.pos.line, d.pos.col) if d.pos else ("", 0, 0))
