"""The search bot: information-set MCTS (`mcts.py`) over the whole actions of Brass.

Between actions the bot searches: every iteration deals the cards it cannot see at random
(`view.determinize`), walks a tree of whole actions — its own and the other players' — adds one,
plays a short rollout with a policy bot and scores the position for every seat with an evaluation.
It then plays the chosen action's decisions one by one on the following `choose` calls. A decision
it did not plan (an action it did not start, a question asked of it at the end of a round) is the
policy's.

What this module adds to the generic search, and only here is it about Brass:

- a move is a whole action written as the decisions the engine records for it (`Decisions`), so
  that the search's actions, the policy's and the ones played in the real game are the same thing;
- the bot's own moves, as long as it has drawn no card since the root, are all its whole actions,
  with those that differ only by the card discarded folded into one (513 → 46 in a typical position)
  and ordered by the policy's own choice first, then by the evaluation one action ahead;
- the other players' moves, and the bot's after it drew an unknown card, are the policy's choice in
  that world (listing and scoring every action there would cost 40 ms an iteration);
- the value of a position for a seat is its evaluation minus the best other seat's, in units of
  `value_scale` VP: the search plays to win, not to score.

The policy and the evaluation are parameters (`SearchBot(..., policy=, evaluate=)`); `search_parts`
finds the best available: the heuristic bot and `brass_knowledge.estimate` when they exist, else
the caller's fallback policy and the VP of `standings()`.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from interpreter.engine.rng import Rng
from interpreter.tools.mcts import Budget, SearchResult, Settings, halving_search, search

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.engine.state import GameState
    from interpreter.engine.view import SeatView

Decision = dict[str, Any]
Decisions = tuple[Decision, ...]  # a whole action, as the decisions the engine records for it
CARD_KEYS = ("card", "second_card", "third_card")


class Policy(Protocol):
    """A bot: the rollout policy, the other players' model and the bot's own unplanned decisions."""

    name: str

    def choose(self, game: SeatView) -> Decision: ...


PolicyFactory = Callable[[int], Policy]
Evaluation = Callable[[Any, int], float]  # (a game or a view, seat) → expected final VP, roughly
# (game, seat, its whole actions) → the few worth searching, each with the worth of the cards it
# discards (in VP), best first or in any order: the search orders them by the evaluation
Shortlist = Callable[["Game", int, list[Decision]], list[tuple[float, Decision]]]


@dataclass(frozen=True)
class SearchParts:
    """What the search uses besides the rules, each replaceable (`search_parts` picks them)."""

    policy: PolicyFactory  # the bot's own decisions it did not plan (questions, a half-made action)
    rollout: PolicyFactory  # the other seats' moves in the tree, and the rollouts
    evaluate: Evaluation  # a seat's expected final VP in a position
    shortlist: Shortlist  # the bot's own whole actions worth searching
    estimates: bool  # whether `evaluate` estimates the final VP (else it counts VP scored so far)


def vp_evaluation(game: Game, seat: int) -> float:
    """The simplest evaluation: the seat's VP now (exact at the end of the game)."""
    return float(next(row["vp"] for row in game.standings() if row["seat"] == seat))


def one_per_way(game: Game, seat: int, actions: list[Decision]) -> list[tuple[float, Decision]]:
    """The plain shortlist: every way of acting once (`representatives`), no card judged."""
    return [(0.0, action) for action in representatives(game, actions)]


def search_parts(fallback: PolicyFactory) -> SearchParts:
    """The best parts available: the heuristic bot (its decisions, its shortlist of whole actions)
    and `brass_knowledge.estimate` when they exist, else `fallback` as the policy, every way of
    acting as the shortlist and the VP of `standings()` as the evaluation.

    The heuristic bot and its knowledge are written separately and may be missing: they are looked
    up by module name when a bot is made, because they import `bots.py`, which imports this module
    to register the search bot (a static import would be a cycle)."""
    heuristic = _optional("interpreter.tools.bots_heuristic", "HeuristicBot")
    estimate = _optional("interpreter.tools.brass_knowledge", "estimate")
    shortlist = _heuristic_shortlist()
    policy = heuristic or fallback
    rollout = policy if os.environ.get("T13_ROLLOUT") == "policy" else fallback  # EXPERIMENT
    return SearchParts(policy=policy, rollout=rollout, evaluate=estimate or vp_evaluation,
                       shortlist=shortlist or one_per_way, estimates=estimate is not None)


def _heuristic_shortlist() -> Shortlist | None:
    """The heuristic bot's shortlist (its quick values, and the worth of the cards discarded)."""
    shortlisted = _optional("interpreter.tools.bots_heuristic", "shortlisted")
    appraiser = _optional("interpreter.tools.brass_knowledge", "Appraiser")
    if shortlisted is None or appraiser is None:
        return None

    def shortlist(game: Game, seat: int, actions: list[Decision]) -> list[tuple[float, Decision]]:
        return list(shortlisted(game.ruleset, appraiser(game.table, seat), actions))
    return shortlist


