"""The search bot: determinized Monte Carlo search (`bots/mcts.py`) over the whole actions of Brass.

Between actions the bot searches, from its seat's view only. Every world it considers deals the
cards it cannot see at random (`view.determinize`); in it a candidate action is played, then a
short rollout of `rollout_moves` actions by a rollout policy (every seat), and the position is
scored for every seat by `brass_knowledge.estimate`. It then plays the chosen action's decisions
one by one on the following `choose` calls. A decision it did not plan (an action it did not start,
a question asked of it at the end of a round) is the heuristic bot's.

A rollout action chosen by the heuristic costs 10–25 ms, replaying one already chosen about 1 ms:
nearly all of a playout's time was its rollout policy's choices (docs/bots.md). So a rollout
chooses as little as it can, each economy a knob (`SearchParams`): the bot's own later action in
the turn searched is chosen once per candidate (`own_turn_once`: it depends only on its hand and
the board until the turn's cards are drawn); in the halving search a rollout action of a world is
chosen once, after the first candidate, and replayed after the others where legal
(`shared_rollouts`); the other seats may be played by the cheap greedy bot (`greedy_others`).

Two searches over the same problem (`SearchOptions.method`):

- `halving` (the default): sequential halving over the `candidates` best own actions, every world
  dealt played with every action still in the running and the same rollout randomness (common
  random numbers), so that the actions are compared on equal deals; the worse half is dropped
  after each round. Budgets of a few dozen playouts are what a second buys here, and at that
  size comparing on the same deals is what lets a difference of a few VP show through the luck of
  the deal (one world to the next moves the estimate by 20 VP or more).
- `tree`: single-observer information-set MCTS, a tree of whole actions (the bot's own, all its
  shortlisted ones, in the turn it is in; the other seats' and its later ones, the rollout
  policy's choice in that world), progressive widening, UCB.

What this module adds to the generic search, and only here is it about Brass:

- a move is a whole action written as the decisions the engine records for it (`Decisions`), so
  that the search's actions, the policies' and the ones played in the real game are the same thing;
- the bot's own moves are the heuristic bot's shortlist (`bots_heuristic.shortlisted`: every way of
  acting, those differing only by the cards discarded folded into one, the best few by quick value
  and the best of each kind; loans only as the heuristic allows them, see `heuristic_shortlist`),
  ordered by the estimate one action ahead less the worth of the cards discarded; the search looks
  at the first `candidates` of them;
- the value of a position for a seat is its estimate minus the best other seat's, in units of
  `value_scale` VP: the search plays to win, not to score; a finished game is scored by its VP.

All the Brass judgement used here is the heuristic bot's (`bots_heuristic`, `brass_knowledge`);
the rollout policy is the heuristic bot, or by option the greedy bot (cheaper, weaker: the search
with it was no stronger than the heuristic bot alone).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from interpreter.engine.errors import IllegalAction
from interpreter.engine.rng import Rng
from interpreter.ruleset.bot_params import BotParams, HeuristicParams, SearchParams, catalogue
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.heuristic import HeuristicBot, shortlisted
from interpreter.tools.bots.knowledge.worth import Appraiser, estimate, searched
from interpreter.tools.bots.mcts import Budget, SearchResult, Settings, halving_search, search

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.engine.state import GameState
    from interpreter.engine.view import SeatView

Decision = dict[str, Any]
Decisions = tuple[Decision, ...]  # a whole action, as the decisions the engine records for it


class Policy(Protocol):
    """A bot: the rollout policy, and the bot's own unplanned decisions."""

    name: str

    def choose(self, game: SeatView) -> Decision: ...


PolicyFactory = Callable[[int], Policy]
Evaluation = Callable[[Any, int], float]  # (a game or a view, seat) → expected final VP, roughly
# (game, seat, its whole actions) → the few worth searching, each with the worth of the cards it
# discards (in VP), in any order: the search orders them by the evaluation
Shortlist = Callable[["Game", int, list[Decision]], list[tuple[float, Decision]]]


