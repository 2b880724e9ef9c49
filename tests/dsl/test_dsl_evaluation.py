"""Values computed by compiled expressions in the toy world of conftest.py.

alice (money 7, vp 10, me), bob (money 2, vp 25), carol (money 12, vp 3); here = leek.
"""

from __future__ import annotations

import pytest

from brass_dsl import BOOL, INT, DslEvaluationError, compile_expression

from dsl_world import LOCATIONS, make_env


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 4 - 3", 3),
        ("2 * 3 % 4", 2),
        ("-2 * 3", -6),
        ("- -5", 5),
        ("-me.money", -7),
        ("1 + 2 == 3 and not 1 > 2", True),
        ("true or false and false", True),
        ("(true or false) and false", False),
        ("not 1 == 2", True),
        ("not true == false", True),
        ("if 1 > 2 then 1 else if 2 > 1 then 2 else 3", 2),
        ("if true then 1 else 2 + 10", 1),
        ("if false then 1 else 2 + 10", 12),
        ("'a' == \"a\"", True),
        ("[1, 2] == [1, 2]", True),
        ("[1, 2] != [2, 1]", True),
        ("[1, 2] + [3] == [1, 2, 3]", True),
        ("count(p in players + players where p.vp > 5)", 4),
        ("count(p in [] + players)", 3),
        ("[1] + [] + [2] == [1, 2]", True),
    ],
)
def test_precedence_and_operators(run, text: str, value: object) -> None:
    assert run(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [("7 / 2", 3), ("-7 / 2", -4), ("7 / -2", -4), ("6 / 3", 2), ("7 % 3", 1), ("-7 % 3", 2), ("7 % -3", -2)],
)
def test_integer_division_rounds_down(run, text: str, value: int) -> None:
    assert run(text) == value


@pytest.mark.parametrize("a", [-7, -1, 0, 5, 9])
@pytest.mark.parametrize("b", [-3, 2, 4])
def test_division_and_modulo_agree(run, a: int, b: int) -> None:
    assert run(f"{a} / {b} * {b} + {a} % {b}") == a


def test_names_fields_and_calls(run) -> None:
    assert run("me.money") == 7
    assert run("player(2).vp") == 25
    assert run("income_level(player(3))") == 4
    assert run('distance(here, "derby") + distance("derby", "birmingham")') == 3
    assert run("me.name") == "alice"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("count(p in players)", 3),
        ("count(p in players where p.money > 5)", 2),
        ("count(p in players where p.money > 100)", 0),
        ("any(p in players where p.vp > 20)", True),
        ("any(p in players where p.vp > 30)", False),
        ("all(p in players where p.vp > 2)", True),
        ("all(p in players where p.vp > 3)", False),
        ("all(p in players where p.vp > 3 and false)", False),
        ("sum(p.money for p in players)", 21),
        ("sum(p.money for p in players where p != me)", 14),
        ("sum(p.money for p in players where false)", 0),
        ("min(p.vp for p in players)", 3),
        ("max(p.vp for p in players)", 25),
        ("min(p.vp for p in players where p.money > 5)", 3),
        ("max(p.vp for p in players where p.money > 100 default -1)", -1),
        ("min(p.vp for p in players default 99)", 3),
        ("min(3, 1, 2)", 1),
        ("max(me.money, 10)", 10),
        ("count(x in [1, 2, 3] where x % 2 == 1)", 2),
        ("sum(x * sum(y for y in [x, 10]) for x in [1, 2])", 35),
        ("sum(count(y in players where y.money > x) for x in [0, 5, 10])", 6),
        ("count(loc in locations where distance(loc, here) <= 2)", 2),
    ],
)
def test_aggregates(run, text: str, value: object) -> None:
    assert run(text) == value


def test_empty_aggregates(registry) -> None:
    env = make_env()
    env.context.players = []
    assert compile_expression("all(p in players where p.vp > 100)", registry)(env) is True
    assert compile_expression("any(p in players where true)", registry)(env) is False
    assert compile_expression("sum(p.vp for p in players)", registry)(env) == 0
    assert compile_expression("count(p in players)", registry)(env) == 0


