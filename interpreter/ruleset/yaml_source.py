"""Load one YAML file into plain Python data plus the position of every value.

Rule designers edit rulesets by hand, so every later error (schema, condition
language, merge) must point at the exact line and column the designer wrote. This
module is the only place that knows about YAML: it composes the file with PyYAML
(exact marks), then builds the data itself so that

* values mean what a YAML 1.2 editor shows (``no`` is a string, ``010`` is 10,
  ``1:20`` is a string), through our own core-schema resolver;
* anything YAML-1.1-only or surprising (duplicate keys, ``<<`` merge keys, tags,
  aliases of lists or mappings, non-string keys) is a located error instead of a
  silent change of meaning.

Aliases: an alias may refer to a scalar only (``*price`` where ``&price 12`` was
written earlier). Its mark is where the alias is used; its origin (for a string)
is where the text was written, so that column arithmetic inside expressions stays
right. Aliases of lists or mappings are rejected: they hide structure and are the
classic source of YAML surprises.

Speed: when PyYAML has its libyaml binding, a file is first composed by libyaml
(the C parser), and the same composer and builder turn its events into data. That
fast path only ever produces a Document: whenever libyaml, the composer or the
builder finds anything to complain about, or the text holds one of the few
characters on which libyaml and PyYAML disagree, the file is loaded again with
the pure-Python parser, so every message (and every position) is exactly the one
the pure path gives. libyaml's marks carry the same index, line and column as
PyYAML's; only the text snippet is missing, and nothing here uses it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.error import Mark
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.scanner import Scanner

from brass_dsl.source import ExpressionOrigin, SourcePos
from interpreter.ruleset.errors import Diagnostic, RulesetError

__all__ = ["Document", "kind_name", "load_yaml_file", "load_yaml_text", "resolve_plain"]


@dataclass
class Document:
    """Plain data of a YAML document plus where each value was written."""

    data: Any
    marks: dict[tuple, SourcePos] = field(default_factory=dict)
    key_marks: dict[tuple, SourcePos] = field(default_factory=dict)
    origins: dict[tuple, ExpressionOrigin] = field(default_factory=dict)

    def pos(self, path: Sequence, *, key: bool = False) -> SourcePos | None:
        """Where the value (or, with key=True, the key) at `path` was written.

        Falls back to the nearest ancestor with a mark, because an error about a
        missing entry is best reported at the mapping that should contain it.
        """
        path = tuple(path)
        if key:
            found = self.key_marks.get(path)
            if found is not None:
                return found
        marks = self.marks
        for end in range(len(path), -1, -1):
            found = marks.get(path[:end])
            if found is not None:
                return found
        return None

    def origin(self, path: Sequence) -> ExpressionOrigin:
        """How the string at `path` sits in its file, for expression error columns."""
        path = tuple(path)
        found = self.origins.get(path)
        if found is not None:
            return found
        pos = self.pos(path)
        return ExpressionOrigin(pos, "") if pos is not None else ExpressionOrigin.unknown()


def kind_name(value: Any) -> str:
    """A designer-facing name of a value's YAML kind, for error messages."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null (nothing)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "a string"


# --------------------------------------------------------------------------
# Public entry points


def load_yaml_file(path: Path, display: str) -> Document:
    """Read and load one file; all its problems are raised as one RulesetError."""
    start = SourcePos(display, 1, 1)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise RulesetError([Diagnostic(start, f"file not found: {display}")]) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RulesetError([Diagnostic(start, f"cannot read {display}: {reason}")]) from None
    return load_yaml_text(_decode(raw, display), display)


def load_yaml_text(text: str, display: str) -> Document:
    """Load YAML text; `display` is the file name used in diagnostics."""
    text = text.removeprefix("\ufeff")  # PyYAML would not count the BOM, editors do not show it
    document = _load_fast(text, display)
    return document if document is not None else _load_pure(text, display)


def _load_pure(text: str, display: str) -> Document:
    """Load with PyYAML's pure-Python parser: the reference behaviour and messages."""
    builder = _Builder(text, display)
    try:
        data = builder.build_root(_compose(text, display))
    except RecursionError:
        message = "the file nests lists or mappings too deeply"
        raise RulesetError([Diagnostic(SourcePos(display, 1, 1), message)]) from None
    if builder.errors:
        raise RulesetError(builder.errors)
    return Document(data, builder.marks, builder.key_marks, builder.origins)


