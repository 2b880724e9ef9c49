"""Many games between bots: statistics of a ruleset, and a fuzzer of the engine.

    summary = simulate(load_ruleset("birmingham"), players=3, games=20, seed=1, bot="greedy", check=True)
    summary.to_dict()          # JSON-ready and reproducible (no timings unless asked)

Game i uses seed `seed + i`, and the bot in each seat gets a seed derived from the
game's seed and the seat, so every game can be rerun alone from its own seed. With
`rotate` (the games of a comparison, `--against`), the bots change seats from game to game:
the game with seed s seats the list rotated by s mod players, so each bot sits in each seat
equally often over every `players` games in a row (`seating`). With
`check`, the invariants (`invariants.py`) are checked after every decision, and the
first violation stops the run with an error naming the game's seed and the decision.

The same games in worker processes or on a Ray cluster, saved one by one to a file that an
interrupted run resumes: `simulate_run` (`brass simulate --jobs/--ray/--out`, docs/simulate.md).
Two runs compared, with intervals and verdicts: `simulate_compare`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from interpreter.engine.game import Game
from interpreter.engine.invariants import check_invariants
from interpreter.ruleset.bot_params import BotParams
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import Bot, bot_seed, decide, deciding_seat, make_bot
from interpreter.tools.simulate.profile import Profile, RoundWatch, game_profile
from interpreter.tools.simulate.stats import wilson

BotSpec = str | Sequence[str]  # one bot name for every seat, or one per seat
Seated = TypeVar("Seated")
# Of the standings rows, what Summary and the comparison read.
STATISTICS_COLUMNS = ("seat", "vp", "money", "income_position", "income_level")


class InvariantViolation(BrassError):
    """A state that breaks a conservation law or bound: a bug in the engine or the ruleset."""

    def __init__(self, seed: int, action: int, decision: int, move: dict[str, Any], problems: list[str]) -> None:
        self.seed, self.action, self.decision, self.move, self.problems = seed, action, decision, move, problems
        lines = [f"invariant broken in the game with seed {seed}, action {action} (decision {decision}: {move})"]
        super().__init__("\n".join(lines + [f"  - {p}" for p in problems]))

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its own fields: raised in a worker process, it is pickled back to the runner."""
        return type(self), (self.seed, self.action, self.decision, self.move, self.problems)


@dataclass
class GameRecord:
    """What one simulated game produced."""

    seed: int
    standings: list[dict[str, Any]]
    winners: list[int]  # every seat in first place (several on a full tie, R-END-02)
    actions: int  # decisions that start an action
    decisions: int  # every decision applied, answers to questions included
    seconds: float
    violations: list[str] = field(default_factory=list)
    action_counts: dict[str, int] = field(default_factory=dict)  # actions taken, by action id
    bots: list[str] = field(default_factory=list)  # per seat, in this game (seats rotate in a comparison)
    profile: Profile | None = None  # what the game was made of (`profile.py`); None in files of an older brass

    def winner_vp(self) -> int:
        """The VP of the player placed first (the standings are best first)."""
        return int(self.standings[0]["vp"]) if self.standings else 0

    def margin(self) -> int:
        """The winner's VP minus the runner-up's: 0 on a shared win."""
        return self.winner_vp() - int(self.standings[1]["vp"]) if len(self.standings) > 1 else 0

    def to_dict(self, timings: bool = False, profile: bool = False) -> dict[str, Any]:
        """JSON-ready; `profile` adds the game's profile, if it has one (the --out record has it, the
        JSON of `brass simulate --json` does not: its figures are read from the rest)."""
        data = {"seed": self.seed, "bots": self.bots, "winners": self.winners, "actions": self.actions,
                "decisions": self.decisions, "action_counts": self.action_counts, "standings": self.standings,
                "violations": self.violations}
        if timings:
            data["seconds"] = self.seconds
        if profile and self.profile is not None:
            data["profile"] = self.profile
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], brief: bool = False) -> GameRecord:
        """A record read back from `to_dict(timings=True)` output (a line of a `--out` file).
        `brief` keeps of each standings row only what the statistics read, and shares the action
        names, and leaves out the profile: under half the memory, for the summary of a long run (but
        not for its JSON). A record of an older brass has no profile (None)."""
        standings, counts = data["standings"], data["action_counts"]
        if brief:
            standings = [{column: row[column] for column in STATISTICS_COLUMNS} for row in standings]
            counts = {sys.intern(kind): count for kind, count in counts.items()}
        profile = None if brief else data.get("profile")
        return cls(data["seed"], standings, data["winners"], data["actions"], data["decisions"],
                   data.get("seconds", 0.0), data["violations"], counts, list(data.get("bots", [])),
                   profile if isinstance(profile, dict) else None)