def heuristic_shortlist(game: Game, seat: int, actions: list[Decision],
                        params: HeuristicParams | None = None) -> list[tuple[float, Decision]]:
    """The heuristic bot's shortlist of whole actions (see the module's docstring), of the kinds
    the knowledge says a search should look at (`brass_knowledge.searched`: loans only when
    they pay, or when the seat can do nothing else); `params`: the judgements (None: the ruleset's)."""
    appraiser = Appraiser(game.table, seat, params)
    kinds = searched(appraiser, {action["action"] for action in actions})
    return list(shortlisted(game.ruleset, appraiser, [action for action in actions if action["action"] in kinds]))


def ruleset_knobs(ruleset: Ruleset) -> SearchParams:
    """The search's knobs of the ruleset played (its `bots.search` parameters)."""
    return ruleset.bots.search


@dataclass(frozen=True)
class SearchParts:
    """What the search uses besides the rules, each replaceable."""

    rollout: PolicyFactory = HeuristicBot  # the rollouts, and the other seats' moves in the tree
    policy: PolicyFactory = HeuristicBot  # the bot's own decisions it did not plan
    evaluate: Evaluation = estimate  # a seat's expected final VP in a position
    shortlist: Shortlist = heuristic_shortlist  # the bot's own whole actions worth searching
    # the other seats' rollout actions when the knob `greedy_others` is on (None: `rollout`'s)
    others: PolicyFactory | None = None
    # Where the numeric knobs come from, by the ruleset played (`ruleset_knobs`, or a tuner's fixed
    # values); None: the options' own, as given
    knobs: Callable[[Ruleset], SearchParams] | None = None


def parts_with(params: BotParams, rollout: PolicyFactory | None = None,
               others: PolicyFactory | None = None) -> SearchParts:
    """The search's parts playing with `params` instead of the ruleset's (a tuner's candidates);
    `rollout`: the rollout policy (None: the heuristic bot with the same judgements); `others`:
    the other seats' cheap rollout policy (`greedy_others`)."""
    heuristic = partial(HeuristicBot, params=params.heuristic)

    def evaluate(game_or_view: Any, seat: int) -> float:
        return estimate(game_or_view, seat, params.heuristic)

    return SearchParts(rollout=rollout or heuristic, policy=heuristic, evaluate=evaluate,
                       shortlist=partial(heuristic_shortlist, params=params.heuristic),
                       knobs=lambda ruleset: params.search, others=others)


METHODS = ("halving", "tree")
DEFAULT_KNOBS = SearchParams()  # the defaults of the knobs, as a ruleset without `bots.search` has them
# the rollout policies by name, and their rollouts' length by default (the ruleset's knobs set them)
ROLLOUTS = {"heuristic": DEFAULT_KNOBS.heuristic_rollout, "greedy": DEFAULT_KNOBS.greedy_rollout}


@dataclass(frozen=True)
class SearchOptions:
    """The Brass side of the search (the generic knobs are `settings`)."""

    budget: Budget
    settings: Settings = field(default_factory=lambda: Settings(rollout_moves=ROLLOUTS["heuristic"]))
    value_scale: float = DEFAULT_KNOBS.value_scale  # VP per unit of value: the tree's exploration is relative to it
    method: str = "halving"  # one of METHODS
    candidates: int = DEFAULT_KNOBS.candidates  # the halving search's own actions considered, best first
    rollouts: str = "heuristic"  # the rollout policy, one of ROLLOUTS
    own_turn_once: bool = bool(DEFAULT_KNOBS.own_turn_once)  # the knobs of the same names (bot_params.py)
    greedy_others: bool = bool(DEFAULT_KNOBS.greedy_others)
    shared_rollouts: bool = bool(DEFAULT_KNOBS.shared_rollouts)
    # knobs set in the options (`search:1s,greedy_others=1`), over the ruleset's: (name, value) pairs
    knob_values: tuple[tuple[str, int | float], ...] = ()

    def with_knobs(self, knobs: SearchParams | None) -> SearchOptions:
        """These options tuned to `knobs` (None: as given) with the options' own knob values over them."""
        if self.knob_values:
            changes: dict[str, Any] = dict(self.knob_values)
            knobs = replace(knobs or DEFAULT_KNOBS, **changes)
        return self if knobs is None else self.tuned(knobs)

    def tuned(self, knobs: SearchParams) -> SearchOptions:
        """These options with the numeric knobs of `knobs` (the budget, method and rollout policy kept)."""
        length = knobs.heuristic_rollout if self.rollouts == "heuristic" else knobs.greedy_rollout
        settings = Settings(exploration=knobs.exploration, widening=knobs.widening,
                            widening_power=knobs.widening_power, rollout_moves=length)
        return replace(self, settings=settings, value_scale=knobs.value_scale, candidates=knobs.candidates,
                       own_turn_once=bool(knobs.own_turn_once), greedy_others=bool(knobs.greedy_others),
                       shared_rollouts=bool(knobs.shared_rollouts))


