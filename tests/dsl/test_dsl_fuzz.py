"""No input makes the language fail with anything but a DslError."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brass_dsl import DslError, Registry, compile_expression

from dsl_world import build_registry, make_env

REGISTRY: Registry = build_registry()

CHARACTERS = st.sampled_from(list("abemnoprtxy_019 \n\t()[].,+-*/%<>=!\"'#&|"))
TOKENS = st.sampled_from(
    "me players here locations p x money vp name income_level distance player 0 1 7 'leek' \"derby\" 'x' "
    "true false and or not in if then else count sum min max any all for where default "
    "( ) [ ] . , + - * / % == != < <= > >=".split()
)


def _compile_and_run(text: str) -> None:
    try:
        compiled = compile_expression(text, REGISTRY)
    except DslError:
        return
    with contextlib.suppress(DslError):  # e.g. division by zero; any other exception fails the test
        compiled(make_env())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(CHARACTERS, max_size=40))
def test_random_characters(text: str) -> None:
    _compile_and_run(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TOKENS, max_size=25))
def test_random_token_sequences(tokens: list[str]) -> None:
    _compile_and_run(" ".join(tokens))


def _expressions() -> st.SearchStrategy[str]:
    """Syntactically valid expressions, mostly ill-typed: they exercise the checker."""
    atoms = st.sampled_from(["me", "players", "here", "locations", "p", "0", "3", "'leek'", "'lek'", "true", "[]"])

    def combine(sub: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        op = st.sampled_from([*"+ - * / % == != < >= and or in".split(), "not in"])
        name = st.sampled_from(["income_level", "distance", "player", "nope"])
        field = st.sampled_from(["money", "vp", "name", "mony"])
        return st.one_of(
            st.builds("({} {} {})".format, sub, op, sub),
            st.builds("not {}".format, sub),
            st.builds("-{}".format, sub),
            st.builds("{}.{}".format, sub, field),
            st.builds("{}({})".format, name, st.lists(sub, max_size=3).map(", ".join)),
            st.lists(sub, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
            st.builds("if {} then {} else {}".format, sub, sub, sub),
            st.builds("count(p in {} where {})".format, sub, sub),
            st.builds("sum({} for p in {})".format, sub, sub),
            st.builds("min({} for p in {} default {})".format, sub, sub, sub),
            st.builds("max({}, {})".format, sub, sub),
        )

    return st.recursive(atoms, combine, max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expressions())
def test_random_well_formed_expressions(text: str) -> None:
    _compile_and_run(text)
