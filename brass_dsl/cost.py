"""A bound on the work of one evaluation, checked with the types.

The only loops of the language are the aggregates, and each goes once through a finite
list; but aggregates nested in each other multiply, and a call inside them multiplies the
work it does itself: `sum(sum(source_cost(me, "coal", 9, [a.location, b.location]) for b in
slots) for a in slots)` calls a function that goes through the board's tiles and network
49 x 49 times. So the checker estimates, from the sizes the registry states, the most work
one evaluation of an expression can do, in units, and refuses an expression whose estimate
exceeds `MAX_COST`: every expression then takes at most a few milliseconds
(docs/condition-language.md, "Safety").

The estimate (`estimate_cost`) adds up, for every part of the expression, the units one
evaluation of it costs times the most times it can be evaluated:

* a literal, a name, a loop variable, a field, an operator, `if`, a call: 1 unit; a name or
  a function whose own work grows with the board costs what the registry states for it
  (`Cost`: units, plus units per item of its list arguments: `connected` is one search of
  the network, `can_source` a pass over the tiles for each location given);
* `in` and `not in` also cost the length of their list, `==` and `!=` of two lists and `+`
  joining two lists the lengths of their lists;
* `if` costs its condition and the costlier branch (only one runs); `and` and `or` both sides;
* an aggregate over a list of length L costs L units (one a step) and runs its element and
  its `where` L times for each of its own evaluations: nested aggregates multiply.

A list's length is what its name, field or function states (`location.slots`: the most
slots of any location), else the most items of any list of its item type
(`Registry.max_length`); a list literal has its items, `a + b` both lengths, `if` the
longer branch.
"""

from __future__ import annotations

from dataclasses import dataclass

from brass_dsl import typed
from brass_dsl.errors import DslError
from brass_dsl.registry import Registry
from brass_dsl.source import ExpressionOrigin
from brass_dsl.types import ListType

# The limit, in units. A unit is about 0.1 µs of evaluation (0.04-0.1 µs measured by
# bench/bench_cost.py on the 2-core development machine), so the limit is about 2.5 ms. The
# costliest expression shipped is estimated at 2,631 units (a scenario's card count; of the
# rulesets' own, 2,606: Lancashire's Distant Market connection), so the limit leaves 9.5 times
# that; tests/test_expression_cost.py keeps it at least 8 times.
MAX_COST = 25_000
_SHOWN_SOURCE = 60  # characters of a part of the expression shown in the message
_LIST_OPS = frozenset(("==", "!=", "+"))


@dataclass(frozen=True)
class Loop:
    """One aggregate of a nest: the text of its list and the list's length."""

    source: str
    length: int


@dataclass(frozen=True)
class Part:
    """A part of an expression: `each` units for one evaluation of it (its own parts included),
    evaluated at most `times` times in one evaluation of the whole, inside the aggregates `nest`."""

    tree: typed.Typed
    each: int
    times: int
    nest: tuple[Loop, ...]
    parts: tuple[Part, ...]

    @property
    def work(self) -> int:
        return self.each * self.times


@dataclass(frozen=True)
class CostEstimate:
    """The most work of one evaluation of an expression: `total` units, over its parts."""

    whole: Part

    @property
    def total(self) -> int:
        return self.whole.work

    def costliest(self) -> Part:
        """The smallest part that does more than half of the work (the whole if none does)."""
        part = self.whole
        while part.parts:
            top = max(part.parts, key=lambda p: p.work)
            if 2 * top.work <= self.total:
                break
            part = top
        return part


def check_cost(tree: typed.Typed, registry: Registry, text: str, origin: ExpressionOrigin | None) -> int:
    """The estimated work of one evaluation of `tree`; raise DslError if it exceeds MAX_COST."""
    walker = _Estimate(registry, text)
    estimate = CostEstimate(walker.part(tree, 1, ()))
    if estimate.total <= MAX_COST:
        return estimate.total
    part = estimate.costliest()
    node = part.tree.node
    raise DslError(_message(estimate.total, part, walker), text, node.line, node.column, origin)


def estimate_cost(tree: typed.Typed, registry: Registry, text: str = "") -> CostEstimate:
    """The most units of work one evaluation of `tree` can do (`text`: its source, for the names of
    the lists in the nests)."""
    return CostEstimate(_Estimate(registry, text).part(tree, 1, ()))


def _message(total: int, part: Part, texts: _Estimate) -> str:
    share = 100 * part.work // total
    runs = f" run up to {part.times:,} times" if part.times > 1 else ""
    lists = " x ".join(f"{loop.source} (up to {loop.length:,})" for loop in part.nest)
    nest = f" (nested aggregates over {lists})" if lists else ""
    return (f"this expression may cost {total:,} units of work each time it runs, more than the limit of "
            f"{MAX_COST:,}; {share}% of it is `{texts.source_text(part.tree)}`, up to {part.each:,} units{runs}"
            f"{nest}; nest fewer aggregates, go through shorter lists (a field or function of the outer item "
            "rather than a whole collection), call costly functions outside aggregates, or split it into "
            "several expressions")


class _Estimate:
    """Walks a typed tree, adding up the work of its parts."""

    def __init__(self, registry: Registry, text: str) -> None:
        self.registry = registry
        self.lines = text.splitlines() or [""]

    def part(self, t: typed.Typed, times: int, nest: tuple[Loop, ...]) -> Part:
        """`t` evaluated at most `times` times, inside `nest`."""
        if isinstance(t, typed.Aggregate):
            return self.aggregate(t, times, nest)
        parts = tuple(self.part(child, times, nest) for child in _children(t))
        if isinstance(t, typed.Conditional):
            condition, *branches = parts
            each = 1 + condition.each + max(branch.each for branch in branches)
        else:
            each = self.own(t) + sum(p.each for p in parts)
        return Part(t, each, times, nest, parts)

    def aggregate(self, t: typed.Aggregate, times: int, nest: tuple[Loop, ...]) -> Part:
        length = self.length(t.source)
        inner = (*nest, Loop(self.source_text(t.source), length))
        source = self.part(t.source, times, nest)
        per_item = [self.part(p, times * length, inner) for p in (t.element, t.where) if p is not None]
        default = [self.part(t.default, times, nest)] if t.default is not None else []
        each = 1 + length + source.each + length * sum(p.each for p in per_item) + sum(p.each for p in default)
        return Part(t, each, times, nest, (source, *per_item, *default))

    def own(self, t: typed.Typed) -> int:
        """The units of `t` itself, its parts not included."""
        if isinstance(t, typed.CallFunction):
            cost = t.entry.cost
            items = sum(self.length(arg) for arg in t.args if isinstance(arg.type, ListType))
            return cost.units + cost.per_item * items
        if isinstance(t, typed.Global):
            return t.entry.cost.units
        if isinstance(t, typed.Binary) and t.op in ("in", "not in"):
            return 1 + self.length(t.right)
        if isinstance(t, typed.Binary) and t.op in _LIST_OPS and isinstance(t.left.type, ListType):
            return 1 + self.length(t.left) + self.length(t.right)
        return 1

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
        """The expression of a part as written (shortened), for the message."""
        node = t.node
        if node.line > len(self.lines):
            return ""
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