BUDGET_VARIABLE = "BRASS_SEARCH_BUDGET"  # the default options of `make_search_bot`, e.g. 50 or 2s
DEFAULT_OPTIONS = "30"  # iterations: about 0.3–0.5 s of CPU time an action since issue 22 (1 s before; docs/bots.md)


def parse_options(text: str) -> SearchOptions:
    """Comma-separated: a budget, `100` iterations an action (reproducible) or `2s` / `0.5s` seconds
    of CPU time an action (the choice then depends on the machine's speed and load), and optionally
    the method, `tree` or `halving` (default), and the rollout policy, `heuristic` (default, rollouts
    of 2 actions) or `greedy` (4 actions, 5 times cheaper). E.g. `30`, `2s`, `tree,60`, `100,greedy`."""
    budget: Budget | None = None
    method, rollouts = "halving", "heuristic"
    knob_values: list[tuple[str, int | float]] = []
    for part in (p.strip() for p in text.split(",")):
        if "=" in part:
            knob_values.append(_parse_knob(part))
        elif part in METHODS:
            method = part
        elif part in ROLLOUTS:
            rollouts = part
        elif budget is None:
            budget = _parse_budget(part)
        else:
            raise ValueError(f"search options: two budgets in {text!r}")
    if budget is None:
        raise ValueError(f"search options need a budget, iterations (100) or seconds (2s): {text!r}")
    return SearchOptions(budget, Settings(rollout_moves=ROLLOUTS[rollouts]), method=method, rollouts=rollouts,
                         knob_values=tuple(knob_values))


def _parse_knob(text: str) -> tuple[str, int | float]:
    """`name=value`: a knob of `SearchParams` (bot_params.py), checked against its type and range."""
    name, _, value = (part.strip() for part in text.partition("="))
    kinds = {param.name: param.kind for param in catalogue() if param.group == "search"}
    if name not in kinds:
        raise ValueError(f"search options: no knob {name!r}; knobs: {', '.join(kinds)}")
    try:
        number = kinds[name](value)
    except ValueError:
        raise ValueError(f"search options: {name} takes a number of type {kinds[name].__name__}, not {value!r}") \
            from None
    SearchParams(**{name: number})  # its range (ValueError)
    return name, number


def _parse_budget(text: str) -> Budget:
    try:
        return Budget(seconds=float(text[:-1])) if text.endswith("s") else Budget(iterations=int(text))
    except ValueError:
        raise ValueError(f"a search option is a budget, iterations (100) or seconds (2s), a method "
                         f"({', '.join(METHODS)}) or a rollout policy ({', '.join(ROLLOUTS)}), not {text!r}") from None


def make_search_bot(seed: int, options: str | None, greedy: PolicyFactory,
                    params: BotParams | None = None) -> SearchBot:
    """The search bot with `options` (`parse_options`; None: the environment's BRASS_SEARCH_BUDGET,
    else DEFAULT_OPTIONS); `greedy` is the greedy bot (which lives in bots/ladder.py, which imports this).
    Its judgements and knobs are `params`, by default the parameters of the ruleset it plays."""
    chosen = parse_options(options or os.environ.get(BUDGET_VARIABLE) or DEFAULT_OPTIONS)
    if params is not None:
        return SearchBot(seed, chosen, parts_with(params, None if chosen.rollouts == "heuristic" else greedy, greedy))
    rollout = HeuristicBot if chosen.rollouts == "heuristic" else greedy
    return SearchBot(seed, chosen, SearchParts(rollout=rollout, knobs=ruleset_knobs, others=greedy))


