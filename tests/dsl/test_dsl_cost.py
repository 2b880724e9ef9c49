"""The bound on the work of one evaluation (brass_dsl.cost): every part of an expression costs units, an
aggregate runs its element and its condition once per item of its list (so nested aggregates multiply the
lengths of their lists, which the registry states per item type or per name, field and function), and a
name or function may state a cost of its own. The exact figures pin the model."""

from __future__ import annotations

import pytest

from brass_dsl import INT, DslError, ListType, Param, RecordType, Registry, compile_expression
from brass_dsl.checker import check
from brass_dsl.cost import MAX_COST, estimate_cost
from brass_dsl.parser import parse
from brass_dsl.registry import DEFAULT_MAX_LENGTH, Cost


def world() -> Registry:
    """Towns (at most 100), each with a few slots (at most 5; any list of slots: at most 400); `near()`
    gives at most 3 towns; `route(a, b)` costs 50 units, `reach(towns)` 10 plus 70 for each town given."""
    registry = Registry()
    slot = registry.add_type(RecordType("slot"))
    slot.add_field("index", INT, "", of_value=lambda s: s)
    town = registry.add_type(RecordType("town"))
    town.add_field("slots", ListType(slot), "", of_value=lambda t: [], max_length=5)
    registry.add_name("towns", ListType(town), "", "", lambda env: [])
    registry.add_name("slots", ListType(slot), "", "", lambda env: [])
    registry.add_function("near", (), ListType(town), "", "", lambda env: [], max_length=3)
    registry.add_function("route", (Param("a", town), Param("b", town)), INT, "", "", lambda env, a, b: 0,
                          cost=Cost(50))
    registry.add_function("reach", (Param("at", ListType(town)),), INT, "", "", lambda env, at: 0,
                          cost=Cost(10, 70))
    registry.set_max_length(town, 100)
    registry.set_max_length(slot, 400)
    return registry


def cost(text: str, registry: Registry | None = None) -> int:
    """The estimate, computed without the limit (the checker would refuse a text over it)."""
    registry = registry or world()
    from brass_dsl import checker

    original, checker.check_cost = checker.check_cost, lambda *_: 0
    try:
        tree = check(parse(text), registry, text).tree
    finally:
        checker.check_cost = original
    return estimate_cost(tree, registry, text).total


def refused(text: str, registry: Registry | None = None) -> DslError:
    with pytest.raises(DslError) as caught:
        compile_expression(text, registry or world())
    return caught.value


@pytest.mark.parametrize("text, units", [
    ("1", 1),                                           # a literal, a name, a loop variable: 1 unit
    ("1 + 2 * 3", 5),                                   # an operator: 1, and its operands
    ("count(s in slots)", 402),                         # 1, the list (1), and 1 a step over 400 slots
    ("count(s in slots where s.index > 0)", 2_002),     # ... and the condition (4 units) for each of the 400
    ("sum(s.index for s in slots)", 1_202),             # the element likewise
    ("max(s.index for s in slots default 7)", 1_203),   # the default once
    ("count(t in towns where count(s in t.slots where s.index > 0) > 0)", 3_102),  # 100 x (1 + 5 + 2 + 5 x 4 + 2)
    ("count(t in towns where t in near())", 702),       # `in`: 1 and the length of the list (3)
    ("[1, 2] + [3] == [1, 2, 3]", 20),                  # `+` and `==` of lists: 1 and their lengths (4 + 7)
    ("if 1 > 0 then count(s in slots) else 0", 406),    # the condition and the costlier branch
    ("1 > 0 and count(s in slots) > 0", 408),           # `and`, `or`: both sides
    ("count(t in towns where count(n in near() where route(t, n) > 0) > 0)", 17_002),  # 300 calls of 52 units
    ("reach(near())", 221),                             # 10, 70 for each of the 3 towns near() may give, near() 1
    ("reach([first(t in towns), first(t in towns)])", 355),  # 10 + 2 x 70, and the list: 1 + 2 x 102
])
def test_exact_costs_pin_the_model(text: str, units: int) -> None:
    assert cost(text) == units


