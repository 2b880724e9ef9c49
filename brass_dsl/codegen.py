"""Typed tree -> one generated Python function: the compiler's closures written out.

The closures of `compiler.py` cost a Python call per node: `me.money >= tile.cost` is five calls
before any game code runs. The engine evaluates its preconditions hundreds of thousands of times
a game, so for those it asks for the expression as one function (`accelerate`):
every node becomes a statement assigning a local variable, in the order the closures evaluate
them, and `and`, `or` and `if` become `if` statements. Values, errors and the order of evaluation
are the closures' own:

- a registered function is called inside `try`, its ValueError raised again as the same
  DslEvaluationError, located at the call; its arguments are evaluated outside the `try`;
- an operator is the Python operator the closure's `operator` function applies, or that
  function itself (integer division and `%` by zero, list equality);
- `any` and `all` bind their variable in `env.vars` and restore it afterwards, even on failure;
  the other aggregates (count, sum, min, max, first) stay the compiler's closures;
- a registered name (`me`, `era`, a binding such as `nth`), a field of one (`era.link_kind`), or,
  outside `any` and `all`, a call of a function with such arguments or constants
  (`network_step(nth)`), read more than once in a function is evaluated at its first read and kept
  in a local for the others: nothing changes the game while an expression is evaluated, a loop
  variable may not hide a name (the checker), and no getter of a name reads `env.vars`, so every
  read would give the same value, or the same error at the first. (A function may read `env.vars`,
  which a quantifier changes: a call inside one is never kept.)

The generated text holds nothing from the ruleset: every value, function and message is passed
in by name through the function's globals (`_k0`, `_f1`, …); only bound variable names, which are
identifiers, appear quoted.
"""

from __future__ import annotations

import dataclasses
import operator
import os
from collections import Counter
from typing import Any

from brass_dsl import typed
from brass_dsl.compiler import (
    _PICK,
    _UNARY_OPS,
    _UNBOUND,
    _VARIES,
    CompiledExpression,
    Fn,
    _Compiler,
    _constant,
    _contains,
    _not_contains,
)

# The operator functions of the compiler that are exactly a Python operator.
_SYNTAX: dict[Any, str] = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.eq: "==", operator.ne: "!=",
    operator.lt: "<", operator.le: "<=", operator.gt: ">", operator.ge: ">=",
    _contains: "in", _not_contains: "not in",
}


def accelerate(expression: CompiledExpression) -> None:
    """From now on the expression's `fn` is its tree generated as one Python function: the same
    values and errors, fewer calls. Worth its making (a `compile()`) for what runs in hot loops: the
    engine's preconditions, derived values and lists of values. BRASS_NO_CODEGEN=1 keeps the
    closures (to compare the two)."""
    if expression.accelerated or not expression.generable or expression.tree is None or not enabled():
        return  # (done already, or its `fn` was not made from the tree)
    origin = expression.origin
    label = str(origin.start) if origin is not None else repr(expression.text[:40])
    expression.fn = generate(expression.tree, _Compiler(expression.text, origin), f"expression {label}")
    expression.accelerated = True


def enabled() -> bool:
    """Whether expressions are generated (BRASS_NO_CODEGEN=1: the closures only, to compare)."""
    return os.environ.get("BRASS_NO_CODEGEN") != "1"


def generate(tree: typed.Typed, compiler: _Compiler, label: str) -> Fn:
    """The function evaluating `tree` as `compiler` (a `compiler._Compiler`) compiles it."""
    writer = Writer()
    writer.count_reads(tree)
    result = writer.value(tree, 1, compiler)
    writer.emit(1, f"return {result}")
    fn: Fn = writer.function("_expression(env)", label)
    return fn


