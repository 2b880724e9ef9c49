"""Why a decision is refused: every failed precondition, with its rule, message and YAML line.

A refused decision is explained by the part of the action being decided: the choices the
whole action names (or the refused value alone) are bound as far as they are possible, and
every precondition that can then be judged and does not hold is reported. Nothing here changes
the game.
"""

from __future__ import annotations

from typing import Any

from brass_dsl import Env
from interpreter.engine.decisions import DecisionEngine, Pending
from interpreter.engine.errors import Failure
from interpreter.engine.table import Table
from interpreter.engine.values import encode
from interpreter.ruleset.model import Action, ActionParam, ActionPart
from interpreter.ruleset.primitives import ACTION_VAR


class Refusals:
    """Explains refused decisions of one game."""

    def __init__(self, table: Table, decisions: DecisionEngine) -> None:
        self.table = table
        self.decisions = decisions

    def part_failures(self, pending: Pending | None, action: Action, whole: dict[str, Any] | None) -> list[Failure]:
        """Every failed precondition of the part being decided (`pending`, or the action's start
        when None), with all its choices from `whole` bound."""
        choices = dict(whole or {})
        repeat = action.repeat
        if pending is not None and pending.in_repeat and repeat is not None:
            done = pending.repeats_done
            repeats = choices.get(repeat.name, [])
            repeats = [repeats] if isinstance(repeats, dict) else repeats
            choices = dict(repeats[done]) if done < len(repeats) else dict(whole or {})
        part = repeat.part if pending is not None and pending.in_repeat and repeat is not None else action.part
        env = self.decisions.env(dict(pending.vars) if pending is not None else {ACTION_VAR: action.id})
        failures = self._bind_choices(part, choices, env, start=pending.index if pending is not None else 0)
        failures += self.decisions.failures(part, env)
        if not failures and pending is None and repeat is not None and repeat.min > 0:
            repeats = choices.get(repeat.name, [{}])
            first = repeats[0] if isinstance(repeats, list) and repeats else \
                repeats if isinstance(repeats, dict) else {}
            renv = self.decisions.env(dict(env.vars, nth=1))
            failures = self._bind_choices(repeat.part, first, renv, 0)
            failures += self.decisions.failures(repeat.part, renv)
            if not failures:
                failures = [Failure(None, f"{action.name} needs at least {repeat.min} of "
                                          f"{repeat.name}, and none is possible now", "")]
        return failures

    def extra_repeat_failures(self, ended: Pending, action: Action, whole: dict[str, Any]) -> list[Failure]:
        """Why the action that just ended cannot take one more repetition that `whole` asks for."""
        repeat = action.repeat
        assert repeat is not None
        pending = Pending(action, dict(ended.vars, nth=ended.repeats_done + 1), in_repeat=True,
                          repeats_done=ended.repeats_done)
        failures = self.part_failures(pending, action, whole)
        if not failures and repeat.max is not None and ended.repeats_done >= repeat.max:
            rule = (repeat.rules or action.rules or (None,))[0]
            failures = [Failure(rule, f"{action.name} allows at most {repeat.max} {repeat.name} in one action.", "")]
        return failures

    def _bind_choices(self, part: ActionPart, choices: dict[str, Any], env: Env, start: int) -> list[Failure]:
        """Bind the given choices of a part (from param `start` on); report values that are not possible."""
        plan = self.decisions.plan(part)
        self.decisions.bind_derived(plan.derived_first, env)
        failures = []
        for i in range(start, len(part.params)):
            param = part.params[i]
            needs = param.domain.names_used & {p.name for p in part.params}
            if param.name not in choices or any(n not in env.vars for n in needs):
                continue
            value = self._decode(part, param, choices[param.name], env)
            if value is None:
                failures.append(Failure(None, f"{choices[param.name]!r} is not a possible {param.name}", ""))
                # Bound anyway when it names a real thing, so that the preconditions say why it is
                # not possible (a location card's own town: R-BUILD-02), not only that it is not.
                value = self._any_of_type(param.type, choices[param.name])
                if value is None:
                    continue
            env.vars[param.name] = value
            self.decisions.bind_derived(plan.derived_at[i], env)
        return failures

    def _decode(self, part: ActionPart, param: ActionParam, wanted: Any, env: Env) -> Any:
        i = part.params.index(param)
        for value in self.decisions.domain(part, i, env):
            if encode(value) == wanted:
                return value
        return None

    def _any_of_type(self, type_name: str, wanted: Any) -> Any:
        """The value of a param's type named by `wanted` (an id), whether or not it may be chosen now.

        Cards and slots are objects at run time; locations, industries and links are their ids."""
        if not isinstance(wanted, str):
            return None
        if type_name in ("card", "slot"):
            return (self.table.cards if type_name == "card" else self.table.slots).get(wanted)
        rs = self.table.ruleset
        ids: Any = {"location": rs.locations, "industry": rs.industries, "link": rs.links}.get(type_name, ())
        return wanted if wanted in ids else None
