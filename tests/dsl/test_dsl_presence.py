"""`present(x)` and optional bindings (brass_dsl/presence.py): an expression reads an optional
binding only where its presence is proven by the expression's shape or by the caller."""

from __future__ import annotations

import pytest

from brass_dsl import BOOL, INT, DslError, Env, Registry, compile_expression
from brass_dsl.runtime import ABSENT


def registry() -> Registry:
    """`n` always bound; `x` optional, and `y` optional and asked only when `x` is."""
    base = Registry().with_bindings({"n": INT})
    with_x = base.with_bindings({"x": INT}, conditional=True)
    return with_x.with_bindings({"y": INT}, conditional=True, implies=frozenset({"x"}))


@pytest.mark.parametrize(("text", "when_absent"), [
    ("present(x) and x > 1", False),
    ("not present(x) or x > 1", True),
    ("if present(x) then x > 1 else false", False),
    ("if not present(x) then true else x > 1", True),
    ("n > 0 and present(x) and (n > 5 or x > 1)", False),
    ("present(y) and x + y > 1", False),  # y is asked only when x is
    ("not (present(x) and n > 0) or x > 1", True),  # `not (present(x) and …)` false proves x
])
def test_guarded_reads_compile(text: str, when_absent: bool) -> None:
    expr = compile_expression(text, registry(), expect=BOOL)
    assert expr(Env(vars={"n": 1, "x": ABSENT, "y": ABSENT})) is when_absent
    assert expr(Env(vars={"n": 1, "x": 2, "y": 3})) is True


@pytest.mark.parametrize(("text", "column"), [
    ("x > 1", 1),
    ("present(x) or x > 1", 15),
    ("if present(x) then false else x > 1", 31),
    ("present(x) and y > 1", 16),  # x does not prove y
    ("(present(x) and n > 0) or x > 1", 27),  # `present(x) and …` false proves nothing
])
def test_unguarded_reads_are_errors(text: str, column: int) -> None:
    """The error is at the unguarded read (columns from 1)."""
    with pytest.raises(DslError) as error:
        compile_expression(text, registry(), expect=BOOL)
    assert error.value.column == column
    assert "is asked only when its `when:` holds" in error.value.message


def test_present_takes_an_optional_name_only() -> None:
    for text in ("present(n)", "present(1)", "present(x, x)"):
        with pytest.raises(DslError, match=r"present\(…\) takes the name of an action param"):
            compile_expression(text, registry(), expect=BOOL)


def test_the_caller_may_prove_presence() -> None:
    expr = compile_expression("x + 1", registry(), expect=INT, assume=frozenset({"y"}))
    assert expr(Env(vars={"x": 4})) == 5