def test_loop_variable_is_restored(registry) -> None:
    env = make_env(p="outer")
    assert compile_expression("count(p in players where p.money > 5)", registry)(env) == 2
    assert env.vars == {"p": "outer"}
    env = make_env()
    compile_expression("sum(p.money for p in players)", registry)(env)
    assert env.vars == {}


def test_loop_variable_restored_after_error(registry) -> None:
    env = make_env()
    with pytest.raises(DslEvaluationError):
        compile_expression("any(p in players where p.money / 0 > 1)", registry)(env)
    assert env.vars == {}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('here == "leek"', True),
        ('"derby" == here', False),
        ('here != "derby"', True),
        ('here in ["derby", "leek"]', True),
        ('here not in ["derby", "birmingham"]', True),
        ('"leek" in locations', True),
        ('"leek" == "leek"', True),
        ("here in []", False),
        ("me not in []", True),
        ("count(p in players where p.vp in []) ", 0),
        ('if me.money > 5 then here == "leek" else false', True),
    ],
)
def test_id_literals(run, text: str, value: object) -> None:
    assert run(text) == value


def test_id_literals_become_values(registry) -> None:
    compiled = compile_expression('if me.money > 100 then here else "derby"', registry)
    assert compiled(make_env()) is LOCATIONS["derby"]
    assert (
        compile_expression('"birmingham"', registry, expect=registry.lookup_type("location"))(make_env())
        is (LOCATIONS["birmingham"])
    )


def test_short_circuit(run) -> None:
    assert run("false and 1 / 0 == 1") is False
    assert run("true or 1 / 0 == 1") is True
    assert run("if true then 1 else 1 / 0") == 1
    assert run("any(p in players where true or 1 / 0 == 0)") is True


def test_bindings(registry) -> None:
    player = registry.lookup_type("player")
    child = registry.with_bindings({"target": player, "amount": INT})
    compiled = compile_expression("target.money >= amount and target != me", child, expect=BOOL)
    env = make_env(amount=5)
    env.vars["target"] = env.context.players[2]
    assert compiled(env) is True
    assert compiled.names_used == frozenset({"target", "amount", "me"})


def test_names_and_functions_used(registry) -> None:
    compiled = compile_expression("count(p in players where income_level(p) > distance(here, 'derby'))", registry)
    assert compiled.names_used == frozenset({"players", "here"})
    assert compiled.functions_used == frozenset({"income_level", "distance"})
    assert compiled.type == INT
    assert compiled.fn(make_env()) == compiled(make_env()) == 1


def test_multiline_expression(run) -> None:
    text = "me.money >= 5\n  and count(p in players\n             where p.vp > 5) == 2\n"
    assert run(text) is True


def test_parse_is_cached(registry) -> None:
    from brass_dsl.parser import _parse_cached

    _parse_cached.cache_clear()
    compile_expression("me.vp + 1", registry)
    compile_expression("me.vp + 1", registry.with_bindings({"x": INT}))
    assert _parse_cached.cache_info().hits == 1


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("first(p in players where p.vp > 5).money", 7),
        ("first(p in players where p.money > 10).money", 12),
        ("first(x in [3, 1, 2])", 3),
        ("first(x in [3, 1, 2] where x < 3)", 1),
        ("first(x in [3, 1, 2] where x > 5 default 0)", 0),
        ("first(x in [5] + [4] where x < 5 default 9)", 4),
        ("first(p in players where p.vp > 100 default me).money", 7),
    ],
)
def test_first_is_the_first_item_that_passes(run, text: str, value: object) -> None:
    assert run(text) == value


def test_first_of_nothing_without_a_default_is_a_located_run_time_error(run) -> None:
    with pytest.raises(DslEvaluationError, match="first\\(\\) found no item"):
        run("first(x in [1, 2] where x > 5)")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("first(x in [1, 2] default true)", "default of first() must be int, got bool"),
        ("first(x in [1, 2] where x)", "condition of 'where' must be bool, got int"),
        ("first(x in 5)", "first() needs a list after 'in', got int"),
        ("first(p in players default 0)", "default of first() must be player, got int"),
    ],
)
def test_first_is_type_checked(fail, text: str, message: str) -> None:
    assert message in str(fail(text))