def _compose(text: str, display: str) -> Node | None:
    """The node tree of `text`; PyYAML's errors become one located diagnostic."""
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        raise RulesetError([_marked_error(exc, display)]) from None
    except yaml.reader.ReaderError as exc:
        raise RulesetError([_reader_error(exc, text, display)]) from None


def _load_fast(text: str, display: str) -> Document | None:
    """Load with libyaml; None when the pure path must decide (see the module doc).

    A None result costs only the time libyaml spent before it gave up: every error
    is reported by `_load_pure`, never from here.
    """
    if _FastLoader is None or not text.endswith("\n") or _FAST_PATH_REFUSES.search(text) is not None:
        return None
    try:
        loader = _FastLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
        builder = _Builder(text, display)
        data = builder.build_root(root)
    except Exception:  # noqa: BLE001 - any complaint at all (libyaml, composer, recursion): let the pure path report it
        return None
    if builder.errors:
        return None
    return Document(data, builder.marks, builder.key_marks, builder.origins)


# --------------------------------------------------------------------------
# Reading bytes


def _decode(raw: bytes, display: str) -> str:
    """Decode UTF-8 (with or without BOM); other encodings are a located error."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        col = len(raw[line_start : exc.start].decode("utf-8", errors="replace")) + 1
        byte = raw[exc.start]
        message = f"the file is not valid UTF-8 (byte 0x{byte:02x} cannot be decoded); save it as UTF-8"
        raise RulesetError([Diagnostic(SourcePos(display, line, col), message)]) from None


# --------------------------------------------------------------------------
# Composition: PyYAML's pure-Python reader, scanner and parser, our composer


class _AliasNode(Node):
    """An alias occurrence; `value` is the anchored node it refers to."""

    id = "alias"


_PROPERTY = re.compile(r"&[0-9A-Za-z_-]*|![^ \t\r\n\x85\u2028\u2029\0]*")


class _Composer(Composer):
    """Builds PyYAML nodes but keeps each node's tag exactly as written.

    The standard composer resolves untagged scalars with YAML 1.1 rules and
    replaces aliases by the anchored node; we keep `tag=None` for untagged nodes
    (our resolver decides later) and keep aliases visible so they can be checked.
    """

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        if self.check_event(AliasEvent):
            event = self.get_event()
            target = self.anchors.get(event.anchor)
            if target is None:
                problem = f"unknown alias '*{event.anchor}': no anchor '&{event.anchor}' is defined before it"
                raise ComposerError(None, None, problem, event.start_mark)
            return _AliasNode(None, target, event.start_mark, event.end_mark)
        event = self.peek_event()
        anchor = event.anchor
        if anchor is not None and anchor in self.anchors:
            first = self.anchors[anchor].start_mark
            problem = f"anchor '&{anchor}' is defined twice (first at line {first.line + 1})"
            raise ComposerError(None, None, problem, event.start_mark)
        if isinstance(event, ScalarEvent):
            self.get_event()
            start = event.start_mark
            if anchor is not None and (event.value or event.style):
                start = self._after_properties(start)
            style = event.style or None  # libyaml writes a plain scalar's style as '', PyYAML as None
            node: Node = ScalarNode(event.tag, event.value, start, event.end_mark, style=style)
            if anchor is not None:
                self.anchors[anchor] = node
            return node
        if isinstance(event, SequenceStartEvent):
            return self._compose_collection(SequenceNode, SequenceEndEvent, anchor)
        return self._compose_collection(MappingNode, MappingEndEvent, anchor)

    def _after_properties(self, mark: Mark) -> Mark:
        """The mark of a scalar's own text, after its `&anchor` (the event's start
        mark is the anchor's), so origins point at the first character of the text."""
        buffer: str = self.buffer  # the whole text plus a final NUL (str input)
        at, line, column = _skip_properties(buffer, mark.pointer, mark.line, mark.column)
        return Mark(mark.name, mark.index + at - mark.pointer, line, column, buffer, at)

    def _compose_collection(self, kind: type, end_kind: type, anchor: str | None) -> Node:
        start = self.get_event()
        node = kind(start.tag, [], start.start_mark, None, flow_style=start.flow_style)
        if anchor is not None:
            self.anchors[anchor] = node
        items = node.value
        is_mapping = kind is MappingNode
        while not self.check_event(end_kind):
            if is_mapping:
                key = self.compose_node(node, None)
                items.append((key, self.compose_node(node, key)))
            else:
                items.append(self.compose_node(node, len(items)))
        node.end_mark = self.get_event().end_mark
        return node