def _optional(module: str, name: str) -> Any:
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


@dataclass(frozen=True)
class SearchOptions:
    """The Brass side of the search (the generic knobs are `settings`)."""

    budget: Budget
    settings: Settings = field(default_factory=Settings)
    value_scale: float = 10.0  # VP per unit of value: the exploration constant is relative to it
    method: str = os.environ.get("T13_METHOD", "halving")  # EXPERIMENT
    candidates: int = int(os.environ.get("T13_K", "5"))  # the halving search's own moves considered, best first

    @classmethod
    def for_parts(cls, budget: Budget, parts: SearchParts) -> SearchOptions:
        """Rollouts short when the evaluation estimates the final VP, to the end when it only
        counts VP already scored (which says nothing before the game's end)."""
        options = cls(budget)
        if os.environ.get("T13_DEPTH"):  # EXPERIMENT
            options = replace(options, settings=replace(options.settings, rollout_moves=int(os.environ["T13_DEPTH"])))
        if parts.estimates:
            return options
        return replace(options, settings=replace(options.settings, rollout_moves=None))


BUDGET_VARIABLE = "BRASS_SEARCH_BUDGET"  # the default budget of `make_search_bot`, e.g. 50 or 2s
DEFAULT_BUDGET = "400"  # iterations: about 1 s an action on the 2-core machine it was tuned on


def parse_budget(text: str) -> Budget:
    """`400` is 400 iterations an action (reproducible); `2s` or `0.5s` is seconds an action
    (the choice then depends on the machine's speed)."""
    try:
        budget = Budget(seconds=float(text[:-1])) if text.endswith("s") else Budget(iterations=int(text))
    except ValueError:
        raise ValueError(f"a search budget is a number of iterations (400) or seconds (2s), not {text!r}") from None
    return budget


def make_search_bot(seed: int, budget: str | None, fallback: PolicyFactory) -> SearchBot:
    """The search bot with the best parts available (`search_parts`) and `budget` (`parse_budget`;
    None: the environment's BRASS_SEARCH_BUDGET, else DEFAULT_BUDGET)."""
    parts = search_parts(fallback)
    chosen = parse_budget(budget or os.environ.get(BUDGET_VARIABLE) or DEFAULT_BUDGET)
    return SearchBot(seed, SearchOptions.for_parts(chosen, parts), parts)


class SearchBot:
    """ISMCTS over whole actions (see the module's docstring); same seed and same view, same choice."""

    name = "search"

    def __init__(self, seed: int, options: SearchOptions, parts: SearchParts) -> None:
        self.rng = Rng(seed)
        self.options = options
        self.parts = parts
        self.policy = parts.policy(self.rng.next_u64())  # the bot's own unplanned decisions
        self.plan: Decisions = ()
        self.plan_start = -1  # len(view.moves) when the plan's first decision is due
        self.last_search: SearchResult[Decisions] | None = None  # for tests and the curious

    def choose(self, view: SeatView) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("there is no legal decision (is the game over?)")
        planned = self._planned(view, legal)
        if planned is not None:
            return planned
        if view.pending is None and view.question is None and "action" in legal[0]:
            self.plan, self.plan_start = self._search(view), len(view.moves)
            planned = self._planned(view, legal)
            if planned is not None:
                return planned
        return self.policy.choose(view)

    def _planned(self, view: SeatView, legal: list[Decision]) -> Decision | None:
        """The plan's next decision, if the game is where the plan expects it and it is legal."""
        index = len(view.moves) - self.plan_start
        if not 0 <= index < len(self.plan) or self.plan[index] not in legal:
            return None
        return self.plan[index]

    def _search(self, view: SeatView) -> Decisions:
        problem = BrassSearch(view, self.parts, self.parts.rollout(self.rng.next_u64()), self.options)
        options = self.options
        result: SearchResult[Decisions]
        if options.method == "halving":
            result = halving_search(problem, options.budget, self.rng, options.candidates, options.settings)
        else:
            result = search(problem, options.budget, self.rng, options.settings)
        self.last_search = result
        return result.move


