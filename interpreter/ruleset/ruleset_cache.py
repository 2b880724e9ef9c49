"""What a load of a valid ruleset concluded, cached between processes (issue 12).

Every new process (each `brass` command, each script) used to read, check and compile the same
files again, and most of that work always concludes the same thing: the YAML parser turns the
same bytes into the same data, cerberus and the cross-reference checks find them valid, Lark
parses the same expressions into the same trees. After a load that found no problem, this
module keeps that work's result:

* the resolved Document: the merged data and where each value was written (file, line, column),
* the syntax tree of every expression of the ruleset,

under a key made of

* the bytes of every file of the ruleset and of every ruleset it extends, the names of these
  files, and the chain of folders (each `extends` value must still name the same folder),
* the source of the code that reads, checks and parses a ruleset (`brass_dsl`, with its grammar,
  `interpreter.ruleset` and `rulesets/__init__.py`; a new version of the package is new code), the
  Python version, and the installed PyYAML, Lark and cerberus,
* this file format's version.

A hit skips YAML, cerberus, the cross-reference checks and Lark (none of them is even imported):
their verdict was "valid" for exactly these bytes and this code. The model is still built and
every expression still checked and compiled against it (closures cannot be cached), and the file
names in positions are worked out again, as they depend on the current directory.

Nothing else ever changes: a load that reports any problem is never cached, and a missing, stale,
damaged or foreign cache file, or any doubt while verifying it, is a miss, after which the full
load runs and reports every problem as it always did. Files are JSON in the private cache folder
(`brass_dsl.cache_files`: nobody else may write there, no link is followed), one per ruleset
folder and at most MAX_ENTRIES (the least recently used are removed); the second line of a file is
the SHA-256 of the rest, so a damaged or edited file is not trusted. Set BRASS_NO_RULESET_CACHE=1
to turn the cache off.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import brass_dsl
import rulesets
from brass_dsl import ast
from brass_dsl.cache_files import private, private_folder, read_private, write_private
from brass_dsl.source import ExpressionOrigin, SourcePos
from interpreter.ruleset.ruleset_files import ReadLog, display_name, file_digest, ruleset_files
from interpreter.ruleset.yaml_source import MAX_FILE_BYTES, Document

__all__ = ["ENV_OFF", "FORMAT", "MAX_ENTRIES", "Hit", "entry_path", "lookup", "store"]

FORMAT = "brass-ruleset-cache/1"
ENV_OFF = "BRASS_NO_RULESET_CACHE"
PREFIX, SUFFIX = "ruleset-", ".json"
MAX_ENTRIES = 32  # cache files kept (Birmingham's takes about 180 kB)
MAX_CACHE_BYTES = 32 * 1024 * 1024  # a ruleset holds at most 1 MiB of YAML; a bigger file is not ours
_PAIRS = "\x00pairs"  # a mapping with a key that is no text (player counts): a tagged list of pairs
_LIBRARIES = ("yaml", "lark", "cerberus")

Resolver = Callable[[str, Path], "Path | None"]


@dataclass
class Hit:
    """A load's result served from the cache: what `resolve_extends` gave, and the parsed trees."""

    document: Document
    chain: list[Path]
    trees: dict[str, ast.Node]


