"""The condition language's parser tables, cached between processes without pickle.

Building the LALR tables takes tens of milliseconds in every new process (each `brass`
command); loading them takes a few. Lark's own cache is a pickle, and unpickling a file runs
whatever code the file asks for: anyone able to plant that file would run code as the user.
So the tables are cached here instead, as JSON (which can only describe data), in the private
cache folder of `cache_files` (a folder or a file that anyone else could write to is not used).
The file starts with a key: a hash of the grammar, the parser options, the Lark and Python
versions and this format's version. Any difference, or anything unreadable, and the tables
are rebuilt and the file rewritten.

Set BRASS_NO_PARSER_CACHE=1 to build the tables every time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from brass_dsl.cache_files import cache_folder, private_folder, read_private, write_private

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


def _cache_path() -> str | None:
    """The cache file's path, or None when there must be no cache (turned off, or an unsafe folder)."""
    if os.environ.get("BRASS_NO_PARSER_CACHE"):
        return None
    folder = private_folder()
    return None if folder is None else os.path.join(folder, CACHE_FILE_NAME)


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
    raw = read_private(path, MAX_CACHE_BYTES)
    if raw is None:
        return None
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
    write_private(path, (key + "\n" + body).encode("utf-8"), ".parser-")


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
