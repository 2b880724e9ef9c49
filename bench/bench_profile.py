"""What recording a game's profile costs (`brass report`'s data; interpreter/tools/simulate/profile.py).

    python bench/bench_profile.py [--games 20] [--repeats 5] [--bot greedy] [--players 2] [RULESET]

Plays the same games (seeds 0..games-1, seats rotated as in a comparison) with the profile
recorded and without, in turns, `repeats` times each, and prints the CPU time of each pass
(`time.process_time`: other work on a shared machine counts less than in wall-clock time), the
ratio of the medians, and, since CPU time still varies by a tenth or more here, the Python function
calls of the games with and without (cProfile; a measure of work that does not depend on the
machine's load). Also the size of a profile in an --out line.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import time

from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.simulate.games import play_game, seating


def play_all(ruleset: Ruleset, args: argparse.Namespace, profile: bool) -> float:
    """The CPU seconds of playing every game once."""
    start = time.process_time()
    for seed in range(args.games):
        play_game(ruleset, args.players, seed, seating([args.bot] * args.players, seed, True), profile=profile)
    return time.process_time() - start


def calls(ruleset: Ruleset, args: argparse.Namespace, profile: bool) -> int:
    counter = cProfile.Profile()
    counter.enable()
    for seed in range(args.games):
        play_game(ruleset, args.players, seed, seating([args.bot] * args.players, seed, True), profile=profile)
    counter.disable()
    return pstats.Stats(counter).total_calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    play_all(ruleset, args, True)  # warm: imports, caches
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.repeats):
        for profile in (False, True):
            times[profile].append(play_all(ruleset, args, profile))
    without, with_ = statistics.median(times[False]), statistics.median(times[True])
    print(f"{args.games} {args.bot} {args.players}-player games of {args.ruleset}, {args.repeats} passes each, "
          "CPU seconds per pass:")
    print(f"  without the profile: {', '.join(f'{t:.3f}' for t in times[False])} (median {without:.3f})")
    print(f"  with the profile:    {', '.join(f'{t:.3f}' for t in times[True])} (median {with_:.3f})")
    print(f"  ratio of the medians: {with_ / without:.3f}")
    plain, profiled = calls(ruleset, args, False), calls(ruleset, args, True)
    print(f"  Python calls: {plain:,} without, {profiled:,} with: +{(profiled - plain) / plain:.2%}")
    sizes = [len(json.dumps(play_game(ruleset, args.players, seed, seating([args.bot] * args.players, seed, True))
                            .profile, separators=(",", ":"))) for seed in range(args.games)]
    print(f"  a profile in an --out line: {statistics.mean(sizes):.0f} bytes on average ({min(sizes)}–{max(sizes)})")


if __name__ == "__main__":
    main()
