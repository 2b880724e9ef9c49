"""Every legal whole action of a position, found by one search that forks mid-action.

A whole action is its action, each choice of its part, and a list of repetitions
(`{"action": "network", "card": "leek#1", "links": [{"link": "L04"}, {"link": "L27"}]}`), each
one appliable with `Game.apply`. The search walks the same decision tree `legal_actions()` lists
one level of, with the same preconditions (`decisions.py`):

- the choices of a part are bound and unbound in place: no effect runs until a part is complete;
- a complete part whose effects matter to what comes next (a repeated part follows: the first
  sale's beer decides the second sale) is *forked*: a snapshot of the state is taken, the part's
  effects run, the rest is searched, and the state is put back (`state.Snapshot`);
- the last part of an action runs no effect at all: its choices are the action;
- the repetitions that can follow an action's own part are searched once and shared by every
  value of that part they cannot read (the links of a Network do not depend on its card).

Questions an action's effects ask its player on the way (which of equally near mines) are left to
their default, as `apply` does without `answers`; a search that wants to vary them names the
sources (`coal_from`, docs/engine.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from brass_dsl import Env
from brass_dsl.runtime import ABSENT
from interpreter.engine.checks import Check, judge
from interpreter.engine.decisions import NTH_VAR, DecisionEngine, Pending
from interpreter.engine.errors import IllegalAction
from interpreter.engine.state import Snapshot
from interpreter.engine.values import encode
from interpreter.ruleset.model import Action, ActionPart
from interpreter.ruleset.primitives import ACTION_VAR

if TYPE_CHECKING:
    from interpreter.engine.protocol import DecisionProtocol

Move = dict[str, Any]
T = TypeVar("T")


# A complete assignment of a part's choices: as the decisions that name it, and the values themselves
# by param name, which a fork binds without searching for them again. (A plain tuple: a search makes
# one for every whole action it lists.)
Choice = tuple[Move, dict[str, Any]]

# Functions whose value depends on the cards in a hand: a repeated part that uses none of them (nor
# a choice of the action's own part) is searched once for every value of that part.
HAND_FUNCTIONS = frozenset({"hand"})


@dataclass
class _Found:
    """What the search collects: complete whole actions, in the order `legal_actions` lists."""

    moves: list[Move] = field(default_factory=list)


class WholeActionSearch:
    """Lists every legal whole action of one position of a game (between actions)."""

    def __init__(self, protocol: DecisionProtocol, decisions: DecisionEngine) -> None:
        self.protocol = protocol
        self.decisions = decisions
        self.table = protocol.table
        self._repeat_reads_own_part: dict[str, bool] = {}
        self._steady: dict[int, list[Check]] = {}  # id of a repeated part -> its `_steady_checks`
        # The choices of the next repetition, listed by `repeat_possible` inside a fork (`_listing`)
        # and taken by `_repetitions` right after: one enumeration instead of a search and an enumeration.
        self._listed: list[Choice] | None = None

    def run(self) -> list[Move]:
        found = _Found()
        env = self.decisions.env({})
        for action in self.table.ruleset.actions.values():
            if self._listed_whole(action):
                if self._first_checks_hold(action):
                    self._action(action, found)
            elif self.decisions.action_completable(action, env):
                self._action(action, found)
        return found.moves

    def _listed_whole(self, action: Action) -> bool:
        """Whether listing the action's choices tells whether it can be taken at all, so that no
        search for one completion need come first: an action whose part derives nothing before its
        first choice. (With repetitions too, when its part has a choice: the last is offered only
        when the repeated part it requires can follow, `_bind_from`, so no fork is tried for an
        action that cannot be taken; a part without a choice asks nothing of the kind.)"""
        decisions = self.decisions
        if action.repeat is not None and not action.part.params:
            return False
        return not decisions.plan(decisions.search_part(action.part)).derived_first

    def _first_checks_hold(self, action: Action) -> bool:
        """The preconditions of the action that need none of its choices hold."""
        decisions = self.decisions
        plan = decisions.plan(decisions.search_part(action.part))
        return plan.holds_first(decisions.env({ACTION_VAR: action.id}), decisions.check_memo)

    # -- an action's own part -----------------------------------------------------------------------

    def _action(self, action: Action, found: _Found) -> None:
        protocol = self.protocol
        protocol.pending = Pending(action, {ACTION_VAR: action.id})
        shared: list[list[Move]] | None = None  # the repetitions, when every value of the part shares them
        try:
            for choice in self._part_choices(action.part):
                head = {"action": action.id, **choice[0]}
                if action.repeat is None:
                    found.moves.append(head)
                    continue
                if shared is None:
                    sequences = self._after_part(action.part, lambda: self._repetitions(action), choice)
                    if not self._reads_own_part(action):
                        shared = sequences
                else:
                    sequences = shared
                _add_moves(found.moves, head, action.repeat.name, sequences)
        finally:
            protocol.pending = None

    def _part_choices(self, part: ActionPart) -> list[Choice]:
        """Every complete, legal assignment of the part's choices (from the pending index on);
        nothing stays bound."""
        pending = self.protocol.pending
        assert pending is not None
        out: list[Choice] = []
        # In the order that decides most preconditions earliest (`search_order`): Build tries the
        # industry before the card. The order of a whole action's keys does not matter to `apply`.
        self._bind_from(self.decisions.search_part(part), pending.index, {}, {}, out, self.decisions.env(pending.vars))
        return out

    def _bind_from(self, part: ActionPart, i: int, chosen: Move, values: dict[str, Any], out: list[Choice],
                   env: Env, fresh: bool = False) -> None:
        """Add to `out` every legal completion of the part from param `i` on, the choices before it
        being `chosen` (as decisions) and `values` (bound in `env`). `fresh`: in a state whose memo
        is dropped afterwards (a fork), the preconditions are judged without it."""
        decisions = self.decisions
        if i == len(part.params):
            out.append((dict(chosen), dict(values)))
            return
        plan = decisions.plan(part)
        name = part.params[i].name
        # Only the last choice asks whether the part can be completed (whether the repeated part that
        # must follow it, `plan.then`, can be done): before it, the enumeration of the choices after
        # this one is that search, so asking first would only do its work twice.
        final = i + 1 == len(part.params)
        last = final and plan.then is None
        derived, memo, vars = plan.derived_at[i], decisions.check_memo, env.vars
        holds = decisions.unremembered(plan)[i] if fresh else plan.holds_at[i]
        if last and not derived:  # the commonest innermost loop, alone: each value that holds is a choice
            for value in decisions.domain(part, i, env):
                vars[name] = value
                if holds(env, memo):
                    decided, bound = chosen.copy(), values.copy()
                    if value is not ABSENT:
                        decided[name] = value if value.__class__ is str else encode(value)
                    bound[name] = value
                    out.append((decided, bound))
            vars.pop(name, None)
            return
        # try_value and unbind written out: the hot loop. Each value replaces the one before in `vars`
        # (a derived value too: `bind_derived` binds every one), so they are unbound once, at the end.
        for value in decisions.domain(part, i, env):
            vars[name] = value
            if derived:
                decisions.bind_derived(derived, env)
            if holds(env, memo) and (not final or last or decisions.part_completable(part, env, i + 1)):
                if value is not ABSENT:  # an optional param not asked is named by no decision
                    chosen[name] = value if value.__class__ is str else encode(value)  # (an id is itself)
                values[name] = value
                if last:
                    out.append((chosen.copy(), values.copy()))
                else:
                    self._bind_from(part, i + 1, chosen, values, out, env, fresh)
                chosen.pop(name, None)
                del values[name]
        vars.pop(name, None)
        for derived_name, _ in derived:
            vars.pop(derived_name, None)

    # -- repetitions ------------------------------------------------------------------------------

    def _repetitions(self, action: Action) -> list[list[Move]]:
        """Every legal sequence of repetitions from here (the pending action's repeated part is next)."""
        pending = self.protocol.pending
        repeat = action.repeat
        assert pending is not None and repeat is not None
        sequences: list[list[Move]] = []
        if pending.repeats_done >= repeat.min and not self.decisions.whole_failures(pending):
            sequences.append([])  # done here
        if pending.action is not action or not pending.in_repeat:
            return sequences  # the action ended by itself
        # The last repetition possible needs no effects run, unless checks over the whole action
        # must see it (they are judged when the action ends): the last by `max`, or one after which
        # a precondition that no effect can change forbids another (the Canal Era's one link).
        done = pending.repeats_done
        last = not repeat.whole and ((repeat.max is not None and done + 1 >= repeat.max)
                                     or (done + 1 >= repeat.min and self._none_can_follow(repeat.part, done + 2)))
        snapshot: Snapshot | None = None  # one for every choice: each fork puts the state back as it was
        for choice in self._choices_of_repetition(action):
            if last:
                sequences.append([choice[0]])
                continue
            if snapshot is None:
                snapshot = Snapshot(self.table.state)
            for rest in self._after_part(repeat.part, lambda: self._repetitions(action), choice, snapshot):
                sequences.append([choice[0], *rest])
        return sequences

    def _none_can_follow(self, part: ActionPart, nth: int) -> bool:
        """Whether a steady precondition of the repeated part (`_steady_checks`) forbids its `nth`
        repetition: judged now, before the effects of the one before it, it is what it will be after."""
        checks = self._steady.get(id(part))
        if checks is None:
            checks = self._steady[id(part)] = self._steady_checks(part)
        if not checks:
            return False
        env = self.decisions.env({NTH_VAR: nth})
        return any(judge(check, env) is not True for check in checks)

    def _steady_checks(self, part: ActionPart) -> list[Check]:
        """The preconditions of a repeated part that need none of its choices and read only `nth` and
        names no effect of an action changes (`NameEntry.steady`: the era), calling no function."""
        decisions, registry = self.decisions, self.table.ruleset.registry

        def steady(name: str) -> bool:
            entry = registry.lookup_name(name)
            return name == NTH_VAR or (entry is not None and entry.steady)

        plan = decisions.plan(decisions.search_part(part))
        return [check for check in plan.requires_first
                if not check.requirement.check.functions_used and all(map(steady, check.requirement.check.names_used))]

    def _choices_of_repetition(self, action: Action) -> list[Choice]:
        """The choices of the repetition that comes next: as listed when the fork that led here
        asked whether one is possible, else listed now."""
        assert action.repeat is not None
        listed, self._listed = self._listed, None
        return listed if listed is not None else self._part_choices(action.repeat.part)

    def _after_part(self, part: ActionPart, then: Any, choice: Choice,
                    snapshot: Snapshot | None = None) -> list[list[Move]]:
        """Every sequence that can follow the part's `choice` (see `fork`)."""
        result: list[list[Move]] = self.fork(part, choice, then, ended=[[]], refused=[], listing=True,
                                             snapshot=snapshot)
        return result

    def fork(self, part: ActionPart, choice: Choice, then: Callable[[], T], ended: T, refused: T,
             listing: bool = False, snapshot: Snapshot | None = None) -> T:
        """Bind the part's `choice`, run its effects as `apply` would, and answer with `then()`
        (or `ended` when the action ended with this part, `refused` when its end was refused);
        then put everything back. `listing`: `then` lists the next repetition's choices, so the
        question whether one is possible is answered by listing them (`_list_repetition`).
        `snapshot`: of the state now, taken for an earlier fork from the same state (it is left as
        it was: `Snapshot.restore` copies)."""
        protocol, table = self.protocol, self.table
        pending = protocol.pending
        assert pending is not None
        snapshot, checkpoint = snapshot or Snapshot(table.state), protocol.checkpoint()
        saved = _copy_pending(pending)
        actor = table.me.seat
        watch, protocol.flow.watch = protocol.flow.watch, None  # a trial, not a moment of the game
        lister = self.decisions.lister
        self.decisions.lister = self._list_repetition if listing else None
        # What was derived from the state stays true once it is put back: kept aside, not forgotten.
        derived, memos = table.set_aside_derived(), self.decisions.set_aside_memos()
        answering, table.default_answers = table.default_answers, actor  # (its questions: their defaults)
        try:
            self._bind_all(part, choice[1])
            try:
                protocol.complete_part()
                protocol.answer_own_questions([], actor)
            except IllegalAction:  # the action could not end here (its checks over the whole action)
                return refused
            if protocol.question is not None:  # a question for someone else: nothing follows in this action
                return ended if protocol.pending is None else refused
            if protocol.pending is None:  # the action ended with this part
                return ended
            return then()
        finally:
            table.default_answers = answering
            snapshot.restore(table.state)
            protocol.rollback(checkpoint)  # (it forgets what the trial derived)
            table.bring_back_derived(derived)
            self.decisions.bring_back_memos(memos)
            _put_back(pending, saved)  # the same object: a caller (the protocol) may hold it
            protocol.pending = pending
            protocol.flow.watch = watch
            self.decisions.lister, self._listed = lister, None

    def _list_repetition(self, part: ActionPart, env: Env) -> bool:
        """`repeat_possible` inside a listing fork: whether a repetition of `part` (in search order)
        can follow, found by listing its choices for `_repetitions` (see `DecisionEngine.lister`)."""
        decisions = self.decisions
        plan = decisions.plan(part)
        if plan.derived_first:  # the listing would not see them: ask as usual, list later
            return decisions.part_completable(part, env)
        if not plan.holds_first(env, decisions.check_memo):
            return False
        out: list[Choice] = []
        self._bind_from(part, 0, {}, {}, out, env, fresh=True)  # (the fork drops the memo after)
        self._listed = out
        return bool(out)

    # -- checks over the whole action (`requires_whole`) --------------------------------------------

    def can_end(self, action: Action) -> bool:
        """Between two repetitions of the pending action: whether some sequence of further
        repetitions (perhaps none) ends it with its checks over the whole action holding."""
        pending = self.protocol.pending
        repeat = action.repeat
        assert pending is not None and repeat is not None
        if pending.repeats_done >= repeat.min and not self.decisions.whole_failures(pending):
            return True
        if pending.action is not action or not pending.in_repeat:
            return False
        return any(self.fork(repeat.part, choice, lambda: self.can_end(action), ended=True, refused=False)
                   for choice in self._part_choices(repeat.part))

    def can_end_after(self, action: Action, part: ActionPart, start: int) -> bool:
        """With the pending part's choices bound up to `start` (excluded): whether some way of
        completing it leads to a legal end of the action."""
        pending = self.protocol.pending
        assert pending is not None
        values = {p.name: pending.vars[p.name] for p in part.params[:start]}
        chosen = {name: encode(value) for name, value in values.items() if value is not ABSENT}
        completions: list[Choice] = []
        self._bind_from(part, start, chosen, values, completions, self.decisions.env(pending.vars))
        return any(self.fork(part, choice, lambda: self.can_end(action), ended=True, refused=False)
                   for choice in completions)

    def startable(self, action: Action) -> bool:
        """Whether the action, not begun, can be taken to a legal end (checks over the whole included)."""
        protocol = self.protocol
        protocol.pending = Pending(action, {ACTION_VAR: action.id})
        try:
            return self.can_end_after(action, action.part, 0)
        finally:
            protocol.pending = None

    def _bind_all(self, part: ActionPart, values: dict[str, Any]) -> None:
        """Bind a part's values and its derived values, as its decisions would (they were found
        legal in this very state, so neither the lists of values nor the checks are asked again)."""
        decisions = self.decisions
        pending = self.protocol.pending
        assert pending is not None
        plan = decisions.plan(part)
        env = decisions.env(pending.vars)
        for i, param in enumerate(part.params):
            env.vars[param.name] = values[param.name]
            if plan.derived_at[i]:
                decisions.bind_derived(plan.derived_at[i], env)
        pending.index = len(part.params)

    def _reads_own_part(self, action: Action) -> bool:
        """Whether the repeated part (or its effects) can read a choice of the action's own part or
        a hand: then its repetitions are searched again for each value of that part."""
        found = self._repeat_reads_own_part.get(action.id)
        if found is None:
            assert action.repeat is not None
            own = {p.name for p in action.part.params} | set(action.part.derived)
            names: set[str] = set()
            functions: set[str] = set()
            for expr in _expressions(action.repeat.part):
                names |= expr.names_used
                functions |= expr.functions_used
            found = self._repeat_reads_own_part[action.id] = bool(names & own or functions & HAND_FUNCTIONS)
        return found


def _add_moves(moves: list[Move], head: Move, name: str, sequences: list[list[Move]]) -> None:
    """A whole action per sequence of repetitions: `{**head, name: list(sequence)}`, made faster."""
    copy, append = head.copy, moves.append
    for sequence in sequences:
        move = copy()
        move[name] = sequence.copy()
        append(move)


def _expressions(part: ActionPart) -> list[Any]:
    exprs: list[Any] = [p.domain for p in part.params]
    exprs += [e for e in part.derived.values() if e is not None]
    exprs += [r.check for r in part.requires if r.check is not None]
    for step in part.effects:
        exprs += [v for v in step.args.values() if hasattr(v, "names_used")]
    return exprs


def _put_back(pending: Pending, saved: Pending) -> None:
    """Put the fields of `pending` back as `saved` (a copy) holds them, in the same containers
    (an environment may hold its `vars`)."""
    pending.vars.clear()
    pending.vars.update(saved.vars)
    pending.decisions[:] = saved.decisions
    pending.repetitions[:] = saved.repetitions
    pending.in_repeat, pending.index, pending.repeats_done = saved.in_repeat, saved.index, saved.repeats_done


def _copy_pending(pending: Pending) -> Pending:
    return Pending(pending.action, dict(pending.vars), pending.in_repeat, pending.index, pending.repeats_done,
                   list(pending.decisions), list(pending.repetitions))