def entry_path(folder: Path) -> str | None:
    """The cache file of a ruleset folder; None when there must be no cache (turned off, unsafe)."""
    if os.environ.get(ENV_OFF) or _environment_key() is None:
        return None
    cache = private_folder()
    if cache is None:
        return None
    name = hashlib.sha256(str(folder).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return os.path.join(cache, PREFIX + name + SUFFIX)


# --------------------------------------------------------------------------
# Reading


def lookup(folder: Path, resolve_name: Resolver) -> Hit | None:
    """The cached result for the ruleset in `folder`, if the cache holds one for exactly its files
    and this code; None otherwise (whatever is wrong, nothing is reported)."""
    path = entry_path(folder)
    raw = None if path is None else read_private(path, MAX_CACHE_BYTES)
    if path is None or raw is None:
        return None
    try:
        entry = _body(raw)
        if entry is None or entry.get("key") != _environment_key() or entry.get("folder") != str(folder):
            return None
        chain = _verified_chain(entry["chain"], folder, resolve_name)
        if chain is None:
            return None
        hit = Hit(_document(entry, chain), chain, {text: ast.from_data(tree) for text, tree in entry["trees"].items()})
    except Exception:  # a damaged or foreign file of any shape, a folder that cannot be read: a miss
        return None
    with contextlib.suppress(OSError, NotImplementedError):
        os.utime(path, follow_symlinks=False)  # recently used: removed last
    return hit


def _body(raw: bytes) -> dict[str, Any] | None:
    """The entry of a cache file: its format line, then the SHA-256 of the body, then the body."""
    fmt, _, rest = raw.partition(b"\n")
    digest, _, body = rest.partition(b"\n")
    if fmt != FORMAT.encode() or digest != hashlib.sha256(body).hexdigest().encode():
        return None
    entry = json.loads(body, object_hook=_decode_object)
    return entry if isinstance(entry, dict) else None


def _verified_chain(stored: list[dict[str, Any]], folder: Path, resolve_name: Resolver) -> list[Path] | None:
    """The folders of the chain, base first, if every folder still holds exactly the files read
    then, with the same bytes, and each `extends` still names the folder it named; else None."""
    chain = [Path(item["folder"]) for item in stored]
    if not chain or chain[-1] != folder or len({p.resolve() for p in chain}) != len(chain):
        return None
    for n, item in enumerate(stored):
        here, extends = chain[n], item["extends"]
        if (extends is None) != (n == 0):
            return None
        if extends is not None and resolve_name(extends, here) != chain[n - 1]:
            return None
        files = ruleset_files(here)
        if files is None or [p.name for p in files] != [name for name, _ in item["files"]]:
            return None
        for file, (_, digest) in zip(files, item["files"], strict=True):
            raw = _read(file)
            if raw is None or file_digest(raw) != digest:
                return None
    return chain


def _read(path: Path) -> bytes | None:
    """The file's bytes, or None if it holds more than a YAML file may (it would not load)."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError):
        return None
    return raw if len(raw) <= MAX_FILE_BYTES else None


def _document(entry: dict[str, Any], chain: list[Path]) -> Document:
    """The cached Document, each position naming its file as this process names it.

    Positions are flat lists of numbers (fast to read): `paths` holds [parent, key] for every
    path but the root (path 0), `places` [file, line, column] for every distinct position, and
    `marks` and `key_marks` [path, place] pairs, `origins` [path, place, style] triples.
    """
    names = [display_name(folder / name) for folder, item in zip(chain, entry["chain"], strict=True)
             for name, _ in item["files"]]
    flat = entry["paths"]
    paths: list[tuple[Any, ...]] = [()]
    for n in range(0, len(flat), 2):
        paths.append((*paths[flat[n]], flat[n + 1]))
    flat = entry["places"]
    if not all(type(number) is int for number in flat):
        raise ValueError("a position must be numbers")
    places = [SourcePos(names[flat[n]], flat[n + 1], flat[n + 2]) for n in range(0, len(flat), 3)]
    flat = entry["marks"]
    marks = {paths[flat[n]]: places[flat[n + 1]] for n in range(0, len(flat), 2)}
    flat = entry["key_marks"]
    key_marks = {paths[flat[n]]: places[flat[n + 1]] for n in range(0, len(flat), 2)}
    flat = entry["origins"]
    origins = {paths[flat[n]]: ExpressionOrigin(places[flat[n + 1]], flat[n + 2]) for n in range(0, len(flat), 3)}
    if not isinstance(entry["data"], dict) or not all(isinstance(o.style, str) for o in origins.values()):
        raise ValueError("not a ruleset's document")
    return Document(entry["data"], marks, key_marks, origins)


def _decode_object(item: dict[str, Any]) -> Any:
    if len(item) == 1 and _PAIRS in item:
        return dict(item[_PAIRS])
    return item


# --------------------------------------------------------------------------
# Writing


def store(folder: Path, chain: list[Path], log: ReadLog, document: Document, trees: dict[str, ast.Node]) -> None:
    """Keep the result of a load that found no problem; any failure only means no cache."""
    path = entry_path(folder)
    if path is None:
        return
    try:
        body = _encoded(folder, chain, log, document, trees)
    except Exception:  # a value this format does not keep, the current directory removed meanwhile, …
        return  # no cache, and the load goes on
    if body is None:
        return
    if _key_now() != _environment_key():
        return  # a source file was edited while this process ran: its code may be either version
    raw = b"\n".join([FORMAT.encode(), hashlib.sha256(body).hexdigest().encode(), body])
    if len(raw) <= MAX_CACHE_BYTES and write_private(path, raw, "." + PREFIX):
        _evict(os.path.dirname(path))


def _encoded(folder: Path, chain: list[Path], log: ReadLog, document: Document,
             trees: dict[str, ast.Node]) -> bytes | None:
    """The entry as JSON, or None if it cannot be cached exactly (it is decoded again to be sure)."""
    stored: list[dict[str, Any]] = []
    for n, here in enumerate(chain):
        files = [(path.name, digest) for path, digest in log.files.items() if path.parent == here]
        extends = log.extends.get(here)
        if (extends is None) != (n == 0):
            return None
        stored.append({"folder": str(here), "extends": extends, "files": files})
    if len(log.files) != sum(len(item["files"]) for item in stored):
        return None  # a file read outside the chain's folders: not something this format describes
    entry = {"key": _environment_key(), "folder": str(folder), "chain": stored, "data": _encode(document.data),
             **_positions(document, _file_numbers(chain, stored)),
             "trees": {text: ast.to_data(tree) for text, tree in trees.items()}}
    body = json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    again = _body(b"\n".join([FORMAT.encode(), hashlib.sha256(body).hexdigest().encode(), body]))
    if again is None:
        return None
    decoded = _document(again, chain), {text: ast.from_data(tree) for text, tree in again["trees"].items()}
    return body if _exact(*decoded) == _exact(document, trees) else None


def _positions(document: Document, files: dict[str, int]) -> dict[str, list[Any]]:
    """The Document's positions as the flat lists `_document` reads."""
    paths: dict[tuple[Any, ...], int] = {(): 0}
    flat_paths: list[Any] = []
    places: dict[SourcePos, int] = {}

    def path(at: tuple[Any, ...]) -> int:
        if at not in paths:
            flat_paths.extend([path(at[:-1]), at[-1]])
            paths[at] = len(paths)
        return paths[at]

    def place(pos: SourcePos) -> int:
        if pos not in places:
            places[pos] = len(places)
        return places[pos]

    marks = [n for at, pos in document.marks.items() for n in (path(at), place(pos))]
    key_marks = [n for at, pos in document.key_marks.items() for n in (path(at), place(pos))]
    origins = [n for at, o in document.origins.items() for n in (path(at), place(o.start), o.style)]
    return {"paths": flat_paths, "places": [n for pos in places for n in (files[pos.file], pos.line, pos.col)],
            "marks": marks, "key_marks": key_marks, "origins": origins}


def _file_numbers(chain: list[Path], stored: list[dict[str, Any]]) -> dict[str, int]:
    """Each file's name as positions give it -> its number in the entry's list of files."""
    names = [display_name(here / name) for here, item in zip(chain, stored, strict=True) for name, _ in item["files"]]
    if len(set(names)) != len(names):
        raise ValueError("two files of the chain are shown under one name")
    return {name: n for n, name in enumerate(names)}


def _exact(document: Document, trees: dict[str, ast.Node]) -> tuple[Any, ...]:
    """Everything a load's result holds, in order; repr tells 1, 1.0 and True apart."""
    return (repr(document.data), list(document.marks.items()), list(document.key_marks.items()),
            list(document.origins.items()), {text: repr(tree) for text, tree in trees.items()})


def _encode(value: Any) -> Any:
    """Plain data as JSON data: a mapping with a key that is no text becomes a tagged list of pairs."""
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and k != _PAIRS for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {_PAIRS: [[k, _encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"not plain data: {type(value).__name__}")


def _evict(cache: str) -> None:
    """Remove the least recently used ruleset cache files beyond MAX_ENTRIES."""
    found = []
    with contextlib.suppress(OSError):
        for name in os.listdir(cache):
            if name.startswith(PREFIX) and name.endswith(SUFFIX):
                with contextlib.suppress(OSError):
                    info = os.lstat(os.path.join(cache, name))
                    if stat.S_ISREG(info.st_mode) and private(info):
                        found.append((info.st_mtime_ns, name))
    for _, name in sorted(found)[:-MAX_ENTRIES]:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(cache, name))


# --------------------------------------------------------------------------
# The key: this code and its libraries


def _key_now() -> str | None:
    """A hash of this format, the Python version, the source of the code that reads, checks and
    parses rulesets, and the installed libraries it uses; None if the source cannot be read."""
    key = hashlib.sha256("\n".join([FORMAT, sys.version, ""]).encode())
    this = Path(__file__).parent
    dsl = Path(brass_dsl.__file__).parent
    sources = [*sorted(dsl.glob("*.py")), dsl / "grammar.lark", *sorted(this.glob("*.py")), Path(rulesets.__file__)]
    try:
        for path in sources:
            key.update(f"{path.parent.name}/{path.name}\n".encode())
            key.update(hashlib.sha256(path.read_bytes()).digest())
        for name in _LIBRARIES:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            if origin is None:
                return None
            info = os.stat(origin)
            key.update(f"{name} {origin} {info.st_size} {info.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    except (OSError, ValueError, ImportError):
        return None
    return key.hexdigest()


# The key of the code this process runs: worked out when this module is imported, with the code a
# warm load runs (the modules imported later, only for a full load, are checked by `store`, which
# caches nothing if any source changed since).
_environment_key = functools.cache(_key_now)
_environment_key()
