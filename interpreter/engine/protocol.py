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
from typing import Any, Protocol

from brass_dsl.runtime import ABSENT
from interpreter.engine.decisions import DecisionEngine, Pending
from interpreter.engine.flow import Flow
from interpreter.engine.refusals import Refusals
from interpreter.engine.table import Table
from interpreter.engine.values import encode
from interpreter.ruleset.model import Action
from interpreter.ruleset.primitives import ACTION_VAR

Decision = dict[str, Any]


class EndSearch(Protocol):
    """The search that tells whether an action with checks over its whole can still end legally
    (`whole_actions.WholeActionSearch`, given to the protocol by `Game`)."""

    def startable(self, action: Action) -> bool: ...
    def can_end_after(self, action: Action, part: Any, start: int) -> bool: ...


def _has_whole_checks(action: Action) -> bool:
    return action.repeat is not None and bool(action.repeat.whole)


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
        self.ends: EndSearch | None = None  # the search deciding whether an action can still end legally
        self._whole: Decision | None = None  # the whole action being fed, if any
        self._wanted_repeats = 0  # … and how many repetitions it asks for
        self._skipped: dict[str, Any] = {}  # optional params passed over since the last decision, by name
        self._draws_at_start = 0  # face-down tiles drawn before the action being decided began
        self._log_at_start = len(table.state.log)  # … and the log's length then
        # Feeding a whole action on trust (`Game._apply_whole`): its own later choices prove that each
        # choice can be completed, so no search for a completion is made; a refusal is judged again.
        self.trusting = False
        self._provable: dict[str, bool] = {}

    @property
    def committed(self) -> bool:
        """Whether the action being decided has drawn a face-down tile: its result is public now, so
        the action can no longer be taken back (nor, in a whole action, refused: see `feed`)."""
        return self.pending is not None and self._drew_since_start()

    def _drew_since_start(self) -> bool:
        """Whether a face-down tile was drawn since the last action began (it may have ended since).
        The log is read too: an action that ends its era, or the game, draws and then sees the end
        shuffle the drawn tiles back, so the count alone can fall below where it started."""
        if self.table.draws_made() > self._draws_at_start:
            return True
        return any(entry.get("event") == "drawn" for entry in self.table.state.log[self._log_at_start:])

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
                    if self.decisions.action_completable(a, env) and self._can_start(a)]
        return self._pending_choices(self.pending)

    def _pending_choices(self, pending: Pending) -> list[Decision]:
        part = self.decisions.current_part(pending)
        name = part.params[pending.index].name
        if _has_whole_checks(pending.action):
            choices = [{name: v} for v in self._values_ending_legally(pending)]
        else:
            choices = [{name: encode(v)} for v in self.decisions.legal_values(pending)]
        repeat = pending.action.repeat
        if pending.in_repeat and pending.index == 0 and repeat is not None and pending.repeats_done >= repeat.min \
                and not self.decisions.whole_failures(pending):
            choices.append({"done": True})
        return choices

    # == checks over the whole action (`requires_whole`) ===========================================

    def _can_start(self, action: Action) -> bool:
        """An action with checks over its whole is offered only if some way of taking it meets them."""
        return not _has_whole_checks(action) or self.ends is None or self.ends.startable(action)

    def _values_ending_legally(self, pending: Pending) -> list[Any]:
        """The legal values of the next choice after which the action can still end legally."""
        part = self.decisions.current_part(pending)
        plan, env = self.decisions.plan(part), self.decisions.env(pending.vars)
        found = []
        for value in list(self.decisions.legal_values(pending)):
            self.decisions.try_value(plan, pending.index, value, env)
            if self._can_end_after(pending, part):
                found.append(encode(value))
            self.decisions.unbind(plan, pending.index, env)
        return found

    def _can_end_after(self, pending: Pending, part: Any) -> bool:
        """With the pending part's next choice bound: some completion ends the action legally."""
        return self.ends is None or self.ends.can_end_after(pending.action, part, pending.index + 1)

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
            raise self.refusals.bad_answer(question, decision)
        self.moves.append(decision)
        self.flow.answer(question["key"], decision["answer"])

    def _start_action(self, decision: Decision, whole: Decision | None) -> None:
        name = decision.get("action") if set(decision) == {"action"} else None
        action = self.table.ruleset.actions.get(name) if isinstance(name, str) else None
        if action is None and whole is not None:
            self._refuse_not_asked(decision)  # the action it belongs to ended after passing over it
        if action is None:
            first = next(iter(self.table.ruleset.actions), "")
            raise self.refusals.not_an_action(f"choose an action first, e.g. {{'action': '{first}'}}; "
                                              f"actions: {', '.join(self.table.ruleset.actions)}")
        env = self.decisions.env({})
        if not (self._first_checks_hold(action) if self._trusted(action) else
                self.decisions.action_completable(action, env)):
            raise self.refusals.not_possible(action, whole)
        if not self._can_start(action):
            untaken = Pending(action, {ACTION_VAR: action.id})
            raise self.refusals.cannot_start(action, self.decisions.whole_failures(untaken))
        self.pending = Pending(action, {ACTION_VAR: action.id})
        self.moves.append(decision)
        self._skipped = {}
        self._draws_at_start = self.table.draws_made()
        self._log_at_start = len(self.table.state.log)
        self._after_choice()

    def _choose(self, decision: Decision, whole: Decision | None) -> None:
        pending = self.pending
        assert pending is not None
        part = self.decisions.current_part(pending)
        param = part.params[pending.index]
        if set(decision) != {param.name}:
            self._refuse_not_asked(decision)
            raise self.refusals.wrong_key(pending, param, decision)
        wanted = decision[param.name]
        env = self.decisions.env(pending.vars)
        candidates = [v for v in self.decisions.domain(part, pending.index, env) if encode(v) == wanted]
        if not candidates:
            raise self.refusals.not_among(pending, param, wanted, whole)
        plan = self.decisions.plan(part)
        value = candidates[0]
        ok = self.decisions.try_value(plan, pending.index, value, env)
        if not ok or not self._completable_after(part, env, pending):
            self.decisions.unbind(plan, pending.index, env)
            raise self.refusals.not_completable(pending, param, wanted, whole)
        if _has_whole_checks(pending.action) and not self._can_end_after(pending, part):
            self.decisions.unbind(plan, pending.index, env)
            raise self.refusals.whole_unreachable(pending, self.decisions.whole_failures(pending))
        pending.index += 1
        pending.decisions.append(decision)
        self.moves.append(decision)
        self._skipped = {}
        self._after_choice()

    # == a whole action on trust ======================================================================

    def _trusted(self, action: Action) -> bool:
        """Whether the choices of the action being fed may stand as the proof that it can be
        completed: feeding on trust, and an action whose completions its decisions show exactly (no
        checks over the whole action, no optional choice, nothing derived before the first choice)."""
        if not self.trusting:
            return False
        found = self._provable.get(action.id)
        if found is None:
            decisions = self.decisions
            parts = [action.part] + ([action.repeat.part] if action.repeat is not None else [])
            found = self._provable[action.id] = not _has_whole_checks(action) and all(
                all(p.when is None for p in part.params)
                and not decisions.plan(decisions.search_part(part)).derived_first for part in parts)
        return found

    def _first_checks_hold(self, action: Action) -> bool:
        """On trust, in place of `action_completable`: its checks that need no choice (the choices that
        follow prove the rest)."""
        plan = self.decisions.plan(self.decisions.search_part(action.part))
        return plan.holds_first(self.decisions.env({ACTION_VAR: action.id}), self.decisions.check_memo)

    def _completable_after(self, part: Any, env: Any, pending: Pending) -> bool:
        """The part can still be completed after the choice just bound; on trust, the choices that
        follow prove it, except after the last (a repeated part that must follow is judged then)."""
        if pending.index + 1 < len(part.params) and self._trusted(pending.action):
            return True
        return self.decisions.part_completable(part, env, pending.index + 1)

    def _refuse_not_asked(self, decision: Decision) -> None:
        """Refuse a decision naming an optional param passed over since the last decision, saying why."""
        skipped = [self._skipped[name] for name in decision if name in self._skipped]
        ended = self.pending or self._ended
        if skipped and ended is not None:
            raise self.refusals.not_asked(ended.action, skipped[0], decision)

    def complete_part(self) -> None:
        """The pending part's choices are all bound (by a search): run its effects and what follows."""
        self._after_choice()

    def answer_own_questions(self, answers: list[Any], actor: int) -> None:
        """Answer the open questions of the pending action asked of `actor` (see `feed`)."""
        self._answer_own_questions(answers, actor)

    def _after_choice(self) -> None:
        """When a part's choices are complete, queue its effects, then its bookkeeping."""
        pending = self.pending
        assert pending is not None
        part = self.decisions.current_part(pending)
        self._skip_absent(pending, part)
        if pending.index < len(part.params):
            return
        self.flow.queue_steps(part.effects, pending.vars)
        self.flow.queue("part_done")
        self.flow.run()

    def _skip_absent(self, pending: Pending, part: Any) -> None:
        """Bind the next optional params whose `when:` does not hold to ABSENT: they are not asked,
        and no decision names them (docs/ruleset-format.md, optional params)."""
        if pending.index >= len(part.params) or part.params[pending.index].when is None:
            return
        plan, env = self.decisions.plan(part), self.decisions.env(pending.vars)
        while pending.index < len(part.params) and part.params[pending.index].when is not None \
                and self.decisions.domain(part, pending.index, env) == [ABSENT]:
            self.decisions.try_value(plan, pending.index, ABSENT, env)
            self._skipped[part.params[pending.index].name] = part.params[pending.index]
            pending.index += 1

    def _part_done(self) -> None:
        """A part's effects are done: another repetition may follow, or the action ends."""
        pending = self.pending
        assert pending is not None
        self._check_sources_used(pending.action)
        part = self.decisions.current_part(pending)
        if pending.in_repeat:
            pending.repeats_done += 1
            pending.repetitions.append({p.name: pending.vars.get(p.name) for p in part.params
                                        if pending.vars.get(p.name) is not ABSENT})
            for name in [p.name for p in part.params] + list(part.derived):
                pending.vars.pop(name, None)
        pending.index = 0
        action = pending.action
        if action.repeat is not None and self.decisions.repeat_possible(action, pending.vars, pending.repeats_done):
            pending.in_repeat = True
            pending.vars["nth"] = pending.repeats_done + 1
            return
        if self._whole is not None and self._wanted_repeats > pending.repeats_done:
            # Judged now, while it is still this player's action: once it ends the turn may pass on.
            if not self.committed:
                raise self.refusals.extra_repeat(pending, action, self._whole)
            # It drew a face-down tile and ended by itself (a Distant Market sale reaching X ends the
            # Sell): the repetitions still asked for are not done, and the action is not refused.
            # Refusing it would put the tile back, seen by the mover alone, who could then act
            # knowing it: a move whose outcome depends on a hidden draw is legal or not before the
            # draw. (The moves record what was done, so a replay of them gives the same game.)
            self._wanted_repeats = pending.repeats_done
        self._check_whole(pending)
        self._end_action()

    def _check_whole(self, pending: Pending) -> None:
        """The action ends: its checks over the whole action must hold."""
        failures = self.decisions.whole_failures(pending)
        if failures:
            raise self.refusals.whole_fails(pending.action, failures)

    def _check_sources_used(self, action: Action) -> None:
        """Every source a whole action named for this part was taken (sourcing.md: `{resource}_from`)."""
        left = self.table.named_sources.unused()
        self.table.named_sources.clear()
        if left:
            raise self.refusals.unused_sources(action, left)

    def _end_action(self) -> None:
        assert self.pending is not None
        self.table.default_answers = None  # what follows the action is not its own to answer
        self.table.note("action", player=self.table.me.seat, action=self.pending.action.id)
        self._ended = self.pending
        self.pending = None
        self.flow.queue("after_action")

    def _finish_repeats(self) -> None:
        pending = self.pending
        assert pending is not None
        repeat = pending.action.repeat
        if repeat is None or pending.repeats_done < repeat.min or pending.index != 0 or not pending.in_repeat:
            raise self.refusals.not_done(pending)
        self._check_whole(pending)
        self.moves.append({"done": True})
        self._end_action()
        self.flow.run()

    # == going back ================================================================================

    def checkpoint(self) -> tuple[int, Pending | None]:
        """What `rollback` needs to forget the decisions taken after this point (between actions)."""
        return len(self.moves), self._ended

    def rollback(self, checkpoint: tuple[int, Pending | None]) -> None:
        """Forget every decision taken since `checkpoint`, the state having been put back by the caller."""
        moves, self._ended = checkpoint
        del self.moves[moves:]
        self.pending, self._whole, self._wanted_repeats, self._skipped = None, None, 0, {}
        self.flow.reset()
        self.table.named_sources.clear()
        self.table.changed()

    # == a whole action ============================================================================

    def feed(self, action: Decision) -> None:
        """Take a whole action decision by decision. Its `answers` answer, in order, the questions
        the action itself asks its player; a question for another player, or one asked after the
        action ended (which tiles to remove for unpaid income at the round's end), stays open for
        its player. Its `{resource}_from` lists name the source of each unit taken. An answer or a
        source no question or step used is refused."""
        found = self._whole_action(action)
        answers = self._answers(found, action)
        actor = self.table.me.seat
        self._whole, self._wanted_repeats = action, len(self._repetitions(found, action))
        try:
            for decision, part_choices in self._decisions_and_parts(found, action):
                self._answer_own_questions(answers, actor)
                if decision == {"done": True} and (self.pending is None or not self.pending.in_repeat):
                    continue  # the repeated part already ended by itself
                self.table.named_sources.name(id(part_choices), self._named_sources(found, part_choices))
                self.apply_decision(decision, whole=action)
            self._answer_own_questions(answers, actor)
        finally:
            self._whole, self._wanted_repeats = None, 0
            self.table.named_sources.clear()
        if answers:
            raise self.refusals.unused_answers(found, answers)

    def _answer_own_questions(self, answers: list[Any], actor: int) -> None:
        """Answer the open questions of the action being fed, asked of its player, from `answers`,
        else with the default (the first option)."""
        while (question := self.flow.question) is not None and self.pending is not None \
                and question["player"] == actor:
            self._answer({"answer": answers.pop(0) if answers else question["options"][0]})

    def _answers(self, found: Action, action: Decision) -> list[Any]:
        """A copy of the answers a whole action gives (a list)."""
        answers = action.get("answers", [])
        if not isinstance(answers, list):
            raise self.refusals.malformed(found, f"the answers of a whole {found.name} are a list, not {answers!r}")
        return list(answers)

    def decisions_of(self, action: Decision) -> Iterator[Decision]:
        """The decisions of a whole action, one by one, as `feed` takes them; a whole action that
        `feed` would refuse for its shape (its answers, its named sources) is refused first."""
        found = self._whole_action(action)
        self._answers(found, action)
        for part_choices in [action, *self._repetitions(found, action)]:
            self._named_sources(found, part_choices)
        for decision, _ in self._decisions_and_parts(found, action, taken_from=len(self.moves)):
            yield decision

    def _whole_action(self, action: Decision) -> Action:
        """The action a whole action names; its keys must all mean something to it."""
        name = action.get("action")
        found = self.table.ruleset.actions.get(name) if isinstance(name, str) else None
        if found is None:
            known = ", ".join(self.table.ruleset.actions)
            raise self.refusals.not_an_action(f"unknown action {name!r}; actions: {known}")
        allowed = {"action", "answers", *self._source_keys(), *(p.name for p in found.part.params)}
        if found.repeat is not None:
            allowed.add(found.repeat.name)
        unknown = sorted(str(k) for k in action if k not in allowed)
        if unknown:
            raise self.refusals.malformed(found, f"a whole {found.name} has no choice called {', '.join(unknown)} "
                                                 f"(its keys: {', '.join(sorted(allowed))})")
        return found

    def _repetitions(self, found: Action, action: Decision) -> list[Decision]:
        """The repetitions a whole action asks for (one mapping, or a list of them)."""
        if found.repeat is None:
            return []
        repeats = action.get(found.repeat.name, [])
        repeats = [repeats] if isinstance(repeats, dict) else repeats
        if not isinstance(repeats, list) or not all(isinstance(r, dict) for r in repeats):
            raise self.refusals.malformed(found, f"the {found.repeat.name} of a whole {found.name} are a list of "
                                                 f"mappings, not {action[found.repeat.name]!r}")
        allowed = {*self._source_keys(), *(p.name for p in found.repeat.part.params)}
        for repetition in repeats:
            unknown = sorted(str(k) for k in repetition if k not in allowed)
            if unknown:
                raise self.refusals.malformed(found, f"each of {found.repeat.name} has no choice called "
                                                     f"{', '.join(unknown)} (its keys: {', '.join(sorted(allowed))})")
        return repeats

    def _decisions_and_parts(self, found: Action, action: Decision,
                             taken_from: int | None = None) -> Iterator[tuple[Decision, Decision]]:
        """Each decision of a whole action with the mapping of the part it belongs to. Whether another
        repetition is open depends on the decisions before it having been taken: for a caller that
        takes them itself (`decisions_of`), `taken_from` is the number of moves before the first."""
        yield {"action": found.id}, action
        for param in found.part.params:
            if param.name not in action:
                if param.when is not None:  # optional: if it is asked, the next decision is refused
                    continue
                raise self.refusals.missing_choice(found, param.name)
            yield {param.name: action[param.name]}, action
        if found.repeat is None:
            return
        for repetition in self._repetitions(found, action):
            if taken_from is not None and len(self.moves) == taken_from:
                raise self.refusals.malformed(found, f"the decisions of a whole {found.name} are taken one at a "
                                                     f"time: apply each before asking for the next")
            if self.pending is None or self.pending.action is not found:
                if self._drew_since_start():
                    return  # the rest is not done: see `_part_done`
                self._no_more_repeats(found, action)
            for param in found.repeat.part.params:
                if param.name not in repetition and param.when is not None:
                    continue  # optional: as above
                if param.name not in repetition:
                    raise self.refusals.missing_choice(found, param.name, within=found.repeat.name)
                yield {param.name: repetition[param.name]}, repetition
        if self.pending is not None and self.pending.action is found:
            yield {"done": True}, action

    def _source_keys(self) -> list[str]:
        return [f"{resource}_from" for resource in self.table.ruleset.resources]

    def _named_sources(self, found: Action, part_choices: Decision) -> dict[str, list[Any]]:
        """The sources a part of a whole action names, by resource (`coal_from: [dudley/0, market]`)."""
        named = {}
        for resource in self.table.ruleset.resources:
            value = part_choices.get(f"{resource}_from")
            if value is None:
                continue
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise self.refusals.malformed(found, f"{resource}_from lists a source (a slot, or 'market') for each "
                                                     f"{resource} taken, not {value!r}")
            named[resource] = list(value)
        return named

    def _no_more_repeats(self, action: Action, whole: Decision) -> None:
        """The action ended by itself, but the whole action asks for another repetition: say why not."""
        ended = self._ended
        assert ended is not None and action.repeat is not None
        raise self.refusals.extra_repeat(ended, action, whole)
