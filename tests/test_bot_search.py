"""The search bot: the generic ISMCTS of `tools/bots/mcts.py` on a toy game where the right move is known,
then the Brass bot of `tools/bots/search.py` (legal decisions over whole games, reproducibility,
decisions it did not plan, budgets and the registry). Budgets are small: these tests check
behaviour, never strength or time."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.rng import Rng
from interpreter.ruleset.bot_params import SearchParams
from interpreter.tools.bots.ladder import BOTS, Bot, GreedyBot, HeuristicBot, bot_seed, decide, make_bot
from interpreter.tools.bots.mcts import Budget, Settings, halving_search, search
from interpreter.tools.bots.search import (
    BUDGET_VARIABLE,
    BrassSearch,
    SearchBot,
    SearchOptions,
    SearchParts,
    parse_options,
    play_policy_action,
)
from interpreter.tools.scenarios.scenario import load_setup

# == the generic search on a toy game ==============================================================


@dataclass
class Pile:
    left: int
    to_move: int = 0
    winner: int | None = None


class HiddenNim:
    """Take 1 to 3 counters; who takes the last one wins. The pile holds `visible` counters and a
    number drawn from `hidden` that the searching player (0) does not know. Whoever leaves a
    multiple of 4 wins with perfect play."""

    def __init__(self, visible: int, hidden: tuple[int, ...]) -> None:
        self.visible, self.hidden = visible, hidden
        self.dealt: list[int] = []

    def determinize(self, rng: Rng) -> Pile:
        self.dealt.append(self.hidden[rng.below(len(self.hidden))])
        return Pile(self.visible + self.dealt[-1])

    def player(self, state: Pile) -> int:
        return state.to_move

    def is_over(self, state: Pile) -> bool:
        return state.left == 0

    def moves(self, state: Pile, rng: Rng) -> list[int]:
        return [n for n in (1, 2, 3) if n <= state.left]

    def key(self, move: int) -> int:
        return move

    def play(self, state: Pile, move: int) -> Pile:
        state.left -= move
        state.winner = state.to_move if state.left == 0 else None
        state.to_move = 1 - state.to_move
        return state

    def rollout_step(self, state: Pile, rng: Rng) -> Pile:
        moves = self.moves(state, rng)
        return self.play(state, moves[rng.below(len(moves))])

    def evaluate(self, state: Pile) -> dict[int, float]:
        return {p: 1.0 if state.winner == p else -1.0 for p in (0, 1)}


TO_END = Settings(rollout_moves=None, widening=10.0)  # Nim has 3 moves: no need to widen slowly


@pytest.mark.parametrize(("visible", "hidden", "best"), [
    (9, (0,), 1), (10, (0,), 2), (11, (0,), 3),  # no hidden counter: plain Nim
    (5, (0, 4), 1), (6, (0, 4), 2), (7, (0, 4), 3),  # the same answer in every world
])
def test_the_search_finds_the_winning_move(visible: int, hidden: tuple[int, ...], best: int) -> None:
    result = search(HiddenNim(visible, hidden), Budget(iterations=1500), Rng(1), TO_END)
    assert result.move == best
    assert result.children[0].mean > 0.5  # and sees that it wins


def test_the_search_weighs_the_worlds_it_cannot_tell_apart() -> None:
    """4 or 5 counters: taking 1 wins when there are 5 and loses when there are 4; every other move
    loses in both worlds. The search must deal both worlds (not peek at one) and take 1."""
    game = HiddenNim(4, (0, 1))
    result = search(game, Budget(iterations=1500), Rng(2), TO_END)
    assert result.move == 1
    assert set(game.dealt) == {0, 1}
    assert -0.5 < result.children[0].mean < 0.5  # about one world in two is won


def test_a_move_legal_in_some_worlds_only_is_counted_where_it_is_available() -> None:
    """2 counters and 0 or 2 hidden: after taking 1, the other player has 1 counter left (one move)
    or 3 (three moves); taking 3 there is only available in one world in two."""
    result = search(HiddenNim(2, (0, 2)), Budget(iterations=400), Rng(3), TO_END)
    took_one = result.root.children[1]
    reply = took_one.children
    assert reply[1].available == took_one.visits - 1  # always legal: every visit but the first
    assert 0 < reply[3].available < reply[1].available


def test_the_search_is_reproducible_and_honours_its_budget() -> None:
    one = search(HiddenNim(13, (0, 4)), Budget(iterations=300), Rng(5), TO_END)
    two = search(HiddenNim(13, (0, 4)), Budget(iterations=300), Rng(5), TO_END)
    assert one.iterations == two.iterations == 300
    assert [(c.move, c.visits, c.total) for c in one.children] == [(c.move, c.visits, c.total) for c in two.children]
    timed = search(HiddenNim(13, (0, 4)), Budget(seconds=0.01), Rng(5), TO_END)
    assert timed.iterations >= 1


def test_progressive_widening_keeps_the_moves_considered_few() -> None:
    narrow = search(HiddenNim(30, (0,)), Budget(iterations=1), Rng(1), Settings(widening=1.0))
    assert len(narrow.root.children) == 1  # the first listed move only


def test_a_single_move_is_returned_without_searching() -> None:
    result = search(HiddenNim(1, (0,)), Budget(iterations=100), Rng(1))
    assert result.move == 1 and result.iterations == 0


def test_a_budget_needs_something_positive() -> None:
    with pytest.raises(ValueError):
        Budget()
    with pytest.raises(ValueError):
        Budget(iterations=0)


@dataclass
class Draw:
    noise: float
    took: int | None = None


class NoisyArms:
    """One move to choose among `values` (their true worth), then a world's luck decides far more
    than the move: every world adds the same large noise to every move. A search comparing moves on
    the same worlds sees the differences at once; one comparing them on different worlds would need
    thousands of samples."""

    def __init__(self, values: tuple[float, ...], spread: float) -> None:
        self.values, self.spread = values, spread
        self.worlds: list[float] = []

    def determinize(self, rng: Rng) -> Draw:
        self.worlds.append((rng.below(1001) / 500 - 1) * self.spread)
        return Draw(self.worlds[-1])

    def player(self, state: Draw) -> int:
        return 0

    def is_over(self, state: Draw) -> bool:
        return state.took is not None

    def moves(self, state: Draw, rng: Rng) -> list[int]:
        return list(range(len(self.values)))

    def key(self, move: int) -> int:
        return move

    def play(self, state: Draw, move: int) -> Draw:
        state.took = move
        return state

    def rollout_step(self, state: Draw, rng: Rng) -> Draw:
        raise AssertionError("the game is over after one move")

    def evaluate(self, state: Draw) -> dict[int, float]:
        assert state.took is not None
        return {0: self.values[state.took] + state.noise}


def test_halving_compares_the_moves_on_the_same_worlds() -> None:
    """Six moves 0.1 apart under noise of ±100: 18 iterations find the best, because every move
    still in the running is played in every world dealt. 3 rounds of 6 iterations: 1 world for the
    6 moves, 2 for the best 3, 3 for the best 2."""
    arms = NoisyArms((0.3, 0.1, 0.0, 0.5, 0.2, 0.4), spread=100.0)
    result = halving_search(arms, Budget(iterations=18), Rng(1), candidates=6)
    assert result.move == 3 and result.iterations == 18
    visits = {child.move: child.visits for child in result.root.children.values()}
    assert visits == {3: 6, 5: 6, 0: 3, 4: 1, 1: 1, 2: 1}
    dealt = arms.worlds[1:]  # the first deal only lists the moves
    assert [dealt.count(world) for world in dict.fromkeys(dealt)] == [6, 3, 3, 2, 2, 2]


def test_halving_considers_only_the_first_candidates_and_is_reproducible() -> None:
    arms = NoisyArms((0.3, 0.1, 0.0, 0.5, 0.2, 0.4), spread=1.0)
    few = halving_search(arms, Budget(iterations=60), Rng(2), candidates=3)
    assert few.move == 0 and set(few.root.children) == {0, 1, 2}
    again = halving_search(arms, Budget(iterations=60), Rng(2), candidates=3)
    assert [(c.move, c.visits, c.total) for c in few.children] == [(c.move, c.visits, c.total) for c in again.children]
    timed = halving_search(arms, Budget(seconds=0.01), Rng(2), candidates=6)
    assert timed.move == 3 and timed.iterations >= 6 + 3 + 2


def test_halving_on_seconds_gives_the_first_round_its_share() -> None:
    """With a budget in seconds the first round is not one world alone: the pace of the first world
    sets how many the round gets, as a budget in iterations would share them (the moves dropped
    after it were each played in as many worlds, more than one). Cheap moves: thousands fit."""
    arms = NoisyArms((0.3, 0.1, 0.0, 0.5, 0.2, 0.4), spread=100.0)
    result = halving_search(arms, Budget(seconds=0.05), Rng(2), candidates=6)
    dropped = sorted(child.visits for child in result.root.children.values())[:3]
    assert result.move == 3 and dropped[0] == dropped[2] > 1


class SlowingArms(NoisyArms):
    """NoisyArms whose playouts cost nothing in the first world and 2 ms of CPU time after it (a
    deal to list the moves, then one for each of the 6 playouts of the first world)."""

    def play(self, state: Draw, move: int) -> Draw:
        if len(self.worlds) > 1 + 6:
            until = time.process_time() + 0.002
            while time.process_time() < until:
                pass
        return super().play(state, move)


def test_halving_on_seconds_stops_a_round_that_overruns_its_budget() -> None:
    """The first world's pace promised thousands of playouts in 0.02 s; the next ones cost 2 ms
    each: the first round ends once the budget is spent (at most 10 playouts past its first world,
    so at most 2 more worlds of 6), and the 2 later rounds get one world each (3 and 2 playouts)."""
    arms = SlowingArms((0.3, 0.1, 0.0, 0.5, 0.2, 0.4), spread=1.0)
    result = halving_search(arms, Budget(seconds=0.02), Rng(2), candidates=6)
    assert 6 + 6 + 3 + 2 <= result.iterations <= 6 + 12 + 3 + 2


def test_halving_finds_the_winning_move_of_nim() -> None:
    result = halving_search(HiddenNim(3, (0,)), Budget(iterations=30), Rng(1), settings=TO_END)
    assert result.move == 3  # takes the last counters at once


# == the Brass search bot ==========================================================================

CHEAP = SearchOptions(Budget(iterations=12), Settings(rollout_moves=2))


def cheap_bot(seed: int, options: SearchOptions = CHEAP) -> SearchBot:
    """The search bot with greedy rollouts, searching little: fast (these tests check behaviour)."""
    return SearchBot(seed, options, SearchParts(rollout=GreedyBot))


def greedy_until(game: Game, seed: int, stop: int) -> Game:
    bots = {s: make_bot("greedy", bot_seed(seed, s)) for s in range(1, len(game.state.players) + 1)}
    while len(game.moves) < stop:
        game.apply(decide(bots[game.deciding_seat], game))
    return game


SETUPS = Path(__file__).parent / "data" / "search"


def play_the_turn(bot: Bot, game: Game) -> list[dict[str, Any]]:
    """The deciding seat's decisions until its turn ends, by `bot`; then greedy bots finish the game."""
    seat, played = game.deciding_seat, []
    while not game.is_over and game.deciding_seat == seat:
        played.append(bot.choose(game.view(seat)))
        game.apply(played[-1])
    finisher = GreedyBot(1)
    while not game.is_over:
        game.apply(decide(finisher, game))
    return played