@dataclass
class Summary:
    """A run of games: its arguments, each game, and the statistics over them."""

    ruleset: str
    players: int
    seed: int
    bots: list[str]  # per seat
    checked: bool
    games: list[GameRecord]
    action_kinds: list[str] = field(default_factory=list)  # the ruleset's actions, in its order
    rotated: bool = False  # whether the bots changed seats from game to game (`seating`)

    def vp_by_seat(self) -> dict[int, list[int]]:
        seats: dict[int, list[int]] = {s: [] for s in range(1, self.players + 1)}
        for game in self.games:
            for row in game.standings:
                seats[row["seat"]].append(row["vp"])
        return seats

    def wins_by_seat(self) -> dict[int, float]:
        """Wins per seat; a win shared by k seats counts 1/k for each, so the wins add up to the games."""
        wins = dict.fromkeys(range(1, self.players + 1), 0.0)
        for game in self.games:
            for seat in game.winners:
                wins[seat] += 1 / len(game.winners)
        return wins

    def win_rate_by_seat(self) -> dict[int, dict[str, float]]:
        """Each seat's share of the wins with its 95% Wilson interval: whether a seat is favoured."""
        games = len(self.games)
        rates = {}
        for seat, wins in self.wins_by_seat().items():
            low, high = wilson(wins, games)
            rates[seat] = {"rate": round(wins / games, 4) if games else 0.0, "low": round(low, 4),
                           "high": round(high, 4)}
        return rates

    def shared_wins(self) -> int:
        return sum(1 for g in self.games if len(g.winners) > 1)

    def per_player(self, column: str) -> list[int]:
        """A standings column (vp, money, income_level…) of every player of every game."""
        return [row[column] for game in self.games for row in game.standings]

    def actions_by_kind(self, kinds: Sequence[str]) -> dict[str, float]:
        """Mean number of each action per game (every kind listed, 0 when never taken)."""
        count = max(len(self.games), 1)
        return {k: round(sum(g.action_counts.get(k, 0) for g in self.games) / count, 2) for k in kinds}

    def statistics(self, timings: bool = False) -> dict[str, Any]:
        stats: dict[str, Any] = {
            "vp_by_seat": {str(s): _spread(v) for s, v in self.vp_by_seat().items()},
            "wins_by_seat": {str(s): round(w, 6) for s, w in self.wins_by_seat().items()},
            "win_rate_by_seat": {str(s): rate for s, rate in self.win_rate_by_seat().items()},
            "shared_wins": self.shared_wins(),
            "actions": _spread([g.actions for g in self.games]),
            "actions_by_kind": self.actions_by_kind(self.action_kinds),
            "vp_per_player": _spread(self.per_player("vp")),
            "winner_vp": _spread([g.winner_vp() for g in self.games]),
            "margin": _spread([g.margin() for g in self.games]),
            "money_per_player": _spread(self.per_player("money")),
            "income_position_per_player": _spread(self.per_player("income_position")),
            "income_level_per_player": _spread(self.per_player("income_level")),
            "decisions": _spread([g.decisions for g in self.games]),
            "violations": sum(len(g.violations) for g in self.games),
        }
        if timings:
            stats["seconds_per_game"] = _spread([g.seconds for g in self.games], digits=4)
        return stats

    def to_dict(self, timings: bool = False) -> dict[str, Any]:
        """JSON-ready; identical for identical arguments unless `timings` adds the clock readings."""
        return {"ruleset": self.ruleset, "players": self.players, "games": len(self.games), "seed": self.seed,
                "bots": self.bots, "seating": "rotated" if self.rotated else "fixed", "checked": self.checked,
                "wins": "shared wins count 1/k for each of k winners",
                "summary": self.statistics(timings), "per_game": [g.to_dict(timings) for g in self.games]}