def _skip_properties(buffer: str, at: int, line: int, column: int) -> tuple[int, int, int]:
    """Skip the `&anchor` / `!tag` properties starting at `buffer[at]` and the blanks,
    line breaks and comments after them; the new index, line and column (0-based).
    `buffer` must end with a NUL."""
    while buffer[at] in "&!":
        end = _PROPERTY.match(buffer, at).end()  # type: ignore[union-attr]  # always matches & or !
        column += end - at
        at = end
        while buffer[at] in " \t\r\n\x85\u2028\u2029#":
            if buffer[at] == "#":
                while buffer[at] not in "\r\n\x85\u2028\u2029\0":
                    at += 1
            elif buffer[at] in " \t":
                column += 1
                at += 1
            else:
                at += 2 if buffer[at : at + 2] == "\r\n" else 1
                line, column = line + 1, 0
    return at, line, column


_COUNTED_CHARS = "\n\r\x85\u2028\u2029\ufeff"  # line breaks and the BOM (not counted as a column)
_COUNTED = re.compile(f"[{_COUNTED_CHARS}]")


class _Loader(Reader, Scanner, Parser, _Composer):
    """SafeLoader's reader, scanner and parser (pure Python), with our composer.

    Two hot spots of the pure-Python machinery are replaced by equivalent code,
    because loading a ruleset must stay fast (the test suite checks that the
    events and marks are identical to stock PyYAML's):

    * the parser asks `check_token` several times per token, and each time the
      scanner re-checks its simple-key table although nothing changed; we
      remember that the token queue is settled until a token is taken;
    * `forward` advanced one character at a time to count lines and columns;
      we skip the loop when the span holds no line break or BOM.
    """

    # Attributes of PyYAML's reader and scanner that the code below uses.
    buffer: str
    pointer: int
    index: int
    line: int
    column: int
    tokens: list[Any]
    tokens_taken: int

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        _Composer.__init__(self)
        self._settled = False

    def _settle(self) -> None:
        while self.need_more_tokens():
            self.fetch_more_tokens()
        self._settled = True

    def check_token(self, *choices: type) -> bool:
        if not self._settled:
            self._settle()
        tokens = self.tokens
        if not tokens:
            return False
        return not choices or isinstance(tokens[0], choices)

    def peek_token(self) -> Any:
        if not self._settled:
            self._settle()
        return self.tokens[0] if self.tokens else None

    def get_token(self) -> Any:
        if not self._settled:
            self._settle()
        if not self.tokens:
            return None
        self._settled = False
        self.tokens_taken += 1
        return self.tokens.pop(0)

    def forward(self, length: int = 1) -> None:
        start = self.pointer
        end = start + length
        if end + 1 >= len(self.buffer):
            self.update(length + 1)
        buffer = self.buffer
        self.pointer = end
        self.index += length
        if length == 1:
            if buffer[start] not in _COUNTED_CHARS:
                self.column += 1
                return
        elif _COUNTED.search(buffer, start, end) is None:
            self.column += length
            return
        for at in range(start, end):
            char = buffer[at]
            if char in "\n\x85\u2028\u2029" or (char == "\r" and buffer[at + 1] != "\n"):
                self.line += 1
                self.column = 0
            elif char != "\ufeff":
                self.column += 1


# --------------------------------------------------------------------------
# Composition with libyaml (when PyYAML was built with it)


