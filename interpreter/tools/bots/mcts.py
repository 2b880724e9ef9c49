"""Information-set Monte Carlo tree search, for any game with hidden information and several players.

The search knows no game: it is given a `SearchProblem`, callbacks that deal a complete game
consistent with what the searching player knows (`determinize`), list the moves worth considering
in a state (best first), play one, advance a rollout by one move, and score a state for every
player. It is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012):

- every iteration deals a new determinization and walks one tree whose nodes are sequences of
  moves, so the statistics of a move are pooled over every world the searcher thinks possible;
- a node's moves may differ from one determinization to the next (another player's hand differs):
  a child is only selectable when its move is legal in this world, and its exploration term counts
  the iterations in which it was available, not the parent's visits;
- progressive widening: a node visited n times has at most ceil(widening * n ** widening_power)
  children, taken in the problem's order, so a good ordering of the moves lets the search look at a
  few moves deeply rather than at hundreds once;
- the leaf's rollout is truncated after `rollout_moves` moves and scored by `evaluate`: one value
  per player, each backed up into the moves that player made.

`search(problem, budget, rng)` returns the most visited root move. With a budget in iterations the
answer depends only on the problem and the rng; a budget in seconds (CPU time) depends on the
machine's speed.

`halving_search(problem, budget, rng, candidates)` is the flat alternative for small budgets:
sequential halving (Karnin, Koren and Somekh, 2013) over the first `candidates` root moves, with
common random numbers. Every round deals new worlds and plays *every* remaining move in each of
them, with the same rollout randomness, so the moves are compared on the same deals (their
difference, not each one's value, is what must rise above the noise); after each round the worse
half is dropped. An iteration there is one move played out in one world.

    result = search(problem, Budget(iterations=400), Rng(seed))
    result.move, result.iterations, result.children  # the choice, the work done, the statistics
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from interpreter.engine.rng import Rng

State = TypeVar("State")
Move = TypeVar("Move")
Values = Mapping[Any, float]  # a score for every player (by `player`), higher is better for that player


class SearchProblem(Protocol[State, Move]):
    """What the search needs to know of a game, seen by one player (the observer)."""

    def determinize(self, rng: Rng) -> State:
        """A complete state consistent with what the observer knows, drawn at random (a new one
        every iteration: the search may change it)."""
        ...

    def player(self, state: State) -> Hashable:
        """Who chooses the next move in `state`."""
        ...

    def is_over(self, state: State) -> bool: ...

    def moves(self, state: State, rng: Rng) -> Sequence[Move]:
        """The moves worth considering in `state`, best first (the order progressive widening
        follows); never empty when the game is not over."""
        ...

    def key(self, move: Move) -> Hashable:
        """An identity of a move, equal for the same move in every determinization."""
        ...

    def play(self, state: State, move: Move) -> State:
        """The state after `move` (the state given may be changed and returned)."""
        ...

    def rollout_step(self, state: State, rng: Rng) -> State:
        """The state after one move of the rollout policy."""
        ...

    def evaluate(self, state: State) -> Values:
        """How good `state` is for every player (a finished game: its result)."""
        ...


@dataclass(frozen=True)
class Budget:
    """How much to search: a number of iterations (reproducible), seconds of CPU time of this
    process (`time.process_time`: fair on a loaded machine, where wall-clock time would count the
    other processes' turns; still machine-dependent), or both (whichever ends first). At least one
    iteration is always run."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations or seconds")
        if (self.iterations is not None and self.iterations < 1) or (self.seconds is not None and self.seconds <= 0):
            raise ValueError(f"a budget must be positive: {self}")


@dataclass(frozen=True)
class Settings:
    """The knobs of the search (the values' scale is the problem's: exploration is relative to it)."""

    exploration: float = 0.7  # the UCB constant
    widening: float = 1.5  # progressive widening: children allowed at n visits ...
    widening_power: float = 0.5  # ... = ceil(widening * n ** widening_power)
    rollout_moves: int | None = 4  # moves of the rollout policy after the leaf; None: to the end


