"""Registering types, names and functions, and the documentation generated from them."""

from __future__ import annotations

import pytest

from brass_dsl import INT, DslError, ListType, Param, RecordType, Registry
from brass_dsl.docgen import grammar_markdown, reference_markdown
from brass_dsl.parser import grammar_text
from brass_dsl.registry import did_you_mean


def _noop(env, *args):
    return 0


def test_duplicates_are_rejected() -> None:
    registry = Registry()
    registry.add_name("x", INT, "", "", _noop)
    with pytest.raises(ValueError, match="'x' is already defined"):
        registry.add_name("x", INT, "", "", _noop)
    with pytest.raises(ValueError, match="'x' is already defined"):
        registry.add_function("x", [], INT, "", "", _noop)
    registry.add_type(RecordType("thing"))
    with pytest.raises(ValueError, match="type 'thing' is already defined"):
        registry.add_type(RecordType("thing"))
    with pytest.raises(ValueError, match="type 'int' is already defined"):
        registry.add_type(RecordType("int"))


@pytest.mark.parametrize("name", ["count", "in", "2x", "a-b", ""])
def test_unwritable_names_are_rejected(name: str) -> None:
    with pytest.raises(ValueError):
        Registry().add_name(name, INT, "", "", _noop)
    with pytest.raises(ValueError):
        RecordType("t").add_field(name, INT, "", _noop)


def test_duplicate_field_is_rejected() -> None:
    t = RecordType("t")
    t.add_field("a", INT, "", _noop)
    with pytest.raises(ValueError, match="type t already has a field 'a'"):
        t.add_field("a", INT, "", _noop)


def test_a_field_reads_the_object_alone_or_with_the_environment() -> None:
    t = RecordType("t")
    t.add_field("a", INT, "", of_value=lambda obj: obj * 2)
    assert t.fields["a"].get(None, 21) == 42 and t.fields["a"].of_value(21) == 42
    with pytest.raises(ValueError, match="exactly one of get and of_value"):
        t.add_field("b", INT, "")
    with pytest.raises(ValueError, match="exactly one of get and of_value"):
        t.add_field("c", INT, "", _noop, of_value=lambda obj: obj)


def test_bindings_cannot_shadow(registry) -> None:
    with pytest.raises(ValueError, match="'me' is already defined"):
        registry.with_bindings({"me": INT})
    with pytest.raises(ValueError, match="'distance' is already defined"):
        registry.with_bindings({"distance": INT})


def test_lookup_searches_parents(registry) -> None:
    child = registry.with_bindings({"amount": INT})
    assert child.lookup_name("amount").type == INT
    assert child.lookup_name("me") is registry.lookup_name("me")
    assert child.lookup_function("distance") is registry.lookup_function("distance")
    assert child.lookup_type("player") is registry.lookup_type("player")
    assert registry.lookup_name("amount") is None
    assert [e.name for e in child.names()] == ["amount", "here", "locations", "me", "players"]
    assert [f.name for f in child.functions()] == ["distance", "income_level", "player"]
    assert [t.name for t in child.types()] == ["location", "player"]


def test_types_print_as_in_messages(registry) -> None:
    player = registry.lookup_type("player")
    assert str(INT) == "int"
    assert str(ListType(ListType(player))) == "list[list[player]]"
    assert ListType(player) == ListType(player)
    assert RecordType("player") != player


def test_signature_and_decorator(registry) -> None:
    assert registry.lookup_function("distance").signature == "distance(a: location, b: location) -> int"
    r = Registry()

    @r.function("double", [Param("n", INT)], INT, doc="Twice n.")
    def double(env, n: int) -> int:
        return 2 * n

    assert r.lookup_function("double").impl is double
    assert r.lookup_function("double").example == ""


def test_did_you_mean() -> None:
    assert did_you_mean("incme", ["income", "outcome"]) == "; did you mean 'income'?"
    assert did_you_mean("zzz", ["income"]) == ""


def test_reference_markdown(registry) -> None:
    text = reference_markdown(registry)
    assert (
        "### `income_level(p: player) -> int`\n\nIncome level of a player.\n\nExample: `income_level(me) > 3`" in text
    )
    assert "### `me`: `player`\n\nThe current player.\n\nExample: `me.money >= 5`" in text
    assert "| `money` | `int` | Coins in hand. |" in text
    assert 'Written as a string literal: `"birmingham"`, `"derby"`, `"leek"`.' in text
    assert text.index("### `here`") < text.index("### `locations`") < text.index("### `me`")
    assert text.index("## Types") < text.index("## Names") < text.index("## Functions")


def test_every_documented_example_compiles(registry) -> None:
    from brass_dsl import compile_expression

    examples = [e.example for e in [*registry.names(), *registry.functions()] if e.example]
    assert len(examples) == 6
    for example in examples:
        compile_expression(example, registry)


def test_grammar_markdown() -> None:
    assert grammar_markdown() == f"# Condition language grammar\n\n```lark\n{grammar_text().rstrip()}\n```\n"


def test_small_registry_end_to_end() -> None:
    """Ids without from_literal stay strings; a function may take no arguments."""
    from brass_dsl import BOOL, Env, compile_expression

    registry = Registry()
    colour = registry.add_type(RecordType("colour", ids=lambda: [f"c{i}" for i in range(70)]))
    registry.add_name("paint", colour, "", "", lambda env: env.context)
    registry.add_function("zero", [], INT, "", "", lambda env: 0)
    assert compile_expression('paint == "c7" and zero() == 0', registry, expect=BOOL)(Env("c7")) is True
    with pytest.raises(DslError) as info:
        compile_expression("zero(1)", registry)
    assert info.value.message == "zero() takes no arguments, 1 given"
    assert "Written as a string literal: one of 70 names." in reference_markdown(registry)
    assert repr(compile_expression("zero()", registry)) == "CompiledExpression('zero()': int)"


def test_a_hidden_name_is_refused_with_its_reason(registry) -> None:
    from brass_dsl import DslError, compile_expression

    outside = registry.without({"me": "no player is acting here"})
    assert outside.lookup_name("me") is None and registry.lookup_name("me") is not None
    assert "me" not in [e.name for e in outside.names()]
    with pytest.raises(DslError, match="'me' is not available here: no player is acting here"):
        compile_expression("me.money > 1", outside)
    bound = outside.with_bindings({"p": registry.lookup_type("player")})
    assert compile_expression("p.money > 1", bound).names_used == {"p"}
    with pytest.raises(DslError, match="'me' is not available here"):
        compile_expression("me.money > p.money", bound)
