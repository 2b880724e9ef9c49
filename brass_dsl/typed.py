"""The checked expression: what the checker hands to the compiler.

Every name here is already resolved (a registry entry, a record field, a loop
variable) and every node carries its type, so the compiler needs neither the
registry nor any type rule: it only chooses a closure per node. Each node keeps
the syntax node it came from, to locate run-time errors.
"""

from __future__ import annotations

from dataclasses import dataclass

from brass_dsl import ast
from brass_dsl.registry import FunctionEntry, NameEntry
from brass_dsl.types import DslType, Field


@dataclass(frozen=True)
class Typed:
    type: DslType
    node: ast.Node


@dataclass(frozen=True)
class Const(Typed):
    """A literal, already converted to its run-time value."""

    value: object


@dataclass(frozen=True)
class ListOf(Typed):
    items: tuple[Typed, ...]


@dataclass(frozen=True)
class Global(Typed):
    """A registered name or a binding, read with `entry.get(env)`."""

    entry: NameEntry


@dataclass(frozen=True)
class LoopVar(Typed):
    name: str


@dataclass(frozen=True)
class GetField(Typed):
    obj: Typed
    field: Field


@dataclass(frozen=True)
class CallFunction(Typed):
    entry: FunctionEntry
    args: tuple[Typed, ...]


@dataclass(frozen=True)
class Unary(Typed):
    """`-` on int or `not` on bool."""

    op: str
    operand: Typed


@dataclass(frozen=True)
class Binary(Typed):
    """Arithmetic, comparison, membership, `and`, `or`; operands already type-correct."""

    node: ast.Binary
    op: str
    left: Typed
    right: Typed


@dataclass(frozen=True)
class Conditional(Typed):
    condition: Typed
    then_value: Typed
    else_value: Typed


@dataclass(frozen=True)
class Aggregate(Typed):
    """count/any/all/sum/min/max/first over `source`, binding `var` for `element` and `where`."""

    kind: str
    var: str
    source: Typed
    element: Typed | None
    where: Typed | None
    default: Typed | None


@dataclass(frozen=True)
class Extremum(Typed):
    kind: str
    args: tuple[Typed, ...]
