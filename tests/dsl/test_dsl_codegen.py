"""An expression written out as one function (`codegen.py`, `brass_dsl.accelerate`) gives
exactly what the compiler's closures give: the same value, or the same error with the same
message, and the bound variables left as they were."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brass_dsl import INT, DslError, Env, Registry, accelerate, compile_expression

from dsl_world import build_registry, make_env

REGISTRY: Registry = build_registry()
BOUND = REGISTRY.with_bindings({"x": INT, "target": REGISTRY.lookup_type("player")})


def _outcome(fn: Any, env: Env) -> tuple[Any, ...]:
    before = dict(env.vars)
    try:
        result: tuple[Any, ...] = ("value", fn(env))
    except Exception as error:  # any: a host error must pass through the same way
        result = ("error", type(error).__name__, str(error))
    return (*result, env.vars == before)


def _same(text: str, registry: Registry = REGISTRY, **vars: Any) -> tuple[Any, ...]:
    """Evaluate `text` both ways on the same position; the outcome (asserted equal)."""
    compiled = compile_expression(text, registry)
    closures = _outcome(compiled.fn, make_env(**vars))
    accelerate(compiled)
    generated = _outcome(compiled.fn, make_env(**vars))
    assert generated == closures, text
    return generated


@pytest.mark.parametrize("text", [
    "me.money >= 5 and me.vp < 20",
    "me.money > 100 or me.vp == 10",
    "not (me.money > 100) and -me.vp < 0",
    "if me.money > 5 then me.vp else me.money * 2",
    "income_level(me) + distance(here, 'derby') - 1",
    "player(2).vp",
    "player(9).vp",  # a registered function's ValueError: a DslEvaluationError at the call
    "me.money / 0",  # division by zero
    "me.money % 0",
    "7 / 2 + -7 / 2 + 7 % -2",
    "[me.money, me.vp] == [7, 10]",
    "[1, 2] + [me.vp]",
    "here in ['leek', 'derby']",
    "here not in ['leek']",
    "any(p in players where p.money > 10)",
    "all(p in players where p.vp > 2)",
    "any(p in players where true)",
    "all(p in players where p.money / 0 > 1)",  # the loop variable restored after the error
    "count(p in players where p.money > 5)",
    "sum(p.vp for p in players) + max(me.vp, 3) + min(1, me.money)",
    "first(p in players where p.vp > 20).name",
    "any(p in [me, target] where any(q in players where q.vp > p.vp and p != me))",
    "x + 1 > target.money",
    "x / (x - 3)",
])
def test_the_same_outcome(text: str) -> None:
    _same(text, BOUND, x=3, target=make_env().context.players[1])


def test_a_missing_binding_is_the_same_error() -> None:
    assert _same("x + 1", BOUND)[:2] == ("error", "KeyError")


def test_a_loop_variable_that_was_bound_is_restored() -> None:
    outcome = _same("any(p in players where p.vp > 20)", REGISTRY, p="outer")
    assert outcome == ("value", True, True)


def test_and_or_if_evaluate_only_what_they_need() -> None:
    assert _same("me.money > 100 and me.money / 0 > 1")[:2] == ("value", False)
    assert _same("me.money < 100 or me.money / 0 > 1")[:2] == ("value", True)
    assert _same("if true then 1 else me.money / 0")[:2] == ("value", 1)


def test_generated_once_and_switchable(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = compile_expression("me.money + 1", REGISTRY)
    closures = compiled.fn
    monkeypatch.setenv("BRASS_NO_CODEGEN", "1")
    accelerate(compiled)
    assert compiled.fn is closures  # the closures only, to compare
    monkeypatch.delenv("BRASS_NO_CODEGEN")
    accelerate(compiled)
    generated = compiled.fn
    accelerate(compiled)
    assert generated is not closures and compiled.fn is generated
    assert generated(make_env()) == 8


ATOMS = st.sampled_from(["me", "players", "here", "p", "x", "0", "3", "'leek'", "true", "false", "[]", "[1, x]"])


def _expressions() -> st.SearchStrategy[str]:
    def combine(sub: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        op = st.sampled_from([*"+ - * / % == != < >= and or in".split(), "not in"])
        return st.one_of(
            st.builds("({} {} {})".format, sub, op, sub),
            st.builds("not {}".format, sub),
            st.builds("-{}".format, sub),
            st.builds("{}.{}".format, sub, st.sampled_from(["money", "vp", "name"])),
            st.builds("{}({})".format, st.sampled_from(["income_level", "distance", "player"]),
                      st.lists(sub, max_size=2).map(", ".join)),
            st.builds("if {} then {} else {}".format, sub, sub, sub),
            st.builds("{}(p in {} where {})".format, st.sampled_from(["any", "all", "count"]), sub, sub),
            st.builds("max({}, {})".format, sub, sub),
        )

    return st.recursive(ATOMS, combine, max_leaves=10)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expressions())
def test_random_expressions_the_same(text: str) -> None:
    try:
        compile_expression(text, BOUND)
    except DslError:
        return  # ill-typed: nothing to run
    _same(text, BOUND, x=2, target=make_env().context.players[2])
