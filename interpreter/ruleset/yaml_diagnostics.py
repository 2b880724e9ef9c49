"""PyYAML's scanner, parser, composer and reader errors as friendly, located diagnostics.

PyYAML words its errors for YAML implementers (``'<block mapping start>'``,
"while parsing a flow sequence"); rule designers get the same error at the same
line and column, with the token names spelled out, a hint for the usual causes
(tabs, an unquoted ``: `` in a value, a second document) and, for an unclosed
bracket or quote, where it was opened.
"""

from __future__ import annotations

import re

import yaml

from brass_dsl.source import SourcePos
from interpreter.ruleset.errors import Diagnostic

__all__ = ["marked_error", "reader_error"]


# --------------------------------------------------------------------------
# PyYAML errors in plain words


_TOKEN_WORDS = {
    "'<stream end>'": "the end of the file",
    "<stream end>": "the end of the file",
    "'<block end>'": "the end of an indented block",
    "<block end>": "the end of the indented block",
    "'<block mapping start>'": "a new indented mapping",
    "'<block sequence start>'": "a new indented list",
    "'<block entry>'": "a list item ('-')",
    "'<scalar>'": "a value",
    "'<document start>'": "a document start ('---')",
    "'<document end>'": "a document end ('...')",
    "'<anchor>'": "an anchor",
    "'<alias>'": "an alias",
    "'<tag>'": "a tag",
}
_TOKEN_PATTERN = re.compile("|".join(re.escape(k) for k in sorted(_TOKEN_WORDS, key=len, reverse=True)))
_CONTEXT_WORDS = {
    "while parsing a flow sequence": "the [...] list",
    "while parsing a flow mapping": "the {...} mapping",
    "while parsing a block mapping": "the mapping",
    "while parsing a block collection": "the list",
    "while parsing a flow node": "the value",
    "while parsing a block node": "the value",
    "while scanning a quoted scalar": "the quoted string",
    "while scanning a simple key": "the key",
    "while scanning a plain scalar": "the value",
    "while scanning a block scalar": "the block text",
    "while scanning an anchor": "the anchor",
    "while scanning an alias": "the alias",
    "while scanning a tag": "the tag",
    "while scanning a directive": "the directive",
    "while parsing a node": "the value",
}
_PROBLEM_WORDS = {
    "found character '\\t' that cannot start any token": (
        "found a tab character that cannot start any token; indent with spaces"
    ),
    "mapping values are not allowed here": (
        "mapping values are not allowed here (check the indentation, or quote a value that contains ': ')"
    ),
    "but found another document": "a file must hold a single YAML document, but a second one ('---') starts here",
}


def marked_error(exc: yaml.MarkedYAMLError, display: str, text: str = "") -> Diagnostic:
    """A PyYAML scanner/parser/composer error as a located, readable diagnostic; with the file's
    `text`, a value that ends at its closing quote with more text after it is explained."""
    mark = exc.problem_mark or exc.context_mark
    pos = SourcePos(display, mark.line + 1, mark.column + 1) if mark else SourcePos(display, 1, 1)
    message = _plain_problem(exc.problem or exc.context or "invalid YAML") + _context_note(exc)
    return Diagnostic(pos, message + (_quoting_note(text, exc.problem_mark) if text else ""))


_VALUE_START = (":", "-", ",", "[", "{")  # what comes before a value in YAML


def _quoting_note(text: str, mark: yaml.Mark | None) -> str:
    """`check: "coal" in slot.industries`: the quoted "coal" is the whole YAML value, and the words
    after it are an error that PyYAML words as bad indentation. Say what happened, and how to quote."""
    lines = text.splitlines()
    if mark is None or mark.line >= len(lines):
        return ""
    line = lines[mark.line]
    before = line[:mark.column].rstrip()
    if not before or before[-1] not in "\"'" or not line[mark.column:].strip():
        return ""
    opening = before.rfind(before[-1], 0, len(before) - 1)
    if opening < 0 or not line[:opening].rstrip().endswith(_VALUE_START):
        return ""
    value = line[opening:].split(" #")[0]
    if any(bracket in line[:opening] for bracket in "{["):  # in a flow mapping or list, a comma ends it
        value = value[:mark.column - opening] + re.split(r"[,}\]]", value[mark.column - opening:])[0]
    value = value.strip()
    quoted = f'"{value}"' if "'" in value and '"' not in value else "'" + value.replace("'", "''") + "'"
    return (f"; a value that starts with a quote ends at its closing quote, so the text after it is left over: "
            f"to write an expression or a message that starts with a quoted word, quote all of it: {quoted}")


def _plain_problem(problem: str) -> str:
    """PyYAML's problem text with its token names spelled out for designers."""
    problem = _TOKEN_PATTERN.sub(lambda m: _TOKEN_WORDS[m.group(0)], problem)
    problem = _PROBLEM_WORDS.get(problem, problem).replace("expected the node content", "expected a value")
    if problem.startswith("expected the end of the indented block"):
        problem = "bad indentation: " + problem
    return problem


def _context_note(exc: yaml.MarkedYAMLError) -> str:
    """" (the [...] list starts at line 3, column 8)" when the error has a context
    elsewhere: for an unclosed bracket, the bracket is the place to look."""
    context, problem = exc.context_mark, exc.problem_mark
    if not exc.problem or exc.context not in _CONTEXT_WORDS or context is None:
        return ""
    if problem is not None and (context.line, context.column) == (problem.line, problem.column):
        return ""
    return f" ({_CONTEXT_WORDS[exc.context]} starts at line {context.line + 1}, column {context.column + 1})"


_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")


def reader_error(exc: yaml.reader.ReaderError, text: str, display: str) -> Diagnostic:
    """A forbidden character, located by its index in the text."""
    index = max(int(exc.position), 0)
    line, line_start = 1, 0
    for found in _BREAK.finditer(text, 0, index):
        line, line_start = line + 1, found.end()
    pos = SourcePos(display, line, index - line_start + 1)
    char = exc.character
    code = f"U+{ord(char):04X}" if isinstance(char, str) else f"0x{char:02x}"
    return Diagnostic(pos, f"character {code} is not allowed in a YAML file ({exc.reason})")
