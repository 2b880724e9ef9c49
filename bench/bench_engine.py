"""Benchmark: what a search bot asks of the engine (not a timed test).

    python bench/bench_engine.py [--games N] [--players 2,3,4] [--seed S] [--calls]
                                 [--save FILE | --positions FILE] [RULESET]

Plays N heuristic self-play games per player count (seeds S, S+1, …) and reports, per player count:

- **whole actions per position** (the positions between actions of those games): median, 95th
  percentile and maximum, by era;
- **listing them** (`Game.whole_actions()` on a fresh copy of each position, as a search does on the
  copies it plays on): CPU milliseconds per position, median, 95th percentile and mean, by era too;
  the same after `legal_actions()` on the same copy (as the heuristic bot lists them: what the first
  search remembered is still there);
- **the heuristic bot**: CPU milliseconds per action (the view and every decision of the action,
  questions inside it included), median and 95th percentile;
- with `--calls`: Python calls per position listed and per heuristic game (the first seed), counted
  by cProfile. Seconds on a shared machine vary by a third between runs; calls do not.

Times are CPU time of this process (`time.process_time`), one core. The positions are held in
memory while they are timed, so the collector's objects of the bench itself are frozen first
(`gc.freeze`): a full collection of hundreds of saved games is not the engine's work.

`--save FILE` writes the positions (saves) and the heuristic's times; `--positions FILE` times
those positions again without playing (to compare two versions of the engine on the same positions:
run this file with each version on PYTHONPATH, alternately).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import statistics
import time
from collections.abc import Callable
from typing import Any

from interpreter import Game, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import bot_seed, decide, deciding_seat, make_bot


def play(ruleset: Ruleset, players: int, seed: int) -> tuple[list[str], list[float]]:
    """A heuristic self-play game: the saves of its positions between actions, and the CPU seconds
    of each action of the bot."""
    game = Game.new(ruleset, players, seed)
    bots = {seat: make_bot("heuristic", bot_seed(seed, seat)) for seat in range(1, players + 1)}
    saves: list[str] = []
    actions: list[float] = []
    while not game.is_over:
        if game.pending is None and game.question is None:
            saves.append(game.to_json())
        start = time.process_time()
        move = decide(bots[deciding_seat(game)], game)
        spent = time.process_time() - start
        if "action" in move or not actions:
            actions.append(0.0)
        actions[-1] += spent
        game.apply(move)
    return saves, actions


def collect(ruleset: Ruleset, counts: list[int], games: int, seed: int) -> dict[str, Any]:
    data: dict[str, Any] = {"ruleset": ruleset.name, "players": {}}
    for players in counts:
        saves, actions = [], []
        for n in range(games):
            found, spent = play(ruleset, players, seed + n)
            saves += found
            actions += spent
        data["players"][str(players)] = {"saves": saves, "heuristic_seconds": actions}
    return data


def cpu(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def calls(fn: Callable[[], Any]) -> int:
    profile = cProfile.Profile()
    profile.enable()
    try:
        fn()
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(games: list[Game]) -> dict[str, list[Any]]:
    """Per position: its era, the whole actions listed, and the CPU seconds of listing them on a fresh
    copy, cold and after `legal_actions()`."""
    for game in games:
        game.copy().whole_actions()  # what is made from the ruleset alone (plans, generated code) is shared
    rows: dict[str, list[Any]] = {"era": [], "count": [], "cold": [], "warm": []}
    for game in games:
        cold, warm = game.copy(), game.copy()
        rows["era"].append(game.table.era)
        rows["cold"].append(cpu(cold.whole_actions))
        warm.legal_actions()
        rows["warm"].append(cpu(warm.whole_actions))
        rows["count"].append(len(cold.whole_actions()))
    return rows


def ms(values: list[float]) -> str:
    return (f"median {statistics.median(values) * 1000:.2f}, p95 {percentile(values, 0.95) * 1000:.2f}, "
            f"mean {statistics.mean(values) * 1000:.2f} ms")


def report(players: str, rows: dict[str, list[Any]], heuristic: list[float]) -> None:
    print(f"{players} players: {len(rows['era'])} positions")
    for era in sorted(set(rows["era"]), key=rows["era"].index):
        counts = [c for c, e in zip(rows["count"], rows["era"], strict=True) if e == era]
        cold = [t for t, e in zip(rows["cold"], rows["era"], strict=True) if e == era]
        print(f"  {era:6} whole actions per position: median {statistics.median(counts):.0f}, "
              f"p95 {percentile(counts, 0.95):.0f}, max {max(counts)}; listing {ms(cold)}")
    print(f"  listing whole actions, every position: {ms(rows['cold'])} (max {max(rows['cold']) * 1000:.1f})")
    print(f"  … after legal_actions() on the same copy: {ms(rows['warm'])}")
    if heuristic:
        print(f"  heuristic bot per action: median {statistics.median(heuristic) * 1000:.1f} ms, "
              f"p95 {percentile(heuristic, 0.95) * 1000:.1f} ms ({len(heuristic)} actions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    parser.add_argument("--games", type=int, default=2, help="heuristic self-play games per player count")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calls", action="store_true", help="count Python calls too (cProfile)")
    parser.add_argument("--save", help="write the positions and the heuristic's times to FILE")
    parser.add_argument("--positions", help="time the positions of FILE (from --save) instead of playing")
    args = parser.parse_args()
    if args.positions:
        with open(args.positions, encoding="utf-8") as file:
            data = json.load(file)
        ruleset = load_ruleset(data["ruleset"])
    else:
        ruleset = load_ruleset(args.ruleset)
        data = collect(ruleset, [int(p) for p in args.players.split(",")], args.games, args.seed)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as file:
            json.dump(data, file)
    for players, found in data["players"].items():
        games = [Game.from_json(ruleset, save) for save in found["saves"]]
        gc.collect()
        gc.freeze()
        report(players, measure(games), [] if args.positions else found["heuristic_seconds"])
        if args.calls:
            per_position = calls(lambda games=games: [g.copy().whole_actions() for g in games]) / len(games)
            per_game = calls(lambda players=players: play(ruleset, int(players), args.seed))
            print(f"  Python calls: {per_position / 1000:.1f} k per position listed, "
                  f"{per_game / 1e6:.2f} M per heuristic game (seed {args.seed})")
        gc.unfreeze()


if __name__ == "__main__":
    main()
