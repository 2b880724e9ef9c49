"""Benchmark: the cost bound of the condition language (brass_dsl/cost.py), not a timed test.

    python bench/bench_cost.py [--games N] [--seed S]

1. The highest estimated cost among the shipped expressions: every ruleset under rulesets/ is
   loaded and every scenario under scenarios/ read, and the estimate of every expression checked
   is recorded; prints the costliest ones and the margin the limit (MAX_COST) leaves above them.
2. What a unit takes: probe expressions (nested aggregates with simple conditions, and calls of
   the functions with a stated cost inside aggregates) are evaluated on the positions of N random
   4-player Birmingham games, from the middle of the Canal Era to the end of the Rail Era (the
   board full enough that the lists are near their longest), and the time of one evaluation
   divided by its estimate gives µs per unit. A probe over lists that are always full (slots,
   locations, links) is counted exactly by the estimate; a costly call is estimated as if nothing
   were remembered (the network's distances are remembered until the links change), so its
   figure shows how far the stated cost lies above the real work. The positions' caches are
   emptied before each probe, as after every change of the state in a game.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import brass_dsl.checker
from brass_dsl import Env, compile_expression
from brass_dsl.cost import MAX_COST, estimate_cost
from interpreter.engine.game import Game
from interpreter.engine.rng import Rng
from interpreter.ruleset.loader import clear_cache, load_ruleset
from interpreter.tools.scenarios.scenario import load_scenario
from interpreter.tools.scenarios.verify import scenario_files

ROOT = Path(__file__).resolve().parent.parent
CHECK_COST = brass_dsl.checker.check_cost

# Probes over lists whose length is always the most the estimate assumes: the estimate counts them exactly.
EXACT = [
    "count(a in slots where count(b in slots where a.index == b.index) > 0)",
    "sum(sum(a.index + b.index for b in slots) for a in slots)",
    "count(a in locations where count(b in locations where a == b) > 0)",
    "count(k in links where count(j in links where j != k) > 0) >= 0",
    "sum(max(s.index for s in l.slots default 0) for l in locations)",
]
# Probes whose estimate is an upper bound: calls of the functions with a stated cost inside
# aggregates, lists shorter than the longest they can be (a hand: the estimate counts every card).
BOUNDED = [
    "sum(count(c in hand(p) where c.kind in [\"location\", \"industry\"]) for p in players)",
    "count(a in locations where count(b in locations where connected(a, b)) > 0)",
    "count(a in locations where count(p in players where in_network(p, a)) > 0)",
    "count(a in locations where can_source(me, \"coal\", 2, [a]))",
    "sum(sum(source_cost(me, \"coal\", 9, [a.location, b]) for b in locations) for a in slots)",
    "sum(sum(source_cost(me, \"iron\", 3, [a, b]) for b in locations) for a in locations)",
    "count(a in locations where can_source(me, \"beer\", 2, [a]))",
    "count(a in locations where count(k in links_at(a) where link_free(k)) > 0)",
    "count(s in slots where has_board_tiles(me) and cubes_available(\"coal\") > 0)",
    "count(t in board_tiles where t.owner == me) + sum(link_icons_at(l) for l in locations)",
]


def shipped_costs() -> list[tuple[int, str, str]]:
    """(estimate, where, text) of every expression of the shipped rulesets and scenarios."""
    found: list[tuple[int, str, str]] = []
    reading = [""]  # the file being read, for an expression that has no origin

    def recording(tree: Any, registry: Any, text: str, origin: Any) -> int:
        cost = CHECK_COST(tree, registry, text, origin)
        where = str(origin.start) if origin is not None else reading[0]
        found.append((cost, where.replace(f"{ROOT}/", ""), " ".join(text.split())))
        return cost

    brass_dsl.checker.check_cost = recording
    try:
        clear_cache()
        for folder in sorted((ROOT / "rulesets").iterdir()):
            if (folder / "ruleset.yaml").exists():
                reading[0] = str(folder)
                load_ruleset(folder)
        for path in scenario_files([ROOT / "scenarios"]):
            reading[0] = str(path)
            load_scenario(path)
    finally:
        brass_dsl.checker.check_cost = CHECK_COST
    return found


def positions(games: int, seed: int) -> list[Game]:
    """Copies of the positions of random 4-player games from the middle of the Canal Era on."""
    ruleset = load_ruleset("birmingham")
    found = []
    for n in range(games):
        game = Game.new(ruleset, 4, seed + n)
        rng = Rng(seed + n)
        actions = 0
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])
            between = game.pending is None and game.question is None
            actions += between
            if between and actions % 8 == 0 and (game.table.state.era_index > 0 or game.table.state.round > 4):
                found.append(game.copy())
    return found


def per_unit(text: str, games: list[Game]) -> tuple[int, float]:
    """(estimate, µs per unit) of one probe over the positions."""
    registry = games[0].ruleset.registry
    brass_dsl.checker.check_cost = lambda *_: 0  # a probe may lie above the limit
    try:
        expression = compile_expression(text, registry)
    finally:
        brass_dsl.checker.check_cost = CHECK_COST
    units = estimate_cost(expression.tree, registry).total  # type: ignore[arg-type]
    spent = 0.0
    for game in games:
        table = game.table
        table.changed()
        env = Env(table, {})
        start = time.perf_counter()
        expression(env)
        spent += time.perf_counter() - start
    return units, spent / len(games) / units * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    costs = sorted(shipped_costs(), reverse=True)
    top = costs[0][0]
    print(f"{len(costs)} shipped expressions checked; the costliest (each text once):")
    shown: set[str] = set()
    for cost, where, text in costs:
        if text not in shown and len(shown) < 10:
            shown.add(text)
            print(f"  {cost:>7,}  {where}: {text[:100]}")
    in_rules = max(cost for cost, where, _ in costs if where.startswith("rulesets/"))
    print(f"the costliest of the rulesets' own expressions: {in_rules:,}")
    print(f"limit {MAX_COST:,} units: {MAX_COST / top:.1f} times the costliest shipped expression ({top:,})\n")

    games = positions(args.games, args.seed)
    print(f"µs per unit over {len(games)} positions of {args.games} random 4-player games:")
    exact = []
    for label, probes in (("counted exactly", EXACT), ("upper bounds", BOUNDED)):
        print(f"  {label}:")
        for text in probes:
            units, micro = per_unit(text, games)
            if probes is EXACT:
                exact.append(micro)
            print(f"    {micro:6.3f} µs x {units:>9,} units  {text}")
    print(f"one unit ≈ {statistics.median(exact):.3f} µs (median of the exact probes; at most {max(exact):.3f}): "
          f"the limit ≈ {MAX_COST * max(exact) / 1000:.1f} ms")


if __name__ == "__main__":
    main()
