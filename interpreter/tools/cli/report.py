"""`brass report`: a balance report of a variant against its base, as one HTML page.

    brass report VARIANT --against BASE --from runs.jsonl --html report.html
    brass report VARIANT --against BASE [--players N] [--games K] [--bot B] [--seed S] [--jobs N] --html FILE

With --from, the games are those of an --out file of `brass simulate VARIANT --against BASE`
(however and wherever they were played); without it, they are played here as `brass simulate
--against` plays them (`simulate.run.run_games`). The data is `simulate.report`, the page
`simulate.report_html` (docs/simulate.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.files.guards import write_whole

if TYPE_CHECKING:  # the simulation is imported when the command runs, not with `brass`
    from interpreter.tools.simulate.report import Origin, Report

__all__ = ["report_commands"]

PLAYING = ("players", "games", "bot", "seed", "jobs")  # the options that say how to play the games
DEFAULTS = {"players": 2, "games": 10, "bot": "heuristic", "seed": 0, "jobs": 1}  # as `brass simulate --against`'s


def report_commands(commands: Any) -> None:
    """Add `brass report` to the sub-command parsers."""
    report = commands.add_parser("report", help="a balance report of a variant against its base, as one HTML page",
                                 description="A balance report: what was compared, each figure's difference and "
                                             "verdict, VP by source, win rate by seat, the action mix, game length, "
                                             "money and income over the rounds, tiles built and flipped; one "
                                             "self-contained HTML page (docs/simulate.md).")
    report.add_argument("ruleset", metavar="VARIANT", help="the variant: a ruleset folder or built-in name")
    report.add_argument("--against", metavar="BASE", help="the ruleset it is compared with (required)")
    report.add_argument("--from", dest="source", metavar="FILE",
                        help="the --out file of `brass simulate VARIANT --against BASE`: report its games, "
                             "played nowhere again")
    report.add_argument("--html", metavar="FILE", help="write the page to FILE (required)")
    report.add_argument("--primary", metavar="FIGURE",
                        help="the figure judged alone at 5%% (default vp_per_player), as for brass simulate")
    report.add_argument("--base-from", action="append", metavar="FILE",
                        help="earlier games of BASE (an --out file; repeatable) for a control, as for brass simulate")
    playing = report.add_argument_group("without --from: the games to play (as brass simulate --against)")
    playing.add_argument("--players", type=int, default=None, help="number of players (default 2)")
    playing.add_argument("--games", type=int, default=None, help="number of games (default 10)")
    playing.add_argument("--bot", "--seats", dest="bot", default=None,
                         help="a bot for every seat, or one per seat: greedy,random (default heuristic)")
    playing.add_argument("--seed", type=int, default=None, help="seed of the first game (default 0)")
    playing.add_argument("--jobs", type=int, default=None, metavar="N",
                         help="play in N worker processes (0: one per core; default 1)")
    report.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    from interpreter.tools.simulate.report import Origin, report_from_file
    from interpreter.tools.simulate.report_html import report_page

    report: Report
    target = _check_arguments(args)
    variant, base = load_ruleset(args.ruleset), load_ruleset(args.against)
    origin = Origin(args.ruleset, args.against, Path(args.source) if args.source else None,
                    args.primary or _default_primary(), _version(), tuple(Path(name) for name in args.base_from or ()))
    if origin.path is not None:
        report, warning = report_from_file(origin.path, (variant, base), origin)
        if warning:
            print(warning, file=sys.stderr)
    else:
        played = _play(args, variant, base, origin)
        if isinstance(played, int):
            return played
        report = played
    try:
        write_whole(target, report_page(report).encode("utf-8"))
    except OSError as problem:
        raise BrassError(f"cannot write {target}: {problem.strerror or problem}") from None
    games = report.comparison["games"]
    print(f"wrote {target}: {report.variant.ruleset.name} against {report.base.ruleset.name}, {games} paired "
          f"game(s){_missing_note(report)}")
    return 0


def _check_arguments(args: argparse.Namespace) -> Path:
    """The page's path; every option checked before a game is played or a file read."""
    if args.against is None:
        raise BrassError(f"say what the variant is compared with: --against BASE (e.g. --against {DEFAULT_RULESET})")
    if args.html is None:
        raise BrassError("say where to write the page: --html FILE (e.g. --html report.html)")
    target = Path(args.html)
    if target.is_dir():
        raise BrassError(f"--html {args.html} is a folder; give a file such as report.html")
    if not target.resolve().parent.is_dir():
        raise BrassError(f"--html {args.html}: the folder {target.parent} does not exist")
    given = [f"--{name}" for name in PLAYING if getattr(args, name) is not None]
    if args.source is not None and given:
        raise BrassError(f"{', '.join(given)} say{'s' if len(given) == 1 else ''} how to play the games; with "
                         f"--from {args.source} they are the file's games: give one or the other")
    for name, value in DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.games < 1:
        raise BrassError(f"--games must be at least 1, not {args.games}")
    if args.jobs < 0:
        raise BrassError(f"--jobs is a number of worker processes (0: one per core), not {args.jobs}")
    return target


def _default_primary() -> str:
    from interpreter.tools.simulate.compare import PRIMARY

    return PRIMARY


def _play(args: argparse.Namespace, variant: Ruleset, base: Ruleset, origin: Origin) -> Report | int:
    """The report of games played here (run_games, as `brass simulate --against` plays them), or the
    exit status when interrupted."""
    from interpreter.tools.simulate.compare import figure_keys
    from interpreter.tools.simulate.report import report_from_games
    from interpreter.tools.simulate.run import bots_argument, run_games

    for ruleset in (variant, base):
        if args.players not in ruleset.players:
            raise BrassError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                             f"not {args.players}")
    bot = bots_argument(args.bot, args.players)
    known = figure_keys(args.players, list(dict.fromkeys([*variant.actions, *base.actions])))
    if origin.primary not in known:
        raise BrassError(f"--primary {origin.primary!r} is not a figure of this comparison; figures: "
                         f"{', '.join(known)}")
    options = argparse.Namespace(players=args.players, games=args.games, seed=args.seed, jobs=args.jobs, ray=None,
                                 out=None, resume=False, check=False, json=True)
    played = run_games(options, variant, base, bot)
    if isinstance(played, int):
        return played
    summary, against = played
    assert against is not None  # a comparison
    return report_from_games(summary, against, (variant, base), origin)


def _missing_note(report: Report) -> str:
    missing = [side.ruleset.name for side in (report.variant, report.base) if side.missing]
    if not missing:
        return ""
    return (f"; the games of {' and '.join(missing)} without a profile (an older brass) leave sections undrawn "
            "or partial")


def _version() -> str:
    from interpreter.tools.simulate.report import brass_version

    return brass_version()