@pytest.mark.parametrize("options", ["20", "tree,20", "20,greedy"])
def test_the_search_takes_the_loan_that_pays_where_its_policies_pass(options: str) -> None:
    """The last turn of the game with £0 (tests/data/search/last_turn_loan_then_iron.yaml): the
    heuristic bot (the default rollout policy, whose rule takes no loan so near the end) and the
    greedy bot (the other one) pass twice and end with 0 VP; the search sees that a loan pays for
    Iron Works II, which flips with the mine that feeds it: 7 VP."""
    setup = load_setup(SETUPS / "last_turn_loan_then_iron.yaml")
    bot = make_bot(f"search:{options}", 1)
    game = setup.start()
    played = play_the_turn(bot, game)
    assert played[:2] == [{"action": "loan"}, {"card": "birmingham#3"}]
    assert played[2:] == [{"action": "build"}, {"card": "dudley#1"}, {"industry": "iron"},
                          {"location": "dudley"}, {"slot": "dudley/1"}]
    assert [row["vp"] for row in game.standings()] == [7, 0]
    for policy in (GreedyBot(1), HeuristicBot(1)):
        policy_game = setup.start()
        assert [d.get("action") for d in play_the_turn(policy, policy_game)] == ["pass", None, "pass", None]
        assert [row["vp"] for row in policy_game.standings()] == [0, 0]


