"""`brass verify`: scenario files against their rulesets, rule coverage, and mutation testing.

    brass verify PATH... [--coverage] [--rule ID] [--check] [--json]
    brass verify PATH... --mutate [--ruleset R] [--jobs N | --ray [ADDRESS]] [--sample EVERY]
                         [--only PATTERN] [--budget TIME] [--inherited] [--equivalents FILE] [--json]

The arguments and their checks; the work is `scenarios.verify` and `scenarios.mutate`
(docs/scenarios.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from interpreter.ruleset.errors import BrassError

__all__ = ["verify_commands"]


def verify_commands(commands: Any) -> None:
    """Add `brass verify` to the sub-command parsers."""
    verify = commands.add_parser("verify", help="run scenario files and report failures and rule coverage")
    verify.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders (every *.yaml below)")
    verify.add_argument("--coverage", action="store_true", help="also print the percentage of rule IDs cited")
    verify.add_argument("--rule", action="append", default=[], metavar="ID",
                        help="run only the scenarios citing this rule ID or prefix (R-COAL); may be repeated")
    verify.add_argument("--check", action="store_true",
                        help="also check the engine's invariants on each position and after every step")
    verify.add_argument("--json", action="store_true",
                        help="print the results and the coverage as JSON (for other tools); same exit status")
    mutation = verify.add_argument_group("mutation testing (docs/scenarios.md)")
    mutation.add_argument("--mutate", action="store_true",
                          help="run the scenarios against every mutant of the ruleset; report the survivors")
    mutation.add_argument("--ruleset", metavar="R", default=None,
                          help="the ruleset to mutate (default: the one the scenarios play)")
    mutation.add_argument("--jobs", type=_at_least_one, default=1, metavar="N",
                          help="judge mutants in N worker processes (default 1)")
    mutation.add_argument("--sample", type=_at_least_one, default=1, metavar="EVERY",
                          help="only every EVERY-th mutant, in generated order (default 1: all)")
    mutation.add_argument("--only", action="append", default=[], metavar="PATTERN",
                          help="only the mutants whose id or FILE:LINE matches this glob "
                               "('tiles.*', 'industries.yaml:90'); may be repeated")
    mutation.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                          help="judge mutants as Ray tasks: a local Ray instance, or the cluster at ADDRESS "
                               "(needs the ray extra; not with --jobs)")
    mutation.add_argument("--budget", type=_duration, default=None, metavar="TIME",
                          help="stop judging when TIME of wall clock is spent (90s, 5m, 1h); the mutants are "
                               "then judged in an order spread over the whole ruleset, and the report says how "
                               "many are left")
    mutation.add_argument("--inherited", action="store_true",
                          help="of a variant, also mutate the values it inherits (default: only those its own "
                               "files state; its base's scenarios judge the rest)")
    mutation.add_argument("--equivalents", metavar="FILE", default=None,
                          help="a YAML list of {at, change, reason}: survivors judged unable to change a game")
    verify.set_defaults(run=run_verify)


def _at_least_one(text: str) -> int:
    """A whole number of 1 or more, for --jobs and --sample (argparse names the option)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not {value}")
    return value


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600}


def _duration(text: str) -> float:
    """Seconds from '90', '90s', '2.5m' or '1h' (argparse names the option in the error)."""
    unit = text[-1:] if text[-1:] in DURATION_UNITS else "s"
    number = text[:-1] if text[-1:] in DURATION_UNITS else text
    try:
        seconds = float(number) * DURATION_UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"a time is a number with s, m or h (90s, 5m, 1h), not {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"a time must be more than 0, not {text!r}")
    return seconds


def _check_ray(args: argparse.Namespace) -> None:
    from interpreter.tools.cluster.ray_connect import check_runner

    check_runner(args.jobs, args.ray, "scenario folder")


def run_verify(args: argparse.Namespace) -> int:
    from interpreter.tools.scenarios.verify import verify

    if args.mutate:
        if args.coverage:
            raise BrassError("--coverage does not go with --mutate (the coverage of the scenarios is the same "
                             "for every mutant): run them apart")
        if args.ray is not None:
            _check_ray(args)
        from interpreter.tools.scenarios.mutate import mutate

        return mutate(args.paths, sys.stdout, ruleset=args.ruleset, jobs=args.jobs, sample=args.sample,
                      only=args.only, equivalents=args.equivalents, as_json=args.json, check=args.check,
                      rules=args.rule, inherited=args.inherited, budget=args.budget, ray_address=args.ray)
    used = [f"--{name}" for name in ("ruleset", "equivalents", "budget", "ray") if getattr(args, name) is not None] + \
        [f"--{name}" for name in ("jobs", "sample") if getattr(args, name) != 1] + \
        [f"--{name}" for name in ("only", "inherited") if getattr(args, name)]
    if used:
        raise BrassError(f"{', '.join(used)} only go{'es' if len(used) == 1 else ''} with --mutate")
    return verify(args.paths, sys.stdout, show_coverage=args.coverage, as_json=args.json, check=args.check,
                  rules=args.rule)
