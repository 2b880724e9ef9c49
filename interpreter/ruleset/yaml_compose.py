"""Compose YAML text into PyYAML nodes with exact marks, tags and aliases as written.

This is the only part of the loader that drives PyYAML's parsers; turning the
nodes into data is `yaml_build`'s job. Two loaders share one composer:

* `Loader`: PyYAML's pure-Python reader, scanner and parser (the reference
  behaviour, every message and every position), with two hot spots replaced by
  equivalent but faster code;
* `FastLoader`: libyaml's parser (C), only when PyYAML was built with it (None
  otherwise). libyaml's marks carry the same index, line and column as PyYAML's;
  only the text snippet is missing, and nothing here uses it. Where libyaml would
  read a construct differently from PyYAML it raises, so that the caller falls
  back to the pure path.

The composer keeps `tag=None` for untagged nodes (the YAML 1.2 resolver decides
later) and keeps aliases visible as `AliasNode`, so that they can be checked.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.error import Mark
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import CollectionNode, MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.scanner import Scanner

if TYPE_CHECKING:
    from builtins import _ClassInfo  # what `isinstance` takes; PyYAML's stubs type `check_token` with it

    from yaml._yaml import Mark as CMark  # libyaml's marks (the fast path's events carry them)

__all__ = ["MAX_NESTING", "AliasNode", "FastLoader", "Loader"]


# --------------------------------------------------------------------------
# Composition: PyYAML's pure-Python reader, scanner and parser, our composer


class AliasNode(Node):
    """An alias occurrence; `value` is the anchored node it refers to."""

    id = "alias"


_PROPERTY = re.compile(r"&[0-9A-Za-z_-]*|![^ \t\r\n\x85\u2028\u2029\0]*")


# Lists and mappings inside each other: Birmingham needs 7 levels, a variant's `$patch` a few
# more. Refusing deeper nesting here, where the first too-deep bracket is known, keeps every
# later stage (all recursive) far from Python's recursion limit.
MAX_NESTING = 50


class _Composer(Composer):
    """Builds PyYAML nodes but keeps each node's tag exactly as written.

    The standard composer resolves untagged scalars with YAML 1.1 rules and
    replaces aliases by the anchored node; we keep `tag=None` for untagged nodes
    (our resolver decides later) and keep aliases visible so they can be checked.
    It refuses collections nested more than MAX_NESTING deep.
    """

    def __init__(self) -> None:
        Composer.__init__(self)
        self._depth = 0

    if TYPE_CHECKING:  # supplied by the parser this is mixed with: PyYAML's `Parser` or libyaml's `CParser`
        def check_event(self, *choices: _ClassInfo) -> bool: ...
        def peek_event(self) -> Any: ...  # untyped in PyYAML's stubs of `Parser`
        def get_event(self) -> Any: ...
        buffer: str  # the pure `Reader`'s text, used by `_after_properties` (the fast path overrides it)

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        if self.check_event(AliasEvent):
            event = self.get_event()
            target = self.anchors.get(event.anchor)
            if target is None:
                problem = f"unknown alias '*{event.anchor}': no anchor '&{event.anchor}' is defined before it"
                raise ComposerError(None, None, problem, event.start_mark)
            # An alias has no tag; PyYAML's Node stores whatever it is given, its stubs want a str:
            return AliasNode(None, target, event.start_mark, event.end_mark)  # type: ignore[arg-type]
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
                assert start is not None  # both parsers give every event its marks
                start = self._after_properties(start)
            style = event.style or None  # libyaml writes a plain scalar's style as '', PyYAML as None
            # Untagged nodes keep tag None on purpose (module doc), and libyaml's marks are not
            # `yaml.error.Mark`s; PyYAML's Node stores both, its stubs want a str and that Mark:
            node: Node = ScalarNode(event.tag, event.value, start, event.end_mark, style=style)  # type: ignore[arg-type]
            if anchor is not None:
                self.anchors[anchor] = node
            return node
        if isinstance(event, SequenceStartEvent):
            return self._compose_collection(SequenceNode, SequenceEndEvent, anchor)
        return self._compose_collection(MappingNode, MappingEndEvent, anchor)

    def _after_properties(self, mark: Mark | CMark) -> Mark:
        """The mark of a scalar's own text, after its `&anchor` (the event's start
        mark is the anchor's), so origins point at the first character of the text."""
        buffer: str = self.buffer  # the whole text plus a final NUL (str input)
        at, line, column = _skip_properties(buffer, mark.pointer, mark.line, mark.column)
        return Mark(mark.name, mark.index + at - mark.pointer, line, column, buffer, at)

    def _compose_collection(self, kind: type[CollectionNode], end_kind: type[CollectionEndEvent],
                            anchor: str | None) -> CollectionNode:
        start = self.get_event()
        if self._depth >= MAX_NESTING:
            problem = (f"lists and mappings are nested more than {MAX_NESTING} levels deep here; "
                       "a ruleset needs far fewer (check the brackets and the indentation)")
            raise ComposerError(None, None, problem, start.start_mark)
        self._depth += 1
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
        self._depth -= 1
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


class Loader(Reader, Scanner, Parser, _Composer):
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

    def check_token(self, *choices: _ClassInfo) -> bool:
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


# A block scalar header as PyYAML accepts it: libyaml also takes `|#comment`.
_BLOCK_HEADER = re.compile(r"[|>](?:[-+][0-9]?|[0-9][-+]?)?[ \r\n\x85\u2028\u2029]")


class _Disagreement(Exception):
    """libyaml read something that PyYAML would read differently."""


FastLoader: Any = None
if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class FastLoader(_Composer, CParser):  # type: ignore[no-redef]
        """libyaml's parser (C) with our composer; marks lack only the text snippet.

        The few constructs that libyaml reads differently from PyYAML raise
        `_Disagreement`, so that the pure path loads the file:

        * the stream end: libyaml adds a line break if the text lacks one, which
          moves the marks of empty values at the end (`yaml_source._load_fast`
          requires one);
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
                if style is None:  # (a node's parent is a collection, or None at the root)
                    if not node.value and isinstance(parent, CollectionNode) and parent.flow_style:
                        raise _Disagreement
                elif style in "|>" and _BLOCK_HEADER.match(self._text, node.start_mark.index) is None:
                    raise _Disagreement
            return node

        def _compose_collection(self, kind: type[CollectionNode], end_kind: type[CollectionEndEvent],
                                anchor: str | None) -> CollectionNode:
            node = _Composer._compose_collection(self, kind, end_kind, anchor)
            if node.flow_style and self._text.find("?", node.start_mark.index, node.end_mark.index) >= 0:
                raise _Disagreement
            return node

        def _after_properties(self, mark: Mark | CMark) -> Mark:
            at, line, column = _skip_properties(self._text, mark.index, mark.line, mark.column)
            # Without a buffer PyYAML never reads the pointer (no snippet); its stubs want an int:
            return Mark(mark.name, at, line, column, None, None)  # type: ignore[arg-type]
