"""`brass tune`: the heuristic bot's parameters improved for a ruleset by self-play (docs/bots.md,
"Tuning"; the work is `interpreter.tools.tune`, imported when the command runs, not with `brass`).

    brass tune RULESET [--players N] [--budget 30m] [--jobs N | --ray [ADDRESS]] [--seed S]
                       [--out FILE] [--resume] [--write]
"""

from __future__ import annotations

import argparse
from typing import Any

from interpreter.ruleset.loader import DEFAULT_RULESET

__all__ = ["tune_commands"]


def tune_commands(commands: Any) -> None:
    """Add `brass tune` to the sub-command parsers."""
    tune = commands.add_parser("tune", help="improve the heuristic bot's parameters for a ruleset by self-play",
                               description="Improve the heuristic bot's parameters for a ruleset by self-play: "
                                           "candidates judged in seat-rotated games against the best so far, "
                                           "saved as they are judged (--resume continues), then a verdict from "
                                           "fresh games against the starting parameters (docs/bots.md).")
    tune.add_argument("ruleset", nargs="?", default=DEFAULT_RULESET,
                      help=f"ruleset folder or built-in name (default: {DEFAULT_RULESET})")
    tune.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    tune.add_argument("--budget", default="30m",
                      help="CPU time of the tuning games (90s, 20m, 1.5h) or their number (40games, the same "
                           "result on every machine); default 30m")
    tune.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed, the same search")
    tune.add_argument("--jobs", type=int, default=1, metavar="N",
                      help="play in N worker processes (0: one per core; default 1)")
    tune.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                      help="play on a Ray cluster (no ADDRESS: a local one)")
    tune.add_argument("--out", metavar="FILE",
                      help="the run's file, written after every judged candidate (default "
                           "tune-RULESET-Np-seedS.jsonl)")
    tune.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    tune.add_argument("--write", action="store_true",
                      help="write bots.yaml in the ruleset's folder (default: print the section to paste)")
    tune.add_argument("--candidates", type=_positive, default=4, help="candidates per generation (default 4)")
    tune.add_argument("--rounds", type=_positive, default=2,
                      help="games per candidate, in rounds of one game per seat (default 2)")
    tune.add_argument("--verdict-games", type=_positive, default=100, metavar="N",
                      help="fresh games of the final verdict (default 100)")
    tune.set_defaults(run=run_tune)


def run_tune(args: argparse.Namespace) -> int:
    from interpreter.tools.tune.command import run_tune as run

    return run(args)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
