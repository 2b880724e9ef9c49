"""How many playouts a second the search bot gets, on fixed positions (not a timed test).

    python bench/bench_playouts.py [--players 2,4] [--games 2] [--every 5] [--iterations 60]
                                   [--options OPTIONS] [--knobs NAME=V,...] [--profile N] [RULESET]

Positions: heuristic self-play games (seeds 0..games-1), one position every `every` actions
between actions (an odd `every`: in 2-player games both the first and the second action of a
turn, which the search plays out differently). On each, a search bot (`search:ITERATIONS[,OPTIONS]`,
an iteration budget: the same work whatever the machine's load) chooses once, with the search
knobs of the ruleset but those `--knobs` sets (e.g. `--knobs own_turn_once=0,shared_rollouts=0`:
the playouts as they were before issue 22; bot_params.SearchParams). The CPU time
(`time.process_time`) of the choices, listing the candidates included, and the playouts they ran
give playouts per CPU-second, per player count. `--profile N` prints the N functions with the
most cumulative time over all the choices (cProfile), to see where a playout's time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from dataclasses import replace
from typing import Any

from interpreter.engine.game import Game
from interpreter.ruleset.bot_params import BotParams
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.heuristic import HeuristicBot
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot
from interpreter.tools.bots.search import SearchBot


def positions(ruleset: Ruleset, players: int, games: int, every: int) -> list[Game]:
    """Copies of heuristic self-play games between actions, one every `every` actions."""
    found: list[Game] = []
    for seed in range(games):
        game = Game.new(ruleset, players, seed)
        bots = {seat: HeuristicBot(bot_seed(seed, seat)) for seat in range(1, players + 1)}
        actions = 0
        while not game.is_over:
            between = game.pending is None and game.question is None
            if between:
                actions += 1
                if actions % every == 0:
                    found.append(game.copy())
            game.apply(decide(bots[game.deciding_seat], game))
    return found


def measure(found: list[Game], bot_name: str, params: BotParams) -> tuple[int, float]:
    """Playouts run and CPU seconds spent by one choice of the bot in each position."""
    playouts, seconds = 0, 0.0
    for index, game in enumerate(found):
        bot = make_bot(bot_name, bot_seed(index, game.deciding_seat), params)
        assert isinstance(bot, SearchBot)
        start = time.process_time()
        decide(bot, game)
        seconds += time.process_time() - start
        assert bot.last_search is not None
        playouts += bot.last_search.iterations
    return playouts, seconds


def with_knobs(ruleset: Ruleset, text: str) -> BotParams:
    """The ruleset's bot parameters with the search knobs of `text` (`name=value,...`) changed."""
    params = ruleset.bots
    changes: dict[str, Any] = {name: float(value) if "." in value else int(value)
               for name, _, value in (part.partition("=") for part in text.split(",") if part)}
    return replace(params, search=replace(params.search, **changes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--options", default="", help="more search options, e.g. `greedy` or `tree`")
    parser.add_argument("--knobs", default="", help="search knobs, e.g. own_turn_once=0,greedy_others=1")
    parser.add_argument("--profile", type=int, default=0)
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    name = f"search:{args.iterations}" + (f",{args.options}" if args.options else "")
    profiler = cProfile.Profile() if args.profile else None
    for players in (int(p) for p in args.players.split(",")):
        found = positions(ruleset, players, args.games, args.every)
        if profiler:
            profiler.enable()
        playouts, seconds = measure(found, name, with_knobs(ruleset, args.knobs))
        if profiler:
            profiler.disable()
        print(f"{players} players, {len(found)} positions, {name} {args.knobs}: {playouts} playouts in "
              f"{seconds:.2f} CPU s: {playouts / seconds:.1f} playouts per CPU-second "
              f"({seconds / len(found) * 1000:.0f} ms a choice)")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
