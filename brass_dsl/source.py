"""Source positions shared by the condition language and the ruleset loader.

Every error the project reports names a file, a line and a column. The YAML loader
records where each value was written (`SourcePos`); for a condition-language
expression it also records how the expression text sits in the file
(`ExpressionOrigin`), so that a column *inside* the expression can be turned back
into a line and column of the YAML file.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SourcePos:
    """A 1-based line and column in a named file."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class ExpressionOrigin:
    """Where the text of an expression starts in its YAML file, and how it was written.

    `start` is the position of the expression's first character (after any quote).
    `style` is the YAML scalar style: "" (plain), "'" or '"' (quoted), "|" (literal
    block) or ">" (folded block). Only single-line scalars and literal blocks keep a
    one-to-one mapping of text to file; for multi-line plain, quoted or folded
    scalars the line breaks were folded away, so positions on later lines are
    reported at the scalar's first line (still the right place to look).
    """

    start: SourcePos
    style: str = ""

    def locate(self, line: int, col: int) -> SourcePos:
        """Map a 1-based (line, col) inside the expression text to the YAML file."""
        if line <= 1:
            return SourcePos(self.start.file, self.start.line, self.start.col + max(col, 1) - 1)
        if self.style == "|":
            # Literal block lines keep their indentation, which is the column of `start`.
            return SourcePos(self.start.file, self.start.line + line - 1, self.start.col + max(col, 1) - 1)
        return self.start

    @classmethod
    def unknown(cls, label: str = "<expression>") -> ExpressionOrigin:
        """An origin for an expression that did not come from a file (tests, the REPL)."""
        return cls(SourcePos(label, 1, 1), "")
