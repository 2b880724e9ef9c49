"""How much of the variance of a comparison's differences pairing removes, and how much the
base's earlier games as a control remove (not a timed test).

    python bench/variance_reduction.py [--games N] [--players P] [--bot heuristic] [--jobs J]
                                       [--base-from FILE]

`brass simulate VARIANT --against BASE` plays both rulesets from the same seeds and judges the
game-by-game differences. What the two games of a seed share cancels in a difference; the share of
the variance removed is 1 - var(variant - base) / (var(variant) + var(base)), the figure the
comparison prints as "pairing removed 26% of the variance". This plays three variants that change
play but not setup against Birmingham (what-if, sell-level-ii and bench/variants/loan-50) and
prints the share for the key figures, each with a 95% bootstrap interval over the seeds (the share
of 60 games is itself uncertain by about ±0.2).

With --base-from FILE (the --out file of `brass simulate birmingham --bot heuristic --games 400
--seed 1000 --out FILE`, seeds the comparisons do not play), it also prints the share the
control removes (`stats.controlled_difference`: the base's level from those games, the paired
base games as a control variate), against the same two independent runs, with its bootstrap
interval (the paired games resampled, the base's other games kept).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from interpreter.engine.rng import stream
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.simulate.stats import controlled_difference, variance_removed
from interpreter.tools.simulate.store import read_base_games

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("what-if", "sell-level-ii", str(ROOT / "bench" / "variants" / "loan-50"))
FIGURES = ("vp_per_player", "winner_vp", "vp_seat_1")
RESAMPLES = 2000


def per_game(record: dict, figure: str) -> float:
    vps = [row["vp"] for row in record["standings"]]
    if figure == "vp_per_player":
        return sum(vps) / len(vps)
    if figure == "winner_vp":
        return max(vps)
    return next(row["vp"] for row in record["standings"] if row["seat"] == 1)


def per_figure(records: list[dict], figure: str) -> list[float]:
    return [per_game(record, figure) for record in records]


def comparison(variant: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, "-m", "interpreter.tools.cli.main", "simulate", variant, "--against", "birmingham",
               "--bot", args.bot, "--games", str(args.games), "--players", str(args.players),
               "--jobs", str(args.jobs), "--json"]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout)


def control_removed(variant: list[float], base: list[float], others: list[float]) -> float | None:
    return controlled_difference(variant, base, others).removed


def bootstrap(variant: list[float], base: list[float], others: list[float] | None = None) -> tuple[float, float]:
    """A 95% percentile interval of the share removed (by pairing, or with `others` by the control),
    resampling the paired seeds (our own generator)."""
    rng, shares = stream(0, "bootstrap"), []
    for _ in range(RESAMPLES):
        picks = [rng.below(len(variant)) for _ in variant]
        mine, theirs = [variant[i] for i in picks], [base[i] for i in picks]
        share = variance_removed(mine, theirs) if others is None else control_removed(mine, theirs, others)
        if share is not None:
            shares.append(share)
    if not shares:  # the figure did not vary (random bots score 0)
        return math.nan, math.nan
    shares.sort()
    return shares[int(0.025 * len(shares))], shares[int(0.975 * len(shares)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--base-from", type=Path, default=None)
    args = parser.parse_args()
    others = base_games(args)
    print(f"{args.games} seeds, {args.players} players, {args.bot} bots; share of the variance of two independent "
          "runs removed by pairing" + ("" if others is None else f", and by the control ({len(others)} base games)"))
    for variant in VARIANTS:
        data = comparison(variant, args)
        mine, theirs = data["per_game"], data["against"]["per_game"]
        for figure in FIGURES:
            a, b = per_figure(mine, figure), per_figure(theirs, figure)
            low, high = bootstrap(a, b)
            name = Path(variant).name
            line = f"  {name:<14} {figure:<14} pairing {_share(variance_removed(a, b))} ({low:.0%} to {high:.0%})"
            if others is not None:
                rest = per_figure(others, figure)
                low, high = bootstrap(a, b, rest)
                line += f"   control {_share(control_removed(a, b, rest))} ({low:.0%} to {high:.0%})"
            print(line)


def _share(value: float | None) -> str:
    return "     —" if value is None else f"{value:6.1%}"


def base_games(args: argparse.Namespace) -> list[dict] | None:
    """The --base-from file's games of Birmingham outside the comparisons' seeds, as records."""
    if args.base_from is None:
        return None
    records = read_base_games([args.base_from], load_ruleset("birmingham"), args.players, [args.bot] * args.players,
                              range(args.games))
    return [{"standings": record.standings} for record in records]


if __name__ == "__main__":
    main()
