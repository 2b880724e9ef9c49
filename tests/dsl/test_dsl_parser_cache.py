"""The parser tables are cached in the user's cache folder between processes; a missing,
stale or corrupt cache file is rebuilt, never an error. The cache is JSON, never a pickle, and a
file or folder that someone else could have written is not used."""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

from brass_dsl import parser_cache
from brass_dsl.parser import grammar_text
from brass_dsl.parser_cache import CACHE_FILE_NAME

OPTIONS = {"parser": "lalr", "lexer": "basic", "propagate_positions": True, "maybe_placeholders": True}
PARSE = "from brass_dsl import parse; print(type(parse('1 + 2 * x.y').__class__).__name__ and 'parsed')"


def run(cache_home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "BRASS_NO_PARSER_CACHE"}
    env.update(XDG_CACHE_HOME=str(cache_home), **extra)
    return subprocess.run([sys.executable, "-c", PARSE], capture_output=True, text=True, env=env, timeout=120)


def test_the_cache_is_written_reused_and_repaired(tmp_path: Path) -> None:
    cache = tmp_path / "brass" / "condition-language-parser.lark"
    first = run(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "parsed", first.stderr
    assert cache.is_file()
    cache.write_bytes(b"not a cache\n\x00garbage")
    repaired = run(tmp_path)
    assert repaired.returncode == 0 and repaired.stdout.strip() == "parsed" and not repaired.stderr
    assert cache.read_bytes() != b"not a cache\n\x00garbage"


def test_the_cache_can_be_turned_off(tmp_path: Path) -> None:
    result = run(tmp_path, BRASS_NO_PARSER_CACHE="1")
    assert result.returncode == 0 and result.stdout.strip() == "parsed"
    assert not (tmp_path / "brass").exists()


# --------------------------------------------------------------------------
# The cache cannot run code, and is used only where nobody else can write


class _Planted:
    """A pickle that creates `marker` when it is unpickled (what an attacker would plant)."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple:
        return (open, (self.marker, "w"))


def plant(cache: Path, marker: Path) -> None:
    cache.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Lark's cache format: a hash line, then pickles; Lark unpickled the second line without any check.
    cache.write_bytes(b"0" * 64 + b"\n" + pickle.dumps(_Planted(marker)) + pickle.dumps(_Planted(marker)))


def test_a_planted_pickle_is_never_unpickled(tmp_path: Path) -> None:
    cache, marker = tmp_path / "brass" / CACHE_FILE_NAME, tmp_path / "pwned"
    plant(cache, marker)
    result = run(tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == "parsed", result.stderr
    assert not marker.exists()
    assert cache.read_bytes()[64:65] == b"\n" and cache.read_bytes()[65:66] == b"{"  # rebuilt, as JSON


def test_the_cache_folder_and_file_are_private(tmp_path: Path) -> None:
    assert run(tmp_path).returncode == 0
    folder = tmp_path / "brass"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / CACHE_FILE_NAME).stat().st_mode) == 0o600


def test_a_folder_others_can_write_is_not_used(tmp_path: Path) -> None:
    folder, marker = tmp_path / "brass", tmp_path / "pwned"
    plant(folder / CACHE_FILE_NAME, marker)
    folder.chmod(0o777)
    before = (folder / CACHE_FILE_NAME).read_bytes()
    result = run(tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == "parsed" and not marker.exists()
    assert (folder / CACHE_FILE_NAME).read_bytes() == before  # neither read nor written
    assert sorted(p.name for p in folder.iterdir()) == [CACHE_FILE_NAME]


def test_a_cache_file_others_can_write_is_not_read_but_replaced(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("BRASS_NO_PARSER_CACHE", raising=False)
    first = parser_cache.cached_lark(grammar_text(), **OPTIONS)  # writes a good cache file
    path = tmp_path / "brass" / CACHE_FILE_NAME
    key = path.read_text(encoding="utf-8").partition("\n")[0]
    assert parser_cache._load(str(path), key) is not None  # a private, current file is used
    path.chmod(0o666)
    assert parser_cache._load(str(path), key) is None
    again = parser_cache.cached_lark(grammar_text(), **OPTIONS)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert again.parse("a.b + 1") == first.parse("a.b + 1")


def test_a_symbolic_link_is_not_followed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("BRASS_NO_PARSER_CACHE", raising=False)
    parser_cache.cached_lark(grammar_text(), **OPTIONS)
    path = tmp_path / "brass" / CACHE_FILE_NAME
    key = path.read_text(encoding="utf-8").partition("\n")[0]
    target = tmp_path / "elsewhere"
    path.rename(target)
    path.symlink_to(target)
    assert parser_cache._load(str(path), key) is None


def test_the_cached_tables_parse_exactly_like_fresh_ones(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("BRASS_NO_PARSER_CACHE", raising=False)
    fresh = parser_cache.cached_lark(grammar_text(), **OPTIONS)
    path = tmp_path / "brass" / CACHE_FILE_NAME
    loaded = parser_cache._load(str(path), path.read_text(encoding="utf-8").partition("\n")[0])
    assert loaded is not None
    text = 'count(x in hand(me) where x.kind in ["a", "b"] and not x.n >= -3) + max(1, 2) * sum(y for y in [1])'
    assert loaded.parse(text) == fresh.parse(text)
