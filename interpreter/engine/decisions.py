"""Actions as sequences of decisions, checked by the ruleset's own preconditions.

An action of the ruleset is a list of choices (its `params`), then optionally a
part repeated several times. The player makes one decision at a time:

    {"action": "build"}  {"card": "leek#1"}  {"industry": "coal"}  {"location": "leek"}
    {"slot": "leek/1"}                 # the last choice completes the action
    {"done": true}                     # ends a repeated part early (after its minimum)

A precondition is evaluated as soon as every choice it mentions is made (the
compiler tells which names an expression uses), and a value is offered only if
the rest of the action can still be completed. So the list of legal decisions and
the check of a decision come from the same preconditions, and nothing listed
leads into a dead end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from brass_dsl import CompiledExpression, DslError, Env, accelerate
from interpreter.engine.checks import UNAVAILABLE, Check, Holds, all_hold, fused, judge
from interpreter.engine.errors import Failure
from interpreter.engine.table import Table
from interpreter.ruleset.model import Action, ActionPart, Requirement
from interpreter.ruleset.primitives import ACTION_VAR

NTH_VAR = "nth"  # the number of the repetition being decided, from 1 (docs/ruleset-format.md)


@dataclass
class PartPlan:
    """When each derived value and precondition of a part can be evaluated."""

    part: ActionPart
    derived_first: list[tuple[str, Any]]  # derived values that need no choice of this part
    derived_at: list[list[tuple[str, Any]]]  # per param index: derived values computable once it is bound
    requires_at: list[list[Check]]  # per param index: preconditions decided once it is bound
    requires_first: list[Check]  # preconditions that need no choice of this part
    holds_at: list[Holds]  # per param index: `all_hold` of `requires_at`, as one function (`checks.fused`)
    holds_first: Holds  # … of `requires_first`
    then: Any = None  # the repeated part that must be done at least once after this part (or None)
    # `holds_at` without the memo (`checks.fused(remember=False)`), made at its first use (`unremembered`)
    holds_fresh: list[Holds] | None = None


def plan_part(part: ActionPart, is_global: Any) -> PartPlan:
    _accelerate(part)
    index = {p.name: i for i, p in enumerate(part.params)}
    derived_level: dict[str, int] = {}
    derived_first: list[tuple[str, Any]] = []
    derived_at: list[list[tuple[str, Any]]] = [[] for _ in part.params]
    for name, expr in part.derived.items():
        if expr is None:
            continue
        level = _level(expr.names_used, index, derived_level)
        derived_level[name] = level
        (derived_at[level] if level >= 0 else derived_first).append((name, expr))
    requires_at: list[list[Check]] = [[] for _ in part.params]
    first: list[Check] = []
    for requirement in part.requires:
        if requirement.check is None:
            continue
        names = requirement.check.names_used
        level = _level(names, index, derived_level)
        bound = tuple(sorted(n for n in names if not is_global(n)))
        check = Check(requirement, requirement.check.fn, tuple(n for n in names if n in part.derived), bound,
                      bool(requirement.check.functions_used), id(requirement))
        (requires_at[level] if level >= 0 else first).append(check)
    return PartPlan(part, derived_first, derived_at, requires_at, first, [fused(c) for c in requires_at], fused(first))


def _accelerate(part: ActionPart) -> None:
    """Every expression a search of the part evaluates, as one generated function each
    (`brass_dsl.accelerate`): they run in the innermost loops of the engine."""
    for param in part.params:
        accelerate(param.domain)
    for expr in part.derived.values():
        if expr is not None:
            accelerate(expr)
    for requirement in part.requires:
        if requirement.check is not None:
            accelerate(requirement.check)
    for step in part.effects:  # … and its effects' arguments, run by every fork of a search
        for value in step.args.values():
            if isinstance(value, CompiledExpression):
                accelerate(value)


def search_order(part: ActionPart) -> ActionPart:
    """The part with its choices in the order a search for *some* completion tries them.

    Whether a part can be completed does not depend on the order of its choices, only the work
    does: Build asks card, industry, location, slot, but trying the industry first decides the
    preconditions that read only it and the player (tiles left, the era, the price) once per
    industry instead of once per card and industry. Greedily, the next choice is the one that
    makes the most preconditions decidable, never before a choice its list of values reads;
    ties keep the ruleset's order. Returns `part` itself when nothing moves."""
    params = {p.name for p in part.params}
    derived_needs: dict[str, set[str]] = {}
    for name, expr in part.derived.items():  # derived values in order: each may use the ones before
        names = expr.names_used if expr is not None else frozenset()
        derived_needs[name] = {n for n in names if n in params}.union(
            *(derived_needs[n] for n in names if n in derived_needs))

    def needs(names: frozenset[str]) -> set[str]:
        return {n for n in names if n in params}.union(*(derived_needs[n] for n in names if n in derived_needs))

    domain_needs = {p.name: needs(p.domain.names_used) for p in part.params}
    check_needs = [needs(r.check.names_used) for r in part.requires if r.check is not None]
    chosen: set[str] = set()
    order: list[Any] = []
    remaining = list(part.params)
    while remaining:
        ready = [p for p in remaining if domain_needs[p.name] <= chosen]
        if not ready:  # a cycle cannot happen (a list reads earlier choices only); keep the order
            ready = remaining[:1]

        def newly_decided(p: Any) -> int:
            now = chosen | {p.name}
            return sum(1 for n in check_needs if n <= now and not n <= chosen)

        best = max(ready, key=newly_decided)  # max keeps the first of equals
        order.append(best)
        chosen.add(best.name)
        remaining.remove(best)
    if order == list(part.params):
        return part
    return ActionPart(tuple(order), part.derived, part.requires, part.effects)


