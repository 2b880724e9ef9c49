"""The libyaml fast path of yaml_source gives exactly what the pure-Python path gives.

`load_yaml_text` first tries `_load_fast` (libyaml's parser with our composer and
builder) and falls back to `_load_pure` (PyYAML's pure-Python parser) whenever the
fast path declines. These tests hold the fast path to the pure one: same data,
marks, key marks and origins for everything it accepts, and it declines every
text with an error (so each message comes from the pure path) or on which libyaml
and PyYAML disagree. The cerberus stage's process-wide schema is checked at the end.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesets
from interpreter.ruleset import yaml_source
from interpreter.ruleset.errors import DiagnosticSink, RulesetError
from interpreter.ruleset.ruleset_files import load_folder
from interpreter.ruleset.schema import _definitions, validate_structure
from interpreter.ruleset.yaml_source import Document, _load_fast, _load_pure, load_yaml_text

needs_libyaml = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML was built without libyaml")

BIRMINGHAM = rulesets.builtin_path("birmingham")
assert BIRMINGHAM is not None
BIRMINGHAM_FILES = sorted(BIRMINGHAM.glob("*.yaml"))


def exact(doc: Document) -> tuple[Any, ...]:
    """Everything a Document holds, in order; repr tells 1, 1.0 and True apart."""
    return repr(doc.data), list(doc.marks.items()), list(doc.key_marks.items()), list(doc.origins.items())


def outcome(load: Any, text: str) -> tuple[Any, ...] | list[str]:
    """What loading `text` gives: the exact document, or the diagnostics as text."""
    try:
        return exact(load(text, "f.yaml"))
    except RulesetError as error:
        return [str(d) for d in error.diagnostics]


def assert_fast_matches_pure(text: str) -> Document | None:
    """If the fast path accepts `text`, it must give exactly what the pure path gives."""
    fast = _load_fast(text, "f.yaml")
    if fast is not None:
        assert exact(fast) == outcome(_load_pure, text)
    assert outcome(load_yaml_text, text) == outcome(_load_pure, text)
    return fast


# --------------------------------------------------------------------------
# The built-in ruleset


@needs_libyaml
@pytest.mark.parametrize("path", BIRMINGHAM_FILES, ids=lambda p: p.name)
def test_every_birmingham_file_loads_identically_both_ways(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = _load_fast(text, path.name)
    assert fast is not None, "the fast path must accept the built-in ruleset"
    pure = _load_pure(text, path.name)
    assert fast.data == pure.data
    assert exact(fast) == exact(pure)


@needs_libyaml
def test_birmingham_folder_is_the_same_without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = load_folder(BIRMINGHAM)
    monkeypatch.setattr(yaml_source, "_FastLoader", None)
    pure = load_folder(BIRMINGHAM)
    assert exact(fast) == exact(pure)


def test_without_libyaml_the_pure_path_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_source, "_FastLoader", None)
    assert _load_fast("a: 1\n", "f.yaml") is None
    doc = load_yaml_text("a: [1, 'x']\nb: |\n  text\n", "f.yaml")
    assert doc.data == {"a": [1, "x"], "b": "text\n"}


# --------------------------------------------------------------------------
# Valid texts: the fast path accepts them, with the pure path's positions


ACCEPTED = [
    "a: 1\nb: [x, 'y', \"z\"]\nc: {d: 2, e: no}\n",
    "- 010\n- 0x1F\n- 1.5\n- .inf\n- ~\n- true\n- 1:20\n- 2001-12-14\n",
    "price: &p 'money >= 3'\nother: *p\n",
    "a: &x  plain text\nb: &y\n  'quoted'\n",
    "a: &x # a comment\n  value\nb: *x\n",
    "a: &x\nb: *x\nc: [&y c, *y]\n",
    "é: 😀 text\nb: 'q''uote'\nc: \"\\u00e9\\n\"\n",
    "a: 1\x85b: 2\u2028c: 3\r\nd: |\r\n  x\r\n  y\r\n",
    "a: |\n\n\n  after blank lines\n  second\nb: 1\n",
    "a: |2\n    indented\n  less\nb: >-\n  folded\n  text\n\nc: |+\n  kept\n\n",
    "a: >\n  folded\n\n  paragraph\nb: 'multi\n  line'\nc: plain\n  continued\n",
    "key with spaces: value:with colon # and a comment\n'quoted key': 1\n2: two\n",
    "a:\n- 1\n- - 2\n  - 3\n-   b: 4\n    c: 5\n",
    "--- # comment\na: 1\n...\n",
    "a:\nb: ''\nc: \"\"\n",
    "rule: money >= cost and not (x in [a, b])\n",
]


@needs_libyaml
@pytest.mark.parametrize("text", ACCEPTED)
def test_fast_path_accepts_valid_texts_with_identical_positions(text: str) -> None:
    assert assert_fast_matches_pure(text) is not None


# --------------------------------------------------------------------------
# Errors always come from the pure path


ERRORS = [
    "crops:\n  leek: 1\n  onion: 2\n  leek: 3\n",
    "cost: {2: 10, 02: 9}\n",
    "board:\n  birmingham: 1\n coventry: 2\n",
    "a:\n  b: 1\n    c: 2\n",
    "slots: [coal, iron\n",
    "name: 'Birmingham\n",
    "a: 1\n---\nb: 2\n",
    "a: !foo 3\nb: !!str 010\nc: !bar {x: 1}\n",
    "a: ! x\n",
    "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n",
    "a: &x [1, 2]\nb: *x\nc: &y {k: 1}\nd: *y\n",
    "a: *nowhere\n",
    "a: &x 1\nb: &x 2\n",
    "? [1]\n: a\n~: b\ntrue: c\n1.5: d\nyes: e\n",
    "*x : 1\n",
    "a: 1\nb: x\x07y\n",
    "a: \ud800\n",
    "[" * 5000 + "\n",
    "[" * 900 + "]" * 900 + "\n",
    "%YAML 2.0\n---\na: 1\n",
    "a: b: c\n",
    "- a\nb: 1\n",
]


@needs_libyaml
@pytest.mark.parametrize("text", ERRORS)
def test_fast_path_declines_every_error(text: str) -> None:
    """A text with an error is never loaded by the fast path: its messages (and
    their positions) are always the pure path's, exactly as without libyaml."""
    if isinstance(outcome(_load_pure, text), list):
        assert _load_fast(text, "f.yaml") is None
    assert_fast_matches_pure(text)


