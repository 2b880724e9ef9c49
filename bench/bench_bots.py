"""Benchmark of the bots (not a timed test): how well each plays, and how long it thinks.

    python bench/bench_bots.py [--games N] [--pairs M] [--bots random,greedy,heuristic,search]
                               [--search-budget 400|1s] [--players 2,3,4] [--seed S] [--jobs J]
                               [--against BOT [--table N]] [--out FILE] [RULESET]

Per bot, printed as tables:

1. **Self-play**: N games (default 10) per player count with that bot in every seat; the mean
   VP of each seat and of a player, with the 95% t interval of the per-player mean (the games'
   means, one value per game, so that the seats of a game do not count as independent).
2. **Head to head**, seat-rotated pairs: for each pair of bots, M seeds (default 10) each played
   twice with the seats swapped (2 players), and each bot other than greedy against three
   greedy bots, each seed played 4 times with the bot in each seat (4 players); the win rate with
   its 95% Wilson interval (a win shared by k seats counts 1/k).
   With `--against BOT`, each listed bot plays instead against BOT in the other seats of an
   N-player table (`--table N`, default 2), each seed seated every way; each seed is also played
   with BOT in every seat (the baseline), and the bot's margin (its VP minus the best other
   seat's) is compared with the margin of the same seat in the baseline game of the same seed.
   The mean of these paired differences, with its 95% t interval, says how many VP of margin the
   bot is worth over BOT in its place: win rates need many games to tell strong bots apart, and
   2-player games favour one seat strongly. `--out FILE` appends every head-to-head game as a
   JSON line as it ends.
3. **Time per action**, from the self-play games: the CPU time (`time.process_time`, so other
   processes on a shared machine do not count) the bot spent on all the decisions of one action
   (the view of its seat made, and its choice), median and 95th percentile. A question put to a
   player inside an action (unpaid income) counts in that action.
4. **Playouts per CPU-second** of each search bot, by player count (self-play and head to head
   apart): the playouts its searches ran over the CPU time they took, listing the candidates included.

The search bot plays at `--search-budget` (iterations per action, reproducible, or seconds
such as `1s`, with any other search options after it: `1s,greedy_others=1`); at 400 iterations
a 4-player game takes tens of minutes on one core, so a short run leaves it out or lowers its
budget: `--bots random,greedy,heuristic --games 2 --pairs 2`.
`--jobs J` plays the games in J worker processes (CPU times are each process's own).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.bots.ladder import Bot, bot_seed, decide, deciding_seat, make_bot
from interpreter.tools.bots.search import SearchBot
from interpreter.tools.simulate.stats import CONFIDENCE, paired_difference, t_quantile, wilson

DEFAULT_BOTS = "random,greedy,heuristic,search"


@dataclass(frozen=True)
class Match:
    """One game to play: the bot name in each seat."""

    ruleset: str
    seed: int
    seats: tuple[str, ...]
    lineup: tuple[str, ...]  # the bots as listed, before rotation: the first one's wins are counted


@dataclass(frozen=True)
class Outcome:
    """What one game gave: VP per seat, the winners, and the CPU seconds of each action."""

    match: Match
    vp: tuple[int, ...]  # by seat
    winners: tuple[int, ...]
    action_seconds: tuple[float, ...]
    # each search seat's bot, playouts and CPU seconds of searching, over the game
    searches: tuple[tuple[str, int, float], ...] = ()


def play(match: Match) -> Outcome:
    """Play a game to the end, timing every decision's view and choice in CPU seconds."""
    players = len(match.seats)
    game = Game.new(load_ruleset(match.ruleset), players, match.seed)
    bots: dict[int, Bot] = {seat: make_bot(match.seats[seat - 1], bot_seed(match.seed, seat))
                            for seat in range(1, players + 1)}
    actions: list[float] = []
    while not game.is_over:
        start = time.process_time()
        move = decide(bots[deciding_seat(game)], game)
        spent = time.process_time() - start
        if "action" in move or not actions:
            actions.append(0.0)
        actions[-1] += spent
        game.apply(move)
    standings = game.standings()
    vp = tuple(next(row["vp"] for row in standings if row["seat"] == seat) for seat in range(1, players + 1))
    winners = tuple(sorted(row["seat"] for row in standings if row["place"] == 1))
    searches = tuple((match.seats[seat - 1], bot.playouts, bot.search_seconds) for seat, bot in bots.items()
                     if isinstance(bot, SearchBot))
    return Outcome(match, vp, winners, tuple(actions), searches)


