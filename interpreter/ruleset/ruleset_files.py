"""Load a ruleset folder (ruleset.yaml plus any other *.yaml files) as one Document.

Designers split a ruleset over several files (board, tiles, actions, ...) purely
for convenience: every top-level key of every file is a section of one big
document. The merged Document keeps, for every value, the position in the file
that wrote it, so later errors name the right file. Problems in all files are
collected before raising, so one broken file does not hide errors in another.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from brass_dsl.source import SourcePos
from interpreter.ruleset.errors import Diagnostic, DiagnosticSink, RulesetError
from interpreter.ruleset.yaml_source import MAX_FILE_BYTES, Document, kind_name, load_yaml_file, size_text

__all__ = ["MAX_FILES", "MAX_PATH_LENGTH", "MAX_RULESET_BYTES", "ROOT_FILE", "ReadBudget", "ReadLog",
           "display_name", "file_digest", "load_folder", "path_problem", "ruleset_files", "shorten"]

ROOT_FILE = "ruleset.yaml"
T = TypeVar("T")

# Limits that keep a load quick whatever the folder holds (docs/ruleset-format.md). Birmingham
# is 11 files and 96 kB in all.
MAX_FILES = 100  # YAML files in one ruleset folder
MAX_ENTRIES = 1000  # files and folders of any kind in it (each is looked at)
MAX_RULESET_BYTES = 2 * MAX_FILE_BYTES  # 1 MiB: the YAML of a ruleset and of every ruleset it extends
# A ruleset name or path: Linux allows paths of 4,096 bytes and names of 255; a longer text is
# not a path anyone meant, and the system would refuse it with an error of its own.
MAX_PATH_LENGTH = 1024
MAX_NAME_LENGTH = 255
_SEPARATORS = re.compile(r"[/\\]")


def path_problem(text: str) -> str | None:
    """Why `text` cannot name a ruleset folder (the end of a message), or None if it can."""
    if not text.strip():
        return "it is empty"
    if "\0" in text:
        return "it contains a NUL character"
    if len(text) > MAX_PATH_LENGTH:
        return f"it is {len(text):,} characters long, at most {MAX_PATH_LENGTH:,}"
    longest = max(len(part) for part in _SEPARATORS.split(text))
    if longest > MAX_NAME_LENGTH:
        return f"a folder name in it is {longest:,} characters long, at most {MAX_NAME_LENGTH}"
    return None


def shorten(text: str, width: int = 60) -> str:
    """`text` for a message: unprintable characters escaped (`\\x00`), at most `width` characters,
    with `…` where it was cut."""
    text = text[: width + 1]
    shown = "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                    for c in text)
    return shown if len(shown) <= width else shown[: width - 1] + "…"


@dataclass
class ReadBudget:
    """The bytes of YAML one load may still read: the files of a ruleset and of its bases."""

    left: int = MAX_RULESET_BYTES
    exceeded: bool = False  # reported once, at the first file over the limit

    def take(self, path: Path, display: str, sink: DiagnosticSink) -> bool:
        """Count the file's bytes; False (after reporting the first time) when they exceed what is left."""
        try:
            size = path.stat().st_size
        except OSError:
            return True  # reading it will report why it cannot be read
        if size > MAX_FILE_BYTES:
            return True  # reading it refuses it unread, naming the limit for one file
        if size > self.left:
            if not self.exceeded:
                message = (f"the ruleset is too large: with this file, its YAML files (and those of the rulesets "
                           f"it extends) hold more than {size_text(MAX_RULESET_BYTES)}; make them smaller")
                sink.error(SourcePos(display, 1, 1), message)
            self.exceeded = True
            return False
        self.left -= size
        return True


@dataclass
class ReadLog:
    """What one load read, for the ruleset cache (`ruleset_cache`): the digest of the bytes of
    every file, in the order read, and the `extends` value of every folder that has one."""

    files: dict[Path, str] = field(default_factory=dict)
    extends: dict[Path, str] = field(default_factory=dict)

    def read(self, path: Path, raw: bytes) -> None:
        self.files[path] = file_digest(raw)


def file_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def display_name(path: Path, display_root: Path | None = None) -> str:
    """A file name for messages: relative to `display_root` (default: the current
    directory) when the file lies below it, else absolute."""
    root = Path.cwd() if display_root is None else Path(display_root)
    target = Path(path).absolute()
    for base in (root.absolute(), root.resolve()):
        for candidate in (target, target.resolve()):
            try:
                return candidate.relative_to(base).as_posix()
            except ValueError:
                continue
    return str(target)


