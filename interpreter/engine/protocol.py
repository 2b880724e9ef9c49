"""The decision protocol: what may be decided next, taking one decision, feeding a whole action.

An action is a sequence of decisions (`decisions.py` says which values are legal): its
`{"action": …}`, then each choice of its part, then each repetition of its repeated part,
ended by `{"done": true}` or by itself. A question asked inside an effect (which equally near
mine, which tiles to remove for unpaid income) is answered with `{"answer": …}`. A whole action
(`{"action": "build", "card": …, …}`) is fed through the same path one decision at a time.

When a decision is refused, `refusals.py` says why: every failed precondition of the part being
decided, with the choices the whole action named bound.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.engine.decisions import DecisionEngine, Pending
from interpreter.engine.errors import IllegalAction
from interpreter.engine.flow import Flow
from interpreter.engine.refusals import Refusals
from interpreter.engine.table import Table
from interpreter.engine.values import encode
from interpreter.ruleset.model import Action
from interpreter.ruleset.primitives import ACTION_VAR

Decision = dict[str, Any]


class DecisionProtocol:
    """The decisions of one game: the action being decided, the moves made, and what comes next."""

    def __init__(self, table: Table, decisions: DecisionEngine) -> None:
        self.table = table
        self.decisions = decisions
        self.flow = Flow(table, part_done=self._part_done)
        self.refusals = Refusals(table, decisions)
        self.pending: Pending | None = None  # the action being decided
        self.moves: list[Decision] = []  # every decision taken, in order: the game record
        self._ended: Pending | None = None  # the last action, for explaining a refused extra repetition

    @property
    def question(self) -> dict[str, Any] | None:
        return self.flow.question

    # == what may be decided next =================================================================

    def legal_decisions(self) -> list[Decision]:
        """Every legal next decision (see `decisions.py`)."""
        if self.flow.question is not None:
            return [{"answer": option} for option in self.flow.question["options"]]
        if self.pending is None:
            env = self.decisions.env({})
            return [{"action": a.id} for a in self.table.ruleset.actions.values()
                    if self.decisions.action_completable(a, env)]
        return self._pending_choices(self.pending)

    def _pending_choices(self, pending: Pending) -> list[Decision]:
        part = self.decisions.current_part(pending)
        name = part.params[pending.index].name
        choices: list[Decision] = [{name: encode(v)} for v in self.decisions.legal_values(pending)]
        repeat = pending.action.repeat
        if pending.in_repeat and pending.index == 0 and repeat is not None and pending.repeats_done >= repeat.min:
            choices.append({"done": True})
        return choices

    # == one decision ==============================================================================

    def apply_decision(self, decision: Decision, whole: Decision | None = None) -> None:
        """Take one decision; `whole` is the whole action it comes from, to explain a refusal."""
        if self.flow.question is not None:
            return self._answer(decision)
        if self.pending is None:
            return self._start_action(decision, whole)
        if decision == {"done": True}:
            return self._finish_repeats()
        self._choose(decision, whole)

    def _answer(self, decision: Decision) -> None:
        question = self.flow.question
        assert question is not None
        if set(decision) != {"answer"} or decision["answer"] not in question["options"]:
            raise IllegalAction(f"expected an answer to: {question['prompt']}; one of {question['options']}")
        self.moves.append(decision)
        self.flow.answer(question["key"], decision["answer"])

    def _start_action(self, decision: Decision, whole: Decision | None) -> None:
        name = decision.get("action") if set(decision) == {"action"} else None
        action = self.table.ruleset.actions.get(name) if isinstance(name, str) else None
        if action is None:
            raise IllegalAction(f"choose an action first, e.g. {{'action': 'build'}}; "
                                f"actions: {', '.join(self.table.ruleset.actions)}")
        env = self.decisions.env({})
        if not self.decisions.action_completable(action, env):
            raise IllegalAction(f"{action.name} is not possible now",
                                self.refusals.part_failures(None, action, whole))
        self.pending = Pending(action, {ACTION_VAR: action.id})
        self.moves.append(decision)
        self._after_choice()

    def _choose(self, decision: Decision, whole: Decision | None) -> None:
        pending = self.pending
        assert pending is not None
        part = self.decisions.current_part(pending)
        param = part.params[pending.index]
        if set(decision) != {param.name}:
            raise IllegalAction(f"expected a choice of '{param.name}' for {pending.action.name}, got {decision}")
        wanted = decision[param.name]
        env = self.decisions.env(pending.vars)
        candidates = [v for v in self.decisions.domain(part, pending.index, env) if encode(v) == wanted]
        if not candidates:
            raise IllegalAction(f"{wanted!r} is not a possible {param.name} here",
                                self.refusals.part_failures(pending, pending.action, whole))
        plan = self.decisions.plan(part)
        value = candidates[0]
        ok = self.decisions.try_value(plan, pending.index, value, env)
        if not ok or not self.decisions.part_completable(part, env, pending.index + 1):
            self.decisions.unbind(plan, pending.index, env)
            failures = self.refusals.part_failures(pending, pending.action, whole or {param.name: wanted})
            raise IllegalAction(f"{pending.action.name}: {param.name} {wanted!r} is not allowed", failures)
        pending.index += 1
        pending.decisions.append(decision)
        self.moves.append(decision)
        self._after_choice()

    def _after_choice(self) -> None:
        """When a part's choices are complete, queue its effects, then its bookkeeping."""
        pending = self.pending
        assert pending is not None
        part = self.decisions.current_part(pending)
        if pending.index < len(part.params):
            return
        self.flow.queue_steps(part.effects, pending.vars)
        self.flow.queue("part_done")
        self.flow.run()

    def _part_done(self) -> None:
        """A part's effects are done: another repetition may follow, or the action ends."""
        pending = self.pending
        assert pending is not None
        part = self.decisions.current_part(pending)
        if pending.in_repeat:
            pending.repeats_done += 1
            for name in [p.name for p in part.params] + list(part.derived):
                pending.vars.pop(name, None)
        pending.index = 0
        action = pending.action
        if action.repeat is not None and self.decisions.repeat_possible(action, pending.vars, pending.repeats_done):
            pending.in_repeat = True
            pending.vars["nth"] = pending.repeats_done + 1
            return
        self._end_action()

    def _end_action(self) -> None:
        assert self.pending is not None
        self.table.note("action", player=self.table.me.seat, action=self.pending.action.id)
        self._ended = self.pending
        self.pending = None
        self.flow.queue("after_action")

    def _finish_repeats(self) -> None:
        pending = self.pending
        assert pending is not None and pending.action.repeat is not None
        if pending.repeats_done < pending.action.repeat.min or pending.index != 0 or not pending.in_repeat:
            raise IllegalAction("this action needs more choices before it is done")
        self.moves.append({"done": True})
        self._end_action()
        self.flow.run()

    # == a whole action ============================================================================

    def feed(self, action: Decision) -> None:
        """Take a whole action decision by decision; its `answers` answer the questions in order."""
        answers = list(action.get("answers", []))
        for decision in self.decisions_of(action):
            self._answer_questions(answers)
            if decision == {"done": True} and (self.pending is None or not self.pending.in_repeat):
                continue  # the repeated part already ended by itself
            self.apply_decision(decision, whole=action)
        self._answer_questions(answers)

    def _answer_questions(self, answers: list[Any]) -> None:
        """Answer open questions from a whole action's `answers`, else with the default (the first option)."""
        while self.flow.question is not None:
            self._answer({"answer": answers.pop(0) if answers else self.flow.question["options"][0]})

    def decisions_of(self, action: Decision) -> Iterator[Decision]:
        """The decisions of a whole action, one by one, as `feed` takes them."""
        found = self.table.ruleset.actions.get(action["action"])
        if found is None:
            known = ", ".join(self.table.ruleset.actions)
            raise IllegalAction(f"unknown action '{action['action']}'; actions: {known}")
        yield {"action": found.id}
        for param in found.part.params:
            if param.name not in action:
                raise IllegalAction(f"{found.name} needs '{param.name}'")
            yield {param.name: action[param.name]}
        if found.repeat is None:
            return
        repeats = action.get(found.repeat.name, [])
        if isinstance(repeats, dict):
            repeats = [repeats]
        for repetition in repeats:
            if self.pending is None or self.pending.action is not found:
                self._no_more_repeats(found, action)
            for param in found.repeat.part.params:
                if param.name not in repetition:
                    raise IllegalAction(f"each of {found.repeat.name} needs '{param.name}'")
                yield {param.name: repetition[param.name]}
        if self.pending is not None and self.pending.action is found:
            yield {"done": True}

    def _no_more_repeats(self, action: Action, whole: Decision) -> None:
        """The action ended by itself, but the whole action asks for another repetition: say why not."""
        ended = self._ended
        assert ended is not None and action.repeat is not None
        failures = self.refusals.extra_repeat_failures(ended, action, whole)
        raise IllegalAction(f"{action.name}: no more than {ended.repeats_done} of {action.repeat.name} "
                            f"possible here", failures)