class Writer:
    """Writes the statements of a function that evaluates expressions; each node's value ends up in
    a local (`_tN`) or, for a constant, a global. `V` is `env.vars`."""

    def __init__(self) -> None:
        self.compiler: _Compiler | None = None
        self.lines: list[str] = []
        self.names: dict[str, Any] = {"_UNBOUND": _UNBOUND}
        self.locals = 0
        self.reads_vars = False
        self.reads: Counter[Any] = Counter()  # how often each name or field of one is read (`count_reads`)
        self.kept: dict[Any, str] = {}  # the local keeping each one read more than once
        self.loops = 0  # how many `any` or `all` the node being written is in

    def function(self, signature: str, label: str) -> Any:
        """The lines written, compiled as the body of `def {signature}:` (its first parameter `env`)."""
        head = [f"def {signature}:", "    V = env.vars"] if self.reads_vars else [f"def {signature}:"]
        head += [f"    {local} = _UNBOUND" for local in self.kept.values()]
        source = "\n".join([*head, *self.lines])
        namespace = dict(self.names)
        exec(compile(source, f"<{label}>", "exec"), namespace)  # our own text: see the docstring
        return namespace[signature.partition("(")[0]]

    def compiler_of(self) -> _Compiler:
        assert self.compiler is not None, "value() is given the compiler of its expression"
        return self.compiler

    def given(self, value: Any, prefix: str = "_k") -> str:
        """A global name for a value of the ruleset or of the compiler."""
        name = f"{prefix}{len(self.names)}"
        self.names[name] = value
        return name

    def local(self) -> str:
        self.locals += 1
        return f"_t{self.locals}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def assign(self, depth: int, expression: str) -> str:
        target = self.local()
        self.emit(depth, f"{target} = {expression}")
        return target

    def var(self, name: str) -> str:
        self.reads_vars = True
        return f"V[{name!r}]"

    def count_reads(self, tree: typed.Typed, in_loop: bool = False) -> None:
        """Count the reads of names, fields and calls in `tree` (to be written into this function):
        those read more than once are kept (see the module's docstring)."""
        key = _kept_key(tree, in_loop)
        if key is not None:
            self.reads[key] += 1
        in_loop = in_loop or isinstance(tree, typed.Aggregate)
        for field in dataclasses.fields(tree):
            child = getattr(tree, field.name)
            for item in child if isinstance(child, tuple) else (child,):
                if isinstance(item, typed.Typed):
                    self.count_reads(item, in_loop)

    def value(self, t: typed.Typed, depth: int, compiler: _Compiler | None = None) -> str:
        """Emit the statements computing `t` (of an expression compiled by `compiler`, whose text
        and origin locate its run-time errors); the name holding its value."""
        if compiler is not None:
            self.compiler = compiler
        constant = _constant(t)
        if constant is not _VARIES:
            return self.given(constant)
        key = _kept_key(t, self.loops > 0)
        if key is not None and self.reads[key] > 1:
            return self.kept_value(t, key, depth)
        return self.written(t, depth)

    def kept_value(self, t: typed.Typed, key: Any, depth: int) -> str:
        """A name or field read more than once: evaluated at the first read that runs, then kept."""
        local = self.kept.get(key)
        if local is None:
            local = self.kept[key] = f"_h{len(self.kept)}"
        self.emit(depth, f"if {local} is _UNBOUND:")
        self.emit(depth + 1, f"{local} = {self.written(t, depth + 1)}")
        return local

    def written(self, t: typed.Typed, depth: int) -> str:
        write = _WRITERS.get(type(t))
        if write is None:  # count, sum, min, max, first: the compiler's closure
            return self.assign(depth, f"{self.given(self.compiler_of().compile(t), '_c')}(env)")
        result: str = write(self, t, depth)
        return result

    # -- the nodes --------------------------------------------------------------------------------

    def list_of(self, t: typed.ListOf, depth: int) -> str:
        items = [self.value(item, depth) for item in t.items]
        return self.assign(depth, f"({', '.join(items)},)")

    def global_name(self, t: typed.Global, depth: int) -> str:
        if t.entry.binding:  # read from env.vars, as its getter does
            return self.assign(depth, self.var(t.entry.name))
        return self.assign(depth, f"{self.given(t.entry.get, '_g')}(env)")

    def loop_var(self, t: typed.LoopVar, depth: int) -> str:
        return self.assign(depth, self.var(t.name))

    def get_field(self, t: typed.GetField, depth: int) -> str:
        obj = self.value(t.obj, depth)
        if t.field.of_value is not None:
            return self.assign(depth, f"{self.given(t.field.of_value, '_f')}({obj})")
        return self.assign(depth, f"{self.given(t.field.get, '_f')}(env, {obj})")

    def call(self, t: typed.CallFunction, depth: int) -> str:
        args = [self.value(arg, depth) for arg in t.args]
        impl = self.given(t.entry.impl, "_i")
        fail = self.given(self.compiler_of().failure(t.node.line, t.node.column), "_e")
        prefix = self.given(f"{t.entry.name}(): ", "_m")
        target = self.local()
        self.emit(depth, "try:")
        self.emit(depth + 1, f"{target} = {impl}(env{''.join(', ' + a for a in args)})")
        self.emit(depth, "except ValueError as exc:")
        self.emit(depth + 1, f"raise {fail}(f'{{{prefix}}}{{exc}}') from exc")
        return target

    def unary(self, t: typed.Unary, depth: int) -> str:
        operand = self.value(t.operand, depth)
        return self.assign(depth, f"{'not ' if _UNARY_OPS[t.op] is operator.not_ else '-'}{operand}")

    def binary(self, t: typed.Binary, depth: int) -> str:
        if t.op in ("and", "or"):
            return self.logical(t, depth)
        op = self.compiler_of().operator(t)
        left = self.value(t.left, depth)
        right = self.value(t.right, depth)
        syntax = _SYNTAX.get(op)
        if syntax is not None:
            return self.assign(depth, f"{left} {syntax} {right}")
        return self.assign(depth, f"{self.given(op, '_o')}({left}, {right})")

    def logical(self, t: typed.Binary, depth: int) -> str:
        """`a and b` is `a` when it is false, else `b`; `a or b` is `a` when it is true, else `b`."""
        target = self.assign(depth, self.value(t.left, depth))
        self.emit(depth, f"if {'' if t.op == 'and' else 'not '}{target}:")
        self.emit(depth + 1, f"{target} = {self.value(t.right, depth + 1)}")
        return target

    def conditional(self, t: typed.Conditional, depth: int) -> str:
        condition = self.value(t.condition, depth)
        target = self.local()
        self.emit(depth, f"if {condition}:")
        self.emit(depth + 1, f"{target} = {self.value(t.then_value, depth + 1)}")
        self.emit(depth, "else:")
        self.emit(depth + 1, f"{target} = {self.value(t.else_value, depth + 1)}")
        return target

    def aggregate(self, t: typed.Aggregate, depth: int) -> str:
        if t.kind not in ("any", "all"):
            return self.assign(depth, f"{self.given(self.compiler_of().compile(t), '_c')}(env)")
        return self.quantifier(t, depth)

    def quantifier(self, t: typed.Aggregate, depth: int) -> str:
        """`any` stops at the first item where `where` holds, `all` at the first where it does not
        (the compiler's `_any` and `_all`)."""
        found, saved, item = self.local(), self.local(), self.local()
        var = self.var(t.var)
        wanted = t.kind == "any"
        self.emit(depth, f"{saved} = V.get({t.var!r}, _UNBOUND)")
        self.emit(depth, "try:")
        self.emit(depth + 1, f"{found} = {not wanted}")
        self.loops += 1
        source = self.value(t.source, depth + 1)
        self.emit(depth + 1, f"for {item} in {source}:")
        self.emit(depth + 2, f"{var} = {item}")
        where = self.value(t.where, depth + 2) if t.where is not None else self.given(True)
        self.loops -= 1
        self.emit(depth + 2, f"if {'' if wanted else 'not '}{where}:")
        self.emit(depth + 3, f"{found} = {wanted}")
        self.emit(depth + 3, "break")
        self.emit(depth, "finally:")
        self.emit(depth + 1, f"if {saved} is _UNBOUND:")
        self.emit(depth + 2, f"V.pop({t.var!r}, None)")
        self.emit(depth + 1, "else:")
        self.emit(depth + 2, f"{var} = {saved}")
        return found

    def extremum(self, t: typed.Extremum, depth: int) -> str:
        args = [self.value(arg, depth) for arg in t.args]
        return self.assign(depth, f"{self.given(_PICK[t.kind], '_p')}([{', '.join(args)}])")


