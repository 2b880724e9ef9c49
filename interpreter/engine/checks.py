"""Preconditions prepared for the searches: each with what it reads, and those decided at one choice
of a part judged together by one generated function.

A search asks, for every value it tries, whether every precondition decided at that choice holds
(`all_hold`). That question is asked hundreds of thousands of times a game, so each list of
preconditions is also written out as one Python function (`fused`, with brass_dsl's `codegen`):
the memo look-up, the check of unavailable derived values and each expression itself inline, in the
same order and with the same outcome as `all_hold`, without a call per precondition.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from brass_dsl import DslError, Env
from brass_dsl.codegen import Writer, enabled
from brass_dsl.compiler import _Compiler
from interpreter.ruleset.model import Requirement

UNAVAILABLE = object()  # a derived value that could not be computed (e.g. no tile left)
Holds = Callable[[Env, dict[tuple[Any, ...], bool]], bool]  # (env, memo) -> every precondition holds


@dataclass(frozen=True, slots=True)
class Check:
    """A precondition prepared for fast evaluation: its closure and the derived values it needs."""

    requirement: Requirement
    fn: Any
    derived: tuple[str, ...]
    bound: tuple[str, ...]  # the choices and derived values it reads: its result depends only on them and the state
    remember: bool  # worth remembering: it calls functions (cheap field tests are faster to redo)
    ident: int  # the key of its results in the memo (one per requirement, whichever plan holds it)


def judge(check: Check, env: Env) -> bool | None:
    """Whether a precondition holds; None when it cannot be evaluated (a value it reads does
    not exist here, e.g. the price of a third link): such a check never holds."""
    if check.derived:
        vars = env.vars
        for name in check.derived:
            if vars.get(name) is UNAVAILABLE:
                return None
    try:
        return bool(check.fn(env))
    except DslError:
        return None


def all_hold(checks: list[Check], env: Env, memo: dict[tuple[Any, ...], bool]) -> bool:
    """Whether every precondition holds; those worth it are remembered in `memo` per state for the
    values they read. Written out because this is the innermost loop of every search."""
    vars = env.vars
    for check in checks:
        if check.remember:
            key = (check.ident, *map(vars.get, check.bound))  # map: no Python-level loop on this hot path
            found = memo.get(key)
            if found is None:
                found = memo[key] = judge(check, env) is True
        elif check.derived:
            found = judge(check, env) is True
        else:
            try:
                found = check.fn(env) is True  # a checked expression of type bool
            except DslError:
                found = False  # it cannot be evaluated here: it does not hold
        if not found:
            return False
    return True


def fused(checks: list[Check], remember: bool = True) -> Holds:
    """`all_hold` of these checks as one generated function (or `all_hold` itself, when
    expressions are not generated: BRASS_NO_CODEGEN=1). `remember=False`: the same verdicts, with
    nothing looked up in the memo or written to it (for a state whose memo is dropped right after
    each value is judged once: a search inside a fork)."""
    if not checks:
        return _none_to_hold
    if not enabled():
        return functools.partial(all_hold, checks)
    writer = Writer()
    writer.reads_vars = True
    writer.names.update(_DslError=DslError, _UNAVAILABLE=UNAVAILABLE)
    for check in checks:
        expression = check.requirement.check
        if expression.generable and expression.tree is not None:
            writer.count_reads(expression.tree)
    for check in checks:
        _write_check(writer, check, remember)
    writer.emit(1, "return True")
    first = checks[0].requirement.pos
    holds: Holds = writer.function("_holds(env, memo)", f"preconditions {first}" if first else "preconditions")
    return holds


def _none_to_hold(env: Env, memo: dict[tuple[Any, ...], bool]) -> bool:
    return True


def _write_check(writer: Writer, check: Check, remember: bool) -> None:
    """One check of `all_hold`: remembered or not, then `return False` unless it holds."""
    found = writer.local()
    if check.remember and not remember:  # `judge(check, env) is True`, as the memo would have it
        _write_judge(writer, check, found, 1)
    elif check.remember:
        key = writer.local()
        reads = "".join(f"V.get({name!r}), " for name in check.bound)
        writer.emit(1, f"{key} = ({writer.given(check.ident)}, {reads})")
        writer.emit(1, f"{found} = memo.get({key})")
        writer.emit(1, f"if {found} is None:")
        _write_judge(writer, check, found, 2)
        writer.emit(2, f"memo[{key}] = {found}")
    elif check.derived:
        _write_judge(writer, check, found, 1)
    else:  # `check.fn(env) is True`, False when it cannot be evaluated
        _write_evaluation(writer, check, found, 1, lambda value: f"{value} is True")
    writer.emit(1, f"if not {found}:")
    writer.emit(2, "return False")


def _write_judge(writer: Writer, check: Check, found: str, depth: int) -> None:
    """`judge(check, env) is True` into `found`."""
    if check.derived:
        unavailable = " or ".join(f"V.get({name!r}) is _UNAVAILABLE" for name in check.derived)
        writer.emit(depth, f"if {unavailable}:")
        writer.emit(depth + 1, f"{found} = False")
        writer.emit(depth, "else:")
        depth += 1
    _write_evaluation(writer, check, found, depth, lambda value: f"bool({value})")


def _write_evaluation(writer: Writer, check: Check, found: str, depth: int, verdict: Callable[[str], str]) -> None:
    """`found = verdict(the check's value)` inside `try`, False on a DslError."""
    expression = check.requirement.check
    writer.emit(depth, "try:")
    if expression.generable and expression.tree is not None:
        value = writer.value(expression.tree, depth + 1, _Compiler(expression.text, expression.origin))
    else:  # a function not made from its tree: called as it is
        value = writer.assign(depth + 1, f"{writer.given(check.fn, '_x')}(env)")
    writer.emit(depth + 1, f"{found} = {verdict(value)}")
    writer.emit(depth, "except _DslError:")
    writer.emit(depth + 1, f"{found} = False")