@dataclass(eq=False)
class Node(Generic[Move]):
    """A move in the tree and the statistics of the games that went through it, for its mover."""

    move: Move | None
    mover: Hashable
    prior_rank: int = 0  # the move's place in the order it was first listed in
    visits: int = 0
    total: float = 0.0  # sum of the mover's values
    available: int = 0  # iterations in which the move was legal when its parent was reached
    children: dict[Hashable, Node[Move]] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class SearchResult(Generic[Move]):
    """The move chosen, and what the search saw of every root move."""

    move: Move
    iterations: int
    root: Node[Move]

    @property
    def children(self) -> list[Node[Move]]:
        """The root moves, most visited first."""
        return sorted(self.root.children.values(), key=_robustness, reverse=True)


def search(problem: SearchProblem[State, Move], budget: Budget, rng: Rng,
           settings: Settings | None = None) -> SearchResult[Move]:
    """The observer's best move by ISMCTS (see the module's docstring)."""
    tree = _Tree(problem, settings or Settings(), rng)
    first = problem.determinize(rng)
    root_moves = problem.moves(first, rng)
    if not root_moves:
        raise ValueError("the search has no move to consider")
    tree.root.mover = problem.player(first)
    if len(root_moves) == 1:  # nothing to compare
        return SearchResult(root_moves[0], 0, tree.root)
    deadline = None if budget.seconds is None else time.process_time() + budget.seconds
    iterations, state = 0, first
    while True:
        tree.iterate(state)
        iterations += 1
        if budget.iterations is not None and iterations >= budget.iterations:
            break
        if deadline is not None and time.process_time() >= deadline:
            break
        state = problem.determinize(rng)
    best = max(tree.root.children.values(), key=_robustness)
    assert best.move is not None
    return SearchResult(best.move, iterations, tree.root)