def _names_read(part: ActionPart, plan: PartPlan, start: int) -> set[str]:
    """Every name the part's lists of values, derived values and preconditions from param `start`
    on read (globals included; the caller drops them)."""
    names: set[str] = set()
    levels = range(start, len(part.params))
    for i in levels:
        names |= part.params[i].domain.names_used
        for _, expr in plan.derived_at[i]:
            names |= expr.names_used
        for check in plan.requires_at[i]:
            names |= check.requirement.check.names_used
    if start == 0:
        for _, expr in plan.derived_first:
            names |= expr.names_used
        for check in plan.requires_first:
            names |= check.requirement.check.names_used
    return names


def _level(names: frozenset[str], index: dict[str, int], derived_level: dict[str, int]) -> int:
    levels = [index[n] for n in names if n in index] + [derived_level[n] for n in names if n in derived_level]
    return max(levels, default=-1)


@dataclass
class Pending:
    """An action being decided: the choices so far and where we are."""

    action: Action
    vars: dict[str, Any]
    in_repeat: bool = False
    index: int = 0  # next param of the current part
    repeats_done: int = 0
    decisions: list[dict[str, Any]] = field(default_factory=list)
    repetitions: list[dict[str, Any]] = field(default_factory=list)  # each done repetition's choices


@dataclass
class _Shared:
    """What the engines of one ruleset make from the ruleset alone, made once for all its games (a
    plan generates code: `checks.fused`, `brass_dsl.accelerate`)."""

    plans: dict[int, PartPlan]
    # an action whose repeated part must be done at least once is complete only with one repetition
    required_repeats: dict[int, ActionPart]
    reads_cache: dict[tuple[int, int], tuple[str, ...]]
    searched: dict[int, ActionPart]  # id of a part -> in search order
    original: dict[int, ActionPart]  # id in search order -> as written


def _shared_by(ruleset: Any) -> _Shared:
    """The ruleset's own `_Shared`, kept with it (as `Ruleset.era` keeps its index): it lives as long
    as the ruleset, and the ids it is keyed by are those of the ruleset's own parts."""
    found: _Shared | None = ruleset.__dict__.get("_decision_plans")
    if found is None:
        required = {id(a.part): a.repeat.part for a in ruleset.actions.values()
                    if a.repeat is not None and a.repeat.min > 0}
        found = ruleset.__dict__["_decision_plans"] = _Shared({}, required, {}, {}, {})
    return found


