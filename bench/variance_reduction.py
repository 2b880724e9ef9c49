"""How much of the variance of a comparison's differences pairing removes (not a timed test).

    python bench/variance_reduction.py [--games N] [--players P] [--bot heuristic] [--jobs J]

`brass simulate VARIANT --against BASE` plays both rulesets from the same seeds and judges the
game-by-game differences. What the two games of a seed share cancels in a difference; the share of
the variance removed is 1 - var(variant - base) / (var(variant) + var(base)), the figure the
comparison prints as "pairing removed 26% of the variance". This plays three variants that change
play but not setup against Birmingham (what-if, sell-level-ii and bench/variants/loan-50) and
prints the share for the key figures, each with a 95% bootstrap interval over the seeds (the share
of 60 games is itself uncertain by about ±0.2).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from interpreter.engine.rng import stream
from interpreter.tools.simulate.stats import variance_removed

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


def comparison(variant: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, "-m", "interpreter.tools.cli.main", "simulate", variant, "--against", "birmingham",
               "--bot", args.bot, "--games", str(args.games), "--players", str(args.players),
               "--jobs", str(args.jobs), "--json"]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout)


def bootstrap(variant: list[float], base: list[float]) -> tuple[float, float]:
    """A 95% percentile interval of the share removed, resampling the seeds (our own generator)."""
    rng, shares = stream(0, "bootstrap"), []
    for _ in range(RESAMPLES):
        picks = [rng.below(len(variant)) for _ in variant]
        share = variance_removed([variant[i] for i in picks], [base[i] for i in picks])
        if share is not None:
            shares.append(share)
    shares.sort()
    return shares[int(0.025 * len(shares))], shares[int(0.975 * len(shares)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.games} seeds, {args.players} players, {args.bot} bots; share of the variance removed by pairing")
    for variant in VARIANTS:
        data = comparison(variant, args)
        mine, theirs = data["per_game"], data["against"]["per_game"]
        for figure in FIGURES:
            a = [per_game(g, figure) for g in mine]
            b = [per_game(g, figure) for g in theirs]
            share = variance_removed(a, b)
            low, high = bootstrap(a, b)
            print(f"  {Path(variant).name:<14} {figure:<14} {share:6.1%}  (95% bootstrap {low:.0%} to {high:.0%})")


if __name__ == "__main__":
    main()
