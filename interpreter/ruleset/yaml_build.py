"""Build plain data and the position of every value from a composed node tree.

The builder decides what each value means, so that values mean what a YAML 1.2
editor shows (``no`` is a string, ``010`` is 10, ``1:20`` is a string), through
our own core-schema resolver, and so that anything YAML-1.1-only or surprising
(duplicate keys, ``<<`` merge keys, tags, aliases of lists or mappings, non-string
keys) is a located error instead of a silent change of meaning. It records the
mark of every value and key, and the origin of every string (where its text
starts and its quoting style) so that column arithmetic inside expressions stays
right.

Aliases: an alias may refer to a scalar only (``*price`` where ``&price 12`` was
written earlier). Its mark is where the alias is used; its origin (for a string)
is where the text was written. Aliases of lists or mappings are rejected: they
hide structure and are the classic source of YAML surprises.
"""

from __future__ import annotations

import re
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from brass_dsl.source import ExpressionOrigin, SourcePos
from interpreter.ruleset.errors import Diagnostic
from interpreter.ruleset.yaml_compose import AliasNode

__all__ = ["MAX_NUMBER_LENGTH", "Builder", "is_long_number", "resolve_plain"]


# --------------------------------------------------------------------------
# YAML 1.2 core schema


_INT_DEC = re.compile(r"[-+]?[0-9]+\Z")
_INT_OCT = re.compile(r"0o[0-7]+\Z")
_INT_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL = {
    "": None, "~": None, "null": None, "Null": None, "NULL": None,
    "true": True, "True": True, "TRUE": True,
    "false": False, "False": False, "FALSE": False,
    ".inf": float("inf"), ".Inf": float("inf"), ".INF": float("inf"),
    "+.inf": float("inf"), "+.Inf": float("inf"), "+.INF": float("inf"),
    "-.inf": float("-inf"), "-.Inf": float("-inf"), "-.INF": float("-inf"),
    ".nan": float("nan"), ".NaN": float("nan"), ".NAN": float("nan"),
}  # fmt: skip
_NUMBER_START = frozenset("0123456789+-.")
# No number of a game has 100 digits, and Python refuses to read an integer of more than 4,300.
MAX_NUMBER_LENGTH = 100
_SURROGATE = re.compile("[\ud800-\udfff]")


def is_long_number(text: str) -> bool:
    """Whether the plain scalar `text` is a number (by `resolve_plain`) of more than MAX_NUMBER_LENGTH characters."""
    if len(text) <= MAX_NUMBER_LENGTH or text[0] not in _NUMBER_START:
        return False
    return any(pattern.match(text) for pattern in (_INT_DEC, _FLOAT, _INT_HEX, _INT_OCT))


def resolve_plain(text: str) -> Any:
    """The value of an untagged plain scalar under the YAML 1.2 core schema."""
    if text in _SPECIAL:
        return _SPECIAL[text]
    if text[0] not in _NUMBER_START:
        return text
    if _INT_DEC.match(text):
        return int(text, 10)
    if _FLOAT.match(text):
        return float(text)
    if _INT_HEX.match(text):
        return int(text, 0)
    if _INT_OCT.match(text):
        return int(text, 0)
    return text


# --------------------------------------------------------------------------
# Building data and marks from the node tree


_INVALID = object()


