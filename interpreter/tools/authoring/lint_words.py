"""W104: a word compared with a field whose values are known, and that is none of them.

`card.kind != "locaton"` type-checks (both sides are text) and is always true: the misspelt word
silently disables the check. The vocabulary declares the words of such fields (`location.kind`,
`industry.flips`, `era.link_kind`, `card.kind`, `location.group`: `Field.words`); every compiled
expression keeps its typed tree, where a comparison of such a field with a text literal is found.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from brass_dsl import typed
from brass_dsl.compiler import CompiledExpression
from brass_dsl.registry import did_you_mean
from brass_dsl.types import STR
from interpreter.ruleset.model import Ruleset
from interpreter.tools.authoring.lint_findings import Finding

__all__ = ["compiled_expressions", "tree_nodes", "word_findings"]

_COMPARISONS = ("==", "!=")
_MEMBERSHIP = ("in", "not in")


T = TypeVar("T")

def word_findings(ruleset: Ruleset) -> Iterator[Finding]:
    for expression in compiled_expressions(ruleset):
        if expression.tree is not None:
            yield from _in_tree(expression, expression.tree)


def compiled_expressions(ruleset: Ruleset) -> Iterator[CompiledExpression]:
    """Every compiled expression of the ruleset's actions, flow and merchants (checks, messages,
    effect arguments, ranking keys), found by walking the model."""
    seen: set[int] = set()
    for part in (ruleset.actions, ruleset.eras, ruleset.round_end, ruleset.game_end, ruleset.merchants):
        yield from found_in(part, CompiledExpression, seen)


def found_in(value: Any, kind: type[T], seen: set[int]) -> Iterator[T]:
    """Every object of `kind` inside a part of the model (dataclasses, mappings, lists), once each."""
    if id(value) in seen or value is None or isinstance(value, (str, int, bool)):
        return
    seen.add(id(value))
    if isinstance(value, kind):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from found_in(getattr(value, field.name), kind, seen)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from found_in(item, kind, seen)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from found_in(item, kind, seen)


def _in_tree(expression: CompiledExpression, node: typed.Typed) -> Iterator[Finding]:
    if isinstance(node, typed.Binary) and node.op in (*_COMPARISONS, *_MEMBERSHIP):
        yield from _compared(expression, node)
    for child in _children(node):
        yield from _in_tree(expression, child)


def tree_nodes(node: typed.Typed) -> Iterator[typed.Typed]:
    """The node and every node below it, parents first."""
    yield node
    for child in _children(node):
        yield from tree_nodes(child)


def _children(node: typed.Typed) -> Iterator[typed.Typed]:
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        if isinstance(value, typed.Typed):
            yield value
        elif isinstance(value, tuple):
            yield from (item for item in value if isinstance(item, typed.Typed))


def _compared(expression: CompiledExpression, node: typed.Binary) -> Iterator[Finding]:
    """`field == "word"`, `"word" != field`, `field in ["a", "b"]`: each word that is not one of
    the field's."""
    pairs = [(node.left, node.right), (node.right, node.left)] if node.op in _COMPARISONS else [(node.left, node.right)]
    for field_side, other in pairs:
        if not (isinstance(field_side, typed.GetField) and field_side.field.words is not None):
            continue
        words = list(field_side.field.words())
        for literal in _literals(other):
            if literal.value not in words:
                yield _unknown_word(expression, field_side, literal, words)


def _literals(node: typed.Typed) -> list[typed.Const]:
    if isinstance(node, typed.Const) and node.type == STR and isinstance(node.value, str):
        return [node]
    if isinstance(node, typed.ListOf):
        return [item for item in node.items if isinstance(item, typed.Const) and item.type == STR]
    return []


def _unknown_word(expression: CompiledExpression, field: typed.GetField, literal: typed.Const,
                  words: list[str]) -> Finding:
    name = f"{field.obj.type}.{field.field.name}"
    known = ", ".join(f"'{w}'" for w in words if w) or "none"
    hint = did_you_mean(str(literal.value), [w for w in words if w])
    pos = expression.origin.locate(literal.node.line, literal.node.column) if expression.origin else None
    return Finding(pos, "W104", f"'{literal.value}' is never a value of {name} ({known}){hint}; "
                                "the comparison always gives the same answer")