def play_all(matches: list[Match], jobs: int, part: str, out: str | None = None) -> dict[Match, Outcome]:
    """Every match's outcome, saying on stderr how many games are done (a run can take hours) and
    appending each to `out` as a JSON line when given."""
    outcomes: dict[Match, Outcome] = {}
    with contextlib.ExitStack() as stack:
        played: Iterable[Outcome] = map(play, matches)
        if jobs > 1:
            pool = stack.enter_context(ProcessPoolExecutor(jobs))
            played = pool.map(play, matches, chunksize=1)
        for match, outcome in zip(matches, played, strict=True):
            outcomes[match] = outcome
            print(f"{part}: {len(outcomes)} of {len(matches)} games", file=sys.stderr, flush=True)
            if out:
                with open(out, "a", encoding="utf-8") as saved:
                    saved.write(json.dumps({"seed": match.seed, "seats": match.seats, "vp": outcome.vp,
                                            "winners": outcome.winners}) + "\n")
    return outcomes


# -- the games of each part -------------------------------------------------------------------------

def self_play(ruleset: str, bots: list[str], counts: list[int], games: int, seed: int) -> list[Match]:
    return [Match(ruleset, seed + i, (bot,) * players, (bot,) * players)
            for bot in bots for players in counts for i in range(games)]


