"""Benchmark: what a search bot does to the engine (not a timed test).

    python bench/bench_engine.py [--games N] [--players P] [RULESET]

Over the positions between actions of N greedy-bot games (P players), measures:
- `Game.copy()`: mean and worst, and at the game's end (the longest log);
- `Game.whole_actions()`: mean and worst time per position, the whole actions listed, and the
  Python calls per position (cProfile, a separate run: seconds on a shared machine vary by a third
  between runs, calls do not);
- `apply()` of a whole action (one of those listed, taken at once);
- `Game.from_json()` of a save at the end of each game.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from collections.abc import Callable
from typing import Any

from interpreter import Game, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot


def positions(ruleset: Ruleset, players: int, seed: int) -> tuple[list[Game], Game]:
    """The positions between actions of a greedy game, and its end."""
    game = Game.new(ruleset, players, seed)
    bots = {s: make_bot("greedy", bot_seed(seed, s)) for s in range(1, players + 1)}
    found: list[Game] = []
    while not game.is_over:
        if game.pending is None and game.question is None:
            found.append(game.copy())
        game.apply(decide(bots[game.deciding_seat], game))
    return found, game


def timed(fn: Callable[[], Any], repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def calls(fn: Callable[[], Any]) -> int:
    profile = cProfile.Profile()
    profile.enable()
    try:
        fn()
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    copies, lists, counts, list_calls, loads, applies = [], [], [], [], [], []
    ends: list[float] = []
    for seed in range(1, args.games + 1):
        found, end = positions(ruleset, args.players, seed)
        for game in found:
            copies.append(timed(game.copy, 20))
            lists.append(timed(game.whole_actions))
            listed = game.whole_actions()
            counts.append(len(listed))
            move = listed[len(listed) // 2]
            applies.append(timed(lambda game=game, move=move: game.copy().apply(move), 5) - copies[-1])
        list_calls += [calls(game.whole_actions) for game in found[::10]]
        ends.append(timed(end.copy, 50))
        text = end.to_json()
        loads.append(timed(lambda text=text: Game.from_json(ruleset, text), 10))
    ms = 1000
    print(f"ruleset {args.ruleset}, {args.players} players, {args.games} greedy game(s), {len(copies)} positions")
    print(f"  copy():          mean {statistics.mean(copies) * ms:.3f} ms, worst {max(copies) * ms:.3f} ms, "
          f"at the end {statistics.mean(ends) * ms:.3f} ms")
    print(f"  whole_actions(): mean {statistics.mean(lists) * ms:.2f} ms, worst {max(lists) * ms:.1f} ms, "
          f"{statistics.mean(counts):.0f} whole actions per position (max {max(counts)}), "
          f"{statistics.mean(list_calls) / 1000:.1f} k calls per position")
    print(f"  apply(whole):    mean {statistics.mean(applies) * ms:.3f} ms (a listed whole action, taken at once)")
    print(f"  from_json():     mean {statistics.mean(loads) * ms:.2f} ms (a save at the end of a game)")


if __name__ == "__main__":
    main()
