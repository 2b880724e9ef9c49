"""Benchmark: the search bot against another bot, seats rotated (not a timed test).

    python bench/bench_search.py [--bot search:100] [--against heuristic] [--players 2]
                                 [--pairs N] [--seed S] [--jobs J] [--out FILE] [RULESET]

Plays N pairs of games: game seed S+i once with `--bot` in seat 1 and `--against` in the other
seats, once with `--bot` in the last seat, so that each seed's deal is played from both sides.
Prints one line per game as it ends (also appended to --out as JSON lines), then the bot's win
rate with its 95% Wilson interval, the mean VP per seat of both sides, and the CPU time per action
of each (median and 95th percentile, measured with `time.process_time()` in the worker playing the
game: other processes on a loaded machine do not inflate it, unlike wall-clock time). An action's
time is the sum of the bot's `choose` calls for its decisions (the search runs at the first).
A tie for first place counts as half a win.

Win rates need many games to tell bots apart, and 2-player games between these bots favour seat 1
strongly. So each seed is also played with `--against` in every seat (the baseline, cheap), and
the bot's margin (its VP minus the best other seat's) is compared with the margin of the same
seat in the baseline game of the same seed: the mean of these paired differences, with its 95%
t interval, says how many VP of margin the bot is worth over the other bot in its place.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.bots.ladder import bot_seed, make_bot
from interpreter.tools.simulate.stats import paired_difference, wilson


def play(ruleset_name: str, seats: list[str], seed: int) -> dict[str, Any]:
    """One game: each seat's bot, VP, place, and the CPU seconds of each of its actions."""
    game = Game.new(load_ruleset(ruleset_name), len(seats), seed)
    bots = {n: make_bot(name, bot_seed(seed, n)) for n, name in enumerate(seats, start=1)}
    times: dict[int, list[float]] = {n: [] for n in bots}
    while not game.is_over:
        seat = game.deciding_seat
        starts = game.pending is None and game.question is None
        start = time.process_time()
        decision = bots[seat].choose(game.view(seat))
        spent = time.process_time() - start
        if starts or not times[seat]:
            times[seat].append(spent)
        else:
            times[seat][-1] += spent
        game.apply(decision)
    standings = {row["seat"]: row for row in game.standings()}
    best = max(row["vp"] for row in standings.values())
    winners = [s for s, row in standings.items() if row["vp"] == best]
    return {"seed": seed, "seats": seats,
            "vp": [standings[n]["vp"] for n in bots],
            "win": [1 / len(winners) if n in winners else 0.0 for n in bots],
            "times": [times[n] for n in bots]}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def margin(result: dict[str, Any], seat: int) -> float:
    """The seat's VP minus the best other seat's (1-based seat)."""
    vp = result["vp"]
    return float(vp[seat - 1] - max(v for n, v in enumerate(vp, start=1) if n != seat))


def paired_margins(results: list[dict[str, Any]], baselines: dict[int, dict[str, Any]],
                   bot: str) -> tuple[list[float], list[float]]:
    """The bot's margins, and the margins of the same seats in the baseline games of the same seeds."""
    mine, base = [], []
    for result in results:
        seat = result["seats"].index(bot) + 1
        mine.append(margin(result, seat))
        base.append(margin(baselines[result["seed"]], seat))
    return mine, base


def summary(results: list[dict[str, Any]], bot: str, other: str) -> list[str]:
    wins = vp_bot = vp_other = 0.0
    seats_bot = seats_other = 0
    times: dict[str, list[float]] = {bot: [], other: []}
    for result in results:
        for name, vp, win, spent in zip(result["seats"], result["vp"], result["win"], result["times"], strict=True):
            times[name].extend(spent)
            if name == bot:
                wins += win
                vp_bot += vp
                seats_bot += 1
            else:
                vp_other += vp
                seats_other += 1
    games = len(results)
    low, high = wilson(wins, games)
    lines = [f"{bot} won {wins:g} of {games} games against {other}: {wins / games:.0%} "
             f"(95% interval {low:.0%}–{high:.0%})",
             f"mean VP per seat: {bot} {vp_bot / seats_bot:.1f}, {other} {vp_other / seats_other:.1f}"]
    for name, spent in times.items():
        lines.append(f"CPU time per action, {name}: median {statistics.median(spent) * 1000:.0f} ms, "
                     f"95th percentile {percentile(spent, 0.95) * 1000:.0f} ms ({len(spent)} actions)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    parser.add_argument("--bot", default="search:100")
    parser.add_argument("--against", default="heuristic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=None)
    parser.add_argument("--read", default=None, metavar="FILE",
                        help="summarise the games of an --out file instead of playing (baselines are played)")
    args = parser.parse_args()
    others = [args.against] * (args.players - 1)
    games = [(args.ruleset, seats, args.seed + i) for i in range(args.pairs)
             for seats in ([args.bot, *others], [*others, args.bot])]
    results: list[dict[str, Any]] = []
    if args.read:
        with open(args.read, encoding="utf-8") as saved:
            results = [json.loads(line) for line in saved if line.strip()]
        games = []
    seeds = sorted({seed for _, _, seed in games} | {result["seed"] for result in results})
    baselines = {seed: play(args.ruleset, [args.against] * args.players, seed) for seed in seeds}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(play, *zip(*games, strict=True)):
            results.append(result)
            where = result["seats"].index(args.bot) + 1
            print(f"seed {result['seed']}, {args.bot} in seat {where}: VP {result['vp']}", flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps(result) + "\n")
    for line in summary(results, args.bot, args.against):
        print(line)
    mine, base = paired_margins(results, baselines, args.bot)
    if len(results) > 1:
        gain = paired_difference(mine, base)
        print(f"margin over the best other seat: {args.bot} {statistics.mean(mine):+.1f} VP, {args.against} in the "
              f"same seats and seeds {statistics.mean(base):+.1f} VP; difference {gain.mean:+.1f} VP "
              f"(95% interval {gain.low:+.1f} to {gain.high:+.1f}, {len(results)} paired games)")


if __name__ == "__main__":
    main()