def rotations(seats: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The seating turned once per seat: each bot sits in each seat once."""
    return [seats[shift:] + seats[:shift] for shift in range(len(seats))]


def head_to_head(ruleset: str, bots: list[str], pairs: int, seed: int) -> list[Match]:
    """Each pair of bots in 2-player games, each seed with the seats swapped; each bot but greedy
    against three greedy bots in 4-player games, each seed with the bot in each seat."""
    lineups: list[tuple[str, ...]] = list(itertools.combinations(bots, 2))
    lineups += [(bot, "greedy", "greedy", "greedy") for bot in bots if not bot.startswith("greedy")]
    return [Match(ruleset, seed + i, seats, lineup) for lineup in lineups for i in range(pairs)
            for seats in rotations(lineup)]


def against_one(ruleset: str, bots: list[str], other: str, table: int, pairs: int, seed: int) -> list[Match]:
    """Each bot against `other` in every other seat of a `table`-player game, each seed seated every
    way; then the baselines: `other` in every seat, once per seed."""
    lineups = [(bot, *[other] * (table - 1)) for bot in bots if bot != other]
    baseline = (other,) * table
    return [Match(ruleset, seed + i, seats, lineup) for lineup in lineups for i in range(pairs)
            for seats in rotations(lineup)] + [Match(ruleset, seed + i, baseline, baseline) for i in range(pairs)]


# -- figures -----------------------------------------------------------------------------------------

def mean_interval(values: list[float]) -> tuple[float, float | None]:
    """The mean and the half-width of its 95% t interval (None under two values)."""
    centre = statistics.fmean(values)
    if len(values) < 2:
        return centre, None
    quantile = t_quantile(1 - (1 - CONFIDENCE) / 2, len(values) - 1)
    return centre, quantile * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with at least `fraction` of them at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def wins_of(bot: str, outcomes: Iterable[Outcome]) -> tuple[float, int]:
    """The wins of `bot` (a shared win counts 1/k) and the games played."""
    wins, games = 0.0, 0
    for outcome in outcomes:
        games += 1
        mine = [seat for seat in outcome.winners if outcome.match.seats[seat - 1] == bot]
        wins += len(mine) / len(outcome.winners)
    return wins, games


def margin(vp: tuple[int, ...], seat: int) -> float:
    """A seat's VP minus the best other seat's (seat counted from 0)."""
    return float(vp[seat] - max(v for n, v in enumerate(vp) if n != seat))


def margin_gain(lineup: tuple[str, ...], outcomes: dict[Match, Outcome]) -> tuple[float, float | None, float | None]:
    """The mean of (the first bot's margin) - (the margin of the same seat in the baseline game of the
    same seed, the second bot in every seat), with its 95% t interval."""
    baselines = {m.seed: o for m, o in outcomes.items() if m.seats == (lineup[1],) * len(lineup)}
    mine, base = [], []
    for match, outcome in outcomes.items():
        if match.lineup == lineup and match.seed in baselines:
            seat = match.seats.index(lineup[0])
            mine.append(margin(outcome.vp, seat))
            base.append(margin(baselines[match.seed].vp, seat))
    gain = paired_difference(mine, base)
    return gain.mean, gain.low, gain.high


# -- tables ------------------------------------------------------------------------------------------

def self_play_table(bots: list[str], counts: list[int], outcomes: dict[Match, Outcome]) -> Table:
    table = Table(box=None)
    for column in ("bot", "players", "games", "VP per player (95%)", "VP by seat"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for bot, players in itertools.product(bots, counts):
        games = [o for m, o in outcomes.items() if m.seats == (bot,) * players]
        if not games:
            continue
        centre, half = mean_interval([statistics.fmean(o.vp) for o in games])
        by_seat = " / ".join(f"{statistics.fmean(o.vp[s] for o in games):.1f}" for s in range(players))
        table.add_row(bot, str(players), str(len(games)), _plus_minus(centre, half), by_seat)
    return table


def head_to_head_table(outcomes: dict[Match, Outcome], margins: bool = False) -> Table:
    """The first bot of each lineup: its win rate and, with `margins`, the VP of margin it gains over
    the second bot in its place (the baselines are the lineups of one bot, shown as no row)."""
    table = Table(box=None)
    columns = ["bot", "against", "games", "wins", "win rate (95%)"] + (["margin gain, VP (95%)"] if margins else [])
    for column in columns:
        table.add_column(column, justify="left" if column in ("bot", "against") else "right")
    lineups: dict[tuple[str, ...], list[Outcome]] = {}
    for match, outcome in outcomes.items():
        if len(set(match.lineup)) > 1:
            lineups.setdefault(match.lineup, []).append(outcome)
    for lineup, games in lineups.items():
        wins, count = wins_of(lineup[0], games)
        low, high = wilson(wins, count)
        against = lineup[1] if len(lineup) == 2 else f"{len(lineup) - 1} {lineup[1]}"
        row = [lineup[0], against, str(count), f"{wins:g}", f"{wins / count:.2f} ({low:.2f}–{high:.2f})"]
        if margins:
            centre, gain_low, gain_high = margin_gain(lineup, outcomes)
            row.append(f"{centre:+.1f}" + (f" ({gain_low:+.1f} to {gain_high:+.1f})" if gain_low is not None else ""))
        table.add_row(*row)
    return table


def timing_table(bots: list[str], outcomes: dict[Match, Outcome]) -> Table:
    table = Table(box=None)
    for column in ("bot", "actions", "median (ms)", "95th percentile (ms)", "max (ms)"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for bot in bots:
        seconds = [s for m, o in outcomes.items() if set(m.seats) == {bot} for s in o.action_seconds]
        if seconds:
            table.add_row(bot, str(len(seconds)), f"{1000 * statistics.median(seconds):.2f}",
                          f"{1000 * percentile(seconds, 0.95):.2f}", f"{1000 * max(seconds):.2f}")
    return table


def playouts_table(outcomes: dict[Match, Outcome]) -> Table:
    """Each search bot's playouts per CPU-second of searching, by player count, over every game."""
    table = Table(box=None)
    for column in ("bot", "players", "games", "playouts", "CPU s searching", "playouts per CPU-second"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    totals: dict[tuple[str, int], list[float]] = {}
    for match, outcome in outcomes.items():
        for bot, playouts, seconds in outcome.searches:
            games, done, spent = totals.setdefault((bot, len(match.seats)), [0, 0, 0.0])
            totals[bot, len(match.seats)] = [games + 1, done + playouts, spent + seconds]
    for (bot, players), (games, done, spent) in sorted(totals.items()):
        table.add_row(bot, str(players), f"{games:g}", f"{done:g}", f"{spent:.1f}", f"{done / max(spent, 1e-9):.1f}")
    return table


def _plus_minus(centre: float, half: float | None) -> str:
    return f"{centre:.1f} ± {half:.1f}" if half is not None else f"{centre:.1f}"


# -- the command -------------------------------------------------------------------------------------

def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    parser.add_argument("--games", type=int, default=10, help="self-play games per bot and player count (0: none)")
    parser.add_argument("--pairs", type=int, default=10,
                        help="seeds per head-to-head lineup, each seated every way (0: none)")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help=f"the bots, comma-separated (default {DEFAULT_BOTS})")
    parser.add_argument("--search-budget", default="400", help="the search bot's budget: iterations (400) or 1s")
    parser.add_argument("--players", default="2,3,4", help="player counts of the self-play games")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game of each part")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--against", default=None, metavar="BOT",
                        help="head to head: each bot against BOT in the other seats, with the paired margin")
    parser.add_argument("--table", type=int, default=2, help="players of a head-to-head game with --against")
    parser.add_argument("--out", default=None, metavar="FILE", help="append each head-to-head game as a JSON line")
    return parser.parse_args()


