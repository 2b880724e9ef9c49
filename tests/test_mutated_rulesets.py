"""Property: whatever a designer's typo does to the Birmingham YAML, the loader
answers with the project's own error type (or loads), never with a crash."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesets
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset

BASE = rulesets.builtin_path("birmingham")
FILES = sorted(p.name for p in BASE.glob("*.yaml"))
TOKENS = ["", " ", "-", ":", "{", "}", "[", "]", "yes", "no", "~", "null", "0", "-1", "999", "1:20", "'x'",
          '"', "&a", "*a", "<<", "!tag", "true", "coal", "me", "nth", "(", ")", "+", "==", "#", "\t", "  "]


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, list[tuple[str, int, str]]]:
    file = draw(st.sampled_from(FILES))
    ops = draw(st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "replace_token", "insert", "indent"]),
                                  st.integers(min_value=0, max_value=10_000), st.sampled_from(TOKENS)),
                        min_size=1, max_size=3))
    return file, ops


def apply(text: str, ops: list[tuple[str, int, str]]) -> str:
    lines = text.split("\n")
    for op, where, token in ops:
        i = where % max(len(lines), 1)
        line = lines[i] if lines else ""
        if op == "delete" and lines:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, line)
        elif op == "indent":
            lines[i] = "  " + line if where % 2 else line.lstrip()
        elif op == "insert":
            col = where % (len(line) + 1)
            lines[i] = line[:col] + token + line[col:]
        elif op == "replace_token" and line.split():
            words = line.split(" ")
            words[where % len(words)] = token
            lines[i] = " ".join(words)
    return "\n".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_mutated_ruleset_loads_or_reports(mutation: tuple[str, list[tuple[str, int, str]]]) -> None:
    file, ops = mutation
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "mutant"
        shutil.copytree(BASE, folder)
        target = folder / file
        target.write_text(apply(target.read_text(), ops))
        try:
            load_ruleset(folder)
        except RulesetError as error:
            assert error.diagnostics, "a RulesetError must say what is wrong"
            for diagnostic in error.diagnostics:
                assert diagnostic.message
