"""Property tests: any text either loads or gives located diagnostics, never a crash."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.yaml_compose import Loader as _Loader
from interpreter.ruleset.yaml_source import load_yaml_text

# Text built from YAML's significant characters finds far more parser paths than
# arbitrary unicode, which mostly becomes one plain scalar.
YAMLISH = st.text(
    alphabet=st.sampled_from(list("ab1 0x.\n\n  -:?,[]{}#&*!|>'\"%@`~<\t\r") + ["\u2028", "é", "\x85", "\ufeff"]),
    max_size=60,
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(text: str) -> None:
    try:
        load_yaml_text(text, "fuzz.yaml")
    except RulesetError as error:
        assert error.diagnostics
        for diagnostic in error.diagnostics:
            assert diagnostic.pos is not None and diagnostic.pos.file == "fuzz.yaml"
            assert diagnostic.pos.line >= 1 and diagnostic.pos.col >= 1
            assert diagnostic.message


@SETTINGS
@given(st.text(max_size=80))
def test_arbitrary_text_only_raises_ruleset_error(text: str) -> None:
    _check(text)


@SETTINGS
@given(YAMLISH)
def test_yaml_like_text_only_raises_ruleset_error(text: str) -> None:
    _check(text)


def _events(text: str, loader: type) -> list | str:
    try:
        return [
            (type(e).__name__, getattr(e, "value", None), getattr(e, "style", None),
             e.start_mark.index, e.start_mark.line, e.start_mark.column,
             e.end_mark.index, e.end_mark.line, e.end_mark.column)
            for e in yaml.parse(text, Loader=loader)
        ]  # fmt: skip
    except yaml.YAMLError as error:
        return f"{type(error).__name__}: {error}"


@SETTINGS
@given(YAMLISH)
def test_tuned_scanner_matches_stock_pyyaml(text: str) -> None:
    assert _events(text, _Loader) == _events(text, yaml.SafeLoader)