def _bot_name(name: str, search_budget: str) -> str:
    return f"search:{search_budget}" if name == "search" else name


def _show(console: Console, heading: str, table: Table) -> None:
    console.print(f"\n{heading}", highlight=False, soft_wrap=True)
    console.print(table)


def main() -> None:
    args = _arguments()
    bots = [_bot_name(name, args.search_budget) for name in args.bots.split(",")]
    for name in [*bots, *([args.against] if args.against else [])]:
        make_bot(name, 0)  # an unknown name fails before any game
    counts = [int(count) for count in args.players.split(",")]
    console = Console(width=None if sys.stdout.isatty() else 200)  # a file: no bot name cut short
    started = time.perf_counter()
    if args.games > 0:
        own = play_all(self_play(args.ruleset, bots, counts, args.games, args.seed), args.jobs, "self-play")
        _show(console, "self-play: mean VP per seat (the bot in every seat)", self_play_table(bots, counts, own))
        _show(console, "CPU time per action in self-play (all its decisions: the seat's view and the choice)",
              timing_table(bots, own))
        _show(console, "search: playouts per CPU-second of searching (listing the candidates included)",
              playouts_table(own))
    if args.pairs > 0:
        other = _bot_name(args.against, args.search_budget) if args.against else None
        matches = (against_one(args.ruleset, bots, other, args.table, args.pairs, args.seed) if other
                   else head_to_head(args.ruleset, bots, args.pairs, args.seed))
        pairs = play_all(matches, args.jobs, "head to head", args.out)
        _show(console, "head to head, seats rotated: the first bot's win rate (95% Wilson interval)"
              + (f"; its margin over the best other seat minus {other}'s in its place (95% t interval)"
                 if other else ""), head_to_head_table(pairs, margins=other is not None))
        _show(console, "search: playouts per CPU-second of searching (listing the candidates included)",
              playouts_table(pairs))
    console.print(f"{args.ruleset}, seeds from {args.seed}; {time.perf_counter() - started:.0f} s in all",
                  highlight=False)


if __name__ == "__main__":
    main()
