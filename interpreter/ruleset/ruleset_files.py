"""Load a ruleset folder (ruleset.yaml plus any other *.yaml files) as one Document.

Designers split a ruleset over several files (board, tiles, actions, ...) purely
for convenience: every top-level key of every file is a section of one big
document. The merged Document keeps, for every value, the position in the file
that wrote it, so later errors name the right file. Problems in all files are
collected before raising, so one broken file does not hide errors in another.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from brass_dsl.source import SourcePos
from interpreter.ruleset.errors import Diagnostic, DiagnosticSink, RulesetError
from interpreter.ruleset.yaml_source import Document, kind_name, load_yaml_file

__all__ = ["ROOT_FILE", "display_name", "load_folder"]

ROOT_FILE = "ruleset.yaml"
T = TypeVar("T")


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


def load_folder(folder: Path, display_root: Path | None = None) -> Document:
    """Load every section of the ruleset in `folder` into one Document."""
    folder = Path(folder)
    root_file = folder / ROOT_FILE
    if not root_file.is_file():
        shown = display_name(folder, display_root)
        message = f"no {ROOT_FILE} in {shown}" if folder.is_dir() else f"ruleset folder not found: {shown}"
        raise RulesetError([Diagnostic(SourcePos(shown, 1, 1), message)])
    sink = DiagnosticSink()
    merged = Document({})
    for path in _ruleset_files(folder, display_root, sink):
        document = _load_file(path, display_name(path, display_root), sink)
        if document is not None:
            _add_sections(merged, document, sink)
    sink.raise_if_any()
    return merged


def _ruleset_files(folder: Path, display_root: Path | None, sink: DiagnosticSink) -> list[Path]:
    """ruleset.yaml first, then the other *.yaml files in name order.

    Hidden files (editor backups, lock files) are skipped. A `.yml` file is an
    error rather than silently ignored: the designer clearly meant it to count.
    """
    others: list[Path] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.startswith(".") or path.name == ROOT_FILE or not path.is_file():
            continue
        if path.suffix == ".yaml":
            others.append(path)
        elif path.suffix == ".yml":
            message = f"ruleset files must end in '.yaml'; rename it to '{path.stem}.yaml' (it is not loaded)"
            sink.error(SourcePos(display_name(path, display_root), 1, 1), message)
    return [folder / ROOT_FILE, *others]


def _load_file(path: Path, display: str, sink: DiagnosticSink) -> Document | None:
    """One file's Document if it loads and holds a mapping; else report why."""
    try:
        document = load_yaml_file(path, display)
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
