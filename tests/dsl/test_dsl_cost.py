"""The bound on the work of one evaluation (brass_dsl.cost): nested aggregates multiply the lengths of
their lists, which the registry states per item type or per name, field and function."""

from __future__ import annotations

import pytest

from brass_dsl import INT, DslError, ListType, RecordType, Registry, compile_expression
from brass_dsl.cost import MAX_ITEMS
from brass_dsl.registry import DEFAULT_MAX_LENGTH


def world() -> Registry:
    """Towns (at most 1,000), each with a few slots (at most 5; any list of slots: at most 400)."""
    registry = Registry()
    slot = registry.add_type(RecordType("slot"))
    slot.add_field("index", INT, "", of_value=lambda s: s)
    town = registry.add_type(RecordType("town"))
    town.add_field("slots", ListType(slot), "", of_value=lambda t: [], max_length=5)
    registry.add_name("towns", ListType(town), "", "", lambda env: [])
    registry.add_name("slots", ListType(slot), "", "", lambda env: [])
    registry.add_function("near", (), ListType(town), "", "", lambda env: [], max_length=3)
    registry.set_max_length(town, 1000)
    registry.set_max_length(slot, 400)
    return registry


def refused(text: str, registry: Registry | None = None) -> DslError:
    with pytest.raises(DslError) as caught:
        compile_expression(text, registry or world())
    return caught.value


def test_a_list_is_as_long_as_its_type_allows_unless_its_field_or_function_says_less() -> None:
    registry = world()
    compile_expression("count(t in towns where count(s in t.slots where s.index > 0) > 0)", registry)  # 1000 x 5
    compile_expression("count(a in towns where count(b in near() where a == b) > 0)", registry)  # 1000 x 3
    error = refused("count(a in towns where count(s in slots where s.index > 0) > 0)")  # 1000 x 400
    assert error.message.startswith("this expression may go through 401,000 items each time it runs, more than "
                                    "the limit of 100,000 (nested aggregates over towns (up to 1,000) x slots "
                                    "(up to 400))")
    assert (error.line, error.column) == (1, 1)


def test_literals_joins_and_branches_have_their_own_lengths() -> None:
    registry = world()
    compile_expression("count(a in towns where count(i in [1, 2, 3] + [4] where i > 0) > 0)", registry)
    error = refused("count(a in towns where count(s in slots + slots where s.index > 0) > 0)")
    assert "slots + slots (up to 800)" in error.message
    error = refused("count(a in towns where count(s in (if true then slots else []) where s.index > 0) > 0)")
    assert "(up to 400)" in error.message


def test_siblings_add_up_and_the_error_points_at_the_worst_nest() -> None:
    one = "count(a in towns where count(s in slots where s.index > 0) > 0)"  # 401,000 alone
    error = refused(f"count(t in near()) + {one}")
    assert error.column == len("count(t in near()) + ") + 1
    small = "count(a in towns where count(b in near() where a == b) > 0)"  # 4,000 each
    count = MAX_ITEMS // 4000 + 1
    error = refused(" + ".join([small] * count) + " > 0")
    assert f"go through {4000 * count:,} items" in error.message


def test_an_unstated_type_is_as_long_as_the_longest_stated_one() -> None:
    registry = world()
    registry.add_name("numbers", ListType(INT), "", "", lambda env: [])
    error = refused("count(a in numbers where count(b in numbers where a == b) > 0)", registry)
    assert "numbers (up to 1,000) x numbers (up to 1,000)" in error.message
    bare = Registry()
    bare.add_name("numbers", ListType(INT), "", "", lambda env: [])
    compile_expression("count(a in numbers where count(b in numbers where a == b) > 0)", bare)  # 100 x 100
    assert bare.max_length(INT) == DEFAULT_MAX_LENGTH


def test_a_long_source_is_shortened_in_the_message() -> None:
    error = refused("count(a in towns where count(s in slots + slots + slots + slots + slots + slots where true) > 0)")
    assert "x slots + slots + slots + slots + slots +… (up to 2,400))" in error.message