# --------------------------------------------------------------------------
# Where libyaml and PyYAML disagree, the fast path declines


DISAGREEMENTS = [
    "a: 1",  # no final line break: libyaml adds one, which moves marks at the end
    "a:",
    "a: |\n  text",
    "a: 1\t# tab\n",  # libyaml accepts tabs where PyYAML reports them
    "a: [1,\t2]\n",
    "a: x\ufeffy\n",  # PyYAML does not count a byte order mark as a column
    "a: |#comment\n  text\n",  # PyYAML wants a space before the comment
    "a: >-#\n  text\n",
    "a: [b?]\n",  # PyYAML ends a plain scalar at '?' in a flow collection
    "a: [b:?c]\n",
    "a: {? b}\n",
    "a: {b: , c: 1}\n",  # the marks of empty values in flow collections differ
    "a: [b: ]\n",
    "a: [&x ]\n",
]


@needs_libyaml
@pytest.mark.parametrize("text", DISAGREEMENTS)
def test_fast_path_declines_where_libyaml_disagrees(text: str) -> None:
    assert _load_fast(text, "f.yaml") is None
    assert outcome(load_yaml_text, text) == outcome(_load_pure, text)


# --------------------------------------------------------------------------
# Property: whatever the fast path accepts, the pure path gives identically

YAMLISH = st.lists(
    st.sampled_from(
        list("ab1 0x.\n\n  -:?,[]{}#&*!|>'\"%@`~<\r\\")
        + ["\u2028", "é", "\x85", "---", "...", "- ", ": ", "\n  ", "&a ", "*a", "|-", ">+", "? ", "\\x41"]
    ),
    max_size=40,
).map(lambda parts: "".join(parts) + "\n")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@needs_libyaml
@SETTINGS
@given(YAMLISH)
def test_yaml_like_text_loads_identically_both_ways(text: str) -> None:
    assert_fast_matches_pure(text)


@needs_libyaml
@SETTINGS
@given(st.text(max_size=60))
def test_arbitrary_text_loads_identically_both_ways(text: str) -> None:
    assert_fast_matches_pure(text)
    assert_fast_matches_pure(text + "\n")


# --------------------------------------------------------------------------
# cerberus: one checked schema per process, no normalization pass


def test_schema_is_checked_once_per_process() -> None:
    assert _definitions() is _definitions()


def test_mapping_where_a_list_is_expected_is_reported_not_a_crash() -> None:
    """cerberus' normalization pass (now skipped) crashed with a TypeError when a
    mapping with a key like `type` stood where a list of ids was expected."""
    doc = copy.copy(load_folder(BIRMINGHAM))
    doc.data = copy.deepcopy(doc.data)
    doc.data["tiles"]["coal"][1]["eras"] = {"type": "canal"}
    sink = DiagnosticSink()
    assert not validate_structure(doc, sink)
    assert [d.message for d in sink.items] == ["tiles.coal.1.eras must be a list, not a mapping"]
    assert sink.items[0].pos == doc.pos(("tiles", "coal", 1, "eras"))
