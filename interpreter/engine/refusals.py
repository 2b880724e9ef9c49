"""Why a move is refused: every refusal names at least one rule, with its ID and YAML line.

Where the rule comes from, most specific first:
- a precondition of the part being decided (`requires:` in actions.yaml), judged with every
  choice the whole action names (or the refused value alone) bound as far as it is possible;
- the choice itself, when a named value is not among its values (a param's `rule:`);
- the action, when no precondition can say more (its first `rules:` entry);
- a question's rule, for a refused answer (the step's `rule:`, or the resource's `source_rules`);
- the turn itself (`turns:` in flow.yaml): a move out of turn, something that is not an action;
- the game's end (`game_end.rule`).

Nothing here changes the game; each builder returns the `IllegalAction` to raise.
"""

from __future__ import annotations

from typing import Any

from brass_dsl import Env
from brass_dsl.runtime import ABSENT
from interpreter.engine.decisions import DecisionEngine, Pending
from interpreter.engine.errors import Failure, IllegalAction
from interpreter.engine.table import Table
from interpreter.engine.values import encode, shown
from interpreter.ruleset.model import Action, ActionParam, ActionPart
from interpreter.ruleset.primitives import ACTION_VAR


class Refusals:
    """Explains refused moves of one game."""

    def __init__(self, table: Table, decisions: DecisionEngine) -> None:
        self.table = table
        self.decisions = decisions

    # == the turn and the game =====================================================================

    def turn_failure(self, kind: str, message: str) -> Failure:
        """A failure of the turn itself (`turns: {order, actions}` of flow.yaml)."""
        rs = self.table.ruleset
        return Failure(rs.turn_rules.get(kind), message, rs.where(("turns", kind, "rule")))

    def not_an_action(self, message: str) -> IllegalAction:
        known = ", ".join(self.table.ruleset.actions)
        return IllegalAction(message, [self.turn_failure("actions", f"A move is one of the actions: {known}.")])

    def action_open(self, pending: Pending) -> IllegalAction:
        return IllegalAction("another action is being decided; finish it first", [self.turn_failure(
            "actions", f"{pending.action.name} is being decided: one action is finished before the next begins.")])

    def question_open(self, question: dict[str, Any]) -> IllegalAction:
        message = f"Player {question['player']} answers first: {question['prompt']}"
        return IllegalAction("a question is open; answer it first", [self.turn_failure("order", message)])

    def not_deciding(self, seat: int, deciding: int) -> IllegalAction:
        return IllegalAction(f"player {seat} has no decision to make now",
                             [self.turn_failure("order", f"It is player {deciding}'s decision.")])

    def out_of_turn(self, seat: Any, deciding: int, question: dict[str, Any] | None) -> IllegalAction:
        """A move by `seat` (as the caller gave it: any value) while `deciding` is to move."""
        doing = "answer the open question" if question is not None else "act"
        message = f"It is player {deciding}'s turn to {doing}, not player {shown(seat)}'s."
        return IllegalAction(f"player {shown(seat)} may not move now", [self.turn_failure("order", message)])

    def game_is_over(self) -> IllegalAction:
        return IllegalAction("the game is over", [self.game_over()])

    def game_over(self) -> Failure:
        rs = self.table.ruleset
        rule = rs.game_end.rule if rs.game_end else None
        return Failure(rule, "The game is over: no more actions are taken.", rs.where(("game_end", "rule")))

    # == an action and its choices =================================================================

    def action_failure(self, action: Action, message: str) -> Failure:
        """A failure that only the action's own rule can explain."""
        rule = action.rules[0] if action.rules else None
        return Failure(rule, message, str(action.pos) if action.pos else "")

    def not_possible(self, action: Action, whole: dict[str, Any] | None) -> IllegalAction:
        failures = self.part_failures(None, action, whole) or [self.action_failure(
            action, f"No choice of {_names(action.part.params)} completes a {action.name} now.")]
        return IllegalAction(f"{action.name} is not possible now", failures)

    def wrong_key(self, pending: Pending, param: ActionParam, decision: dict[str, Any]) -> IllegalAction:
        message = f"{pending.action.name} asks for its {param.name} now."
        if param.when is not None:
            message = f"{pending.action.name} asks for its {param.name} now (asked when {param.when.text} holds)."
        return IllegalAction(f"expected a choice of '{param.name}' for {pending.action.name}, got {decision}",
                             [self.action_failure(pending.action, message)])

    def not_asked(self, action: Action, param: ActionParam, decision: dict[str, Any]) -> IllegalAction:
        """A decision names an optional param that was not asked: its `when:` does not hold."""
        message = _not_asked(param)
        return IllegalAction(f"{action.name} does not ask for '{param.name}' here, got {decision}",
                             [self.param_failure(action, param, decision[param.name], message)])

    def not_among(self, pending: Pending, param: ActionParam, wanted: Any,
                  whole: dict[str, Any] | None) -> IllegalAction:
        failures = self.part_failures(pending, pending.action, whole)
        if not any(f.rule for f in failures):
            failures.append(self.param_failure(pending.action, param, wanted))
        return IllegalAction(f"{wanted!r} is not a possible {param.name} here", failures)

    def not_completable(self, pending: Pending, param: ActionParam, wanted: Any,
                        whole: dict[str, Any] | None) -> IllegalAction:
        failures = self.part_failures(pending, pending.action, whole or {param.name: wanted})
        if not failures:
            part = self.decisions.current_part(pending)
            rest = part.params[part.params.index(param) + 1:]
            what = f"no choice of {_names(rest)} completes it" if rest else "its preconditions do not hold"
            failures = [self.action_failure(pending.action, f"With {param.name} {wanted!r}, {what}.")]
        return IllegalAction(f"{pending.action.name}: {param.name} {wanted!r} is not allowed", failures)

    def param_failure(self, action: Action, param: ActionParam, wanted: Any, message: str = "") -> Failure:
        """A named value that is not among a choice's values: the choice's rule, else the action's."""
        message = message or f"{wanted!r} is not a possible {param.name}"
        if param.rule is None:
            return self.action_failure(action, message)
        return Failure(param.rule, message, str(action.pos) if action.pos else "")

    def missing_choice(self, action: Action, name: str, within: str | None = None) -> IllegalAction:
        where = f"each of {within}" if within else action.name
        return IllegalAction(f"{where} needs '{name}'",
                             [self.action_failure(action, f"{action.name} is taken with a choice of {name}.")])

    def malformed(self, action: Action, message: str) -> IllegalAction:
        return IllegalAction(message, [self.action_failure(action, message)])

    def not_done(self, pending: Pending) -> IllegalAction:
        repeat = pending.action.repeat
        if repeat is None:
            message = f"{pending.action.name} has no repeated part to end with 'done'."
        else:
            message = f"{pending.action.name} needs more choices before it is done (at least {repeat.min} of " \
                      f"{repeat.name}, each complete)."
        return IllegalAction("this action needs more choices before it is done",
                             [self.action_failure(pending.action, message)])

    def cannot_start(self, action: Action, failures: list[Failure]) -> IllegalAction:
        """No way of taking the action meets its checks over the whole action."""
        failures = failures or [self.action_failure(action, f"No {action.name} can be taken now.")]
        return self.whole_fails(action, failures)

    def whole_fails(self, action: Action, failures: list[Failure]) -> IllegalAction:
        return IllegalAction(f"{action.name} cannot end like this", failures)

    def whole_unreachable(self, pending: Pending, failures: list[Failure]) -> IllegalAction:
        action = pending.action
        assert action.repeat is not None
        if not failures:  # they hold now, but no way on from this choice keeps them
            requirement = action.repeat.whole[0]
            failures = [Failure(requirement.rule, f"After this choice no {action.name} can meet: "
                                                  f"{self.decisions.render(requirement, self.decisions.env({}))}",
                                str(requirement.pos))]
        return IllegalAction(f"{action.name}: no way on from this choice meets its checks over the whole action",
                             failures)

    def unused_answers(self, action: Action, answers: list[Any]) -> IllegalAction:
        shown = ", ".join(repr(a) for a in answers)
        message = f"{action.name} asked no question that the answer(s) {shown} could answer."
        return IllegalAction(f"{action.name}: answer(s) not asked for: {shown}", [self.action_failure(action, message)])

    def unused_sources(self, action: Action, left: dict[str, list[str]]) -> IllegalAction:
        shown = "; ".join(f"{resource}_from: {', '.join(names)}" for resource, names in left.items())
        message = f"{action.name} took no {', '.join(left)} from the source(s) named last ({shown}): " \
                  f"name one source per unit, in the part that takes it."
        return IllegalAction(f"{action.name}: source(s) not used: {shown}", [self.action_failure(action, message)])

    def extra_repeat(self, ended: Pending, action: Action, whole: dict[str, Any]) -> IllegalAction:
        """The action cannot take one more repetition that `whole` asks for: say why."""
        repeat = action.repeat
        assert repeat is not None
        pending = Pending(action, dict(ended.vars, nth=ended.repeats_done + 1), in_repeat=True,
                          repeats_done=ended.repeats_done)
        failures = self.part_failures(pending, action, whole)
        if not failures and repeat.max is not None and ended.repeats_done >= repeat.max:
            rule = (repeat.rules or action.rules or (None,))[0]
            failures = [Failure(rule, f"{action.name} allows at most {repeat.max} {repeat.name} in one action.",
                                str(action.pos) if action.pos else "")]
        if not failures:
            failures = [self.action_failure(action, f"No further {repeat.name} is possible in this {action.name}.")]
        return IllegalAction(f"{action.name}: no more than {ended.repeats_done} of {repeat.name} possible here",
                             failures)

    # == questions =================================================================================

    def bad_answer(self, question: dict[str, Any], decision: dict[str, Any]) -> IllegalAction:
        given = decision.get("answer", decision)
        excluded = question.get("excluded") or {}
        why = excluded.get(given) if isinstance(given, str) else None
        if why is not None:  # a value the rules exclude here: cite the rule that excludes it, and why
            message = f"{given!r} does not answer: {why['reason']} (answers: {question['options']})."
            return IllegalAction(f"expected an answer to: {question['prompt']}; one of {question['options']}",
                                 [Failure(why["rule"], message, why["where"])])
        message = f"{given!r} does not answer: {question['prompt']} (answers: {question['options']})."
        return IllegalAction(f"expected an answer to: {question['prompt']}; one of {question['options']}",
                             [Failure(question.get("rule"), message, question.get("where", ""))])

    # == the preconditions of a part ===============================================================

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
        failures = self._bind_choices(action, part, choices, env, start=pending.index if pending is not None else 0)
        failures += self.decisions.failures(part, env)
        if not failures and pending is None and repeat is not None and repeat.min > 0:
            repeats = choices.get(repeat.name, [{}])
            first = repeats[0] if isinstance(repeats, list) and repeats else \
                repeats if isinstance(repeats, dict) else {}
            renv = self.decisions.env(dict(env.vars, nth=1))
            failures = self._bind_choices(action, repeat.part, first, renv, 0)
            failures += self.decisions.failures(repeat.part, renv)
            if not failures:
                failures = [self.action_failure(action, f"{action.name} needs at least {repeat.min} of "
                                                        f"{repeat.name}, and none is possible now")]
        return failures

    def _bind_choices(self, action: Action, part: ActionPart, choices: dict[str, Any], env: Env,
                      start: int) -> list[Failure]:
        """Bind the given choices of a part (from param `start` on); report values that are not possible."""
        plan = self.decisions.plan(part)
        self.decisions.bind_derived(plan.derived_first, env)
        failures = []
        for i in range(start, len(part.params)):
            param = part.params[i]
            needs = param.domain.names_used & {p.name for p in part.params}
            if any(n not in env.vars for n in needs):
                continue
            if param.when is not None and self.decisions.domain(part, i, env) == [ABSENT]:
                env.vars[param.name] = ABSENT  # not asked: the checks that read it see it absent
                self.decisions.bind_derived(plan.derived_at[i], env)
                if param.name in choices:
                    failures.append(self.param_failure(action, param, choices[param.name], _not_asked(param)))
                continue
            if param.name not in choices:
                continue
            value = self._decode(part, param, choices[param.name], env)
            if value is None:
                failures.append(self.param_failure(action, param, choices[param.name]))
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


def _not_asked(param: ActionParam) -> str:
    when = param.when.text if param.when is not None else "its condition"
    return f"{param.name} is not asked here: it is asked only when {when} holds, and that does not hold now."


def _names(params: Any) -> str:
    names = [p.name for p in params]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else (names[0] if names else "choices")
