"""Name resolution and type checking: syntax tree + registry -> typed tree.

Rule authors get every independent problem of an expression at once, so the
checker does not stop at the first error: it records it, gives the failed
sub-expression no type (None), and carries on with the siblings. A parent whose
child failed reports nothing more about itself, which keeps one mistake from
producing a cascade of messages.

String literals have no fixed type: next to a value of a record type that has
`ids` (`industry == "coal"`, `t.industry in ["cotton", "pottery"]`, an argument of
such a type) a literal names one of its values and is checked against the ids.
To make that possible, the operand that is a literal is checked second, with the
other operand's type as its hint; `[]` likewise gets its element type from the
context.

A well-typed expression must also be cheap enough to run: `cost.check_cost` bounds the
work one evaluation may do (its nested aggregates, the calls inside them).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from brass_dsl import ast, typed
from brass_dsl.cost import check_cost
from brass_dsl.errors import DslError, raise_all
from brass_dsl.presence import PRESENT, guarded_children
from brass_dsl.registry import FunctionEntry, Param, Registry, did_you_mean
from brass_dsl.runtime import ABSENT
from brass_dsl.source import ExpressionOrigin
from brass_dsl.types import BOOL, INT, STR, DslType, ListType, RecordType

Scope = Mapping[str, DslType]  # loop variables visible at a point of the expression
Hint = DslType | None

ARITHMETIC_OPS = frozenset("+ - * / %".split())
ORDERING_OPS = frozenset("< <= > >=".split())
MEMBERSHIP_OPS = frozenset(("in", "not in"))
LOGICAL_OPS = frozenset(("and", "or"))
QUANTIFIERS = frozenset(("any", "all"))
MAX_LISTED_IDS = 12  # an unknown id with no close match lists the valid ones up to this many


@dataclass(frozen=True)
class Checked:
    """A well-typed expression and the registry entries it refers to."""

    tree: typed.Typed
    names_used: frozenset[str]
    functions_used: frozenset[str]


def check(
    tree: ast.Node,
    registry: Registry,
    text: str,
    *,
    expect: DslType | None = None,
    origin: ExpressionOrigin | None = None,
    assume: frozenset[str] = frozenset(),
) -> Checked:
    """Resolve and type `tree`; raise DslError (or DslErrors) listing every problem found.
    `assume`: optional bindings known to be present wherever the expression is evaluated."""
    checker = _Checker(registry, text, origin, assume)
    result = checker.check(tree, {}, expect)
    if result is not None and expect is not None and result.type != expect:
        checker.error(f"expected {expect} but the expression is {result.type}", tree)
    raise_all(checker.errors)
    assert result is not None  # an untyped tree always comes with an error
    check_cost(result, registry, text, origin)  # every expression must finish quickly (cost.py)
    return Checked(result, frozenset(checker.names_used), frozenset(checker.functions_used))


def _is_flexible(node: ast.Node) -> bool:
    """A literal whose type depends on where it is used."""
    return isinstance(node, (ast.StrLit, ast.ListLit))


def _is_list_node(node: ast.Node) -> bool:
    return isinstance(node, ast.ListLit)


def _element_of(t: Hint) -> Hint:
    return t.element if isinstance(t, ListType) else None


def _same(t: DslType) -> Hint:
    return t


class _Checker:
    def __init__(self, registry: Registry, text: str, origin: ExpressionOrigin | None,
                 assume: frozenset[str] = frozenset()) -> None:
        self.registry = registry
        self.present = self.implied(assume)  # optional bindings known present at the node being checked (presence.py)
        self.guards: dict[int, frozenset[str]] = {}  # id of a node -> what is known present inside it
        self.text = text
        self.origin = origin
        self.errors: list[DslError] = []
        self.names_used: set[str] = set()
        self.functions_used: set[str] = set()

    def error(self, message: str, node: ast.Node) -> None:
        self.error_at(message, node.line, node.column)

    def error_at(self, message: str, line: int, column: int) -> None:
        self.errors.append(DslError(message, self.text, line, column, self.origin))

    def check(self, node: ast.Node, scope: Scope, hint: Hint) -> typed.Typed | None:
        """The typed form of `node`, or None after recording why it has none."""
        self.guards.update(guarded_children(node))
        known = self.guards.get(id(node))
        if not known:
            return _RULES[type(node)](self, node, scope, hint)
        outside, self.present = self.present, self.present | self.implied(known)
        try:
            return _RULES[type(node)](self, node, scope, hint)
        finally:
            self.present = outside

    def check_all(self, nodes: Iterable[ast.Node], scope: Scope) -> list[typed.Typed | None]:
        return [self.check(node, scope, None) for node in nodes]

    def check_pair(
        self,
        first: ast.Node,
        second: ast.Node,
        scope: Scope,
        hint_second: Callable[[DslType], Hint],
        hint_first: Callable[[DslType], Hint],
        hint: Hint = None,
    ) -> tuple[typed.Typed | None, typed.Typed | None]:
        """Check two operands, a flexible literal last with a hint from the other one.

        `hint` is given to whichever operand is checked first. If that one fails, an
        empty list `[]` is not checked: it could only fail for want of a hint.
        """
        if self.flexible(first, scope) and not self.flexible(second, scope):
            b, a = self.check_hinted(second, first, scope, hint_first, hint)
        else:
            a, b = self.check_hinted(first, second, scope, hint_second, hint)
        return a, b

    def flexible(self, node: ast.Node, scope: Scope) -> bool:
        """A literal whose type depends on where it is used, or a word that names nothing (checked
        last too, so that its error can say what the other side expects: `era == canal` is
        probably the era "canal", written without its quotes)."""
        if _is_flexible(node):
            return True
        if not isinstance(node, ast.Name) or node.name in scope:
            return False
        registry = self.registry
        return (registry.lookup_name(node.name) is None and registry.lookup_function(node.name) is None
                and registry.hidden_reason(node.name) is None)

    def check_hinted(
        self, provider: ast.Node, receiver: ast.Node, scope: Scope, hint_from: Callable[[DslType], Hint], hint: Hint
    ) -> tuple[typed.Typed | None, typed.Typed | None]:
        """Check `provider`, then `receiver` with the hint its type gives."""
        given = self.check(provider, scope, hint)
        if given is not None:
            return given, self.check(receiver, scope, hint_from(given.type))
        if isinstance(receiver, ast.ListLit) and not receiver.items:
            return None, None
        return None, self.check(receiver, scope, None)

    def require(self, t: typed.Typed | None, wanted: DslType, template: str) -> typed.Typed | None:
        """`t` if it has type `wanted`; else record `template` (naming the {actual} type) and None."""
        if t is not None and t.type != wanted:
            self.error(template.format(actual=t.type), t.node)
            return None
        return t

    def optional(
        self, node: ast.Node | None, scope: Scope, wanted: DslType, template: str
    ) -> tuple[typed.Typed | None, bool]:
        """An optional part of type `wanted`: its typed form (None if absent) and whether it is fine."""
        if node is None:
            return None, True
        result = self.require(self.check(node, scope, None), wanted, template)
        return result, result is not None

    # ------------------------------------------------------------ literals

    def int_lit(self, node: ast.IntLit, scope: Scope, hint: Hint) -> typed.Typed | None:
        return typed.Const(INT, node, node.value)

    def bool_lit(self, node: ast.BoolLit, scope: Scope, hint: Hint) -> typed.Typed | None:
        return typed.Const(BOOL, node, node.value)

    def str_lit(self, node: ast.StrLit, scope: Scope, hint: Hint) -> typed.Typed | None:
        if isinstance(hint, RecordType) and hint.ids is not None:
            return self.id_literal(node, hint, hint.ids())
        return typed.Const(STR, node, node.value)

    def id_literal(self, node: ast.StrLit, t: RecordType, ids: Collection[str]) -> typed.Typed | None:
        if node.value in ids:
            return typed.Const(t, node, t.from_literal(node.value))
        hint = did_you_mean(node.value, ids)
        if not hint and len(ids) <= MAX_LISTED_IDS:
            hint = "; expected one of " + ", ".join(f"'{i}'" for i in sorted(ids))
        self.error(f"unknown {t} '{node.value}'{hint}", node)
        return None

    def list_lit(self, node: ast.ListLit, scope: Scope, hint: Hint) -> typed.Typed | None:
        element: Hint = None
        results: dict[int, typed.Typed | None] = {}
        # Non-literal items first: their type, else the hint, tells literals what they denote.
        flexible = [self.flexible(item, scope) for item in node.items]
        for i in sorted(range(len(node.items)), key=lambda i: flexible[i]):
            item_hint = (element or _element_of(hint)) if flexible[i] else None
            results[i] = result = self.check(node.items[i], scope, item_hint)
            element = element or (result.type if result else None)
        element = element or _element_of(hint)
        if element is None:
            if not node.items:
                self.error("cannot tell the type of the empty list '[]' here", node)
            return None
        items = [
            self.require(results[i], element, f"list item {i + 1} must be {element}, not {{actual}}")
            for i in range(len(node.items))
        ]
        complete = _complete(items)
        return None if complete is None else typed.ListOf(ListType(element), node, complete)

    # ------------------------------------------------------------ names and calls

    def name(self, node: ast.Name, scope: Scope, hint: Hint) -> typed.Typed | None:
        if node.name in scope:
            return typed.LoopVar(scope[node.name], node, node.name)
        entry = self.registry.lookup_name(node.name)
        if entry is not None and self.registry.is_conditional(node.name) and node.name not in self.present:
            self.error(f"'{node.name}' is asked only when its `when:` holds, so it may be absent here; "
                       f"read it where {PRESENT}({node.name}) holds, e.g. `{PRESENT}({node.name}) and …`", node)
            return None
        if entry is not None:
            self.names_used.add(node.name)
            return typed.Global(entry.type, node, entry)
        function = self.registry.lookup_function(node.name)
        if function is not None:
            self.error(f"'{node.name}' is a function; call it as {_call_example(function)}", node)
        elif (reason := self.registry.hidden_reason(node.name)) is not None:
            self.error(f"'{node.name}' is not available here: {reason}", node)
        else:
            known = [*scope, *(e.name for e in self.registry.names())]
            self.error(f"unknown name '{node.name}'{_unquoted_hint(node.name, hint, known)}", node)
        return None

    def attribute(self, node: ast.Attribute, scope: Scope, hint: Hint) -> typed.Typed | None:
        obj = self.check(node.obj, scope, None)
        if obj is None:
            return None
        fields = obj.type.fields if isinstance(obj.type, RecordType) else {}
        field = fields.get(node.field)
        if field is None:
            suggestion = did_you_mean(node.field, fields)
            self.error_at(f"{obj.type} has no field '{node.field}'{suggestion}", node.field_line, node.field_column)
            return None
        return typed.GetField(field.type, node, obj, field)

    def call(self, node: ast.Call, scope: Scope, hint: Hint) -> typed.Typed | None:
        entry = self.registry.lookup_function(node.function)
        if entry is None and node.function == PRESENT:
            return self.presence(node, scope)
        looked_up = self.registry.lookup_type(node.function) if entry is None else None
        if looked_up is not None and looked_up.ids is not None:
            return self.lookup(node, looked_up, scope)
        if entry is None:
            self.check_all(node.args, scope)  # still report the problems inside the arguments
            self.unknown_function(node)
            return None
        self.functions_used.add(entry.name)
        hints = [p.type for p in entry.params] + [None] * len(node.args)  # extra arguments get no hint
        args = [self.check(arg, scope, h) for arg, h in zip(node.args, hints, strict=False)]
        if len(args) != len(entry.params):
            self.error(_arity_message(entry, len(args)), node)
            return None
        checked = _complete(
            [
                self.require(arg, p.type, f"argument {i} of {entry.name}() must be {p.type}, not {{actual}}")
                for i, (arg, p) in enumerate(zip(args, entry.params, strict=True), start=1)
            ]
        )
        return None if checked is None else typed.CallFunction(entry.returns, node, entry, checked)

    def implied(self, names: frozenset[str]) -> frozenset[str]:
        """`names` and every optional name their presence proves (a param asked only when another is)."""
        found, todo = set(names), list(names)
        while todo:
            for other in self.registry.implied_by(todo.pop()) or ():
                if other not in found:
                    found.add(other)
                    todo.append(other)
        return frozenset(found)

    def presence(self, node: ast.Call, scope: Scope) -> typed.Typed | None:
        """`present(x)`: whether the optional param `x` was asked (presence.py)."""
        arg = node.args[0] if len(node.args) == 1 else None
        name = arg.name if isinstance(arg, ast.Name) and arg.name not in scope else None
        entry = self.registry.lookup_name(name) if name is not None else None
        if arg is None or entry is None or name is None or not self.registry.is_conditional(name):
            self.error(f"{PRESENT}(…) takes the name of an action param that has `when:` (one that may be "
                       f"absent), like {PRESENT}(x) for a param x", node)
            return None
        self.names_used.add(name)
        test = FunctionEntry(PRESENT, (Param("param", entry.type),), BOOL, "Whether an optional param was asked.",
                             f"{PRESENT}({name})", _is_present)
        return typed.CallFunction(BOOL, node, test, (typed.Global(entry.type, arg, entry),))

    def lookup(self, node: ast.Call, t: RecordType, scope: Scope) -> typed.Typed | None:
        """`era("canal")`: a type named like a function, with one id in quotes, is that value (so
        that its fields can be read: `market("coal").empty_price`)."""
        if len(node.args) != 1 or not isinstance(node.args[0], ast.StrLit):
            self.check_all(node.args, scope)
            self.error(f"{t}(…) names one {t} by its id in quotes, like {t}(\"{_first_id(t)}\")", node)
            return None
        return self.check(node.args[0], scope, t)

    def unknown_function(self, node: ast.Call) -> None:
        if self.registry.lookup_name(node.function) is not None:
            self.error(f"'{node.function}' is not a function", node)
            return
        if (reason := self.registry.hidden_reason(node.function)) is not None:
            self.error(f"'{node.function}' is not available here: {reason}", node)
            return
        known = (f.name for f in self.registry.functions())
        self.error(f"unknown function '{node.function}'{did_you_mean(node.function, known)}", node)

    # ------------------------------------------------------------ operators

    def unary(self, node: ast.Unary, scope: Scope, hint: Hint) -> typed.Typed | None:
        wanted, article = (INT, "an") if node.op == "-" else (BOOL, "a")
        template = f"'{node.op}' needs {article} {wanted} operand, got {{actual}}"
        operand = self.require(self.check(node.operand, scope, None), wanted, template)
        return None if operand is None else typed.Unary(wanted, node, node.op, operand)

    def binary(self, node: ast.Binary, scope: Scope, hint: Hint) -> typed.Typed | None:
        if node.op == "+" and (_is_list_node(node.left) or _is_list_node(node.right) or isinstance(hint, ListType)):
            return self.join(node, scope, hint)
        if node.op == "+":
            return self.plus(node, scope, hint)
        if node.op in ARITHMETIC_OPS:
            return self.uniform(node, scope, INT)
        if node.op in LOGICAL_OPS:
            return self.uniform(node, scope, BOOL)
        if node.op in MEMBERSHIP_OPS:
            return self.membership(node, scope)
        return self.comparison(node, scope)

    def plus(self, node: ast.Binary, scope: Scope, hint: Hint) -> typed.Typed | None:
        """`+` adds two ints, or joins two lists of one item type (`hand(p) + discard(p)`)."""
        left = self.check(node.left, scope, None)
        if left is not None and isinstance(left.type, ListType):
            return self.joined(node, left, self.check(node.right, scope, left.type))
        template = "'+' needs int operands, got {actual} on the "
        left = self.require(left, INT, template + "left")
        right = self.require(self.check(node.right, scope, None), INT, template + "right")
        if left is None or right is None:
            return None
        return typed.Binary(INT, node, "+", left, right)

    def join(self, node: ast.Binary, scope: Scope, hint: Hint) -> typed.Typed | None:
        """`+` with a list literal on one side (or a list expected): the literal takes the other side's type."""
        left, right = self.check_pair(node.left, node.right, scope, _same, _same, hint)
        return self.joined(node, left, right)

    def joined(self, node: ast.Binary, left: typed.Typed | None, right: typed.Typed | None) -> typed.Typed | None:
        if left is None or right is None:
            return None
        if not isinstance(left.type, ListType) or left.type != right.type:
            self.error_at(f"'+' joins two lists of one type, got {left.type} and {right.type}",
                          node.op_line, node.op_column)
            return None
        return typed.Binary(left.type, node, "+", left, right)

    def uniform(self, node: ast.Binary, scope: Scope, t: DslType) -> typed.Typed | None:
        """An operator taking two operands of type `t` and giving a `t`."""
        template = f"'{node.op}' needs {t} operands, got {{actual}} on the "
        left = self.require(self.check(node.left, scope, None), t, template + "left")
        right = self.require(self.check(node.right, scope, None), t, template + "right")
        if left is None or right is None:
            return None
        return typed.Binary(t, node, node.op, left, right)

    def comparison(self, node: ast.Binary, scope: Scope) -> typed.Typed | None:
        left, right = self.check_pair(node.left, node.right, scope, _same, _same)
        if left is None or right is None:
            return None
        if left.type != right.type:
            message = f"cannot compare {left.type} with {right.type}"
        elif node.op in ORDERING_OPS and left.type != INT:
            message = f"'{node.op}' needs int operands, got {left.type}"
        else:
            return typed.Binary(BOOL, node, node.op, left, right)
        self.error_at(message, node.op_line, node.op_column)
        return None

    def membership(self, node: ast.Binary, scope: Scope) -> typed.Typed | None:
        item, items = self.check_pair(node.left, node.right, scope, ListType, _element_of)
        if item is None or items is None:
            return None
        if not isinstance(items.type, ListType):
            message = f"'{node.op}' needs a list on the right, got {items.type}"
        elif items.type.element != item.type:
            message = f"cannot look for {item.type} in {items.type}"
        else:
            return typed.Binary(BOOL, node, node.op, item, items)
        self.error_at(message, node.op_line, node.op_column)
        return None

    def conditional(self, node: ast.Conditional, scope: Scope, hint: Hint) -> typed.Typed | None:
        condition = self.check(node.condition, scope, None)
        condition = self.require(condition, BOOL, "condition of 'if' must be bool, got {actual}")
        then_value, else_value = self.check_pair(node.then_value, node.else_value, scope, _same, _same, hint)
        if condition is None or then_value is None or else_value is None:
            return None
        if then_value.type != else_value.type:
            message = f"the branches of 'if' have different types: {then_value.type} and {else_value.type}"
            self.error(message, node.else_value)
            return None
        return typed.Conditional(then_value.type, node, condition, then_value, else_value)

    # ------------------------------------------------------------ aggregates

    def aggregate(self, node: ast.Aggregate, scope: Scope, hint: Hint) -> typed.Typed | None:
        if node.kind == "first":
            return self.first(node, scope)
        fresh = self.loop_variable(node, scope)
        checked_source = self.aggregate_source(node, scope)
        default, default_ok = self.optional(
            node.default, scope, INT, f"default of {node.kind}() must be int, got {{actual}}"
        )
        if checked_source is None:
            return None
        source, item_type = checked_source
        inner = {**scope, node.var: item_type}
        element, element_ok = self.optional(node.element, inner, INT, f"{node.kind}() needs int values, got {{actual}}")
        where, where_ok = self.optional(node.where, inner, BOOL, "condition of 'where' must be bool, got {actual}")
        if not (fresh and default_ok and element_ok and where_ok):
            return None
        result = BOOL if node.kind in QUANTIFIERS else INT
        return typed.Aggregate(result, node, node.kind, node.var, source, element, where, default)

    def first(self, node: ast.Aggregate, scope: Scope) -> typed.Typed | None:
        """`first(x in LIST [where C] [default V])`: the first item that passes, of the list's item
        type; the default must be of that type too."""
        fresh = self.loop_variable(node, scope)
        checked_source = self.aggregate_source(node, scope)
        if checked_source is None:
            return None
        source, item_type = checked_source
        default, default_ok = self.optional(
            node.default, scope, item_type, f"default of first() must be {item_type}, got {{actual}}"
        )
        where, where_ok = self.optional(node.where, {**scope, node.var: item_type}, BOOL,
                                        "condition of 'where' must be bool, got {actual}")
        if not (fresh and default_ok and where_ok):
            return None
        return typed.Aggregate(item_type, node, node.kind, node.var, source, None, where, default)

    def aggregate_source(self, node: ast.Aggregate, scope: Scope) -> tuple[typed.Typed, DslType] | None:
        """The collection after 'in', which must be a list, and the type of its items."""
        source = self.check(node.source, scope, None)
        if source is None:
            return None
        if not isinstance(source.type, ListType):
            self.error(f"{node.kind}() needs a list after 'in', got {source.type}", node.source)
            return None
        return source, source.type.element

    def loop_variable(self, node: ast.Aggregate, scope: Scope) -> bool:
        """Whether the loop variable is a fresh name; records an error if not."""
        if node.var in scope:
            message = f"loop variable '{node.var}' is already bound by an enclosing aggregate"
        elif self.registry.lookup_name(node.var) is not None:
            message = f"loop variable '{node.var}' would hide the name '{node.var}'; choose another name"
        elif self.registry.lookup_function(node.var) is not None:
            message = f"loop variable '{node.var}' would hide the function '{node.var}'; choose another name"
        else:
            return True
        self.error_at(message, node.var_line, node.var_column)
        return False

    def extremum(self, node: ast.Extremum, scope: Scope, hint: Hint) -> typed.Typed | None:
        args = _complete(
            [
                self.require(arg, INT, f"{node.kind}() needs int arguments, got {{actual}} as argument {i}")
                for i, arg in enumerate(self.check_all(node.args, scope), start=1)
            ]
        )
        return None if args is None else typed.Extremum(INT, node, node.kind, args)