class Builder:
    """Turns a node tree into plain data, recording marks and collecting errors."""

    def __init__(self, text: str, display: str) -> None:
        self.text = text
        self.display = display
        self.errors: list[Diagnostic] = []
        self.marks: dict[tuple, SourcePos] = {}
        self.key_marks: dict[tuple, SourcePos] = {}
        self.origins: dict[tuple, ExpressionOrigin] = {}
        self._lines: list[str] | None = None

    def build_root(self, root: Node | None) -> Any:
        return None if root is None else self.build(root, ())

    def pos(self, mark: Any) -> SourcePos:
        return SourcePos(self.display, mark.line + 1, mark.column + 1)

    def error(self, mark: Any, message: str) -> None:
        self.errors.append(Diagnostic(self.pos(mark), message))

    def build(self, node: Node, path: tuple) -> Any:
        """Build the value of `node`, recording its mark (and origin) at `path`."""
        mark = self.marks[path] = self.pos(node.start_mark)
        if node.tag is not None:
            self.error(node.start_mark, f"tags are not supported: {_short_tag(node.tag)}")
            return None
        if isinstance(node, ScalarNode):
            return self.scalar(node, path, mark)
        if isinstance(node, MappingNode):
            return self.mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self.build(item, path + (index,)) for index, item in enumerate(node.value)]
        return self.alias(node, path)

    def scalar(self, node: ScalarNode, path: tuple, mark: SourcePos) -> Any:
        style = node.style
        if style is None:
            if is_long_number(node.value):
                self.error(node.start_mark, _long_number_message(node.value))
                return None
            value = resolve_plain(node.value)
            if value.__class__ is str:
                self.origins[path] = ExpressionOrigin(mark, "")
            return value
        self.origins[path] = self.origin_of(node, mark)
        return self.quoted_text(node)

    def quoted_text(self, node: ScalarNode) -> Any:
        """The text of a quoted or block scalar. A double-quoted `\\ud800` escape gives half of a
        UTF-16 surrogate pair, which is no character (it could not even be printed): a whole
        pair becomes its character, a lone half is an error."""
        value = node.value
        if node.style != '"' or _SURROGATE.search(value) is None:
            return value
        try:
            return value.encode("utf-16", "surrogatepass").decode("utf-16")
        except UnicodeDecodeError:
            found = _SURROGATE.search(value)
            assert found is not None  # searched just above
            code = f"\\u{ord(found.group()):04x}"
            self.error(node.start_mark, f"the text holds {code}, half of a UTF-16 surrogate pair, which is not a "
                                        "character; write the character itself, or \\U and its 8-digit code")
            return None

    def alias(self, node: AliasNode, path: tuple) -> Any:
        target = node.value
        if not isinstance(target, ScalarNode):
            self.error(node.start_mark, "aliases are only supported for single values, not for lists or mappings")
            return None
        if target.tag is not None:
            return None  # the tag was already reported where the anchor is
        return self.scalar(target, path, self.pos(target.start_mark))

    def mapping(self, node: MappingNode, path: tuple) -> dict:
        result: dict = {}
        key_marks = self.key_marks
        for key_node, value_node in node.value:
            key = self.key(key_node)
            if key is _INVALID:
                continue
            key_path = path + (key,)
            if key in result:
                first = key_marks[key_path].line
                self.error(key_node.start_mark, f"duplicate key {_show_key(key)} (first defined at line {first})")
                continue
            key_marks[key_path] = self.pos(key_node.start_mark)
            result[key] = self.build(value_node, key_path)
        return result

    def key(self, node: Node) -> Any:
        """The key of a mapping entry, or _INVALID after reporting why not."""
        if isinstance(node, AliasNode):
            self.error(node.start_mark, "aliases cannot be used as mapping keys")
            return _INVALID
        if node.tag is not None:
            self.error(node.start_mark, f"tags are not supported: {_short_tag(node.tag)}")
            return _INVALID
        if not isinstance(node, ScalarNode):
            kind = "a list" if isinstance(node, SequenceNode) else "a mapping"
            self.error(node.start_mark, f"a mapping key must be a string or an integer, not {kind}")
            return _INVALID
        if node.style is not None:
            text = self.quoted_text(node)
            return _INVALID if text is None else text
        if node.value == "<<":
            message = "merge keys ('<<') are not supported (they are YAML 1.1 only); write the entries out"
            self.error(node.start_mark, message)
            return _INVALID
        if is_long_number(node.value):
            self.error(node.start_mark, _long_number_message(node.value))
            return _INVALID
        key = resolve_plain(node.value)
        if key.__class__ is str or key.__class__ is int:
            return key
        self.error(node.start_mark, _bad_key_message(node.value, key))
        return _INVALID

    def origin_of(self, node: ScalarNode, mark: SourcePos) -> ExpressionOrigin:
        """Where the content of a quoted or block scalar starts, and its style."""
        style = node.style
        if style in ("'", '"'):
            return ExpressionOrigin(SourcePos(mark.file, mark.line, mark.col + 1), style)
        if style in ("|", ">"):
            return ExpressionOrigin(self.block_start(node, mark), style)
        return ExpressionOrigin(mark, style or "")

    def block_start(self, node: ScalarNode, mark: SourcePos) -> SourcePos:
        """The first content character of a `|` or `>` block scalar.

        The header line holds the indicator; content starts on the next line. Leading
        empty lines are part of a literal block's text, so for `|` the start stays on
        the line after the header (line N of the text is line start+N-1 of the file),
        with the column of the block's indentation.
        """
        value = node.value
        blank = len(value) - len(value.lstrip("\n"))
        lines = self.lines()
        index = node.start_mark.line + 1 + blank
        if not value.strip("\n") or index >= len(lines):
            return mark
        file_line = lines[index]
        first = value[blank:].split("\n", 1)[0]
        kept = len(first) - len(first.lstrip(" "))
        col = len(file_line) - len(file_line.lstrip(" ")) - kept + 1
        line = node.start_mark.line + 2 if node.style == "|" else index + 1
        return SourcePos(mark.file, line, max(col, 1))

    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines


def _short_tag(tag: str) -> str:
    """Show a tag the way it was written (`!!str`, `!foo`)."""
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix) :] if tag.startswith(prefix) else tag


def _show_key(key: Any) -> str:
    return f"'{key}'" if isinstance(key, str) else str(key)


def _long_number_message(text: str) -> str:
    return (f"number too long ({len(text):,} characters, at most {MAX_NUMBER_LENGTH}); "
            "no number of a game is this large (quote it if it is text)")


def _bad_key_message(text: str, value: Any) -> str:
    if value is None:
        return "a mapping key is missing (null keys are not allowed)"
    if isinstance(value, bool):
        return f"'{text}' is a boolean and cannot be a mapping key; quote it to use the text"
    return f"'{text}' is a decimal number and cannot be a mapping key; use an integer or quote it"