def halving_search(problem: SearchProblem[State, Move], budget: Budget, rng: Rng, candidates: int = 6,
                   settings: Settings | None = None) -> SearchResult[Move]:
    """The observer's best move by sequential halving with common random numbers (see the
    module's docstring). A budget in seconds is turned into iterations by the time the worlds
    played so far took: after the first world (the first round then gets its share, as with a
    budget in iterations, not that one world alone), and again at the start of every later round
    (the first worlds cost more: the problem fills its caches); a round whose worlds overrun the
    budget ends early. The first-listed move wins ties."""
    rollout_moves = (settings or Settings()).rollout_moves
    first = problem.determinize(rng)
    mover = problem.player(first)
    root: Node[Move] = Node(None, mover)
    arms = [Node(move, mover, prior_rank=rank) for rank, move in enumerate(problem.moves(first, rng)[:candidates])]
    if not arms:
        raise ValueError("the search has no move to consider")
    root.children = {problem.key(arm.move): arm for arm in arms}  # type: ignore[arg-type]
    if len(arms) == 1:
        return SearchResult(arms[0].move, 0, root)  # type: ignore[arg-type]
    rounds = math.ceil(math.log2(len(arms)))
    started = time.process_time()
    total = budget.iterations
    done = 0
    for round_ in range(rounds):  # each round shares out what the earlier ones left
        if budget.iterations is None and done:  # seconds: how many more fit, at the pace so far
            total = _iterations_in(budget.seconds, done, time.process_time() - started)  # type: ignore[arg-type]
        round_start = done
        per_arm = 1 if total is None else max(1, (total - done) // ((rounds - round_) * len(arms)))
        world = 0
        while world < per_arm:
            seed = rng.next_u64()
            for arm in arms:
                _play_out(problem, arm, seed, rollout_moves)
            done += len(arms)
            world += 1
            if budget.iterations is not None:
                continue
            spent = time.process_time() - started
            if total is None:  # seconds: how many iterations fit, judged by the first world
                total = _iterations_in(budget.seconds, done, spent)  # type: ignore[arg-type]
                per_arm = max(1, (total - round_start) // ((rounds - round_) * len(arms)))
            elif spent >= budget.seconds:  # type: ignore[operator]
                break  # the pace misjudged: the later rounds get a world each
        arms = sorted(arms, key=_by_mean)[:math.ceil(len(arms) / 2)]
    best = min(arms, key=_by_mean)
    return SearchResult(best.move, done, root)  # type: ignore[arg-type]


def _iterations_in(seconds: float, done: int, spent: float) -> int:
    """The iterations a budget of `seconds` holds when `done` of them took `spent` seconds."""
    return max(done, int(done * seconds / max(spent, 1e-9)))


def _by_mean(node: Node[Any]) -> tuple[float, int]:
    return -node.mean, node.prior_rank


def _play_out(problem: SearchProblem[State, Move], arm: Node[Move], seed: int, rollout_moves: int | None) -> None:
    """Play the arm's move in the world of `seed`, roll out with that seed's randomness, and add
    the result to the arm's statistics."""
    state = problem.play(problem.determinize(Rng(seed)), arm.move)  # type: ignore[arg-type]
    rollout_rng = Rng(seed ^ 0x9E3779B97F4A7C15)
    steps = 0
    while not problem.is_over(state) and (rollout_moves is None or steps < rollout_moves):
        state = problem.rollout_step(state, rollout_rng)
        steps += 1
    arm.visits += 1
    arm.total += problem.evaluate(state)[arm.mover]


def _robustness(node: Node[Any]) -> tuple[int, float, int]:
    """The final choice: most visits, then the best mean, then the first listed."""
    return node.visits, node.mean, -node.prior_rank


class _Tree(Generic[State, Move]):
    """One search's tree and its iteration: select, expand, roll out, back up."""

    def __init__(self, problem: SearchProblem[State, Move], settings: Settings, rng: Rng) -> None:
        self.problem = problem
        self.settings = settings
        self.rng = rng
        self.root: Node[Move] = Node(None, None)

    def iterate(self, state: State) -> None:
        path = [self.root]
        node = self.root
        while not self.problem.is_over(state):
            child, expanded = self._descend(node, state)
            state = self.problem.play(state, child.move)  # type: ignore[arg-type]
            path.append(child)
            node = child
            if expanded:
                break
        values = self._rollout(state)
        self.root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.total += values[visited.mover]

    def _descend(self, node: Node[Move], state: State) -> tuple[Node[Move], bool]:
        """The child to follow in this world, and whether it was just added."""
        mover = self.problem.player(state)
        moves = self.problem.moves(state, self.rng)
        legal: list[Node[Move]] = []
        untried: tuple[int, Move] | None = None
        for rank, move in enumerate(moves):
            child = node.children.get(self.problem.key(move))
            if child is not None:
                child.available += 1
                legal.append(child)
            elif untried is None:
                untried = rank, move
        if untried is not None and (not legal or len(node.children) < self._allowed(node)):
            rank, move = untried
            child = Node(move, mover, prior_rank=rank, available=1)
            node.children[self.problem.key(move)] = child
            return child, True
        return max(legal, key=self._ucb), False

    def _allowed(self, node: Node[Move]) -> int:
        return math.ceil(self.settings.widening * max(node.visits, 1) ** self.settings.widening_power)

    def _ucb(self, child: Node[Move]) -> tuple[float, int]:
        exploration = self.settings.exploration * math.sqrt(math.log(max(child.available, 1)) / child.visits)
        return child.mean + exploration, -child.prior_rank  # a tie goes to the better-ranked move

    def _rollout(self, state: State) -> Values:
        steps = 0
        limit = self.settings.rollout_moves
        while not self.problem.is_over(state) and (limit is None or steps < limit):
            state = self.problem.rollout_step(state, self.rng)
            steps += 1
        return self.problem.evaluate(state)
