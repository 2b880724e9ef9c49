"""Syntax tree of the condition language.

Nodes are frozen so that a parsed tree can be cached and shared between
compilations. Every node records where it was written inside the expression text
(1-based `line`/`column`, and `end_line`/`end_column` just past its last
character) so that the checker and the running code can point at it, and its
`depth` (1 for a leaf) so that the parser can refuse trees too deep to walk.
Operators also record the position of the operator itself, which is where an
error about the operation is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, kw_only=True)
class Node:
    """Position and depth shared by all nodes."""

    line: int
    column: int
    end_line: int
    end_column: int
    depth: int = field(default=1, compare=False)


@dataclass(frozen=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True)
class StrLit(Node):
    value: str


@dataclass(frozen=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attribute(Node):
    """`obj.field`; `field_line`/`field_column` locate the field name."""

    obj: Node
    field: str
    field_line: int
    field_column: int


@dataclass(frozen=True)
class Call(Node):
    function: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    """`-x` or `not x`."""

    op: str
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    """Arithmetic, comparison, membership (`in`, `not in`), `and` and `or`."""

    op: str
    left: Node
    right: Node
    op_line: int
    op_column: int


@dataclass(frozen=True)
class Conditional(Node):
    """`if condition then then_value else else_value`."""

    condition: Node
    then_value: Node
    else_value: Node


@dataclass(frozen=True)
class Aggregate(Node):
    """`count`, `any`, `all`, `sum`, `min`, `max` or `first` over `var in source`.

    `element` is the summed or compared value (None for count/any/all/first), `where`
    the optional filter, `default` the value of min/max/first over nothing.
    """

    kind: str
    var: str
    var_line: int
    var_column: int
    source: Node
    element: Node | None
    where: Node | None
    default: Node | None


@dataclass(frozen=True)
class Extremum(Node):
    """`min(a, b, ...)` or `max(a, b, ...)` of plain values."""

    kind: str
    args: tuple[Node, ...]
