"""Typed tree -> Python closures, and the public `compile_expression`.

Expressions run in the interpreter's inner loops (legal-move generation evaluates
preconditions thousands of times), so all the work that can be done once is done
at compile time: every name, field and function is already resolved by the
checker, literals are folded to constants (`["a", "b"]` becomes one tuple), and
each node becomes a closure `fn(env) -> value` that calls its children's closures
directly. The only dictionary look-ups left at run time are those of bound
variables in `env.vars`.

Semantics worth knowing:
- All numbers are integers. `/` is integer division rounding down (towards minus
  infinity, like Python's `//`): `7 / 2 == 3`, `-7 / 2 == -4`; `%` takes the sign
  of the divisor, so that `a == (a / b) * b + a % b`. Division or `%` by zero
  raises DslEvaluationError.
- `and`, `or` and `if` evaluate only what they need.
- List literals evaluate to tuples; `==` on lists compares items in order,
  whatever sequence type a registered getter returns.
- An aggregate binds its loop variable in `env.vars` while it runs and restores
  the previous state afterwards, even if evaluation fails.
- A registered function raising ValueError becomes a DslEvaluationError located at
  the call; any other exception from host code propagates unchanged (it is a bug
  in the host, not in the ruleset).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from brass_dsl import ast, typed
from brass_dsl.checker import check
from brass_dsl.errors import DslEvaluationError
from brass_dsl.registry import Registry
from brass_dsl.runtime import Env
from brass_dsl.source import ExpressionOrigin
from brass_dsl.types import DslType, ListType

Fn = Callable[[Env], Any]
Failure = Callable[[str], DslEvaluationError]  # message -> error at a fixed place


class CompiledExpression:
    """A checked, compiled expression: call it with an `Env` to evaluate it.

    `fn` is the bare closure, for callers that want to skip one call in hot loops. `tree` is the
    checked, typed tree it was compiled from, for tools that read what an expression says
    (`brass lint` finds a misspelt word compared with a field).
    """

    __slots__ = ("accelerated", "fn", "functions_used", "generable", "names_used", "origin", "text", "tree", "type")

    def __init__(
        self,
        text: str,
        type: DslType,
        origin: ExpressionOrigin | None,
        names_used: frozenset[str],
        functions_used: frozenset[str],
        fn: Fn,
        tree: typed.Typed | None = None,
        generable: bool = False,
    ) -> None:
        """`generable`: `fn` computes exactly what `tree` says (the compiler's closures of it, not a
        function made otherwise, such as an optional param's list of values), so `codegen` may write
        the tree out instead; `accelerated`: `fn` is that written-out function."""
        self.text = text
        self.type = type
        self.origin = origin
        self.names_used = names_used
        self.functions_used = functions_used
        self.fn = fn
        self.tree = tree
        self.generable = generable and tree is not None
        self.accelerated = False

    def __call__(self, env: Env) -> Any:
        return self.fn(env)

    def __repr__(self) -> str:
        return f"CompiledExpression({self.text!r}: {self.type})"


def compile_expression(
    text: str,
    registry: Registry,
    *,
    expect: DslType | None = None,
    origin: ExpressionOrigin | None = None,
    tree: ast.Node | None = None,
    assume: frozenset[str] = frozenset(),
) -> CompiledExpression:
    """Parse, check and compile `text`; raise DslError (or DslErrors) if it is wrong.

    With `expect`, the expression must have that type. `origin` locates the text in
    its file, for error positions. `tree`, when given, is `parse(text)` obtained earlier (a
    ruleset's cached trees): the text is then not parsed again, and Lark is not even imported.
    `assume`: optional bindings known present wherever it runs (brass_dsl/presence.py).
    """
    if tree is None:
        from brass_dsl.parser import parse  # Lark, imported only when a text is parsed

        tree = parse(text, origin)
    checked = check(tree, registry, text, expect=expect, origin=origin, assume=assume)
    fn = _Compiler(text, origin).compile(checked.tree)
    return CompiledExpression(text, checked.tree.type, origin, checked.names_used, checked.functions_used, fn,
                              checked.tree, generable=True)


# ---------------------------------------------------------------- constants

_VARIES = object()  # "not a compile-time constant"
_UNARY_OPS: dict[str, Callable[[Any], Any]] = {"-": operator.neg, "not": operator.not_}


def _constant(t: typed.Typed) -> Any:
    """The value of `t` if it is known at compile time, else _VARIES."""
    if isinstance(t, typed.Const):
        return t.value
    if isinstance(t, typed.ListOf):
        values = tuple(_constant(item) for item in t.items)
        return _VARIES if any(v is _VARIES for v in values) else values
    if isinstance(t, typed.Unary):
        value = _constant(t.operand)
        return _VARIES if value is _VARIES else _UNARY_OPS[t.op](value)
    return _VARIES


def _returns(value: Any) -> Fn:
    return lambda env: value


# ---------------------------------------------------------------- operators


def _contains(item: Any, items: Any) -> bool:
    return item in items


def _not_contains(item: Any, items: Any) -> bool:
    return item not in items


def _same_items(a: Any, b: Any) -> bool:
    return tuple(a) == tuple(b)


def _different_items(a: Any, b: Any) -> bool:
    return tuple(a) != tuple(b)


_BINARY_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": _contains,
    "not in": _not_contains,
}
_LIST_EQUALITY = {"==": _same_items, "!=": _different_items}


def _joined(a: Any, b: Any) -> list[Any]:
    """Two lists joined (either may be a tuple at run time)."""
    return [*a, *b]


def _guarded(op: Callable[[int, int], int], fail: Failure, message: str) -> Callable[[int, int], int]:
    """`op` (// or %) raising `fail(message)` instead of ZeroDivisionError."""

    def run(a: int, b: int) -> int:
        try:
            return op(a, b)
        except ZeroDivisionError:
            raise fail(message) from None

    return run


def _apply(
    op: Callable[[Any, Any], Any], left: typed.Typed, right: typed.Typed, compile: Callable[[typed.Typed], Fn]
) -> Fn:
    """`op(left, right)`, with a constant operand inlined rather than called."""
    right_value = _constant(right)
    left_fn = compile(left)
    if right_value is not _VARIES:
        return lambda env: op(left_fn(env), right_value)
    right_fn = compile(right)
    left_value = _constant(left)
    if left_value is not _VARIES:
        return lambda env: op(left_value, right_fn(env))
    return lambda env: op(left_fn(env), right_fn(env))


def _and(left: Fn, right: Fn) -> Fn:
    return lambda env: left(env) and right(env)


def _or(left: Fn, right: Fn) -> Fn:
    return lambda env: left(env) or right(env)


# ---------------------------------------------------------------- aggregates

_UNBOUND = object()


def _restore(vars: dict[str, Any], var: str, saved: Any) -> None:
    if saved is _UNBOUND:
        vars.pop(var, None)
    else:
        vars[var] = saved


def _collector(var: str, source: Fn, element: Fn | None, where: Fn | None) -> Callable[[Env], list[Any]]:
    """The element values (or the items themselves) of the items satisfying `where`."""

    def collect(env: Env) -> list[Any]:
        vars = env.vars
        saved = vars.get(var, _UNBOUND)
        values = []
        try:
            for item in source(env):
                vars[var] = item
                if where is None or where(env):
                    values.append(item if element is None else element(env))
        finally:
            _restore(vars, var, saved)
        return values

    return collect


def _any(var: str, source: Fn, where: Fn) -> Fn:
    def run(env: Env) -> bool:
        vars = env.vars
        saved = vars.get(var, _UNBOUND)
        try:
            for item in source(env):
                vars[var] = item
                if where(env):
                    return True
            return False
        finally:
            _restore(vars, var, saved)

    return run


def _all(var: str, source: Fn, where: Fn) -> Fn:
    """Every element satisfies `where`: no element fails it (one loop for both quantifiers)."""
    fails = _any(var, source, lambda env: not where(env))
    return lambda env: not fails(env)


def _extreme(kind: str, collect: Callable[[Env], list[Any]], default: Fn | None, fail: Failure) -> Fn:
    pick = _PICK[kind]
    empty = f"{kind}() of an empty collection"

    def run(env: Env) -> Any:
        values = collect(env)
        if values:
            return pick(values)
        if default is None:
            raise fail(empty)
        return default(env)

    return run


def _first(var: str, source: Fn, where: Fn | None, default: Fn | None, fail: Failure) -> Fn:
    def run(env: Env) -> Any:
        vars = env.vars
        saved = vars.get(var, _UNBOUND)
        try:
            for item in source(env):
                vars[var] = item
                if where is None or where(env):
                    return item
        finally:
            _restore(vars, var, saved)
        if default is None:
            raise fail("first() found no item (give it a default)")
        return default(env)

    return run


_PICK: dict[str, Callable[[list[int]], int]] = {"min": min, "max": max}
_QUANTIFIERS: dict[str, Callable[[str, Fn, Fn], Fn]] = {"any": _any, "all": _all}


# ---------------------------------------------------------------- the compiler


class _Compiler:
    def __init__(self, text: str, origin: ExpressionOrigin | None) -> None:
        self.text = text
        self.origin = origin

    def failure(self, line: int, column: int) -> Failure:
        """Makes run-time errors located at `line`/`column`."""
        text, origin = self.text, self.origin
        return lambda message: DslEvaluationError(message, text, line, column, origin)

    def compile(self, t: typed.Typed) -> Fn:
        value = _constant(t)
        if value is not _VARIES:
            return _returns(value)
        return _RULES[type(t)](self, t)

    def compile_all(self, items: Sequence[typed.Typed]) -> list[Fn]:
        return [self.compile(item) for item in items]

    def list_of(self, t: typed.ListOf) -> Fn:
        items = self.compile_all(t.items)
        return lambda env: tuple([item(env) for item in items])

    def global_name(self, t: typed.Global) -> Fn:
        return t.entry.get

    def loop_var(self, t: typed.LoopVar) -> Fn:
        name = t.name
        return lambda env: env.vars[name]

    def get_field(self, t: typed.GetField) -> Fn:
        obj, of_value = self.compile(t.obj), t.field.of_value
        if of_value is not None:
            return lambda env: of_value(obj(env))
        get = t.field.get
        return lambda env: get(env, obj(env))

    def call(self, t: typed.CallFunction) -> Fn:
        impl, args, name = t.entry.impl, self.compile_all(t.args), t.entry.name
        fail = self.failure(t.node.line, t.node.column)

        if len(args) == 1:  # the common arities without building an argument list
            (only,) = args

            def run_one(env: Env) -> Any:
                value = only(env)  # arguments are evaluated outside the try, as below
                try:
                    return impl(env, value)
                except ValueError as exc:
                    raise fail(f"{name}(): {exc}") from exc

            return run_one
        if len(args) == 2:
            first, second = args

            def run_two(env: Env) -> Any:
                a, b = first(env), second(env)
                try:
                    return impl(env, a, b)
                except ValueError as exc:
                    raise fail(f"{name}(): {exc}") from exc

            return run_two

        if len(args) == 4:  # can_source(me, "coal", tile.coal, [location]) and the like
            a1, a2, a3, a4 = args

            def run_four(env: Env) -> Any:
                values = a1(env), a2(env), a3(env), a4(env)
                try:
                    return impl(env, *values)
                except ValueError as exc:
                    raise fail(f"{name}(): {exc}") from exc

            return run_four

        def run_many(env: Env) -> Any:
            values = [arg(env) for arg in args]
            try:
                return impl(env, *values)
            except ValueError as exc:
                raise fail(f"{name}(): {exc}") from exc

        return run_many

    def unary(self, t: typed.Unary) -> Fn:
        op, operand = _UNARY_OPS[t.op], self.compile(t.operand)
        return lambda env: op(operand(env))

    def binary(self, t: typed.Binary) -> Fn:
        if t.op == "and":
            return _and(self.compile(t.left), self.compile(t.right))
        if t.op == "or":
            return _or(self.compile(t.left), self.compile(t.right))
        return _apply(self.operator(t), t.left, t.right, self.compile)

    def operator(self, t: typed.Binary) -> Callable[[Any, Any], Any]:
        if t.op in ("/", "%"):
            fail = self.failure(t.node.op_line, t.node.op_column)
            if t.op == "/":
                return _guarded(operator.floordiv, fail, "division by zero")
            return _guarded(operator.mod, fail, "modulo by zero")
        if isinstance(t.left.type, ListType) and t.op in _LIST_EQUALITY:
            return _LIST_EQUALITY[t.op]
        if isinstance(t.type, ListType) and t.op == "+":
            return _joined
        return _BINARY_OPS[t.op]

    def conditional(self, t: typed.Conditional) -> Fn:
        condition, then_value, else_value = self.compile_all((t.condition, t.then_value, t.else_value))
        return lambda env: then_value(env) if condition(env) else else_value(env)

    def aggregate(self, t: typed.Aggregate) -> Fn:
        source = self.compile(t.source)
        where = self.compile(t.where) if t.where else None
        if t.kind in _QUANTIFIERS:
            return _QUANTIFIERS[t.kind](t.var, source, where or _returns(True))
        if t.kind == "count" and where is None:
            return lambda env: len(source(env))
        if t.kind == "first":
            default = self.compile(t.default) if t.default else None
            return _first(t.var, source, where, default, self.failure(t.node.line, t.node.column))
        element = self.compile(t.element) if t.element else None
        collect = _collector(t.var, source, element, where)
        if t.kind == "count":
            return lambda env: len(collect(env))
        if t.kind == "sum":
            return lambda env: sum(collect(env))
        default = self.compile(t.default) if t.default else None
        return _extreme(t.kind, collect, default, self.failure(t.node.line, t.node.column))

    def extremum(self, t: typed.Extremum) -> Fn:
        pick, args = _PICK[t.kind], self.compile_all(t.args)
        return lambda env: pick([arg(env) for arg in args])


_RULES: dict[type[typed.Typed], Callable[[Any, Any], Fn]] = {
    typed.ListOf: _Compiler.list_of,
    typed.Global: _Compiler.global_name,
    typed.LoopVar: _Compiler.loop_var,
    typed.GetField: _Compiler.get_field,
    typed.CallFunction: _Compiler.call,
    typed.Unary: _Compiler.unary,
    typed.Binary: _Compiler.binary,
    typed.Conditional: _Compiler.conditional,
    typed.Aggregate: _Compiler.aggregate,
    typed.Extremum: _Compiler.extremum,
}