def load_folder(folder: Path, display_root: Path | None = None, budget: ReadBudget | None = None,
                log: ReadLog | None = None) -> Document:
    """Load every section of the ruleset in `folder` into one Document; `budget` counts the
    bytes read, shared by the folders of one `extends` chain; `log` records what was read."""
    folder = Path(folder)
    shown = display_name(folder, display_root)
    if not _is_file(folder / ROOT_FILE):
        message = f"no {ROOT_FILE} in {shown}" if _is_dir(folder) else f"ruleset folder not found: {shown}"
        raise RulesetError([Diagnostic(SourcePos(shown, 1, 1), message)])
    budget = ReadBudget() if budget is None else budget
    sink = DiagnosticSink()
    merged = Document({})
    for path in _ruleset_files(folder, display_root, sink):
        display = display_name(path, display_root)
        document = _load_file(path, display, sink, log) if budget.take(path, display, sink) else None
        if document is not None:
            _add_sections(merged, document, sink)
    sink.raise_if_any()
    return merged


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long, a folder we may not enter: there is no file to read
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def ruleset_files(folder: Path) -> list[Path] | None:
    """The files `load_folder` would read, in its order; None if it would report a problem with
    the folder itself (no ruleset.yaml, a `.yml` file, too many files)."""
    if not _is_file(folder / ROOT_FILE):
        return None
    sink = DiagnosticSink()
    found = _ruleset_files(folder, None, sink)
    return None if sink.items else found


def _ruleset_files(folder: Path, display_root: Path | None, sink: DiagnosticSink) -> list[Path]:
    """ruleset.yaml first, then the other *.yaml files in name order.

    Hidden files (editor backups, lock files) are skipped. A `.yml` file is an
    error rather than silently ignored: the designer clearly meant it to count.
    """
    others: list[Path] = []
    for path in _listing(folder, display_root, sink):
        if path.name.startswith(".") or path.name == ROOT_FILE or not _is_file(path):
            continue
        if path.suffix == ".yaml":
            others.append(path)
        elif path.suffix == ".yml":
            message = f"ruleset files must end in '.yaml'; rename it to '{path.stem}.yaml' (it is not loaded)"
            sink.error(SourcePos(display_name(path, display_root), 1, 1), message)
    if len(others) >= MAX_FILES:
        message = (f"the folder holds {len(others) + 1} YAML files, at most {MAX_FILES}; "
                   "put the sections in fewer files")
        sink.error(SourcePos(display_name(folder / ROOT_FILE, display_root), 1, 1), message)
        return []
    return [folder / ROOT_FILE, *others]


def _listing(folder: Path, display_root: Path | None, sink: DiagnosticSink) -> list[Path]:
    """The entries of the folder in name order; none (after reporting) if it cannot be listed
    or holds more than MAX_ENTRIES (each would be looked at)."""
    shown = display_name(folder, display_root)
    try:
        entries = list(itertools.islice(folder.iterdir(), MAX_ENTRIES + 1))
    except OSError as error:
        sink.error(SourcePos(shown, 1, 1), f"cannot list the files of {shown}: {error.strerror or error}")
        return []
    if len(entries) > MAX_ENTRIES:
        sink.error(SourcePos(shown, 1, 1), f"{shown} holds more than {MAX_ENTRIES:,} files and folders; "
                                           "keep a ruleset in a folder of its own")
        return []
    return sorted(entries, key=lambda p: p.name)


def _load_file(path: Path, display: str, sink: DiagnosticSink, log: ReadLog | None) -> Document | None:
    """One file's Document if it loads and holds a mapping; else report why."""
    try:
        document = load_yaml_file(path, display, None if log is None else lambda raw: log.read(path, raw))
    except RulesetError as error:
        sink.extend(error.diagnostics)
        return None
    if isinstance(document.data, dict):
        return document
    pos = document.pos(()) or SourcePos(display, 1, 1)
    found = "the file is empty" if document.data is None else f"found {kind_name(document.data)}"
    sink.error(pos, f"expected a mapping of sections (like 'tiles:') at the top level; {found}")
    return None


def _add_sections(merged: Document, document: Document, sink: DiagnosticSink) -> None:
    """Add the sections of one file, refusing a section that another file defined."""
    if () not in merged.marks and () in document.marks:
        merged.marks[()] = document.marks[()]
    data: dict = merged.data
    accepted: set[tuple] = set()
    for section, value in document.data.items():
        key = (section,)
        if not isinstance(section, str):
            sink.error(document.pos(key, key=True), f"a section name must be a string, not {section!r}")
        elif section in data:
            first = merged.key_marks[key]
            sink.error(document.pos(key, key=True), f"section '{section}' is already defined in {first}")
        else:
            data[section] = value
            accepted.add(key)
    _copy_marks(merged, document, accepted)


def _copy_marks(merged: Document, document: Document, accepted: set[tuple]) -> None:
    """Copy the marks of the sections this file contributed (paths start with them)."""
    merged.marks.update(_under(document.marks, accepted))
    merged.key_marks.update(_under(document.key_marks, accepted))
    merged.origins.update(_under(document.origins, accepted))


def _under(table: dict[tuple, T], sections: set[tuple]) -> dict[tuple, T]:
    return {path: mark for path, mark in table.items() if path[:1] in sections}