class SearchBot:
    """A search over whole actions (see the module's docstring); same seed, options and view, same
    choice when the budget is in iterations."""

    name = "search"

    def __init__(self, seed: int, options: SearchOptions, parts: SearchParts) -> None:
        self.rng = Rng(seed)
        self.options = options
        self.parts = parts
        self.policy = parts.policy(self.rng.next_u64())  # the bot's own unplanned decisions
        self.plan: Decisions = ()
        self.plan_start = -1  # len(view.moves) when the plan's first decision is due
        self.last_search: SearchResult[Decisions] | None = None  # for tests and the curious
        # over all its searches: the playouts (iterations) run and the CPU seconds the searches took
        # (`time.process_time`, listing the candidates included), for benchmarks
        self.playouts = 0
        self.search_seconds = 0.0

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
        knobs = self.parts.knobs
        options = self.options.with_knobs(None if knobs is None else knobs(view.ruleset))
        started = time.process_time()
        problem = BrassSearch(view, self.parts, options)
        result: SearchResult[Decisions]
        if options.method == "halving":
            result = halving_search(problem, options.budget, self.rng, options.candidates, options.settings)
        else:
            result = search(problem, options.budget, self.rng, options.settings)
        self.last_search = result
        self.playouts += result.iterations
        self.search_seconds += time.process_time() - started
        return result.move


class BrassSearch:
    """A Brass position seen by one seat, as the generic search wants it (`mcts.SearchProblem`)."""

    def __init__(self, view: SeatView, parts: SearchParts, options: SearchOptions) -> None:
        self.view = view
        self.observer = view.seat
        self.parts = parts
        self.options = options
        self.root_moves = len(view.moves)
        self.root_turn = turn_of(view.state)
        self.own_moves: dict[str, list[Decisions]] = {}  # by the moves since the root
        self.policy_move: tuple[Game, str, Game] | None = None  # the last policy move listed
        # the rollout policy's own actions in the root turn, by the moves since the root (`own_turn_once`)
        self.own_rollout: dict[str, Decisions] = {}
        # rollout actions by the seed of the step and the seat (`shared_rollouts`): the halving search
        # gives the same step of the same world the same seed after every candidate
        self.shared: dict[tuple[int, int], Decisions] = {}

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
        seed = rng.next_u64()
        seat = state.deciding_seat
        if seat == self.observer and self.options.own_turn_once and turn_of(state.state) == self.root_turn:
            # the observer's later action in its root turn: the same in every world until the turn's
            # cards are drawn (its hand and the board), so chosen the first time its path is played
            path = self.key(tuple(state.moves[self.root_moves:]))
            return self._replayed(state, self.own_rollout, path, self.parts.rollout(seed))
        cheap = self.parts.others if self.options.greedy_others and seat != self.observer else None
        policy = (cheap or self.parts.rollout)(seed)
        if self.options.shared_rollouts:
            return self._replayed(state, self.shared, (seed, seat), policy)
        play_policy_action(state, policy)
        return state

    def _replayed(self, state: Game, chosen: dict[Any, Decisions], key: Any, policy: Policy) -> Game:
        """The game after the action `chosen` holds under `key` if it is legal here and complete (its
        decisions end it here too: a sale that ended for want of beer where it was chosen may go on
        here), questions left answered by `policy`; else after the policy's own choice, which
        `chosen` then keeps."""
        move = chosen.get(key)
        if move is not None:
            trial = state.copy()
            try:
                for decision in move:
                    trial.apply(decision)
            except IllegalAction:
                pass
            else:
                if trial.pending is None:
                    settle(trial, policy)
                    return trial
        chosen[key] = play_policy_action(state, policy)
        return state

    def evaluate(self, state: Game) -> dict[int, float]:
        """Each seat's estimate minus the best other seat's, in units of `value_scale` VP."""
        seats = [player.seat for player in state.state.players]
        estimates = {seat: self._estimate(state, seat) for seat in seats}
        scale = self.options.value_scale
        return {seat: (estimates[seat] - max(v for s, v in estimates.items() if s != seat)) / scale
                for seat in seats}

    def _estimate(self, state: Game, seat: int) -> float:
        if state.is_over:  # exact
            return float(next(row["vp"] for row in state.standings() if row["seat"] == seat))
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
