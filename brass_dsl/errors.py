"""Errors of the condition language, located in the expression and in its file.

An error knows the expression text and a 1-based line and column inside it; with an
`ExpressionOrigin` it also knows where that text sits in the ruleset file, so
`err.pos` is the place a user should look and `err.context()` shows the offending
line with a caret under the column.

Several errors at once: the checker reports every independent problem of an
expression. When it finds more than one it raises `DslErrors`, a subclass of
`DslError` whose own message and position are those of the first problem and whose
`errors` lists all of them. Every `DslError` has `errors` (a one-element tuple for
a plain error), so a caller can always write `for e in err.errors: ...`.

`DslEvaluationError` is raised while an expression runs (division by zero, the
minimum of an empty collection, a registered function rejecting its arguments),
located at the part of the expression that failed.
"""

from __future__ import annotations

from brass_dsl.source import ExpressionOrigin, SourcePos

CONTEXT_INDENT = "    "
CONTEXT_WIDTH = 100  # longer lines are shown as a window around the column


class DslError(Exception):
    """A problem in an expression, at `line`/`column` (1-based) of `text`."""

    def __init__(
        self,
        message: str,
        text: str,
        line: int,
        column: int,
        origin: ExpressionOrigin | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        self.origin = origin

    @property
    def pos(self) -> SourcePos:
        """The position in the file (or in `<expression>` when the origin is unknown)."""
        origin = self.origin or ExpressionOrigin.unknown()
        return origin.locate(self.line, self.column)

    @property
    def errors(self) -> tuple[DslError, ...]:
        """Every problem this exception stands for."""
        return (self,)

    def context(self) -> str:
        """The offending line of the expression and a caret under the column."""
        lines = self.text.splitlines() or [""]
        source, column = _clip(lines[min(self.line, len(lines)) - 1], self.column)
        # Copy tabs so that the caret lines up however the terminal expands them.
        pad = "".join(c if c == "\t" else " " for c in source[: column - 1])
        return f"{CONTEXT_INDENT}{source}\n{CONTEXT_INDENT}{pad}^"

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}\n{self.context()}"


def _clip(source: str, column: int) -> tuple[str, int]:
    """At most CONTEXT_WIDTH characters of `source` around `column`, and the column in them."""
    if len(source) <= CONTEXT_WIDTH:
        return source, column
    start = max(0, min(column - 1 - CONTEXT_WIDTH // 2, len(source) - CONTEXT_WIDTH))
    end = start + CONTEXT_WIDTH
    prefix = "..." if start else ""
    suffix = "..." if end < len(source) else ""
    return prefix + source[start:end] + suffix, column - start + len(prefix)


class DslErrors(DslError):
    """Several independent problems in one expression, in text order."""

    def __init__(self, errors: list[DslError]) -> None:
        first = errors[0]
        super().__init__(first.message, first.text, first.line, first.column, first.origin)
        self._errors = tuple(errors)

    @property
    def errors(self) -> tuple[DslError, ...]:
        return self._errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self._errors)


class DslEvaluationError(DslError):
    """An expression failed while running."""


def raise_all(errors: list[DslError]) -> None:
    """Raise the problems found, if any: one as itself, several as `DslErrors`."""
    if not errors:
        return
    ordered = sorted(errors, key=lambda e: (e.line, e.column))
    raise ordered[0] if len(ordered) == 1 else DslErrors(ordered)