# Texts the fast path leaves to the pure path because libyaml and PyYAML read them
# differently: libyaml accepts tabs in places where PyYAML reports them, and
# PyYAML does not count a byte order mark as a column.
_FAST_PATH_REFUSES = re.compile("[\t\ufeff]")
# A block scalar header as PyYAML accepts it: libyaml also takes `|#comment`.
_BLOCK_HEADER = re.compile(r"[|>](?:[-+][0-9]?|[0-9][-+]?)?[ \r\n\x85\u2028\u2029]")


class _Disagreement(Exception):
    """libyaml read something that PyYAML would read differently."""


_FastLoader: Any = None
if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class _FastLoader(_Composer, CParser):  # type: ignore[no-redef]
        """libyaml's parser (C) with our composer; marks lack only the text snippet.

        The few constructs that libyaml reads differently from PyYAML raise
        `_Disagreement`, so that the pure path loads the file:

        * the stream end: libyaml adds a line break if the text lacks one, which
          moves the marks of empty values at the end (`_load_fast` requires one);
        * an empty value in a flow collection (`{a: }`): the marks differ;
        * `?` in a flow collection: libyaml lets plain scalars contain it, PyYAML
          ends them there (and `:?` splits differently);
        * a comment right after a block scalar header (`|#`): PyYAML refuses it.
        """

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            _Composer.__init__(self)
            self._text = stream + "\0"

        def compose_node(self, parent: Node | None, index: Any) -> Node:
            node = _Composer.compose_node(self, parent, index)
            if node.__class__ is ScalarNode:
                style = node.style
                if style is None:
                    if not node.value and parent is not None and parent.flow_style:
                        raise _Disagreement
                elif style in "|>" and _BLOCK_HEADER.match(self._text, node.start_mark.index) is None:
                    raise _Disagreement
            return node

        def _compose_collection(self, kind: type, end_kind: type, anchor: str | None) -> Node:
            node = _Composer._compose_collection(self, kind, end_kind, anchor)
            if node.flow_style and self._text.find("?", node.start_mark.index, node.end_mark.index) >= 0:
                raise _Disagreement
            return node

        def _after_properties(self, mark: Mark) -> Mark:
            at, line, column = _skip_properties(self._text, mark.index, mark.line, mark.column)
            return Mark(mark.name, at, line, column, None, None)


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


class _Builder:
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
            value = resolve_plain(node.value)
            if value.__class__ is str:
                self.origins[path] = ExpressionOrigin(mark, "")
            return value
        self.origins[path] = self.origin_of(node, mark)
        return node.value

    def alias(self, node: _AliasNode, path: tuple) -> Any:
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
        if isinstance(node, _AliasNode):
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
            return node.value
        if node.value == "<<":
            message = "merge keys ('<<') are not supported (they are YAML 1.1 only); write the entries out"
            self.error(node.start_mark, message)
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


def _bad_key_message(text: str, value: Any) -> str:
    if value is None:
        return "a mapping key is missing (null keys are not allowed)"
    if isinstance(value, bool):
        return f"'{text}' is a boolean and cannot be a mapping key; quote it to use the text"
    return f"'{text}' is a decimal number and cannot be a mapping key; use an integer or quote it"


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


def _marked_error(exc: yaml.MarkedYAMLError, display: str) -> Diagnostic:
    """A PyYAML scanner/parser/composer error as a located, readable diagnostic."""
    mark = exc.problem_mark or exc.context_mark
    pos = SourcePos(display, mark.line + 1, mark.column + 1) if mark else SourcePos(display, 1, 1)
    return Diagnostic(pos, _plain_problem(exc.problem or exc.context or "invalid YAML") + _context_note(exc))


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


def _reader_error(exc: yaml.reader.ReaderError, text: str, display: str) -> Diagnostic:
    """A forbidden character, located by its index in the text."""
    index = max(int(exc.position), 0)
    line, line_start = 1, 0
    for found in _BREAK.finditer(text, 0, index):
        line, line_start = line + 1, found.end()
    pos = SourcePos(display, line, index - line_start + 1)
    char = exc.character
    code = f"U+{ord(char):04X}" if isinstance(char, str) else f"0x{char:02x}"
    return Diagnostic(pos, f"character {code} is not allowed in a YAML file ({exc.reason})")