def _kept_key(t: typed.Typed, in_loop: bool) -> Any:
    """What identifies a read that may be kept (see the module's docstring): a registered name, a
    field of one (of a field …), a call with such arguments or constants outside a loop; None for
    anything else."""
    if isinstance(t, typed.Global):
        return ("name", t.entry.name)
    if isinstance(t, typed.GetField):
        inner = _kept_key(t.obj, in_loop)
        return None if inner is None else ("field", inner, id(t.field))
    if isinstance(t, typed.CallFunction) and not in_loop:
        args = []
        for arg in t.args:
            constant = _constant(arg)
            key = _kept_key(arg, in_loop) if constant is _VARIES else ("constant", type(constant), repr(constant))
            if key is None:
                return None
            args.append(key)
        return ("call", t.entry.name, *args)
    return None


_WRITERS: dict[type[typed.Typed], Any] = {
    typed.ListOf: Writer.list_of,
    typed.Global: Writer.global_name,
    typed.LoopVar: Writer.loop_var,
    typed.GetField: Writer.get_field,
    typed.CallFunction: Writer.call,
    typed.Unary: Writer.unary,
    typed.Binary: Writer.binary,
    typed.Conditional: Writer.conditional,
    typed.Aggregate: Writer.aggregate,
    typed.Extremum: Writer.extremum,
}
