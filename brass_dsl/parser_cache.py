"""The condition language's parser tables, cached between processes without pickle.

Building the LALR tables takes tens of milliseconds in every new process (each `brass`
command); loading them takes a few. Lark's own cache is a pickle, and unpickling a file runs
whatever code the file asks for: anyone able to plant that file would run code as the user.
So the tables are cached here instead, as JSON (which can only describe data), and a cache
file is used only when nobody else could have written it:

* the folder is `$XDG_CACHE_HOME/brass` (else `~/.cache/brass`), created with mode 0700;
  a folder that is a symbolic link, belongs to another user or that the group or others may
  write to is not used at all (the tables are then built in memory, every time);
* the file must be a regular file of the current user that only they may write, no larger
  than `MAX_CACHE_BYTES`; it is replaced atomically (written to a private temporary file,
  then renamed), never written in place;
* it starts with a key: a hash of the grammar, the parser options, the Lark and Python
  versions and this format's version. Any difference, or anything unreadable, and the tables
  are rebuilt and the file rewritten.

Set BRASS_NO_PARSER_CACHE=1 to build the tables every time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
import tempfile
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

__all__ = ["CACHE_FILE_NAME", "MAX_CACHE_BYTES", "cache_folder", "cached_lark"]

CACHE_FILE_NAME = "condition-language-parser.lark"
MAX_CACHE_BYTES = 4 * 1024 * 1024  # the tables take about 100 kB; a bigger file is not ours
FORMAT = "brass-parser-tables/2"  # /1 was Lark's pickle
_TUPLE, _PAIRS = "\x00tuple", "\x00pairs"  # JSON has neither tuples nor integer keys: tagged objects


def cached_lark(grammar: str, **options: Any) -> Lark:
    """A Lark parser for `grammar`, loaded from the safe cache when it is there and current."""
    key = _key(grammar, options)
    path = _cache_path()
    if path is not None:
        loaded = _load(path, key)
        if loaded is not None:
            return loaded
    parser = Lark(grammar, **options)
    if path is not None:
        _save(path, key, parser)
    return parser


def cache_folder() -> str:
    """Where the cache lives: `$XDG_CACHE_HOME/brass`, else `~/.cache/brass`."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "brass")


def _cache_path() -> str | None:
    """The cache file's path, or None when there must be no cache (turned off, or an unsafe folder)."""
    if os.environ.get("BRASS_NO_PARSER_CACHE"):
        return None
    folder = cache_folder()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except (OSError, ValueError):
        return None
    if not stat.S_ISDIR(info.st_mode) or not _private(info):
        return None
    return os.path.join(folder, CACHE_FILE_NAME)


def _private(info: os.stat_result) -> bool:
    """Owned by the current user, and neither the group nor others may write to it."""
    getuid = getattr(os, "getuid", None)  # not on Windows, where the folder is the user's profile
    owned = getuid is None or info.st_uid == getuid()
    return owned and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _key(grammar: str, options: dict[str, Any]) -> str:
    text = "\n".join([FORMAT, grammar, repr(sorted(options.items())), lark.__version__, sys.version])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------
# Reading


def _load(path: str, key: str) -> Lark | None:
    """The cached parser, or None if the file is missing, unsafe, stale or unreadable."""
    text = _read_private(path)
    if text is None:
        return None
    try:
        header, _, body = text.partition("\n")
        if header != key:
            return None
        tables = json.loads(body, object_hook=_decode_object)
        # Lark's own loader of `memo_serialize` data (what `Lark.load` does after unpickling):
        return Lark._load_from_dict(tables["data"], tables["memo"])
    except Exception:  # a damaged or foreign file of any shape: rebuild it
        return None


def _read_private(path: str) -> str | None:
    """The file's text if it is a regular file of ours that nobody else can write, else None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)  # never follow a link planted in its place
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or not _private(info) or info.st_size > MAX_CACHE_BYTES:
            return None
        raw = file.read(MAX_CACHE_BYTES + 1)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _decode_object(item: dict[str, Any]) -> Any:
    if len(item) == 1 and _TUPLE in item:
        return tuple(item[_TUPLE])
    if len(item) == 1 and _PAIRS in item:
        return dict(item[_PAIRS])
    return item


# --------------------------------------------------------------------------
# Writing


def _save(path: str, key: str, parser: Lark) -> None:
    """Write the tables for the next process; any failure only means there is no cache."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    tables = {"data": data, "memo": memo}
    body = json.dumps(_encode(tables), separators=(",", ":"))
    if json.loads(body, object_hook=_decode_object) != tables:
        return  # a Lark version whose tables hold something this encoding does not keep
    folder = os.path.dirname(path)
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".parser-", suffix=".tmp")  # mode 0600
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(key + "\n" + body)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _encode(value: Any) -> Any:
    """`value` as JSON data: tuples and mappings with non-text keys become tagged objects."""
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(item) for item in value]}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("\x00") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {_PAIRS: [[_encode(k), _encode(v)] for k, v in value.items()]}
    return value
