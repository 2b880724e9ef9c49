"""Type and name errors: exact messages and positions (line, column in the expression)."""

from __future__ import annotations

import pytest

from brass_dsl import BOOL, INT, DslError, DslErrors, ListType, compile_expression

from dsl_world import LOCATIONS, make_env


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("incme_level(me)", "unknown function 'incme_level'; did you mean 'income_level'?", 1),
        ("income_level(me, me)", "income_level() takes 1 argument (p: player), 2 given", 1),
        ("distance(here)", "distance() takes 2 arguments (a: location, b: location), 1 given", 1),
        ("1 + income_level(1)", "argument 1 of income_level() must be player, not int", 18),
        ("distance(here, me)", "argument 2 of distance() must be location, not player", 16),
        ("me.mony", "player has no field 'mony'; did you mean 'money'?", 4),
        ("me.money.x", "int has no field 'x'", 10),
        ("1 + mee.money", "unknown name 'mee'; did you mean 'me'?", 5),
        ("income_level + 1", "'income_level' is a function; call it as income_level(p)", 1),
        ("me(1)", "'me' is not a function", 1),
        ('__import__("os")', "unknown function '__import__'", 1),
        ("here == 1", "cannot compare location with int", 6),
        ('me.money == "leek"', "cannot compare int with str", 10),
        ("here < here", "'<' needs int operands, got location", 6),
        ("1 < true", "cannot compare int with bool", 3),
        ("me.money and true", "'and' needs bool operands, got int on the left", 1),
        ("true or 1", "'or' needs bool operands, got int on the right", 9),
        ('1 + "a"', "'+' needs int operands, got str on the right", 5),
        ("players + [here]", "'+' joins two lists of one type, got list[player] and list[location]", 9),
        ("players + 1", "'+' joins two lists of one type, got list[player] and int", 9),
        ("1 + players", "'+' needs int operands, got list[player] on the right", 5),
        ("[] + []", "cannot tell the type of the empty list '[]' here", 1),
        ("-true", "'-' needs an int operand, got bool", 2),
        ("not 1", "'not' needs a bool operand, got int", 5),
        ("if 1 then 2 else 3", "condition of 'if' must be bool, got int", 4),
        ("if true then 1 else false", "the branches of 'if' have different types: int and bool", 21),
        ('here == "lek"', "unknown location 'lek'; did you mean 'leek'?", 9),
        ('"derbi" == here', "unknown location 'derbi'; did you mean 'derby'?", 1),
        ('here == "xyz"', "unknown location 'xyz'; expected one of 'birmingham', 'derby', 'leek'", 9),
        ('here in ["leek", "derbi"]', "unknown location 'derbi'; did you mean 'derby'?", 18),
        ('distance(here, "brimingham")', "unknown location 'brimingham'; did you mean 'birmingham'?", 16),
        ("me in [1]", "cannot look for player in list[int]", 4),
        ("1 not in 2", "'not in' needs a list on the right, got int", 3),
        ('[1, "a"]', "list item 2 must be int, not str", 5),
        ("[me, here]", "list item 2 must be player, not location", 6),
        ("[]", "cannot tell the type of the empty list '[]' here", 1),
        ("[] == []", "cannot tell the type of the empty list '[]' here", 1),
        ("count(p in 3)", "count() needs a list after 'in', got int", 12),
        ("count(p in [])", "cannot tell the type of the empty list '[]' here", 12),
        ("count(me in players)", "loop variable 'me' would hide the name 'me'; choose another name", 7),
        (
            "count(distance in players)",
            "loop variable 'distance' would hide the function 'distance'; choose another name",
            7,
        ),
        (
            "any(p in players where any(p in players where true))",
            "loop variable 'p' is already bound by an enclosing aggregate",
            28,
        ),
        ("sum(p for p in players)", "sum() needs int values, got player", 5),
        ("max(p.vp > 1 for p in players)", "max() needs int values, got bool", 5),
        ("count(p in players where p.money)", "condition of 'where' must be bool, got int", 26),
        ("all(p in players where 1)", "condition of 'where' must be bool, got int", 24),
        ("min(p.money for p in players default true)", "default of min() must be int, got bool", 38),
        ("min(1, true)", "min() needs int arguments, got bool as argument 2", 8),
        ('count(t in ["leek"] where t == here)', "cannot compare str with location", 29),
        ("p.money", "unknown name 'p'", 1),
        ("count(p in players) + p.vp", "unknown name 'p'", 23),
    ],
)
def test_type_errors(fail, text: str, message: str, column: int) -> None:
    err = fail(text)
    assert (err.message, err.line, err.column) == (message, 1, column)
    assert err.errors == (err,)


def test_loop_variable_is_suggested(fail) -> None:
    assert fail("sum(p.vp for p in players where pp.vp > 1)").message == "unknown name 'pp'; did you mean 'p'?"


@pytest.mark.parametrize(
    ("text", "expect", "message"),
    [
        ("me.money", BOOL, "expected bool but the expression is int"),
        ("1 == 1", INT, "expected int but the expression is bool"),
        ("players", INT, "expected int but the expression is list[player]"),
    ],
)
def test_expected_type(fail, text: str, expect, message: str) -> None:
    err = fail(text, expect=expect)
    assert (err.message, err.line, err.column) == (message, 1, 1)


def test_literals_take_the_expected_type(registry) -> None:
    location = registry.lookup_type("location")
    assert compile_expression('"leek"', registry, expect=location).type is location
    assert compile_expression("[]", registry, expect=ListType(location)).type == ListType(location)
    assert compile_expression('["leek", "derby"]', registry, expect=ListType(location))(make_env()) == (
        LOCATIONS["leek"],
        LOCATIONS["derby"],
    )
    assert compile_expression('if true then "leek" else "derby"', registry, expect=location).type is location


def test_all_independent_errors_are_reported(fail) -> None:
    err = fail("foo + me.mony * income_level(1) + bar")
    assert isinstance(err, DslErrors)
    assert [(e.message, e.column) for e in err.errors] == [
        ("unknown name 'foo'", 1),
        ("player has no field 'mony'; did you mean 'money'?", 10),
        ("argument 1 of income_level() must be player, not int", 30),
        ("unknown name 'bar'", 35),
    ]
    assert (err.message, err.column) == ("unknown name 'foo'", 1)
    assert str(err) == "\n".join(str(e) for e in err.errors)


def test_errors_in_aggregate_parts_are_all_reported(fail) -> None:
    err = fail("max(p.money for p in players where p.mony > 1 default mony)")
    assert [(e.message, e.column) for e in err.errors] == [
        ("player has no field 'mony'; did you mean 'money'?", 38),
        ("unknown name 'mony'", 55),
    ]


def test_arguments_of_unknown_function_are_checked(fail) -> None:
    err = fail("fo(mee)")
    assert [e.message for e in err.errors] == ["unknown function 'fo'", "unknown name 'mee'; did you mean 'me'?"]


def test_failed_operand_does_not_cascade(fail) -> None:
    assert [e.message for e in fail("x in []").errors] == ["unknown name 'x'"]
    assert [e.message for e in fail("(foo + 1) * 2 == true").errors] == ["unknown name 'foo'"]


def test_binding_cannot_be_used_without_bindings(registry, fail) -> None:
    assert fail("target.money").message == "unknown name 'target'"
    child = registry.with_bindings({"target": registry.lookup_type("player")})
    assert compile_expression("target.money", child).names_used == frozenset({"target"})
    with pytest.raises(DslError, match="loop variable 'target' would hide the name 'target'"):
        compile_expression("count(target in players)", child)