def _spread(values: Sequence[float], digits: int = 2) -> dict[str, float]:
    if not values:
        return {"min": 0, "mean": 0, "max": 0}
    low, high = min(values), max(values)
    if isinstance(low, float) or isinstance(high, float):
        low, high = round(low, digits), round(high, digits)
    return {"min": low, "mean": round(sum(values) / len(values), digits), "max": high}


def seat_bots(bot: BotSpec, players: int) -> list[str]:
    """One bot name per seat from a single name or a list; ValueError if the list has the wrong length."""
    names = [bot] * players if isinstance(bot, str) else list(bot)
    if len(names) != players:
        raise ValueError(f"{len(names)} bots given for {players} players")
    return names


def seating(bots: Sequence[Seated], seed: int, rotate: bool) -> list[Seated]:
    """The bot in each seat of the game with this seed: the list as given, or rotated by
    seed mod players, so that over any `players` games in a row each bot sits in each seat
    once. Keyed on the seed, not on the game's place in the run: a game still depends on its
    seed alone, however a run is split, extended or resumed."""
    shift = seed % len(bots) if rotate and bots else 0
    return list(bots[shift:]) + list(bots[:shift])


def play_game(ruleset: Ruleset, players: int, seed: int, bots: Sequence[str], check: bool = False,
              profile: bool = True, params: Sequence[BotParams | None] | None = None) -> GameRecord:
    """Play one game between bots to the end; raise InvariantViolation on the first broken invariant.
    `profile`: record the game's profile (`profile.py`; False only to measure what it costs).
    `params`: per seat, the parameters its bot judges with (None: the ruleset's), a tuner's candidates."""
    start = time.perf_counter()
    game = Game.new(ruleset, players, seed)
    given = params or [None] * players
    seats: dict[int, Bot] = {s: make_bot(bots[s - 1], bot_seed(seed, s), given[s - 1])
                             for s in range(1, players + 1)}
    actions = decisions = 0
    counts: dict[str, int] = {}
    watch = RoundWatch(game) if profile else None
    while not game.is_over:
        move = decide(seats[deciding_seat(game)], game)
        game.apply(move)
        decisions += 1
        if watch is not None:
            watch.after(game)
        if "action" in move:
            actions += 1
            counts[move["action"]] = counts.get(move["action"], 0) + 1
        if check:
            problems = check_invariants(game.table)
            if problems:
                raise InvariantViolation(seed, actions, decisions, move, problems)
    standings = game.standings()
    winners = sorted(row["seat"] for row in standings if row["place"] == 1)
    return GameRecord(seed, standings, winners, actions, decisions, time.perf_counter() - start,
                      action_counts=dict(sorted(counts.items())), bots=list(bots),
                      profile=None if watch is None else game_profile(game, watch))


def simulate(ruleset: Ruleset, players: int, games: int, seed: int = 0, bot: BotSpec = "random",
             check: bool = False, progress: Callable[[int], None] | None = None, rotate: bool = False) -> Summary:
    """Play `games` games (game i with seed `seed + i`, its seats by `seating`); `progress(i)` is
    called after each one."""
    if players not in ruleset.players:
        raise ValueError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                         f"not {players}")
    names = seat_bots(bot, players)
    for name in set(names):
        make_bot(name, 0)  # an unknown name fails before any game is played
    records = []
    for i in range(games):
        records.append(play_game(ruleset, players, seed + i, seating(names, seed + i, rotate), check))
        if progress is not None:
            progress(i + 1)
    return Summary(ruleset.name, players, seed, names, check, records, list(ruleset.actions), rotate)