@pytest.mark.parametrize("ruleset", ["birmingham", "birmingham-intro"])
def test_the_search_bot_plays_a_whole_game_with_legal_decisions(ruleset: str) -> None:
    game = Game.new(load_ruleset(ruleset), 2, seed=4)
    bot = cheap_bot(11)
    bots: dict[int, Bot] = {1: bot, 2: GreedyBot(12)}
    actions = searched = 0
    while not game.is_over:
        seat = game.deciding_seat
        starts = seat == 1 and game.pending is None and game.question is None
        bot.last_search = None
        decision = bots[seat].choose(game.view(seat))
        assert decision in game.legal_actions()
        actions += starts
        searched += starts and bot.last_search is not None
        game.apply(decision)
    assert actions >= 15 and searched == actions  # every action of seat 1 started from a search


def test_same_seed_and_view_same_choice_and_plan() -> None:
    game = greedy_until(Game.new(load_ruleset("birmingham"), 2, seed=8), 8, 30)
    while game.pending is not None or game.question is not None:
        game.apply(decide(GreedyBot(1), game))
    view = game.view(game.deciding_seat)
    one, two = cheap_bot(5), cheap_bot(5)
    assert one.choose(view) == two.choose(view)
    assert one.plan == two.plan and len(one.plan) >= 1


