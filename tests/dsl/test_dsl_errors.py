"""How errors are located and shown: file positions through an origin, caret context."""

from __future__ import annotations

import pytest

from brass_dsl import INT, DslError, DslEvaluationError, compile_expression
from brass_dsl.errors import DslErrors
from brass_dsl.source import ExpressionOrigin, SourcePos

from dsl_world import make_env

TWO_LINES = "me.money >= 5 and\n  count(p in players where p.mony > 1) > 0\n"


def test_str_and_context_without_origin(fail) -> None:
    err = fail("me.money > here")
    assert str(err.pos) == "<expression>:1:10"
    assert err.context() == "    me.money > here\n             ^"
    assert str(err) == "<expression>:1:10: cannot compare int with location\n    me.money > here\n             ^"


def test_literal_block_maps_to_file_lines(registry) -> None:
    origin = ExpressionOrigin(SourcePos("rules.yaml", 10, 7), "|")
    with pytest.raises(DslError) as info:
        compile_expression(TWO_LINES, registry, origin=origin)
    err = info.value
    assert (err.line, err.column) == (2, 30)
    assert err.pos == SourcePos("rules.yaml", 11, 36)
    assert err.origin is origin
    assert str(err) == (
        "rules.yaml:11:36: player has no field 'mony'; did you mean 'money'?\n"
        "      count(p in players where p.mony > 1) > 0\n"
        "                                 ^"
    )


def test_single_line_origin(registry) -> None:
    origin = ExpressionOrigin(SourcePos("rules.yaml", 4, 15), '"')
    with pytest.raises(DslError) as info:
        compile_expression("me.vp + mony", registry, origin=origin)
    assert str(info.value.pos) == "rules.yaml:4:23"


def test_folded_scalar_reports_first_line(registry) -> None:
    origin = ExpressionOrigin(SourcePos("rules.yaml", 4, 15), ">")
    with pytest.raises(DslError) as info:
        compile_expression(TWO_LINES, registry, origin=origin)
    assert info.value.pos == SourcePos("rules.yaml", 4, 15)


def test_syntax_error_on_second_line_of_block(registry) -> None:
    origin = ExpressionOrigin(SourcePos("rules.yaml", 10, 7), "|")
    with pytest.raises(DslError) as info:
        compile_expression("me.vp > 1 and\n  (me.money > 2", registry, origin=origin)
    assert info.value.message == "unexpected end of expression; expected ')'"
    assert info.value.pos == SourcePos("rules.yaml", 11, 22)


def test_several_errors_share_the_origin(registry) -> None:
    origin = ExpressionOrigin(SourcePos("rules.yaml", 10, 7), "|")
    with pytest.raises(DslErrors) as info:
        compile_expression("foo and\n  bar", registry, origin=origin)
    assert [str(e.pos) for e in info.value.errors] == ["rules.yaml:10:7", "rules.yaml:11:9"]


def test_context_keeps_tabs_and_clips_long_lines(fail) -> None:
    assert fail("\tme.vp +\tmony").context() == "    \tme.vp +\tmony\n    \t       \t^"
    long = "me.vp + " * 30 + "mony"
    context = fail(long).context().splitlines()
    assert context[0].startswith("    ...") and context[0].endswith("mony")
    assert context[1].index("^") == context[0].index("mony")


def test_division_by_zero_is_located_at_the_operator(registry) -> None:
    origin = ExpressionOrigin(SourcePos("rules.yaml", 10, 7), "|")
    compiled = compile_expression("me.vp +\n  me.money / (me.vp - 10)", registry, origin=origin)
    with pytest.raises(DslEvaluationError) as info:
        compiled(make_env())
    err = info.value
    assert (err.message, err.line, err.column) == ("division by zero", 2, 12)
    assert err.pos == SourcePos("rules.yaml", 11, 18)


def test_modulo_by_zero(run) -> None:
    with pytest.raises(DslEvaluationError, match="modulo by zero"):
        run("5 % (me.vp - 10)")


@pytest.mark.parametrize("kind", ["min", "max"])
def test_extremum_of_nothing(run, kind: str) -> None:
    with pytest.raises(DslEvaluationError) as info:
        run(f"1 + {kind}(p.vp for p in players where p.vp > 100)")
    assert (info.value.message, info.value.column) == (f"{kind}() of an empty collection", 5)


def test_function_value_error_is_located_at_the_call(run) -> None:
    with pytest.raises(DslEvaluationError) as info:
        run("me.vp + player(7).vp")
    assert (info.value.message, info.value.column) == ("player(): there is no player 7", 9)
    assert isinstance(info.value.__cause__, ValueError)


def test_other_host_exceptions_propagate(registry) -> None:
    compiled = compile_expression("amount + 1", registry.with_bindings({"amount": INT}))
    with pytest.raises(KeyError):
        compiled(make_env())  # the caller did not bind `amount`: a bug in the host


def test_errors_is_a_tuple_of_itself(fail) -> None:
    err = fail("mony")
    assert err.errors == (err,)
    assert not isinstance(err, DslEvaluationError)
