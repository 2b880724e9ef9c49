"""The heuristic bot: an experienced player's judgement, one action at a time, with no search.

At the start of each action it lists every legal whole action of the position (`whole_actions`),
keeps the kinds the knowledge admits (`admitted`: no loan that does not pay), ranks them all with
their quick values (`whole_value`: what the action gains, minus what it costs, minus the worth of
the cards it discards, `Appraiser.card_keep`), plays the best few of each kind out on
one copy of the game consistent with what the seat sees (`view.determinize`), judges each
resulting position with `brass_knowledge.Outlook.estimate`, and takes the best. It remembers that
action and returns its decisions one by one on the following calls; should one of them no longer
be legal (an answer it gave to a question changed what follows) it decides the rest of the action
decision by decision (`decision_value`); a question put inside an effect it answers with
`answer_value`.

All it knows of Brass is in the `brass_knowledge` modules (docs/bots.md); this module only
organises the choice, and names no action, industry or resource of the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from interpreter.engine.errors import IllegalAction
from interpreter.engine.rng import Rng
from interpreter.ruleset.bot_params import HeuristicParams
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.knowledge.worth import (
    Appraiser,
    Outlook,
    admitted,
    answer_value,
    decision_value,
    discard_gain,
    whole_value,
)

if TYPE_CHECKING:
    from interpreter.engine.view import SeatView

Decision = dict[str, Any]
GroupKey = tuple[Any, ...]

DONE = {"done": True}


class HeuristicBot:
    """Plans each action like an experienced player (see the module's docstring), with the
    judgements `params`; None (the default): the parameters of the ruleset it plays."""

    name = "heuristic"

    def __init__(self, seed: int, params: HeuristicParams | None = None) -> None:
        self.rng = Rng(seed)
        self.params = params
        self._action: str | None = None  # the action being carried out
        self._plan: list[Decision] = []  # its decisions still to return
        self._taken: list[Decision] = []  # its decisions returned so far (after the action's own)
        # a list here collects each action judged, with its score
        self.notes: list[tuple[float, Decision]] | None = None

    def choose(self, view: SeatView) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("there is no legal decision (is the game over?)")
        if view.question is not None:
            return answer(view, legal, self.params)
        if view.pending is None:
            return self._start(view, legal)
        return self._continue(view, legal)

    # -- an action, planned whole ------------------------------------------------------------------

    def _start(self, view: SeatView, legal: list[Decision]) -> Decision:
        whole = self.plan(view)
        steps = decisions_of(view.ruleset, whole) if whole is not None else []
        if not steps or steps[0] not in legal:
            self._plan = []
            return legal[0]
        self._action, self._plan, self._taken = whole["action"] if whole else None, steps[1:], []
        return steps[0]

    def _continue(self, view: SeatView, legal: list[Decision]) -> Decision:
        pending = view.pending
        on_plan = (pending is not None and pending.action.id == self._action
                   and list(pending.decisions) == self._taken)
        if on_plan and self._plan and self._plan[0] in legal:
            step = self._plan.pop(0)
            self._taken.append(step)
            return step
        if on_plan and not self._plan and DONE in legal:
            return DONE
        self._plan = []
        return decide_alone(view, legal, self.params)

    def plan(self, view: SeatView) -> Decision | None:
        """The whole action to take: the best of the shortlist, judged on a copy of the game."""
        wholes = view.whole_actions()
        if not wholes:
            return None
        appraiser = Appraiser(view.table, view.seat, self.params)
        kinds = admitted(appraiser, {whole["action"] for whole in wholes})
        wholes = [whole for whole in wholes if whole["action"] in kinds] or wholes
        shortlist = shortlisted(view.ruleset, appraiser, wholes)
        if len(shortlist) <= 1:
            return shortlist[0][1] if shortlist else wholes[0]
        game = view.determinize(self.rng)
        best, best_score = shortlist[0][1], -float("inf")
        for discarded, whole in shortlist:
            after = game.copy()
            try:
                after.apply(whole)
            except IllegalAction:
                continue  # cannot happen (the copy agrees with the view); judged safe anyway
            score = Outlook(after.table, params=appraiser.params).estimate(view.seat) - discarded
            if self.notes is not None:
                self.notes.append((score, whole))
            if score > best_score:
                best, best_score = whole, score
        return best


# -- the shortlist ---------------------------------------------------------------------------------

def shortlisted(ruleset: Ruleset, appraiser: Appraiser, wholes: list[Decision]) -> list[tuple[float, Decision]]:
    """The actions worth a closer look, each with the worth of the cards it discards: the best
    `looks` by quick value, and the best of each other kind within `kind_margin` of the best (the
    quick values of different kinds are the least comparable; the appraiser's parameters)."""
    looks, margin = appraiser.params.looks, appraiser.params.kind_margin
    ranked = sorted(candidates(ruleset, appraiser, wholes), key=lambda c: -c[0])
    chosen: list[tuple[float, Decision]] = []
    seen: set[str] = set()
    for value, discarded, whole in ranked:
        kind = whole["action"]
        if len(chosen) < looks or (kind not in seen and value >= ranked[0][0] - margin):
            chosen.append((discarded, whole))
        seen.add(kind)
    return chosen


def candidates(ruleset: Ruleset, appraiser: Appraiser, wholes: list[Decision]) -> list[tuple[float, float, Decision]]:
    """Each different way of acting with its quick value and the worth of the cards it discards.

    Actions that differ only in the cards discarded do the same on the board: of those, only the
    one discarding the cards least worth keeping is kept."""
    hand = appraiser.me.hand
    keep = {c.id: appraiser.card_keep(c, hand) for c in hand}
    cards_of = {kind: card_params(ruleset, kind) for kind in ruleset.actions}
    gains = {kind: discard_gain(appraiser, kind) for kind in ruleset.actions}
    cheapest: dict[GroupKey, tuple[float, Decision]] = {}
    for whole in wholes:
        kind = whole["action"]
        cards = cards_of[kind]
        key = group_key(whole, cards)
        discarded = sum(keep.get(whole[c], 0.0) for c in cards if c in whole) - gains[kind]
        held = cheapest.get(key)
        if held is None or discarded < held[0]:
            cheapest[key] = (discarded, whole)
    return [(whole_value(appraiser, whole) - discarded, discarded, whole) for discarded, whole in cheapest.values()]


# Keyed by the ruleset's id and holding the ruleset: an id is reused once its object is gone, so a
# hit is only a hit for the very same ruleset (a stale entry made bots of the next ruleset misjudge).
_CARD_PARAMS: dict[tuple[int, str], tuple[Ruleset, tuple[str, ...]]] = {}


def card_params(ruleset: Ruleset, action_id: str) -> tuple[str, ...]:
    """The choices of an action that name a card of the hand."""
    key = (id(ruleset), action_id)
    found = _CARD_PARAMS.get(key)
    if found is None or found[0] is not ruleset:
        action = ruleset.actions[action_id]
        found = _CARD_PARAMS[key] = (ruleset, tuple(p.name for p in action.part.params if p.type == "card"))
    return found[1]


def group_key(whole: Decision, cards: Iterable[str]) -> GroupKey:
    """What a whole action does on the board: everything but the cards it discards. (A whole
    action's repetitions are mappings of plain values; the engine lists keys in a fixed order.)"""
    return tuple(tuple(tuple(part.items()) for part in value) if type(value) is list else value
                 for key, value in whole.items() if key not in cards)


def decisions_of(ruleset: Ruleset, whole: Decision) -> list[Decision]:
    """The decisions of a whole action in the order they are taken (without the final `done`,
    which is given only if the action is still open)."""
    action = ruleset.actions[whole["action"]]
    steps: list[Decision] = [{"action": action.id}]
    # (an optional param that is not asked is not in the whole action: no decision names it)
    steps += [{p.name: whole[p.name]} for p in action.part.params if p.name in whole]
    if action.repeat is not None:
        for part in whole.get(action.repeat.name, []):
            steps += [{p.name: part[p.name]} for p in action.repeat.part.params if p.name in part]
    return steps


# -- decisions without a plan ----------------------------------------------------------------------

def answer(view: SeatView, legal: list[Decision], params: HeuristicParams | None = None) -> Decision:
    """A question inside an effect, answered with the knowledge's `answer_value`."""
    question = view.question or {}
    appraiser = Appraiser(view.table, view.seat, params)
    return max(legal, key=lambda d: answer_value(appraiser, question, d.get("answer")))


def decide_alone(view: SeatView, legal: list[Decision], params: HeuristicParams | None = None) -> Decision:
    """One decision of an action without a plan (a fresh bot in the middle of an action, or a plan
    that no longer fits): the best by the knowledge's `decision_value` of what it chooses."""
    appraiser = Appraiser(view.table, view.seat, params)
    return max(legal, key=lambda d: decision_value(view, appraiser, d))
