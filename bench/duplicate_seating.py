"""Whether duplicate seating would narrow a comparison (issue 24 item 2; not a timed test).

    python bench/duplicate_seating.py [--deals 40] [--seats heuristic,greedy]

Duplicate seating plays each deal in every seating, so that what a deal gives one seat is given
to each bot in turn. It can only help if the games of one deal in two seatings move together.
This plays each deal (seed) twice, the bots in the given order and reversed, and prints the
correlation between the two games of a deal of the game's mean VP per player and of the first
bot's lead over the second (2 players).
"""

from __future__ import annotations

import argparse
import statistics

from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.simulate.games import GameRecord, play_game


def by_seat(record: GameRecord) -> list[int]:
    return [row["vp"] for row in sorted(record.standings, key=lambda row: row["seat"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--seats", default="heuristic,greedy")
    args = parser.parse_args()
    first, second = args.seats.split(",")
    ruleset = load_ruleset("birmingham")
    means: tuple[list[float], list[float]] = ([], [])
    leads: tuple[list[float], list[float]] = ([], [])
    for deal in range(args.seed, args.seed + args.deals):
        one = by_seat(play_game(ruleset, 2, deal, [first, second], profile=False))
        two = by_seat(play_game(ruleset, 2, deal, [second, first], profile=False))
        means[0].append(sum(one) / 2)
        means[1].append(sum(two) / 2)
        leads[0].append(one[0] - one[1])
        leads[1].append(two[1] - two[0])
    print(f"{args.deals} deals, each played as {first},{second} and {second},{first}:")
    print(f"  correlation of VP per player between a deal's two games: {statistics.correlation(*means):+.2f}")
    print(f"  correlation of {first}'s lead over {second}: {statistics.correlation(*leads):+.2f}")


if __name__ == "__main__":
    main()