def test_the_bot_plays_its_plan_decision_by_decision() -> None:
    game = greedy_until(Game.new(load_ruleset("birmingham"), 2, seed=9), 9, 40)
    while game.pending is not None or game.question is not None:
        game.apply(decide(GreedyBot(1), game))
    seat, bot = game.deciding_seat, cheap_bot(3)
    start = len(game.moves)
    game.apply(bot.choose(game.view(seat)))
    while game.pending is not None and game.deciding_seat == seat:
        game.apply(bot.choose(game.view(seat)))
    played = game.moves[start:start + len(bot.plan)]
    assert tuple(played) == bot.plan


def test_in_the_middle_of_an_action_it_did_not_plan_the_bot_continues_it() -> None:
    game = greedy_until(Game.new(load_ruleset("birmingham"), 2, seed=1), 1, 20)
    while game.pending is not None or game.question is not None:
        game.apply(decide(GreedyBot(1), game))
    game.apply({"action": "build"} if {"action": "build"} in game.legal_actions() else game.legal_actions()[0])
    while game.pending is not None:
        seat = game.deciding_seat
        decision = cheap_bot(7).choose(game.view(seat))  # a new bot each time: no plan
        assert decision in game.legal_actions()
        game.apply(decision)


@pytest.mark.parametrize(("seed", "stop", "mid_action"), [(1, 90, False), (1, 117, True)])
def test_a_question_to_the_bot_is_answered(seed: int, stop: int, mid_action: bool) -> None:
    """A shortfall question between actions (R-SHORT-02), and a merchant's question in an action (R-MERCH-01)."""
    game = greedy_until(Game.new(load_ruleset("birmingham"), 2, seed=seed), seed, stop)
    assert game.question is not None and (game.pending is not None) == mid_action
    seat = game.deciding_seat
    answer = cheap_bot(2).choose(game.view(seat))
    assert answer in game.legal_actions() and "answer" in answer


# == budgets and the registry ======================================================================

def test_options_are_a_budget_in_iterations_or_seconds_and_a_method() -> None:
    assert parse_options("400") == SearchOptions(Budget(iterations=400), Settings(rollout_moves=2))
    assert parse_options("2s") == SearchOptions(Budget(seconds=2.0))
    assert parse_options("tree, 0.5s") == SearchOptions(Budget(seconds=0.5), method="tree")
    assert parse_options("50,halving").method == "halving"
    assert parse_options("greedy,50") == SearchOptions(Budget(iterations=50), Settings(rollout_moves=4),
                                                       rollouts="greedy")
    for wrong in ("", "fast", "0", "-1s", "2m", "tree", "10,20", "10,,tree", "10,random"):
        with pytest.raises(ValueError):
            parse_options(wrong)