class BrassSearch:
    """A Brass position seen by one seat, as the generic search wants it (`mcts.SearchProblem`)."""

    def __init__(self, view: SeatView, parts: SearchParts, rollout: Policy, options: SearchOptions) -> None:
        self.view = view
        self.observer = view.seat
        self.parts = parts
        self.policy = rollout
        self.options = options
        self.root_moves = len(view.moves)
        self.root_turn = turn_of(view.state)
        self.own_moves: dict[str, list[Decisions]] = {}  # by the moves since the root
        self.policy_move: tuple[Game, str, Game] | None = None  # the last policy move listed

    # -- the problem ------------------------------------------------------------------------------

    def determinize(self, rng: Rng) -> Game:
        game: Game = self.view.determinize(rng)
        return game

    def player(self, state: Game) -> int:
        return state.deciding_seat

    def is_over(self, state: Game) -> bool:
        return state.is_over

    def key(self, move: Decisions) -> str:
        return json.dumps(move, sort_keys=True)

    def moves(self, state: Game, rng: Rng) -> Sequence[Decisions]:
        if state.deciding_seat == self.observer and turn_of(state.state) == self.root_turn:
            path = self.key(tuple(state.moves[self.root_moves:]))
            if path not in self.own_moves:
                self.own_moves[path] = self._own_moves(state)
            return self.own_moves[path]
        after = state.copy()
        move = play_policy_action(after, self.parts.rollout(rng.next_u64()))
        self.policy_move = state, self.key(move), after
        return [move]

    def play(self, state: Game, move: Decisions) -> Game:
        if self.policy_move is not None:
            before, key, after = self.policy_move
            self.policy_move = None
            if before is state and key == self.key(move):
                return after  # just computed by `moves`
        for decision in move:
            state.apply(decision)
        settle(state, self.parts.rollout(len(state.moves)))  # the same answers whichever move led here
        return state

    def rollout_step(self, state: Game, rng: Rng) -> Game:
        """One action of a policy drawn from `rng` (a new one each action: the same rng gives the
        same rollout, which the halving search relies on to compare moves on equal terms)."""
        play_policy_action(state, self.parts.rollout(rng.next_u64()))
        return state

    def evaluate(self, state: Game) -> dict[int, float]:
        """Each seat's estimate minus the best other seat's, in units of `value_scale` VP."""
        seats = [player.seat for player in state.state.players]
        estimates = {seat: self._estimate(state, seat) for seat in seats}
        scale = self.options.value_scale
        return {seat: (estimates[seat] - max(v for s, v in estimates.items() if s != seat)) / scale
                for seat in seats}

    def _estimate(self, state: Game, seat: int) -> float:
        if state.is_over:
            return vp_evaluation(state, seat)
        return self.parts.evaluate(state, seat)

    # -- the bot's own moves ----------------------------------------------------------------------

    def _own_moves(self, state: Game) -> list[Decisions]:
        """The observer's shortlisted whole actions in its own turn (they depend on its hand and the
        public board only: the same in every world, listed once for each path), best first by the
        evaluation one action ahead less the worth of the cards they discard, as decisions."""
        listed = self.view.whole_actions() if len(state.moves) == self.root_moves else state.whole_actions()
        scored: list[tuple[float, int, Decisions]] = []
        for rank, (discarded, action) in enumerate(self.parts.shortlist(state, self.observer, listed)):
            after = state.copy()
            before = len(after.moves)
            after.apply(action)
            value = self.evaluate(after)[self.observer] * self.options.value_scale - discarded
            scored.append((value, -rank, tuple(after.moves[before:])))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [move for _, _, move in scored]


def turn_of(state: GameState) -> tuple[int, int, int]:
    """Which turn a state is in: a seat's moves in the turn the search started in are listed in
    full; later ones (after a card it cannot know is drawn) are the rollout policy's choice."""
    return state.era_index, state.round, state.turn_index


def representatives(state: Game, actions: list[Decision]) -> list[Decision]:
    """One whole action per way of acting, whatever the cards discarded: the first that discards no
    wild card (a wild card is worth keeping), else the first."""
    groups: dict[str, list[Decision]] = {}
    for action in actions:
        rest = {k: v for k, v in action.items() if k not in CARD_KEYS}
        groups.setdefault(json.dumps(rest, sort_keys=True), []).append(action)
    return [next((a for a in group if not _discards_wild(state, a)), group[0]) for group in groups.values()]


def _discards_wild(state: Game, action: Decision) -> bool:
    cards = state.table.cards
    return any(key in action and cards[action[key]].wild for key in CARD_KEYS)


def play_policy_action(game: Game, policy: Policy) -> Decisions:
    """Let the policy take one whole action for the seat to play in `game` (between actions), then
    settle any question it leaves to other seats; the decisions of the action."""
    before = len(game.moves)
    game.apply(policy.choose(game.view(game.deciding_seat)))
    while game.pending is not None and not game.is_over:
        game.apply(policy.choose(game.view(game.deciding_seat)))
    move = tuple(game.moves[before:])
    settle(game, policy)
    return move


def settle(game: Game, policy: Policy) -> None:
    """Answer, by the policy, the questions left open after an action (another seat's, or the
    actor's own at the end of a round), so that the game is between actions again."""
    while game.question is not None and not game.is_over:
        game.apply(policy.choose(game.view(game.deciding_seat)))
