"""Benchmark: drawing positions as pictures (`board_svg`, `brass board`; not a timed test).

    python bench/bench_board.py [--games N] [--players P] [RULESET]

Over the positions between actions of N greedy-bot games (P players), measures the CPU time
(`time.process_time`, which other processes on a shared machine do not distort) of `board_svg`
per position, mean and worst, and the size of the SVG text; then the automatic layout of RULESET
with every location's `at` removed (what a new map without positions costs, once per ruleset).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from interpreter import Game, load_ruleset
from interpreter.tools.board.layout import location_positions
from interpreter.tools.board.picture import board_svg
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot


def positions(ruleset_name: str, players: int, games: int) -> list[Game]:
    ruleset = load_ruleset(ruleset_name)
    found = []
    for seed in range(games):
        game = Game.new(ruleset, players, seed)
        bots = {s: make_bot("greedy", bot_seed(seed, s)) for s in range(1, players + 1)}
        while not game.is_over:
            if game.pending is None and game.question is None:
                found.append(game.copy())
            game.apply(decide(bots[game.deciding_seat], game))
        found.append(game)
    return found


def bench_pictures(games: list[Game]) -> None:
    board_svg(games[0])  # the boxes of the ruleset are worked out on the first picture
    times, sizes = [], []
    for game in games:
        start = time.process_time()
        text = board_svg(game)
        times.append(time.process_time() - start)
        sizes.append(len(text.encode("utf-8")))
    print(f"board_svg: {len(games)} positions, mean {1000 * statistics.mean(times):.1f} ms, "
          f"worst {1000 * max(times):.1f} ms CPU; SVG {statistics.mean(sizes) / 1024:.0f} KiB mean, "
          f"{max(sizes) / 1024:.0f} KiB largest")


def bench_layout(ruleset_name: str) -> None:
    base = load_ruleset(ruleset_name)
    with tempfile.TemporaryDirectory(prefix="brass-bench-board-") as folder:
        removed = {lid: {"$remove": ["at"]} for lid in base.locations}
        Path(folder, "ruleset.yaml").write_text(
            f"name: no-positions\ntitle: without positions\nversion: \"1\"\nextends: {json.dumps(ruleset_name)}\n"
            f"locations: {json.dumps(removed)}\n", encoding="utf-8")
        ruleset = load_ruleset(folder)
    start = time.process_time()
    location_positions(ruleset)
    print(f"automatic layout of {len(ruleset.locations)} locations, {len(ruleset.links)} links: "
          f"{1000 * (time.process_time() - start):.0f} ms CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    bench_pictures(positions(args.ruleset, args.players, args.games))
    bench_layout(args.ruleset)


if __name__ == "__main__":
    main()
