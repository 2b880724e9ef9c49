"""Load one YAML file into plain Python data plus the position of every value.

Rule designers edit rulesets by hand, so every later error (schema, condition
language, merge) must point at the exact line and column the designer wrote. This
module and its three helpers are the only place that knows about YAML: the file
is composed with PyYAML (exact marks, `yaml_compose`), then the data is built by
our own code (`yaml_build`) so that

* values mean what a YAML 1.2 editor shows (``no`` is a string, ``010`` is 10,
  ``1:20`` is a string), through our own core-schema resolver;
* anything YAML-1.1-only or surprising (duplicate keys, ``<<`` merge keys, tags,
  aliases of lists or mappings, non-string keys) is a located error instead of a
  silent change of meaning;

and PyYAML's own complaints become readable, located diagnostics
(`yaml_diagnostics`). This module holds the public entry points, the `Document`
they return, and the choice between the fast and the pure path.

Speed: when PyYAML has its libyaml binding, a file is first composed by libyaml
(the C parser), and the same composer and builder turn its events into data. That
fast path only ever produces a Document: whenever libyaml, the composer or the
builder finds anything to complain about, or the text holds one of the few
characters on which libyaml and PyYAML disagree, the file is loaded again with
the pure-Python parser, so every message (and every position) is exactly the one
the pure path gives.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brass_dsl.source import ExpressionOrigin, SourcePos
from interpreter.ruleset.errors import Diagnostic, RulesetError

if TYPE_CHECKING:
    from yaml.nodes import Node

# PyYAML and the three helpers are imported when a file is first loaded, not with this module:
# a game imports `Document` from here, and a ruleset served from the cache (`ruleset_cache`)
# reads no YAML at all.
_UNSET: Any = object()
_FastLoader: Any = _UNSET  # libyaml's loader (None without libyaml), found on first use; tests switch it off

__all__ = ["MAX_FILE_BYTES", "Document", "kind_name", "load_yaml_file", "load_yaml_text", "resolve_plain",
           "size_text"]

# One YAML file, ruleset or scenario: 20 times Birmingham's largest (rules.yaml, 26 kB). A file
# this large loads in about 2 s, and in about 5 s when a tab or an error (a duplicate key) sends
# it to the pure-Python parser; a larger one is refused before it is read.
MAX_FILE_BYTES = 512 * 1024


def size_text(size: int) -> str:
    """A limit in bytes as people read it: "524,288 bytes (512 KiB)"."""
    unit = f"{size // 1024 ** 2} MiB" if size % 1024 ** 2 == 0 else f"{size // 1024} KiB"
    return f"{size:,} bytes ({unit})"


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


def resolve_plain(text: str) -> Any:
    """The value of an untagged plain scalar under the YAML 1.2 core schema (`yaml_build`)."""
    from interpreter.ruleset.yaml_build import resolve_plain as resolve

    return resolve(text)


def load_yaml_file(path: Path, display: str, on_read: Callable[[bytes], None] | None = None) -> Document:
    """Read and load one file; all its problems are raised as one RulesetError. `on_read`, if
    given, is called with the bytes read (the ruleset cache keys on them)."""
    start = SourcePos(display, 1, 1)
    try:
        raw = _read_at_most(Path(path), MAX_FILE_BYTES)
    except FileNotFoundError:
        raise RulesetError([Diagnostic(start, f"file not found: {display}")]) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RulesetError([Diagnostic(start, f"cannot read {display}: {reason}")]) from None
    except ValueError:  # a NUL in the name
        raise RulesetError([Diagnostic(start, f"cannot read {display}: a file name has no NUL character")]) from None
    if raw is None:
        message = (f"the file is too large: more than {size_text(MAX_FILE_BYTES)}, the limit for one YAML file; "
                   "split it into several files")
        raise RulesetError([Diagnostic(start, message)])
    if on_read is not None:
        on_read(raw)
    return load_yaml_text(_decode(raw, display), display)


def _read_at_most(path: Path, limit: int) -> bytes | None:
    """The file's bytes, or None if it holds more than `limit`: checked before reading it (and
    while reading, for a device or a pipe, whose size the system does not tell)."""
    with path.open("rb") as file:
        if os.fstat(file.fileno()).st_size > limit:
            return None
        raw = file.read(limit + 1)
    return raw if len(raw) <= limit else None


def load_yaml_text(text: str, display: str) -> Document:
    """Load YAML text; `display` is the file name used in diagnostics."""
    text = text.removeprefix("\ufeff")  # PyYAML would not count the BOM, editors do not show it
    document = _load_fast(text, display)
    return document if document is not None else _load_pure(text, display)


def _load_pure(text: str, display: str) -> Document:
    """Load with PyYAML's pure-Python parser: the reference behaviour and messages."""
    from interpreter.ruleset.yaml_build import Builder

    builder = Builder(text, display)
    try:
        data = builder.build_root(_compose(text, display))
    except RecursionError:  # not expected: the composer refuses nesting deeper than MAX_NESTING first
        message = "the file nests lists or mappings too deeply"
        raise RulesetError([Diagnostic(SourcePos(display, 1, 1), message)]) from None
    if builder.errors:
        raise RulesetError(builder.errors)
    return Document(data, builder.marks, builder.key_marks, builder.origins)


def _compose(text: str, display: str) -> Node | None:
    """The node tree of `text`; PyYAML's errors become one located diagnostic."""
    import yaml

    from interpreter.ruleset.yaml_compose import Loader
    from interpreter.ruleset.yaml_diagnostics import marked_error, reader_error

    try:
        # PyYAML takes any loader class; its stubs list only PyYAML's own:
        return yaml.compose(text, Loader=Loader)  # type: ignore[arg-type]
    except yaml.MarkedYAMLError as exc:
        raise RulesetError([marked_error(exc, display, text)]) from None
    except yaml.reader.ReaderError as exc:
        raise RulesetError([reader_error(exc, text, display)]) from None


# Texts the fast path leaves to the pure path because libyaml and PyYAML read them
# differently: libyaml accepts tabs in places where PyYAML reports them, and
# PyYAML does not count a byte order mark as a column.
_FAST_PATH_REFUSES = re.compile("[\t\ufeff]")


def _load_fast(text: str, display: str) -> Document | None:
    """Load with libyaml; None when the pure path must decide (see the module doc).

    A None result costs only the time libyaml spent before it gave up: every error
    is reported by `_load_pure`, never from here.
    """
    fast_loader = _fast_loader()
    if fast_loader is None or not text.endswith("\n") or _FAST_PATH_REFUSES.search(text) is not None:
        return None
    from interpreter.ruleset.yaml_build import Builder

    try:
        loader = fast_loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
        builder = Builder(text, display)
        data = builder.build_root(root)
    except Exception:  # any complaint at all (libyaml, composer, recursion): let the pure path report it
        return None
    if builder.errors:
        return None
    return Document(data, builder.marks, builder.key_marks, builder.origins)


def _fast_loader() -> Any:
    """libyaml's loader class, or None (PyYAML built without libyaml, or switched off by a test)."""
    global _FastLoader
    if _FastLoader is _UNSET:
        from interpreter.ruleset.yaml_compose import FastLoader

        _FastLoader = FastLoader
    return _FastLoader


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