def _is_present(env: object, value: object) -> bool:
    return value is not ABSENT


def _complete(items: list[typed.Typed | None]) -> tuple[typed.Typed, ...] | None:
    """The items if none failed, else None."""
    present = tuple(item for item in items if item is not None)
    return present if len(present) == len(items) else None


def _first_id(t: RecordType) -> str:
    ids = sorted(t.ids()) if t.ids is not None else []
    return ids[0] if ids else "id"


def _unquoted_hint(word: str, hint: Hint, known: Iterable[str]) -> str:
    """The end of "unknown name 'canal'": where the other side is an id or a text, the word was
    probably meant in quotes (`era == canal`); else the closest known name."""
    if isinstance(hint, RecordType) and hint.ids is not None and word in hint.ids():
        return f"; ids are written in quotes: did you mean the {hint} \"{word}\"?"
    suggestion = did_you_mean(word, known)
    if hint == STR and not suggestion:
        return f"; to compare with the word {word}, write it in quotes: \"{word}\""
    return suggestion


def _call_example(entry: FunctionEntry) -> str:
    return f"{entry.name}({', '.join(p.name for p in entry.params)})"


def _arity_message(entry: FunctionEntry, given: int) -> str:
    count = len(entry.params)
    if count == 0:
        takes = "no arguments"
    else:
        takes = f"{count} argument{'s' if count > 1 else ''} ({', '.join(map(str, entry.params))})"
    return f"{entry.name}() takes {takes}, {given} given"


_RULES: dict[type[ast.Node], Callable[..., typed.Typed | None]] = {
    ast.IntLit: _Checker.int_lit,
    ast.BoolLit: _Checker.bool_lit,
    ast.StrLit: _Checker.str_lit,
    ast.ListLit: _Checker.list_lit,
    ast.Name: _Checker.name,
    ast.Attribute: _Checker.attribute,
    ast.Call: _Checker.call,
    ast.Unary: _Checker.unary,
    ast.Binary: _Checker.binary,
    ast.Conditional: _Checker.conditional,
    ast.Aggregate: _Checker.aggregate,
    ast.Extremum: _Checker.extremum,
}
