"""A bound on the work of one evaluation, checked with the types.

The only loops of the language are the aggregates, and each goes once through a finite
list; but aggregates nested in each other multiply: `count(a in slots where any(b in slots
where …))` goes through slots times slots items, and six such levels over Birmingham's 49 slots
would take days. So the checker estimates how many items the aggregates of an expression go
through, at most, in one evaluation, and refuses an expression whose estimate exceeds
`MAX_ITEMS`: every expression then finishes in a fraction of a second.

The estimate is an upper bound computed from the lengths the registry states: a list's
length is what its name, field or function states (`location.slots`: the most slots of any
location), else the most items of any list of its item type (`Registry.max_length`); a list
literal has its items, `a + b` both lengths, `if` the longer branch. An aggregate costs its
list's length times the items its element and `where` go through for each item; siblings
add up. Only items are counted: each costs a bounded amount of work, since an expression
has at most `parser.MAX_LENGTH` characters.
"""

from __future__ import annotations

from dataclasses import dataclass

from brass_dsl import typed
from brass_dsl.errors import DslError
from brass_dsl.registry import Registry
from brass_dsl.source import ExpressionOrigin
from brass_dsl.types import ListType

# 100,000 items take about 40 ms with a simple condition per item: 150 times what any
# expression we know of needs (Birmingham's and its scenarios' go through at most 652), and
# it refuses three nested aggregates over Birmingham's 49 slots (117,649 items).
MAX_ITEMS = 100_000
_SHOWN_SOURCE = 40  # characters of a list's expression shown in the message


@dataclass(frozen=True)
class _Loop:
    """One aggregate of a nest: its node, the text of its list and the list's length."""

    aggregate: typed.Aggregate
    source: str
    length: int


def check_cost(tree: typed.Typed, registry: Registry, text: str, origin: ExpressionOrigin | None) -> None:
    """Raise DslError if the aggregates of `tree` may go through more than MAX_ITEMS items."""
    estimate = _Estimate(registry, text)
    total = estimate.items(tree, 1, ())
    if total <= MAX_ITEMS:
        return
    nest = estimate.worst
    node = nest[0].aggregate.node if nest else tree.node
    raise DslError(_message(total, nest), text, node.line, node.column, origin)


def _message(total: int, nest: tuple[_Loop, ...]) -> str:
    lists = " x ".join(f"{loop.source} (up to {loop.length:,})" for loop in nest)
    return (f"this expression may go through {total:,} items each time it runs, more than the limit of "
            f"{MAX_ITEMS:,} (nested aggregates over {lists}); nest fewer aggregates, go through shorter lists "
            "(a field or function of the outer item rather than a whole collection), or split it into "
            "several expressions")


class _Estimate:
    """Walks a typed tree, adding up the items its aggregates go through."""

    def __init__(self, registry: Registry, text: str) -> None:
        self.registry = registry
        self.lines = text.splitlines() or [""]
        self.worst: tuple[_Loop, ...] = ()
        self.worst_items = 0

    def items(self, t: typed.Typed, outer: int, nest: tuple[_Loop, ...]) -> int:
        """Items gone through by `t` when it is evaluated `outer` times, inside `nest`."""
        if isinstance(t, typed.Aggregate):
            return self.aggregate(t, outer, nest)
        return sum(self.items(child, outer, nest) for child in _children(t))

    def aggregate(self, t: typed.Aggregate, outer: int, nest: tuple[_Loop, ...]) -> int:
        length = self.length(t.source)
        inner = outer * length
        here = (*nest, _Loop(t, self.source_text(t.source), length))
        if inner > self.worst_items:
            self.worst, self.worst_items = here, inner
        total = inner + self.items(t.source, outer, nest)
        for part in (t.element, t.where):
            if part is not None:
                total += self.items(part, inner, here)
        if t.default is not None:
            total += self.items(t.default, outer, nest)
        return total

    def length(self, t: typed.Typed) -> int:
        """The most items the list `t` can hold."""
        if isinstance(t, typed.ListOf):
            return len(t.items)
        if isinstance(t, typed.Binary) and t.op == "+":
            return self.length(t.left) + self.length(t.right)
        if isinstance(t, typed.Conditional):
            return max(self.length(t.then_value), self.length(t.else_value))
        stated = _stated_length(t)
        if stated is not None:
            return stated
        item = t.type.element if isinstance(t.type, ListType) else t.type
        return self.registry.max_length(item)

    def source_text(self, t: typed.Typed) -> str:
        """The expression of a list as written (shortened), for the message."""
        node = t.node
        if node.line == node.end_line:
            shown = self.lines[node.line - 1][node.column - 1 : node.end_column - 1]
        else:
            first = self.lines[node.line - 1][node.column - 1 :]
            shown = " ".join([first, *self.lines[node.line : node.end_line - 1],
                              self.lines[node.end_line - 1][: node.end_column - 1]])
        shown = " ".join(shown.split())
        return shown if len(shown) <= _SHOWN_SOURCE else shown[: _SHOWN_SOURCE - 1] + "…"


def _stated_length(t: typed.Typed) -> int | None:
    """The length a name, field or function states for the list it gives, if any."""
    if isinstance(t, typed.Global):
        return t.entry.max_length
    if isinstance(t, typed.GetField):
        return t.field.max_length
    if isinstance(t, typed.CallFunction):
        return t.entry.max_length
    return None


def _children(t: typed.Typed) -> tuple[typed.Typed, ...]:
    if isinstance(t, typed.ListOf):
        return t.items
    if isinstance(t, typed.GetField):
        return (t.obj,)
    if isinstance(t, (typed.CallFunction, typed.Extremum)):
        return t.args
    if isinstance(t, typed.Unary):
        return (t.operand,)
    if isinstance(t, typed.Binary):
        return (t.left, t.right)
    if isinstance(t, typed.Conditional):
        return (t.condition, t.then_value, t.else_value)
    return ()
