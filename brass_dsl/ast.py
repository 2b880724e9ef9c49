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

import functools
from dataclasses import dataclass, field, fields
from typing import Any


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


# ---------------------------------------------------------------- as JSON data
#
# A ruleset's parsed trees are cached between processes as JSON (`interpreter.ruleset.ruleset_cache`):
# a node is a list [class name, line, column, end_line, end_column, depth, field…], a tuple of
# nodes is ["()", node…]. `from_data` checks every class name, arity and field type, and raises
# ValueError on anything else, so a damaged file cannot build a tree the checker would trip on.

_TUPLE = "()"


def to_data(node: Node) -> list[Any]:
    """`node` as JSON data (lists, strings, numbers, booleans, null)."""
    name = type(node).__name__
    return [name, node.line, node.column, node.end_line, node.end_column, node.depth,
            *(_value_data(getattr(node, field)) for field in _fields()[name])]


def _value_data(value: Any) -> Any:
    if isinstance(value, Node):
        return to_data(value)
    if isinstance(value, tuple):
        return [_TUPLE, *(to_data(item) for item in value)]
    return value


def from_data(data: Any) -> Node:
    """The node `to_data` gave `data` for; ValueError if `data` is not such a node."""
    try:
        name, line, column, end_line, end_column, depth, *values = data
        cls, kinds = _classes()[name]
    except (TypeError, ValueError, KeyError):
        raise ValueError("not a syntax tree node") from None
    if len(values) != len(kinds) or not (type(line) is type(column) is type(end_line) is type(end_column)
                                         is type(depth) is int):
        raise ValueError(f"not a syntax tree node: {name!r}")
    args = [_value(kind, item) for kind, item in zip(kinds, values, strict=True)]
    node: Node = cls(*args, line=line, column=column, end_line=end_line, end_column=end_column, depth=depth)
    return node


def _value(kind: str, item: Any) -> Any:
    if kind == "Node":
        return from_data(item)
    if kind == "Node | None":
        return None if item is None else from_data(item)
    if kind == "tuple[Node, ...]":
        if not isinstance(item, list) or not item or item[0] != _TUPLE:
            raise ValueError("not a tuple of syntax tree nodes")
        return tuple([from_data(each) for each in item[1:]])
    if type(item).__name__ != kind:  # int, str, bool: exactly (a boolean is no int here)
        raise ValueError(f"a syntax tree field must be {kind}, not {type(item).__name__}")
    return item


@functools.cache
def _fields() -> dict[str, tuple[str, ...]]:
    """The names of each node class's own fields, in order."""
    shared = {f.name for f in fields(Node)}
    return {name: tuple(f.name for f in fields(cls) if f.name not in shared) for name, (cls, _) in _classes().items()}


@functools.cache
def _classes() -> dict[str, tuple[type[Node], tuple[str, ...]]]:
    """Each node class by name, with the kinds of its own fields (their annotations) in order."""
    shared = {f.name for f in fields(Node)}
    found: dict[str, tuple[type[Node], tuple[str, ...]]] = {}
    for cls in (IntLit, StrLit, BoolLit, ListLit, Name, Attribute, Call, Unary, Binary, Conditional, Aggregate,
                Extremum):
        kinds = tuple(str(f.type) for f in fields(cls) if f.name not in shared)
        assert all(kind in ("Node", "Node | None", "tuple[Node, ...]", "int", "str", "bool") for kind in kinds), kinds
        found[cls.__name__] = (cls, kinds)
    return found