def test_an_expression_over_the_limit_is_refused_at_its_costliest_part() -> None:
    text = "count(a in towns where count(s in slots where s.index > 0) > 0)"
    assert cost(text) == 200_502 > MAX_COST
    error = refused(text)
    assert error.message.startswith(
        "this expression may cost 200,502 units of work each time it runs, more than the limit of 25,000; 79% of "
        "it is `s.index > 0`, up to 4 units run up to 40,000 times (nested aggregates over towns (up to 100) x "
        "slots (up to 400)); nest fewer aggregates, go through shorter lists")
    assert (error.line, error.column) == (1, 47)


def test_a_costly_call_is_named_with_its_cost_and_its_runs() -> None:
    text = "count(a in towns where count(b in towns where route(a, b) > 0) > 0)"
    error = refused(text)
    assert "; 94% of it is `route(a, b)`, up to 52 units run up to 10,000 times (nested aggregates over towns " \
           "(up to 100) x towns (up to 100))" in error.message
    assert (error.line, error.column) == (1, 47)
    error = refused("reach(towns + towns + towns + towns)")  # 400 towns at 70 units each, and no aggregate
    assert "may cost 28,917 units of work each time it runs, more than the limit of 25,000; 100% of it is " \
           "`reach(towns + towns + towns + towns)`, up to 28,917 units; nest fewer" in error.message


def test_siblings_add_up() -> None:
    one = "count(t in towns where count(s in t.slots where s.index > 0) > 0)"  # 3,102 units
    assert cost(" + ".join([one] * 8) + " > 0") == 8 * 3_102 + 7 + 2
    error = refused(" + ".join([one] * 9) + " > 0")
    assert "may cost 27,928 units" in error.message


def test_a_list_is_as_long_as_its_type_allows_unless_its_field_or_function_says_less() -> None:
    assert cost("count(a in towns where count(b in near() where a == b) > 0)") == 100 * (1 + 3 + 1 + 3 * 3 + 2) + 102
    assert cost("count(a in towns where count(b in towns where a == b) > 0)") == 100 * (1 + 100 + 1 + 100 * 3 + 2) + 102


def test_literals_joins_and_branches_have_their_own_lengths() -> None:
    assert cost("count(i in [1, 2, 3] + [4])") == 1 + 4 + (1 + 3 + 1) + 4 + 2
    assert cost("count(s in slots + slots)") == 1 + 800 + (1 + 400 + 400) + 2
    assert cost("count(s in (if 1 > 0 then slots else []))") == 1 + 400 + (1 + 3 + 1)


def test_an_unstated_type_is_as_long_as_the_longest_stated_one() -> None:
    registry = world()
    registry.add_name("numbers", ListType(INT), "", "", lambda env: [])
    assert cost("count(a in numbers)", registry) == 1 + 400 + 1
    bare = Registry()
    bare.add_name("numbers", ListType(INT), "", "", lambda env: [])
    assert cost("count(a in numbers)", bare) == 1 + DEFAULT_MAX_LENGTH + 1
    assert bare.max_length(INT) == DEFAULT_MAX_LENGTH == 100


def test_a_name_may_state_its_cost_and_a_cost_is_checked() -> None:
    registry = world()
    registry.set_cost("towns", Cost(30))
    assert cost("count(t in towns)", registry) == 1 + 100 + 30
    with pytest.raises(ValueError, match="not a name or function of this registry"):
        registry.set_cost("nowhere", Cost(2))
    with pytest.raises(ValueError, match="a cost is at least 1 unit"):
        Cost(0)
    assert str(Cost(148, 115)) == "148 units, plus 115 for each item of its list argument"


def test_a_long_part_is_shortened_in_the_message() -> None:
    error = refused("count(a in towns where count(s in slots + slots + slots + slots + slots + slots + slots + slots "
                    "+ slots where true) > 0)")
    # joining lists costs their lengths: the first eight slots joined, 1 + 7 x 2 + 400 x (2 + 3 + … + 8) units
    assert "; 56% of it is `slots + slots + slots + slots + slots + slots + slots + slo…`, up to 14,015 units run up " \
           "to 100 times (nested aggregates over towns (up to 100));" in error.message
