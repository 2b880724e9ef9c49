"""`extends`: a ruleset written as a set of changes to another ruleset.

A variant (a house rule, an expansion) should not copy the whole base ruleset:
it says `extends: birmingham` in its ruleset.yaml and writes only what differs.
This module loads the chain of bases and merges each child over its base with
the rules written in docs/extends.md:

1. mapping over mapping merges key by key, recursively;
2. anything else from the child replaces the base value;
3. `$remove: [keys]` deletes entries of the base mapping first;
4. `{$replace: VALUE}` replaces a mapping instead of merging into it;
5. `{$patch: {key, set, remove, append}}` edits a base list of mappings by key
   (`key: $name`: a list of steps, each a name or a one-key mapping {name: arguments});
   `$at: N` in a `set` or `remove` entry names the Nth of several entries with the same key.

Every merged value keeps the position of the document that supplied it, so an
error in an inherited value names the base file and an error in an overridden
value names the child's file.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

from brass_dsl.source import ExpressionOrigin, SourcePos
from interpreter.ruleset.errors import Diagnostic, DiagnosticSink, RulesetError
from interpreter.ruleset.ruleset_files import (
    ROOT_FILE,
    ReadBudget,
    ReadLog,
    display_name,
    load_folder,
    path_problem,
    shorten,
)
from interpreter.ruleset.yaml_source import Document, kind_name

__all__ = ["DIRECTIVES", "MAX_EXTENDS_DEPTH", "check_no_directives", "merge_documents", "resolve_extends"]

EXTENDS = "extends"
REMOVE, REPLACE, PATCH = "$remove", "$replace", "$patch"
DIRECTIVES = (REMOVE, REPLACE, PATCH)
PATCH_FIELDS = ("key", "set", "remove", "append")
BY_NAME = "$name"  # `$patch` key of a list of steps: `name` or `{name: arguments}`, named by `name`
AT = "$at"  # in a `$patch` set/remove entry: which of several base entries with the same key (1 = first)
_DIRECTIVES_TEXT = "the directives are $remove, $replace and $patch"
_MISSING: Any = object()
# A variant of a variant of … : 16 steps of `extends` (Birmingham's variants use one). Each
# step loads and merges a whole ruleset, so the chain is bounded like everything else read.
MAX_EXTENDS_DEPTH = 16


# --------------------------------------------------------------------------
# The chain of bases


def resolve_extends(
    folder: Path,
    resolve_name: Callable[[str, Path], Path | None],
    known_names: Sequence[str] = (),
    display_root: Path | None = None,
    log: ReadLog | None = None,
) -> tuple[Document, list[Path]]:
    """Load the ruleset in `folder` with all its bases merged in.

    Returns the merged Document (without the `extends` key) and the chain of
    folders, base first. `resolve_name(value, folder)` turns an `extends` value
    into a folder or None; `known_names` feeds "did you mean" suggestions; `log`
    records the files read and the `extends` values (for the ruleset cache).
    """
    loader = _ChainLoader(resolve_name, known_names, display_root, log)
    document = loader.load(Path(folder), [])
    return document, loader.chain


def _fail(document: Document, message: str) -> RulesetError:
    """An error located at the `extends` value of `document`."""
    return RulesetError([Diagnostic(document.pos((EXTENDS,)), message)])


class _ChainLoader:
    """Loads a ruleset and, recursively, the bases it extends."""

    def __init__(
        self,
        resolve_name: Callable[[str, Path], Path | None],
        known_names: Sequence[str],
        display_root: Path | None,
        log: ReadLog | None = None,
    ) -> None:
        self.resolve_name = resolve_name
        self.known_names = known_names
        self.display_root = display_root
        self.log = log
        self.chain: list[Path] = []  # base first
        self.budget = ReadBudget()  # the bytes all folders of the chain may read together

    def load(self, folder: Path, extending: list[Path]) -> Document:
        """`folder` merged over its base; `extending` are the folders that extend it."""
        document = load_folder(folder, self.display_root, self.budget, self.log)
        if self.log is not None and isinstance(document.data.get(EXTENDS), str):
            self.log.extends[folder] = document.data[EXTENDS]
        if EXTENDS not in document.data:
            check_no_directives(document)
            self.chain.append(folder)
            return document
        if len(extending) >= MAX_EXTENDS_DEPTH:
            raise _fail(document, f"too many rulesets extend each other: this is step {len(extending) + 1} of "
                                  f"`extends`, at most {MAX_EXTENDS_DEPTH}; extend a ruleset nearer the base")
        base = self.load(self.base_folder(document, folder, extending), [*extending, folder])
        self.chain.append(folder)
        return merge_documents(base, document)

    def base_folder(self, document: Document, folder: Path, extending: list[Path]) -> Path:
        """The folder named by `extends`, or a RulesetError located at the value."""
        value = document.data[EXTENDS]
        if not isinstance(value, str) or not value.strip():
            raise _fail(document,
                        f"extends must be the name or folder of a ruleset (a string), not {kind_name(value)}")
        shown = shorten(value)
        problem = path_problem(value)
        if problem is not None:
            raise _fail(document, f"extends '{shown}' cannot name a ruleset: {problem}")
        try:
            base = self.existing_base(document, value, folder)
        except OSError as error:
            raise _fail(document, f"extends '{shown}': cannot read it: {error.strerror or error}") from None
        seen = [_identity(f) for f in [*extending, folder]]
        if _identity(base) in seen:
            names = [f.name for f in seen[seen.index(_identity(base)) :]] + [_identity(base).name]
            raise _fail(document, "extends cycle: " + " -> ".join(names))
        return base

    def existing_base(self, document: Document, value: str, folder: Path) -> Path:
        """The folder `value` names, holding a ruleset.yaml; OSError if the system refuses the path."""
        found = self.resolve_name(value, folder)
        if found is None:
            hint = _did_you_mean(value, self.known_names)
            raise _fail(document, f"extends '{shorten(value)}': no such ruleset{hint}")
        base = Path(found)
        if not (base / ROOT_FILE).is_file():
            raise _fail(document, f"extends '{shorten(value)}': no {ROOT_FILE} in "
                                  f"{display_name(base, self.display_root)}")
        return base


def _identity(folder: Path) -> Path:
    """A folder identity that survives `..`, symlinks and relative spellings."""
    return Path(folder).resolve()


def check_no_directives(document: Document) -> None:
    """A ruleset without `extends` must not contain `$` directives: there is no
    base they could apply to, and leaving them in would change nothing silently."""
    sink = DiagnosticSink()
    _find_directives(document, document.data, (), sink)
    sink.raise_if_any()


def _find_directives(document: Document, value: Any, path: tuple, sink: DiagnosticSink) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if _is_directive(key):
                message = f"'{key}' can only be used in a ruleset that extends another (see docs/extends.md)"
                sink.error(document.pos(path + (key,), key=True), message)
            else:
                _find_directives(document, item, path + (key,), sink)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _find_directives(document, item, path + (index,), sink)


# --------------------------------------------------------------------------
# Merging two documents


def merge_documents(base: Document, child: Document) -> Document:
    """The child merged over the base (rules in docs/extends.md); `extends` dropped."""
    merger = _Merger(base, child)
    child_data = {k: v for k, v in child.data.items() if k != EXTENDS}
    data = merger.merge((), base.data, (), child_data, ())
    merger.sink.raise_if_any()
    return Document(data, merger.marks, merger.key_marks, merger.origins)


class _Merger:
    """Merges child data over base data, writing the marks of the result.

    Paths: `bpath` is where a value sits in the base document, `cpath` in the
    child document, `dst` in the merged result (they differ after `$patch`
    renumbers a list, or where `$replace` unwraps its value).
    """

    def __init__(self, base: Document, child: Document) -> None:
        self.base = base
        self.child = child
        self.sink = DiagnosticSink()
        self.marks: dict[tuple, SourcePos] = {}
        self.key_marks: dict[tuple, SourcePos] = {}
        self.origins: dict[tuple, ExpressionOrigin] = {}

    # ----- marks

    def copy(self, doc: Document, src: tuple, dst: tuple, value: Any) -> Any:
        """Take `value` as is from `doc`, copying the marks of its whole subtree."""
        self.mark_value(doc, src, dst)
        if isinstance(value, dict):
            for key, item in value.items():
                self.mark_key(doc, src + (key,), dst + (key,))
                self.copy(doc, src + (key,), dst + (key,), item)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.copy(doc, src + (index,), dst + (index,), item)
        return value

    def mark_value(self, doc: Document, src: tuple, dst: tuple) -> None:
        mark = doc.marks.get(src)
        if mark is not None:
            self.marks[dst] = mark
        origin = doc.origins.get(src)
        if origin is not None:
            self.origins[dst] = origin

    def mark_key(self, doc: Document, src: tuple, dst: tuple) -> None:
        mark = doc.key_marks.get(src)
        if mark is not None:
            self.key_marks[dst] = mark

    def error(self, path: tuple, message: str, *, key: bool = False) -> None:
        self.sink.error(self.child.pos(path, key=key), message)

    # ----- rules 1, 2, 4 and the dispatch to 3 and 5

    def merge(self, bpath: tuple, base: Any, cpath: tuple, child: Any, dst: tuple) -> Any:
        """The child value merged over the base value (`_MISSING` if none)."""
        if isinstance(child, dict) and PATCH in child:
            self.directive(cpath, child)
            return self.patch(bpath, base, cpath, child, dst)
        if isinstance(child, dict) and isinstance(base, dict):
            if self.directive(cpath, child) == REPLACE:
                return self.fresh(cpath + (REPLACE,), child[REPLACE], dst)
            return self.merge_mappings(bpath, base, cpath, child, dst)
        return self.fresh(cpath, child, dst, base)

    def directive(self, cpath: tuple, child: dict) -> str | None:
        """Which whole-value directive ($replace, $patch) the mapping is, if any;
        reports unknown `$` keys and directives mixed with other keys."""
        found = None
        for key in child:
            if not _is_directive(key):
                continue
            if key not in DIRECTIVES:
                message = f"unknown directive '{key}'{_did_you_mean(key, DIRECTIVES)} ({_DIRECTIVES_TEXT})"
                self.error(cpath + (key,), message, key=True)
            elif key != REMOVE:
                if len(child) > 1:
                    self.error(cpath + (key,), f"'{key}' must be the only key of its mapping", key=True)
                found = key
        return found

    def fresh(self, cpath: tuple, child: Any, dst: tuple, base: Any = _MISSING) -> Any:
        """A child value that has no base mapping to merge into (rule 2).

        Directives inside it still apply against "nothing": `$replace` unwraps its
        value, `$remove` and `$patch` are errors because nothing is there to edit.
        """
        if isinstance(child, list):
            self.mark_value(self.child, cpath, dst)
            return [self.fresh(cpath + (i,), item, dst + (i,)) for i, item in enumerate(child)]
        if not isinstance(child, dict):
            self.mark_value(self.child, cpath, dst)
            return child
        directive = self.directive(cpath, child)
        if directive == REPLACE:
            return self.fresh(cpath + (REPLACE,), child[REPLACE], dst)
        if directive == PATCH:
            self.error(cpath + (PATCH,), f"cannot {PATCH}: {_base_has(base, 'a list of mappings')}", key=True)
        if REMOVE in child:
            for index, name in enumerate(_as_list(child[REMOVE])):
                self.error(cpath + (REMOVE, index), f"cannot remove {_show(name)}: {_base_has(base, 'a mapping')}")
        self.mark_value(self.child, cpath, dst)
        result = {}
        for key, item in child.items():
            if not _is_directive(key):
                self.mark_key(self.child, cpath + (key,), dst + (key,))
                result[key] = self.fresh(cpath + (key,), item, dst + (key,))
        return result

    def merge_mappings(self, bpath: tuple, base: dict, cpath: tuple, child: dict, dst: tuple) -> dict:
        """Rule 1 (with rule 3 first): base keys in base order, then new child keys."""
        removed = self.removed_keys(base, cpath, child)
        self.mark_value(self.child, cpath, dst)
        result = {}
        for key, item in base.items():
            if key in removed:
                continue
            if key in child:
                self.mark_key(self.child, cpath + (key,), dst + (key,))
                result[key] = self.merge(bpath + (key,), item, cpath + (key,), child[key], dst + (key,))
            else:
                self.mark_key(self.base, bpath + (key,), dst + (key,))
                result[key] = self.copy(self.base, bpath + (key,), dst + (key,), item)
        for key, item in child.items():
            if key in result or _is_directive(key):
                continue
            self.mark_key(self.child, cpath + (key,), dst + (key,))
            result[key] = self.fresh(cpath + (key,), item, dst + (key,))
        return result

    def removed_keys(self, base: dict, cpath: tuple, child: dict) -> set:
        """Rule 3: the keys `$remove` deletes; each must exist in the base."""
        if REMOVE not in child:
            return set()
        names = child[REMOVE]
        if not isinstance(names, list):
            self.error(cpath + (REMOVE,), f"{REMOVE} takes a list of keys, like {REMOVE}: [key1, key2]")
            return set()
        removed = set()
        for index, name in enumerate(names):
            if not isinstance(name, Hashable) or name not in base:
                hint = _did_you_mean(name, list(base))
                self.error(cpath + (REMOVE, index), f"cannot remove {_show(name)}: the base has no such entry{hint}")
            else:
                removed.add(name)
        return removed

    # ----- rule 5

    def patch(self, bpath: tuple, base: Any, cpath: tuple, child: dict, dst: tuple) -> Any:
        """Rule 5: edit a base list of mappings by the value of one field."""
        spath = cpath + (PATCH,)
        spec = self.patch_spec(spath, child[PATCH])
        if spec is None:
            return self.fresh(cpath, {}, dst) if base is _MISSING else self.copy(self.base, bpath, dst, base)
        wanted = "a list of steps (names or {name: arguments})" if spec["key"] == BY_NAME else "a list of mappings"
        if not (isinstance(base, list) and all(_entry_name(entry, spec["key"]) is not _MISSING or
                                               (spec["key"] != BY_NAME and isinstance(entry, dict)) for entry in base)):
            self.error(spath, f"cannot {PATCH}: {_base_has(base, wanted)}", key=True)
            return self.fresh(cpath, {}, dst) if base is _MISSING else self.copy(self.base, bpath, dst, base)
        return _Patch(self, spec, bpath, base, spath, dst).apply(cpath)

    def patch_spec(self, spath: tuple, spec: Any) -> dict | None:
        """The `$patch` mapping if it is well formed, else None after reporting."""
        if not isinstance(spec, dict):
            self.error(spath, f"{PATCH} takes a mapping with 'key' and any of 'set', 'remove', 'append'")
            return None
        ok = True
        for name in spec:
            if name not in PATCH_FIELDS:
                hint = _did_you_mean(name, PATCH_FIELDS)
                message = f"unknown {PATCH} field {_show(name)}{hint} (expected key, set, remove, append)"
                self.error(spath + (name,), message, key=True)
                ok = False
        if not isinstance(spec.get("key"), str):
            self.error(spath, f"{PATCH} needs 'key: FIELD', the field that identifies an entry (like 'key: name')")
            ok = False
        for name in ("set", "remove", "append"):
            if name in spec and not isinstance(spec[name], list):
                self.error(spath + (name,), f"{PATCH} '{name}' takes a list")
                ok = False
        return spec if ok else None


class _Patch:
    """One `$patch` applied to one base list (rule 5)."""

    def __init__(self, merger: _Merger, spec: dict, bpath: tuple, base: list, spath: tuple, dst: tuple) -> None:
        self.m = merger
        self.field: str = spec["key"]
        self.spec = spec
        self.bpath, self.base, self.spath, self.dst = bpath, base, spath, dst
        self.index: dict[Any, list[int]] = {}
        for position, entry in enumerate(base):
            value = _entry_name(entry, self.field)
            if value is not _MISSING and isinstance(value, Hashable):
                self.index.setdefault(value, []).append(position)

    def apply(self, cpath: tuple) -> list:
        removed = self.removals()
        updates = self.updates(removed)
        self.m.mark_value(self.m.child, cpath, self.dst)
        result: list = []
        for position, entry in enumerate(self.base):
            if position in removed:
                continue
            src, dst = self.bpath + (position,), self.dst + (len(result),)
            if position in updates:
                cpos = self.spath + ("set", updates[position])
                written = _without_at(self.spec["set"][updates[position]])
                result.append(self.m.merge(src, entry, cpos, written, dst))
            else:
                result.append(self.m.copy(self.m.base, src, dst, entry))
        self.append(result)
        return result

    def find(self, value: Any, where: tuple, at: Any = None, at_where: tuple = ()) -> int | None:
        """The base position of the entry whose field equals `value` (the `at`-th of them when
        `at` is given: `$at`, 1 = the first in base order), or None after reporting why not."""
        if not isinstance(value, Hashable) or value not in self.index:
            known = [k for k in self.index if isinstance(k, str)]
            hint = _did_you_mean(value, known) if isinstance(value, str) else ""
            what = "step" if self.field == BY_NAME else f"entry with {self.field}"
            self.m.error(where, f"the base has no {what} {_show(value)}{hint}")
            return None
        positions = self.index[value]
        what = "steps" if self.field == BY_NAME else f"entries with {self.field}"
        if at is None:
            if len(positions) > 1:
                message = (f"the base has {len(positions)} {what} {_show(value)}; cannot tell which one "
                           f"(name one with {AT}: 1 to {len(positions)})")
                self.m.error(where, message)
                return None
            return positions[0]
        if isinstance(at, bool) or not isinstance(at, int) or at < 1:
            self.m.error(at_where, f"{AT} must be a whole number from 1 (the first entry with that "
                                   f"{'name' if self.field == BY_NAME else self.field}), not {_show(at)}")
            return None
        if at > len(positions):
            count = f"{len(positions)} {what}" if len(positions) > 1 else f"one {what[:-1]}"
            self.m.error(at_where, f"the base has {count} {_show(value)}; {AT}: {at} names none of them")
            return None
        return positions[at - 1]

    def removals(self) -> set[int]:
        removed: set[int] = set()
        for number, value in enumerate(self.spec.get("remove", [])):
            where = self.spath + ("remove", number)
            position = self.find_removed(value, where)
            if position in removed:
                self.m.error(where, f"{_show(self.removed_name(value))} is removed twice")
            elif position is not None:
                removed.add(position)
        return removed

    def find_removed(self, value: Any, where: tuple) -> int | None:
        """A `remove` entry: a FIELD value, or `{FIELD: value, $at: N}` for the Nth of several
        (FIELD is the `key`, `$name` included)."""
        if not isinstance(value, dict):
            return self.find(value, where)
        if self.field not in value or not set(value) <= {self.field, AT}:
            self.m.error(where, f"a 'remove' entry is a {self.field} value or {{{self.field}: VALUE, {AT}: N}}")
            return None
        return self.find(value[self.field], where + (self.field,), value.get(AT), where + (AT,))

    def removed_name(self, value: Any) -> Any:
        return value.get(self.field) if isinstance(value, dict) else value

    def updates(self, removed: set[int]) -> dict[int, int]:
        """Base position -> number of the `set` entry that merges into it."""
        updates: dict[int, int] = {}
        for number, entry in enumerate(self.spec.get("set", [])):
            where = self.spath + ("set", number)
            name = _entry_name(_without_at(entry), self.field)
            if name is _MISSING:
                self.m.error(where, f"each 'set' entry must be {self.entry_kind()}")
                continue
            at = where if self.field == BY_NAME else where + (self.field,)
            position = self.find(name, at, *self.set_at(entry, where))
            if position is None:
                continue
            if position in removed:
                self.m.error(at, f"{_show(name)} is both set and removed")
            elif position in updates:
                self.m.error(at, f"{_show(name)} is set twice")
            else:
                updates[position] = number
        return updates

    def set_at(self, entry: Any, where: tuple) -> tuple[Any, tuple]:
        """The `$at` of a `set` entry (None if it has none) and where it is written."""
        return (entry[AT], where + (AT,)) if isinstance(entry, dict) and AT in entry else (None, ())

    def entry_kind(self) -> str:
        if self.field == BY_NAME:
            return "a step: a name or a mapping with one key, {name: arguments}"
        return f"a mapping with a '{self.field}' field"

    def append(self, result: list) -> None:
        taken = {_entry_name(e, self.field) for e in result if isinstance(_entry_name(e, self.field), Hashable)}
        for number, entry in enumerate(self.spec.get("append", [])):
            where = self.spath + ("append", number)
            if isinstance(entry, dict) and AT in entry:
                self.m.error(where + (AT,), f"{AT} names an entry of the base; an appended entry is a new one",
                             key=True)
                continue
            value = _entry_name(entry, self.field)
            if value is _MISSING:
                self.m.error(where, f"each 'append' entry must be {self.entry_kind()}")
                continue
            if isinstance(value, Hashable) and value in taken:
                what = (f"a step {_show(value)}" if self.field == BY_NAME
                        else f"an entry with {self.field} {_show(value)}")
                message = f"{what} already exists; use 'set' to change it"
                self.m.error(where if self.field == BY_NAME else where + (self.field,), message)
                continue
            if isinstance(value, Hashable):
                taken.add(value)
            result.append(self.m.fresh(where, entry, self.dst + (len(result),)))


# --------------------------------------------------------------------------
# Small helpers for messages


def _entry_name(entry: Any, field: str) -> Any:
    """What identifies a list entry for `$patch`: its `field` value; with `key: $name`, a step's
    name (a plain string, or the one key of `{name: arguments}`). `_MISSING` if it has none."""
    if field == BY_NAME:
        if isinstance(entry, str):
            return entry
        if isinstance(entry, dict) and len(entry) == 1 and not _is_directive(next(iter(entry))):
            return next(iter(entry))
        return _MISSING
    return entry.get(field, _MISSING) if isinstance(entry, dict) else _MISSING


def _without_at(entry: Any) -> Any:
    """A `set` entry without its `$at` (which says which base entry it merges into)."""
    return {k: v for k, v in entry.items() if k != AT} if isinstance(entry, dict) and AT in entry else entry


def _is_directive(key: Any) -> bool:
    return isinstance(key, str) and key.startswith("$")


def _show(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else repr(value)


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def _base_has(base: Any, wanted: str) -> str:
    """Why a directive has nothing to act on, for "cannot ..." messages."""
    if base is _MISSING:
        return f"the base has no value here (it needs {wanted})"
    return f"the base value here is {kind_name(base)}, not {wanted}"


def _did_you_mean(word: Any, candidates: Sequence[Any]) -> str:
    """"; did you mean 'x'?" for the closest candidate, or "" if none is close."""
    import difflib  # only for a message: not imported with the module

    names = {str(c): c for c in candidates}
    close = difflib.get_close_matches(str(word), list(names), n=1, cutoff=0.6)
    return f"; did you mean {_show(names[close[0]])}?" if close else ""