class DecisionEngine:
    """Enumerates and checks decisions for one game."""

    shared: _Shared  # made from the ruleset alone (shared by every game of it)

    def __init__(self, table: Table, plans: DecisionEngine | None = None) -> None:
        """`plans`: an engine of the same ruleset whose plans (made from the ruleset alone) this
        one shares, as a game's copies do; what is remembered of the state is never shared."""
        self.table = table
        self.memo: dict[tuple[Any, ...], bool] = {}
        self.check_memo: dict[tuple[Any, ...], bool] = {}
        shared = plans.shared if plans else _shared_by(table.ruleset)
        self.shared = shared
        self.plans, self.required_repeats, self.reads_cache = shared.plans, shared.required_repeats, shared.reads_cache
        self.searched, self.original = shared.searched, shared.original
        # Set by a whole-action search while it runs a part's effects to list what follows: it answers
        # `repeat_possible` (for the part in search order, with `nth` bound) by listing the choices.
        self.lister: Callable[[ActionPart, Env], bool] | None = None
        table.on_change(self.forget)

    def plan(self, part: ActionPart) -> PartPlan:
        plan = self.plans.get(id(part))
        if plan is None:
            registry = self.table.ruleset.registry
            plan = self.plans[id(part)] = plan_part(part, lambda n: registry.lookup_name(n) is not None)
            plan.then = self.required_repeats.get(id(self.original.get(id(part), part)))
        return plan

    def unremembered(self, plan: PartPlan) -> list[Holds]:
        """The plan's `holds_at` that neither read nor write the memo: for a search in a state that
        is dropped once its values are judged (a fork), where each is judged once."""
        found = plan.holds_fresh
        if found is None:
            found = plan.holds_fresh = [fused(checks, remember=False) for checks in plan.requires_at]
        return found

    def search_part(self, part: ActionPart) -> ActionPart:
        """The part in the order a search for some completion tries its choices (`search_order`)."""
        found = self.searched.get(id(part))
        if found is None:
            found = self.searched[id(part)] = search_order(part)
            self.original[id(found)] = part
        return found

    # -- evaluation ------------------------------------------------------------------

    def env(self, vars: dict[str, Any]) -> Env:
        return Env(self.table, vars)

    def holds(self, check: Check, env: Env) -> bool:
        """Whether a precondition holds; remembered per state for the values it reads."""
        if not check.remember:
            return self.judge(check, env) is True
        vars = env.vars
        key = (check.ident, *map(vars.get, check.bound))  # map: no Python-level loop on this hot path
        found = self.check_memo.get(key)
        if found is None:
            found = self.check_memo[key] = self.judge(check, env) is True
        return found

    def judge(self, check: Check, env: Env) -> bool | None:
        """Whether a precondition holds; None when it cannot be evaluated (`checks.judge`)."""
        return judge(check, env)

    def bind_derived(self, items: list[tuple[str, Any]], env: Env) -> None:
        for name, expr in items:
            try:
                env.vars[name] = expr.fn(env)
            except (DslError, AttributeError, TypeError):  # e.g. built on another unavailable value
                env.vars[name] = UNAVAILABLE

    def domain(self, part: ActionPart, i: int, env: Env) -> list[Any]:
        try:
            return list(part.params[i].domain.fn(env))
        except (DslError, KeyError):  # KeyError: an earlier choice it needs is not made
            return []

    # -- existence of a completion -------------------------------------------------------------

    def set_aside_memos(self) -> tuple[Any, ...]:
        """What is remembered of the state now, set aside, the memos fresh (see `Table.set_aside_derived`)."""
        kept = (self.memo, self.check_memo)
        self.memo, self.check_memo = {}, {}
        return kept

    def bring_back_memos(self, kept: tuple[Any, ...]) -> None:
        self.memo, self.check_memo = kept

    def forget(self) -> None:
        """Forget what was completable and which preconditions held: the state changed."""
        self.memo.clear()
        self.check_memo.clear()

    def part_completable(self, part: ActionPart, env: Env, start: int = 0) -> bool:
        """Some choice of the params from `start` on meets every precondition of the part."""
        reads = self.reads_cache.get((id(part), start)) or self.reads(part, start)  # (never empty: the action)
        key = (id(part), start, *map(env.vars.get, reads))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._completable(part, env, start)
        return found

    def reads(self, part: ActionPart, start: int) -> tuple[str, ...]:
        """The choices and derived values that the rest of the part (from param `start` on, and a
        repeated part it requires) can read: its completability depends on nothing else of the
        state of the action, so the memo is keyed by these alone (the links of a Network do not
        depend on its card: they are searched once, not once per card)."""
        key = (id(part), start)
        found = self.reads_cache.get(key)
        if found is None:
            names = set(_names_read(part, self.plan(part), start))
            then = self.plan(part).then
            if then is not None:
                names |= _names_read(then, self.plan(then), 0)
            registry = self.table.ruleset.registry
            found = self.reads_cache[key] = (ACTION_VAR, *sorted(n for n in names if registry.lookup_name(n) is None))
        return found

    def _completable(self, part: ActionPart, env: Env, start: int) -> bool:
        plan = self.plans.get(id(part)) or self.plan(part)
        if start == 0:
            self.bind_derived(plan.derived_first, env)
            if not plan.holds_first(env, self.check_memo):
                return False
        if start >= len(part.params):
            return plan.then is None or self._then_completable(plan.then, env)
        # try_value and unbind written out: this loop runs for every value tried in every search
        name = part.params[start].name
        derived, holds, memo, vars = plan.derived_at[start], plan.holds_at[start], self.check_memo, env.vars
        for value in self.domain(part, start, env):
            vars[name] = value
            if derived:
                self.bind_derived(derived, env)
            ok = holds(env, memo) and self.part_completable(part, env, start + 1)
            vars.pop(name, None)
            for derived_name, _ in derived:
                vars.pop(derived_name, None)
            if ok:
                return True
        return False

    def _then_completable(self, part: ActionPart, env: Env) -> bool:
        inner = self.env({**env.vars, NTH_VAR: 1})
        return self.part_completable(self.search_part(part), inner)

    def try_value(self, plan: PartPlan, i: int, value: Any, env: Env) -> bool:
        """Bind param i to value (and derived values); True if its preconditions hold."""
        env.vars[plan.part.params[i].name] = value
        if plan.derived_at[i]:
            self.bind_derived(plan.derived_at[i], env)
        return plan.holds_at[i](env, self.check_memo)

    def all_hold(self, checks: list[Check], env: Env) -> bool:
        """Whether every precondition holds (`checks.all_hold`, with this game's memo)."""
        return all_hold(checks, env, self.check_memo)

    def unbind(self, plan: PartPlan, i: int, env: Env) -> None:
        env.vars.pop(plan.part.params[i].name, None)
        for name, _ in plan.derived_at[i]:
            env.vars.pop(name, None)

    def action_completable(self, action: Action, env: Env) -> bool:
        """The action can be completed: its choices, and its repeated part's minimum (R-SELL-05 …)."""
        env.vars[ACTION_VAR] = action.id
        return self.part_completable(self.search_part(action.part), env)

    def repeat_possible(self, action: Action, vars: dict[str, Any], done: int) -> bool:
        repeat = action.repeat
        if repeat is None or (repeat.max is not None and done >= repeat.max):
            return False
        env = self.env({**vars, NTH_VAR: done + 1})
        if self.lister is not None:
            return self.lister(self.search_part(repeat.part), env)
        return self.part_completable(self.search_part(repeat.part), env)

    # -- listing --------------------------------------------------------------------------

    def legal_values(self, pending: Pending) -> Iterator[Any]:
        part = self.current_part(pending)
        plan = self.plan(part)
        env = self.env(pending.vars)
        for value in self.domain(part, pending.index, env):
            if self.try_value(plan, pending.index, value, env) and self.part_completable(part, env, pending.index + 1):
                yield value
            self.unbind(plan, pending.index, env)

    def current_part(self, pending: Pending) -> ActionPart:
        repeat = pending.action.repeat
        return repeat.part if pending.in_repeat and repeat is not None else pending.action.part

    # -- explaining --------------------------------------------------------------------------

    def failures(self, part: ActionPart, env: Env, upto: int | None = None) -> list[Failure]:
        """Every precondition of the part (bound so far) that does not hold, with its message."""
        plan = self.plan(part)
        levels = [plan.requires_first] + plan.requires_at[: (len(part.params) if upto is None else upto + 1)]
        failed: list[Failure] = []
        unjudged: list[Failure] = []
        for check in (c for level in levels for c in level):
            if any(name not in env.vars for name in check.bound):
                continue  # it reads a choice that was not made: it cannot be judged
            verdict = self.judge(check, env)
            if verdict is not True:
                requirement = check.requirement
                failure = Failure(requirement.rule, self.render(requirement, env), str(requirement.pos))
                (failed if verdict is False else unjudged).append(failure)
        # A check that could not be evaluated is a consequence of another failure when there is one
        # (a third rail link has no price: the limit of two links explains it).
        return failed or unjudged

    # -- checks over the whole action ---------------------------------------------------------

    def whole_failures(self, pending: Pending) -> list[Failure]:
        """The action's `requires_whole` checks that do not hold over its repetitions so far."""
        repeat = pending.action.repeat
        if repeat is None or not repeat.whole:
            return []
        env = self.env({**pending.vars, repeat.name: list(pending.repetitions)})
        failed = []
        for requirement in repeat.whole:
            try:
                holds = requirement.check.fn(env) is True
            except DslError:
                holds = False
            if not holds:
                failed.append(Failure(requirement.rule, self.render(requirement, env), str(requirement.pos)))
        return failed

    def render(self, requirement: Requirement, env: Env) -> str:
        parts = []
        for text, expr in requirement.message:
            if expr is None:
                parts.append(text)
                continue
            try:
                parts.append(self.table.describe(expr(env), expr.type.name))
            except (DslError, KeyError, AttributeError, TypeError):
                parts.append("?")
        return "".join(parts).strip()
