"""The search: a (1+λ) evolution strategy with a step size that adapts, over the tuned parameters
mapped to [0, 1] (`space`).

Each generation draws λ candidates around the best point so far (best + sigma * a standard normal
step). Each candidate plays `rounds * players` games against the best: the candidate in one seat,
the best in every other, the seats rotated so that the candidate sits in each seat equally often,
on seeds common to the whole generation (every candidate meets the same deals). A game's margin is
the candidate's VP minus the mean VP of the other seats; a candidate's score is the lower bound of
its mean margin's one-sided t interval, at a level that leaves a generation of candidates no
better than the best a 10 % chance of stepping (`checkpoint.cautious_mean`): a few lucky games
rarely make a winner (with 8 games a margin's error is several VP). The generation's best candidate
replaces the best when its score is above 0, and sigma grows (times 1.25); otherwise sigma shrinks
(times 0.8): a search that keeps failing looks closer to home.

Everything is a function of the seed and of the scores judged so far, so a run is replayed from
its checkpoint's scores (`replay`): a resumed run continues exactly where the interrupted one
stopped, and the same seed with the same budget in games gives the same parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from interpreter.tools.tune.space import steps

START_SIGMA = 0.15  # a step is about 15 % of a span at first
GROW, SHRINK = 1.25, 0.8
LOWEST_SIGMA, HIGHEST_SIGMA = 0.02, 0.4
SEEDS_PER_RUN = 1_000_000  # a run's seeds: seed * this, onwards; the verdict's start at VERDICT_SEEDS
VERDICT_SEEDS = 900_000  # past every tuning game's seed (`max_generations`)


@dataclass(frozen=True)
class Settings:
    """What a run is: its players, seed, candidates per generation and rounds of seats per candidate."""

    players: int
    seed: int
    candidates: int = 4
    rounds: int = 2

    @property
    def games_per_candidate(self) -> int:
        return self.rounds * self.players

    @property
    def games_per_generation(self) -> int:
        return self.candidates * self.games_per_candidate

    def max_generations(self) -> int:
        """So many generations never reach the verdict's seeds."""
        return VERDICT_SEEDS // self.games_per_candidate

    def seeds(self, generation: int) -> range:
        """The seeds every candidate of a generation plays (common random numbers)."""
        first = self.seed * SEEDS_PER_RUN + generation * self.games_per_candidate
        return range(first, first + self.games_per_candidate)

    def verdict_seeds(self, games: int) -> range:
        """Fresh seeds: never played while tuning."""
        first = self.seed * SEEDS_PER_RUN + VERDICT_SEEDS
        return range(first, first + games)


@dataclass
class State:
    """Where the search stands after its finished generations."""

    best: list[float]
    sigma: float = START_SIGMA
    generation: int = 0  # the next generation to play
    taken: int = 0  # generations whose winner replaced the best
    last: float | None = None  # the score of the last generation's winner
    history: list[tuple[int, float, bool]] = field(default_factory=list)  # (generation, winner's score, taken)


def candidates(settings: Settings, state: State) -> list[list[float]]:
    """The generation's candidate points, each clipped to [0, 1]."""
    found = []
    for step in steps(settings.seed, state.generation, settings.candidates, len(state.best)):
        found.append([min(1.0, max(0.0, x + state.sigma * s)) for x, s in zip(state.best, step, strict=True)])
    return found


def advance(settings: Settings, state: State, scores: Sequence[float]) -> State:
    """The state after a generation whose candidates scored `scores` (in candidate order; the
    first of equal scores wins)."""
    points = candidates(settings, state)
    winner = max(range(len(scores)), key=lambda i: (scores[i], -i))
    taken = scores[winner] > 0
    sigma = min(HIGHEST_SIGMA, state.sigma * GROW) if taken else max(LOWEST_SIGMA, state.sigma * SHRINK)
    return State(points[winner] if taken else state.best, sigma, state.generation + 1, state.taken + taken,
                 scores[winner], [*state.history, (state.generation, scores[winner], taken)])


def replay(settings: Settings, start: list[float], judged: Mapping[tuple[int, int], float]) -> State:
    """The state reached from `start` through every generation fully judged ((generation, candidate)
    → score), in order."""
    state = State(list(start))
    while all((state.generation, i) in judged for i in range(settings.candidates)):
        scores = [judged[(state.generation, i)] for i in range(settings.candidates)]
        state = advance(settings, state, scores)
    return state