def test_the_registry_takes_a_budget_after_the_name(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = make_bot("search:30", 1)
    assert isinstance(bot, SearchBot) and bot.options.budget == Budget(iterations=30)
    assert "search:30" in BOTS and "search:1.5s" in BOTS and "search:tree,9" in BOTS and "search" in BOTS
    assert make_bot("search:9", 1).parts.rollout is HeuristicBot  # type: ignore[attr-defined]
    assert make_bot("search:9,greedy", 1).parts.rollout is GreedyBot  # type: ignore[attr-defined]
    assert "search:lots" not in BOTS and "greedy:3" not in BOTS and "clever" not in BOTS
    with pytest.raises(ValueError):
        make_bot("greedy:3", 1)
    monkeypatch.setenv(BUDGET_VARIABLE, "25")
    default = make_bot("search", 1)
    assert isinstance(default, SearchBot) and default.options.budget == Budget(iterations=25)


# == the playouts' economies (knobs `own_turn_once`, `shared_rollouts`, `greedy_others`) ================

FAST = "shared_rollouts=1,greedy_others=1"


def test_knobs_are_set_in_the_options_by_name_in_their_range() -> None:
    options = parse_options(f"1s,{FAST},candidates=3")
    assert options.knob_values == (("shared_rollouts", 1), ("greedy_others", 1), ("candidates", 3))
    tuned = options.with_knobs(SearchParams(candidates=7, shared_rollouts=0))
    assert (tuned.shared_rollouts, tuned.greedy_others, tuned.own_turn_once, tuned.candidates) == (True, True, True, 3)
    assert parse_options("1s").with_knobs(None) == parse_options("1s")
    for wrong in ("1s,fast=1", "1s,greedy_others=2", "1s,candidates=0.5", "1s,candidates=many"):
        with pytest.raises(ValueError):
            parse_options(wrong)


def test_the_fast_playouts_are_reproducible_and_counted() -> None:
    """An iteration budget with every economy on: the same seed and view give the same choice and
    the same statistics, on any machine; 12 iterations over 5 candidates are 1 world for the 5,
    1 for the best 3 and 2 for the best 2: 12 playouts, counted by the bot."""
    game = greedy_until(Game.new(load_ruleset("birmingham"), 2, seed=8), 8, 30)
    while game.pending is not None or game.question is not None:
        game.apply(decide(GreedyBot(1), game))
    view = game.view(game.deciding_seat)
    one, two = make_bot(f"search:12,{FAST}", 5), make_bot(f"search:12,{FAST}", 5)
    assert isinstance(one, SearchBot) and isinstance(two, SearchBot)
    assert one.choose(view) == two.choose(view) and one.plan == two.plan
    assert one.last_search is not None and two.last_search is not None
    assert [(c.move, c.visits, c.total) for c in one.last_search.children] == \
        [(c.move, c.visits, c.total) for c in two.last_search.children]
    assert sorted(c.visits for c in one.last_search.children) == [1, 1, 2, 4, 4]
    assert one.playouts == 12 and one.search_seconds > 0


def between_actions(seed: int, stop: int) -> Game:
    game = greedy_until(Game.new(load_ruleset("birmingham"), 2, seed=seed), seed, stop)
    while game.pending is not None or game.question is not None:
        game.apply(decide(GreedyBot(1), game))
    return game


def test_an_action_chosen_once_is_replayed_where_legal_and_chosen_anew_where_not() -> None:
    """`BrassSearch._replayed`, which both `own_turn_once` and `shared_rollouts` use: the first time
    the policy chooses (and the choice is kept); then the kept action is replayed, giving the very
    position the policy's own play gave; a kept action that is not legal here (another position's),
    or that does not end the action here, is chosen anew, and the new choice kept."""
    game = between_actions(8, 30)
    problem = BrassSearch(game.view(game.deciding_seat), SearchParts(rollout=GreedyBot), CHEAP)
    Kept = dict[Any, tuple[dict[str, Any], ...]]
    kept: Kept = {}
    first = problem._replayed(game.copy(), kept, "step", GreedyBot(3))
    assert kept["step"] == tuple(first.moves[len(game.moves):]) and kept["step"][0] in game.legal_actions()
    again = problem._replayed(game.copy(), kept, "step", GreedyBot(4))
    assert again.state_hash() == first.state_hash()
    elsewhere = between_actions(3, 60)
    foreign: Kept = {"step": ({"action": "build"}, {"card": "no-such-card"})}
    replayed = problem._replayed(elsewhere.copy(), foreign, "step", GreedyBot(3))
    assert foreign["step"] == tuple(replayed.moves[len(elsewhere.moves):])
    assert foreign["step"][1] != {"card": "no-such-card"}
    unfinished: Kept = {"step": (kept["step"][0],)}  # the action's first decision only: it stays open
    finished = problem._replayed(game.copy(), unfinished, "step", GreedyBot(3))
    assert finished.pending is None and unfinished["step"] == kept["step"]


def test_greedy_others_plays_the_other_seats_by_the_greedy_bot_in_rollouts() -> None:
    """With `greedy_others`, a rollout step of another seat is the greedy bot's action (the same one
    a greedy bot seeded alike plays); the observer's own steps stay the rollout policy's."""
    game = between_actions(8, 31)
    observer = 3 - game.deciding_seat  # searching for the seat that plays next but one
    options = parse_options(f"12,{FAST}").with_knobs(None)
    problem = BrassSearch(game.view(observer), SearchParts(rollout=HeuristicBot, others=GreedyBot), options)
    stepped = problem.rollout_step(game.copy(), Rng(9))
    greedy = game.copy()
    play_policy_action(greedy, GreedyBot(Rng(9).next_u64()))
    assert stepped.moves == greedy.moves
