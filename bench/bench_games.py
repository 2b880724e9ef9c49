"""Benchmark: random full games of Birmingham (not a timed test).

    python bench/bench_games.py [--games N] [--seed S] [RULESET]

For 2, 3 and 4 players, plays N games choosing uniformly among the complete list of
legal next decisions at every step (so the cost of listing every decision is
included) and prints, per player count: games per second, mean time of one
`legal_actions()` call and of one `apply()` call, decisions per game, and the peak
memory of one game measured in a separate run under tracemalloc (tracing slows
Python down, so it is kept out of the timings), and the Python function calls of that
game (cProfile, again a separate run): seconds on a shared machine vary by a third from
run to run, the call count does not, so it is the figure to compare between versions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
import tracemalloc

from interpreter.engine.game import Game
from interpreter.engine.rng import Rng
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset


def play(ruleset: Ruleset, players: int, seed: int) -> tuple[int, float, float]:
    """One random game: (decisions, seconds in legal_actions, seconds in apply)."""
    game = Game.new(ruleset, players, seed)
    rng = Rng(seed)
    decisions, listing, applying = 0, 0.0, 0.0
    clock = time.perf_counter
    while not game.is_over:
        start = clock()
        legal = game.legal_actions()
        middle = clock()
        game.apply(legal[rng.below(len(legal))])
        end = clock()
        listing += middle - start
        applying += end - middle
        decisions += 1
    return decisions, listing, applying


def peak_memory(ruleset: Ruleset, players: int, seed: int) -> int:
    """Peak bytes allocated while one game is played (the loaded ruleset not included)."""
    tracemalloc.start()
    try:
        play(ruleset, players, seed)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def python_calls(ruleset: Ruleset, players: int, seed: int) -> int:
    """Python function calls made while one game is played: a measure of work that, unlike
    seconds, does not vary with the load of a shared machine (compare it between versions)."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        play(ruleset, players, seed)
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10, help="games per player count (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (game i: seed + i)")
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    print(f"ruleset {args.ruleset}: {args.games} random game(s) per player count, seeds {args.seed}.."
          f"{args.seed + args.games - 1}")
    print(f"{'players':>7} {'games/s':>8} {'s/game':>7} {'decisions':>9} {'legal_actions':>14} "
          f"{'apply':>9} {'peak memory':>12} {'calls/game':>11}")
    for players in ruleset.players:
        start = time.perf_counter()
        results = [play(ruleset, players, args.seed + i) for i in range(args.games)]
        elapsed = time.perf_counter() - start
        decisions = sum(r[0] for r in results)
        listing = sum(r[1] for r in results) / decisions * 1e3
        applying = sum(r[2] for r in results) / decisions * 1e3
        peak = peak_memory(ruleset, players, args.seed) / 2**20
        calls = python_calls(ruleset, players, args.seed)
        print(f"{players:>7} {args.games / elapsed:>8.2f} {elapsed / args.games:>7.3f} "
              f"{decisions / args.games:>9.0f} {listing:>11.3f} ms {applying:>6.3f} ms {peak:>9.1f} MiB "
              f"{calls / 1e6:>9.2f} M")


if __name__ == "__main__":
    main()
