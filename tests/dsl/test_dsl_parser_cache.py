"""The parser tables are cached in the user's cache folder between processes; a missing,
stale or corrupt cache file is rebuilt, never an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
