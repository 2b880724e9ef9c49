"""The one loop of what happens by itself: effect steps, and the end of a turn, a round, an era
and the game, as the ruleset's `flow` says.

Everything automatic is a task in one queue, run in order by `Flow.run`:

- `("step", step, vars)`: an effect step of an action or of a round, era or game end;
- `("part_done",)`: an action's choices and effects are complete (the decision protocol decides
  whether a repetition follows or the action ends);
- `("after_action",)`, `("after_round",)`, `("after_era",)`, `("finish",)`: the bookkeeping after
  an action, a round, an era, and the game's end; `("after_last_round",)` after an era's last round
  whose era end steps ran before the round's (`end_before_round_end`).

A step that needs a player's choice stops the loop with an open `question`; once it is answered
the loop runs the same step again, with the answer, and goes on. Every step is written to the game
log by what it changes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from brass_dsl import Env
from interpreter.engine.effect_impls import IMPLS
from interpreter.engine.errors import StuckGame
from interpreter.engine.table import NeedDecision, Table
from interpreter.ruleset.effects import EFFECTS
from interpreter.ruleset.model import EffectStep

Task = tuple[Any, ...]


def start_turn(table: Table) -> None:
    """The current player's actions this turn: the era's number, or its first-round number in round 1 (R-TURN-02/03)."""
    state = table.state
    era = table.ruleset.eras[state.era_index]
    state.actions_left = era.first_round_actions if state.round == 1 else era.actions_per_turn


def _arguments(step: EffectStep, kept: dict[int, Any]) -> list[tuple[str, Any, bool]]:
    """A step's arguments but `when`, each with whether it is evaluated before the step runs (a
    literal, or an expression the effect evaluates itself with its own variables, is passed as it
    is); worked out once per step of a ruleset and kept in `kept` (the ruleset's, with the step:
    its id stays its own)."""
    found = kept.get(id(step))
    if found is None:
        spec = EFFECTS[step.name]
        arguments = []
        for name, value in step.args.items():
            if name != "when":
                param = spec.param(name)
                arguments.append((name, value, not (param and (param.literal or param.binds))))
        found = kept[id(step)] = (step, arguments)
    return found[1]


class Flow:
    """Runs the automatic tasks of one game until a player must decide something or the game ends."""

    def __init__(self, table: Table, part_done: Callable[[], None]) -> None:
        self.table = table
        self.tasks: deque[Task] = deque()
        self._arguments: dict[int, Any] = table.ruleset.__dict__.setdefault("_step_arguments", {})
        self.question: dict[str, Any] | None = None  # the open question of the step now running
        # Told the kind of each bookkeeping task just before it runs (`after_action`: an action's
        # effects are done, its end-of-turn steps not yet): a reader's hook, it may not change the state.
        self.watch: Callable[[str], None] | None = None
        self._handlers: dict[str, Callable[[], None]] = {
            "part_done": part_done, "after_action": self._after_action, "after_round": self._after_round,
            "after_era": self._after_era, "after_last_round": self._after_last_round, "finish": self._finish,
        }

    # == the loop =================================================================================

    def run(self) -> None:
        """Run automatic tasks until a player must decide something or the game ends."""
        table = self.table
        dirty = True  # what the engine derived may be out of date: forget it before the next task
        while self.tasks:
            if dirty:
                table.changed()
            kind, *payload = self.tasks[0]
            try:
                if kind == "step":
                    self._run_step(*payload)
                else:
                    if self.watch is not None:
                        self.watch(kind)
                    self._handlers[kind]()
            except NeedDecision as need:
                self.question = need.question
                return
            # The end of a part changes only the action being decided, never the state: what was
            # found while judging whether a repetition can follow stays true for the search after it.
            dirty = kind != "part_done"
            self.tasks.popleft()
            table.answers.clear()
            self.question = None
        if dirty:
            table.changed()  # the last step changed the state too

    def reset(self) -> None:
        """Drop every queued task and the open question (the game was put back to an earlier point)."""
        self.tasks.clear()
        self.question = None
        self.table.answers.clear()
        self.table.step = None

    def answer(self, key: str, answer: Any) -> None:
        """Answer the open question and run on."""
        self.table.answers[key] = answer
        self.run()

    def queue_steps(self, steps: Iterable[EffectStep], vars: dict[str, Any]) -> None:
        self.tasks.extend(("step", step, dict(vars)) for step in steps)

    def queue(self, kind: str) -> None:
        """Queue a bookkeeping task (`part_done`, `after_action`, …)."""
        self.tasks.append((kind,))

    def _run_step(self, step: EffectStep, vars: dict[str, Any]) -> None:
        table = self.table
        env = Env(table, dict(vars))
        if "when" in step.args and not step.args["when"](env):
            return
        args = {}
        for name, value, evaluated in _arguments(step, self._arguments):
            args[name] = value(env) if evaluated else value
        table.step = step
        try:
            follow = IMPLS[step.name](table, env, args)
        finally:
            table.step = None
        for n, extra in enumerate(follow or (), start=1):  # right after the step now running
            self.tasks.insert(n, ("step", extra, {}))

    # == turns, rounds, eras, the end =============================================================

    def _after_action(self) -> None:
        table = self.table
        table.state.actions_left -= 1
        if table.state.actions_left > 0 and table.me.hand:
            return
        drawn = table.refill_hand(table.me)  # R-TURN-08: after all of the turn's actions
        table.note("end of turn", player=table.me.seat, drew=len(drawn))
        self._next_player()

    def _next_player(self) -> None:
        self.table.state.turn_index += 1
        self._first_player_with_cards()

    def _first_player_with_cards(self) -> None:
        """From the current turn position, skip players without cards (they have no turn); end the round
        if none is left."""
        table = self.table
        state = table.state
        if state.turn_index == 0 and state.deck and all(not p.hand for p in state.players):
            era = table.ruleset.eras[state.era_index].name
            raise StuckGame(f"the game cannot go on: round {state.round} of the {era} "
                            f"begins with no card in any hand and {len(state.deck)} in the draw deck, and hands are "
                            "refilled only at the end of a turn; the ruleset's flow must deal the hands (e.g. "
                            "`deal_hands` at the end of the era before)")
        while state.turn_index < len(state.turn_order) and not table.me.hand:
            state.turn_index += 1
        if state.turn_index >= len(state.turn_order):
            self._end_round()
            return
        start_turn(table)

    def _end_round(self) -> None:
        """Queue the round's end steps; after an era's last round, the era's end steps too: after the
        round's, or before them where the era says so (`end_before_round_end`: Warfrog's Brass scores
        the Canal Era before the last round's turn order and income)."""
        table = self.table
        era = table.ruleset.eras[table.state.era_index]
        if era.end_before_round_end and table.era_exhausted():
            self.queue_steps(era.end, {})
            self.queue_steps(table.ruleset.round_end, {})
            self.queue("after_last_round")
            return
        self.queue_steps(table.ruleset.round_end, {})
        self.queue("after_round")

    def _after_round(self) -> None:
        table = self.table
        state = table.state
        table.note("end of round", era=table.era, round=state.round)
        if table.era_exhausted():
            era = table.ruleset.eras[state.era_index]
            self.queue_steps(era.end, {})
            self.queue("after_era")
            return
        state.round += 1
        state.turn_index = 0
        self._first_player_with_cards()

    def _after_last_round(self) -> None:
        """The era's last round and the era itself are over (their steps ran, the era's first)."""
        self.table.note("end of round", era=self.table.era, round=self.table.state.round)
        self._after_era()

    def _after_era(self) -> None:
        table = self.table
        state = table.state
        table.note("end of era", era=table.era, vp={p.seat: p.vp for p in state.players})
        if table.in_last_era():
            assert table.ruleset.game_end is not None  # in_last_era() holds only when there is a game end
            self.queue_steps(table.ruleset.game_end.scoring, {})
            self.queue("finish")
            return
        state.era_index += 1
        state.round = 1
        state.turn_index = 0
        table.set_aside()
        self._first_player_with_cards()

    def _finish(self) -> None:
        self.table.state.finished = True
        self.table.note("game over", standings=self.table.standings())
