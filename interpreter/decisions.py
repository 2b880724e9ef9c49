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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from brass_dsl import DslError, Env
from interpreter.model import Action, ActionPart, Requirement

if TYPE_CHECKING:
    from interpreter.game import Game

UNAVAILABLE = object()  # a derived value that could not be computed (e.g. no tile left)


@dataclass
class PartPlan:
    """When each derived value and precondition of a part can be evaluated."""

    part: ActionPart
    derived_at: list[list[tuple[str, Any]]]  # per param index: derived values computable once it is bound
    requires_at: list[list[Requirement]]  # per param index: preconditions decided once it is bound
    requires_first: list[Requirement]  # preconditions that need no choice of this part


def plan_part(part: ActionPart) -> PartPlan:
    index = {p.name: i for i, p in enumerate(part.params)}
    derived_level: dict[str, int] = {}
    derived_at: list[list[tuple[str, Any]]] = [[] for _ in part.params]
    for name, expr in part.derived.items():
        if expr is None:
            continue
        level = _level(expr.names_used, index, derived_level)
        derived_level[name] = level
        derived_at[max(level, 0)].append((name, expr)) if part.params else None
    requires_at: list[list[Requirement]] = [[] for _ in part.params]
    first: list[Requirement] = []
    for requirement in part.requires:
        if requirement.check is None:
            continue
        level = _level(requirement.check.names_used, index, derived_level)
        (requires_at[level] if level >= 0 else first).append(requirement)
    return PartPlan(part, derived_at, requires_at, first)


def _level(names: frozenset[str], index: dict[str, int], derived_level: dict[str, int]) -> int:
    levels = [index[n] for n in names if n in index] + [derived_level[n] for n in names if n in derived_level]
    return max(levels, default=-1)


@dataclass
class Failure:
    """A precondition that does not hold, with what the player needs to know."""

    rule: str | None
    message: str
    where: str

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message, "where": self.where}

    def __str__(self) -> str:
        rule = f"[{self.rule}] " if self.rule else ""
        return f"{rule}{self.message} ({self.where})"


@dataclass
class Pending:
    """An action being decided: the choices so far and where we are."""

    action: Action
    vars: dict[str, Any]
    in_repeat: bool = False
    index: int = 0  # next param of the current part
    repeats_done: int = 0
    decisions: list[dict[str, Any]] = field(default_factory=list)


class DecisionEngine:
    """Enumerates and checks decisions for one game."""

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.plans: dict[int, PartPlan] = {}

    def plan(self, part: ActionPart) -> PartPlan:
        plan = self.plans.get(id(part))
        if plan is None:
            plan = self.plans[id(part)] = plan_part(part)
        return plan

    # -- evaluation ------------------------------------------------------------------

    def env(self, vars: dict[str, Any]) -> Env:
        return Env(self.game, vars)

    def holds(self, requirement: Requirement, env: Env) -> bool:
        if any(env.vars.get(n, None) is UNAVAILABLE for n in requirement.check.names_used):
            return False
        try:
            return bool(requirement.check(env))
        except DslError:
            return False

    def bind_derived(self, items: list[tuple[str, Any]], env: Env) -> None:
        for name, expr in items:
            if any(env.vars.get(n) is UNAVAILABLE for n in expr.names_used):
                env.vars[name] = UNAVAILABLE
                continue
            try:
                env.vars[name] = expr(env)
            except DslError:
                env.vars[name] = UNAVAILABLE

    def domain(self, part: ActionPart, i: int, env: Env) -> list[Any]:
        try:
            return list(part.params[i].domain(env))
        except DslError:
            return []

    # -- existence of a completion -------------------------------------------------------------

    def part_completable(self, part: ActionPart, env: Env, start: int = 0) -> bool:
        """Some choice of the params from `start` on meets every precondition of the part."""
        plan = self.plan(part)
        if start == 0 and not all(self.holds(r, env) for r in plan.requires_first):
            return False
        if start >= len(part.params):
            return True
        for value in self.domain(part, start, env):
            if self.try_value(plan, start, value, env) and self.part_completable(part, env, start + 1):
                self.unbind(plan, start, env)
                return True
            self.unbind(plan, start, env)
        return False

    def try_value(self, plan: PartPlan, i: int, value: Any, env: Env) -> bool:
        """Bind param i to value (and derived values); True if its preconditions hold."""
        env.vars[plan.part.params[i].name] = value
        self.bind_derived(plan.derived_at[i], env)
        return all(self.holds(r, env) for r in plan.requires_at[i])

    def unbind(self, plan: PartPlan, i: int, env: Env) -> None:
        env.vars.pop(plan.part.params[i].name, None)
        for name, _ in plan.derived_at[i]:
            env.vars.pop(name, None)

    def action_completable(self, action: Action, env: Env) -> bool:
        if not self.part_completable(action.part, env):
            return False
        return True

    def repeat_possible(self, action: Action, vars: dict[str, Any], done: int) -> bool:
        repeat = action.repeat
        if repeat is None or (repeat.max is not None and done >= repeat.max):
            return False
        env = self.env(dict(vars, nth=done + 1))
        return self.part_completable(repeat.part, env)

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
        return pending.action.repeat.part if pending.in_repeat else pending.action.part

    # -- explaining --------------------------------------------------------------------------

    def failures(self, part: ActionPart, env: Env, upto: int | None = None) -> list[Failure]:
        """Every precondition of the part (bound so far) that does not hold, with its message."""
        plan = self.plan(part)
        levels = [plan.requires_first] + plan.requires_at[: (len(part.params) if upto is None else upto + 1)]
        failed = []
        for requirement in (r for level in levels for r in level):
            if not self.holds(requirement, env):
                failed.append(Failure(requirement.rule, self.render(requirement, env), str(requirement.pos)))
        return failed

    def render(self, requirement: Requirement, env: Env) -> str:
        parts = []
        for text, expr in requirement.message:
            if expr is None:
                parts.append(text)
                continue
            try:
                parts.append(self.game.describe(expr(env)))
            except (DslError, KeyError, AttributeError, TypeError):
                parts.append("?")
        return "".join(parts).strip()
