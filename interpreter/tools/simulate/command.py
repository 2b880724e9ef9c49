"""The `brass simulate` command: play the games (here, or through `simulate_run` for --jobs,
--ray, --out), then print the summary as tables or JSON.

With --against BASE, the output is the comparison (`simulate_compare`): each figure's mean
under the variant and under the base, their paired difference with its 95% interval, the key
figures' verdicts in words, and each side's win rate per seat. A comparison plays the heuristic
bot unless --bot says otherwise (random games say little about games people play), each side
with its own ruleset's parameters; the output says where each side's came from, and warns when a
ruleset plays with parameters tuned for another (docs/bots.md, "Tuning").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from interpreter.ruleset.bot_params import tuned_record
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import TUNABLE
from interpreter.tools.simulate.compare import PRIMARY, compare, figure_keys, primary_differences, variance_sentence
from interpreter.tools.simulate.games import BotSpec, Summary, seat_bots, simulate
from interpreter.tools.simulate.plot import check_plot_path, write_plot
from interpreter.tools.simulate.run import bots_argument, progress_bar, run_games, run_until_decided, uses_runner
from interpreter.tools.simulate.sequential import METHOD as SEQUENTIAL_METHOD
from interpreter.tools.simulate.sequential import Decision, decide, describe
from interpreter.tools.simulate.stats import decimals
from interpreter.tools.simulate.store import base_run, read_base_games

COMPARED_BOT = "heuristic"  # what --against plays unless --bot names another
SINGLE_BOT = "random"  # what a run without --against plays: the engine's fuzzer


def run_simulate(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset)
    _check_players(ruleset, args.players)
    if args.bot is None:
        args.bot = COMPARED_BOT if args.against is not None else SINGLE_BOT
    bot = bots_argument(args.bot, args.players)
    if args.plot is not None:
        check_plot_path(args.plot)  # a wrong name or no matplotlib: said before any game is played
    base = None
    if args.against is not None:
        base = load_ruleset(args.against)
        _check_players(base, args.players)
    primary = _primary(args, ruleset, base)
    _check_base_from(args, base, bot)
    played = _play_games(args, ruleset, base, bot, primary)
    if isinstance(played, int):
        return played  # interrupted; what was saved has been said
    result, against, sequential = played
    others = _base_games(args, base, result)
    sides = parameter_sources(args, ruleset, base, result.bots)
    for side in sides.values():
        if side.get("warning"):
            print(f"warning: {side['warning']}", file=sys.stderr)
    if args.json:
        data = _json(result, against, args.timings, primary, others)
        if sequential is not None:
            data["comparison"]["sequential"] = sequential
        if sides:
            data["parameters"] = sides
        print(json.dumps(data, indent=2, sort_keys=False))
    elif against is None:
        print_simulation(result, sides)
    else:
        print_comparison(compare(result, against, primary, others), result, sequential, sides)
    if args.plot is not None:
        write_plot(args.plot, result, against)
        print(f"plots written to {args.plot}", file=sys.stderr)
    return 0


def parameter_sources(args: argparse.Namespace, ruleset: Ruleset, base: Ruleset | None,
                      bots: list[str]) -> dict[str, dict[str, Any]]:
    """For each side ("variant", and "base" with --against) whose bots judge with parameters: the
    ruleset, where its parameters came from (the file of its `bots:` section, or "defaults"), the
    ruleset they were tuned for, the record of its own tuning run when it has one, and a warning
    when they were tuned for another ruleset. Empty when no bot reads them."""
    if not any(name.partition(":")[0] in TUNABLE for name in bots):
        return {}
    sides = {"variant": (ruleset, args.ruleset)}
    if base is not None:
        sides["base"] = (base, args.against)
    return {side: _source(each, given) for side, (each, given) in sides.items()}


def _source(ruleset: Ruleset, given: str) -> dict[str, Any]:
    """Where one ruleset's bot parameters came from. The defaults were tuned for the default ruleset;
    a `bots:` section for the ruleset whose folder holds its file, whose `tuned:` record says how."""
    document = ruleset.source
    written = document is not None and isinstance(document.data, dict) and "bots" in document.data
    where = document.pos(("bots",), key=True) if written and document is not None else None
    record = None
    if where is None:
        source, tuned_for = "defaults", DEFAULT_RULESET
    else:
        folder = Path(where.file).resolve().parent
        own = bool(ruleset.folders) and folder == Path(ruleset.folders[-1]).resolve()
        source, tuned_for = where.file, ruleset.name if own else folder.name
        assert document is not None and isinstance(document.data, dict)
        record = tuned_record(document.data["bots"])
    found: dict[str, Any] = {"ruleset": ruleset.name, "from": source, "tuned_for": tuned_for}
    if record is not None:
        found["tuning"] = record.to_data()
    if tuned_for != ruleset.name:
        found["warning"] = (f"{ruleset.name} plays with parameters tuned for {tuned_for}; run brass tune {given} "
                            "for a fairer comparison")
    return found


def _parameters_line(sides: dict[str, dict[str, Any]], players: int) -> str:
    """Where each side's parameters came from, and how they were tuned, in one line."""
    said = [f"{side['ruleset']} from {side['from']}" + _tuned_words(side, players) for side in sides.values()]
    return "parameters: " + "; ".join(said)


def _tuned_words(side: dict[str, Any], players: int) -> str:
    """" (tuned for …)" after a side's source: another ruleset, or its own tuning run's outcome."""
    if side["tuned_for"] != side["ruleset"]:
        return f" (tuned for {side['tuned_for']})"
    record = side.get("tuning")
    if record is None:
        return ""
    verdict = record["verdict"]
    if record["result"] == "better":
        outcome = f"they beat the starting ones in {verdict['wins']:g} of {verdict['games']} games"
    elif verdict["games"]:
        outcome = (f"the starting ones kept, tuned ones won only {verdict['wins']:g} of {verdict['games']} "
                   "games against them")
    else:
        outcome = f"the starting ones kept, no candidate beat them in {record['games']} games"
    at = "" if record["players"] == players else f"; played here by {players}"
    return f" (tuned for {record['players']} players: {outcome}{at})"


def _json(result: Summary, against: Summary | None, timings: bool, primary: str,
          others: Summary | None) -> dict[str, Any]:
    data = result.to_dict(timings=timings)
    if against is not None:
        data["against"] = against.to_dict(timings=timings)
        data["comparison"] = compare(result, against, primary, others)
    return data


def _check_base_from(args: argparse.Namespace, base: Ruleset | None, bot: BotSpec) -> None:
    """--base-from is checked before any game is played."""
    if not args.base_from:
        return
    if base is None:
        raise BrassError("--base-from gives earlier games of the base of a comparison: it needs --against BASE")
    if args.until_decided:
        raise BrassError("--base-from cannot be combined with --until-decided yet: the always-valid interval is "
                         "built on the paired differences alone; drop one of them")
    read_base_games([Path(name) for name in args.base_from], base, args.players,
                    seat_bots(bot, args.players), ())


def _base_games(args: argparse.Namespace, base: Ruleset | None, result: Summary) -> Summary | None:
    """The base's games of --base-from outside the comparison's seeds, as a run (None without it)."""
    if not args.base_from or base is None:
        return None
    return base_run([Path(name) for name in args.base_from], base, result)


def _play_games(args: argparse.Namespace, ruleset: Ruleset, base: Ruleset | None, bot: BotSpec,
                primary: str) -> tuple[Summary, Summary | None, dict[str, Any] | None] | int:
    """The games of the ruleset and of BASE (if any), and with --until-decided the decision; the
    exit status if interrupted."""
    if args.until_decided:
        return _until_decided(args, ruleset, base, bot, primary)
    if uses_runner(args):  # --jobs, --ray, --out: docs/simulate.md
        outcome = run_games(args, ruleset, base, bot)
        return outcome if isinstance(outcome, int) else (*outcome, None)
    rotate = base is not None  # a comparison's bots change seats game by game (`simulate.seating`)
    result = _simulate_with_progress(ruleset, args, bot, rotate)
    against = None if base is None else _simulate_with_progress(base, args, bot, rotate)
    return result, against, None


def _until_decided(args: argparse.Namespace, ruleset: Ruleset, base: Ruleset | None, bot: BotSpec,
                   primary: str) -> tuple[Summary, Summary, dict[str, Any]] | int:
    """--until-decided: the games played until the primary figure was decided, and the decision."""
    if base is None:
        raise BrassError("--until-decided plays until a comparison is decided: it needs --against BASE")
    if args.margin is not None and not args.margin > 0:
        raise BrassError(f"--margin is the largest difference that counts as none: more than 0, not {args.margin}")
    if args.games > args.max_games:
        raise BrassError(f"--games ({args.games}, the games of one batch) is more than --max-games ({args.max_games})")
    decisions: list[Decision] = []

    def decided(variant: Summary, against: Summary) -> bool:
        _, differences = primary_differences(variant, against, primary)
        decisions.append(decide(differences, args.max_games, args.margin))
        return decisions[-1].final

    outcome = run_until_decided(args, ruleset, base, bot, decided)
    if isinstance(outcome, int):
        return outcome
    variant, against = outcome
    label, _ = primary_differences(variant, against, primary)
    last = decisions[-1] if decisions[-1].final else Decision("undecided", decisions[-1].look)
    look = last.look
    return variant, against, {
        "outcome": last.outcome, "games": look.games, "looks": len(decisions), "max_games": args.max_games,
        "margin": args.margin, "mean": round(look.mean, 4) + 0.0,
        "interval": [round(look.low, 4) + 0.0, round(look.high, 4) + 0.0],
        "method": SEQUENTIAL_METHOD, "verdict": describe(last, label, args.margin)}


def _primary(args: argparse.Namespace, ruleset: Ruleset, base: Ruleset | None) -> str:
    """The figure judged first (alone, at 5 %), checked before any game is played."""
    primary = getattr(args, "primary", None)
    if primary is None:
        return PRIMARY
    if base is None:
        raise BrassError("--primary names the figure a comparison judges first: it needs --against BASE")
    known = figure_keys(args.players, list(dict.fromkeys([*ruleset.actions, *base.actions])))
    if primary not in known:
        raise BrassError(f"--primary {primary!r} is not a figure of this comparison; figures: {', '.join(known)}")
    return primary


def _check_players(ruleset: Ruleset, players: int) -> None:
    if players not in ruleset.players:
        raise BrassError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                         f"not {players}")


def _simulate_with_progress(ruleset: Ruleset, args: argparse.Namespace, bot: BotSpec, rotate: bool) -> Summary:
    try:
        with progress_bar(args.games) as advance:
            return simulate(ruleset, args.players, args.games, args.seed, bot, args.check,
                            lambda done: advance(1), rotate)
    except ValueError as error:  # an unknown bot name
        raise BrassError(str(error)) from None


# -- tables ----------------------------------------------------------------------------------------

def print_simulation(result: Summary, sides: dict[str, dict[str, Any]] | None = None) -> None:
    """One run: VP and win rate per seat, and the length of a game."""
    stats = result.statistics(timings=True)
    console = Console()
    console.print(_title(result), highlight=False, soft_wrap=True)
    if sides:
        console.print(_parameters_line(sides, result.players), highlight=False, soft_wrap=True)
    seats = Table(box=None)
    for column in ("seat", "bot", "VP min", "VP mean", "VP max", "wins", "win rate (95% interval)"):
        seats.add_column(column, justify="left" if column == "bot" else "right")
    rates = result.win_rate_by_seat()
    for seat in range(1, result.players + 1):
        vp, wins = stats["vp_by_seat"][str(seat)], stats["wins_by_seat"][str(seat)]
        seats.add_row(str(seat), result.bots[seat - 1], str(vp["min"]), f"{vp['mean']:.1f}", str(vp["max"]),
                      f"{wins:.2f}", _rate(rates[seat]))
    console.print(seats)
    console.print(f"wins: a win shared by k seats counts 1/k for each ({stats['shared_wins']} shared); "
                  "the interval is Wilson's", highlight=False, soft_wrap=True)
    length = Table(box=None)
    for column in ("per game", "min", "mean", "max"):
        length.add_column(column, justify="left" if column == "per game" else "right")
    for name, key, fmt in (("actions", "actions", "{:g}"), ("decisions", "decisions", "{:g}"),
                           ("seconds", "seconds_per_game", "{:.3f}")):
        row = stats[key]
        length.add_row(name, *(fmt.format(row[k]) for k in ("min", "mean", "max")))
    console.print(length)


def _title(result: Summary) -> str:
    return (f"{result.ruleset}: {len(result.games)} game(s), {result.players} players, seeds "
            f"{result.seed}..{result.seed + len(result.games) - 1}, bots {','.join(result.bots)}"
            f"{', seats rotated' if result.rotated else ''}{', invariants checked' if result.checked else ''}")


def print_comparison(report: dict[str, Any], variant: Summary, sequential: dict[str, Any] | None = None,
                     sides: dict[str, dict[str, Any]] | None = None) -> None:
    """A comparison: the figures with their differences and intervals, the verdicts, the seats."""
    console = Console()
    if sequential is not None:
        console.print(f"until decided: {sequential['verdict']}; {sequential['looks']} look(s) at the games in "
                      f"batches, at most {sequential['max_games']}. The interval holds the true difference at "
                      "every look at once (95%), so stopping at any look keeps it honest; the table below "
                      "is the usual one-look table of the games played\n", highlight=False, soft_wrap=True)
    first, last = report["seeds"] or [variant.seed, variant.seed]
    console.print(f"{report['variant']} against {report['base']}: {report['games']} paired game(s), seeds "
                  f"{first}..{last} played with both, {variant.players} players, bots {','.join(variant.bots)}, "
                  "seats rotated so that each bot sits in each seat"
                  f"{', invariants checked' if variant.checked else ''}", highlight=False, soft_wrap=True)
    if sides:
        console.print(_parameters_line(sides, variant.players), highlight=False, soft_wrap=True)
    console.print(_figures_table(report))
    control = report.get("control")
    how = "paired t" if control is None else \
        f"the paired base games as a control, the base's level from {control['base_games']} more games of it"
    console.print("difference: variant minus base, game by game over the same seeds, ± the half-width of "
                  f"its 95% interval ({how})", highlight=False, soft_wrap=True)
    primary = report["figures"][report["primary"]]["label"]
    console.print(f"\nverdicts: {primary} judged alone (significant when its 95% interval excludes 0); every "
                  "other figure with Holm's correction over all of them:", highlight=False, soft_wrap=True)
    for key, text in report["verdicts"].items():
        console.print(f"  {report['figures'][key]['label']}: {text}", highlight=False, soft_wrap=True)
    differ = report["differ"]
    console.print(f"  {differ['significant']} of the {differ['figures']} other figures differ after the correction; "
                  f"when nothing changed, the chance that any does is at most 5% (one test per figure at 95% "
                  f"would declare about {differ['by_chance_uncorrected']:g} of them by chance)",
                  highlight=False, soft_wrap=True)
    removed = variance_sentence(report["figures"][report["primary"]])
    if removed is not None:
        console.print(f"  {removed}", highlight=False, soft_wrap=True)
    console.print(f"\nseat balance: win rate per seat with its 95% Wilson interval (a win shared by k seats "
                  f"counts 1/k); {_balance_hint(variant)}", highlight=False, soft_wrap=True)
    console.print(_seats_table(report))


def _figures_table(report: dict[str, Any]) -> Table:
    """Means per game under each ruleset, and the difference ± the half-width of its 95% interval
    (the interval is symmetric; --json gives its ends)."""
    table = Table(box=None, pad_edge=False)
    table.add_column("", no_wrap=True)
    for column in (report["variant"], report["base"], "difference (95%)"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("significant")
    for row in report["figures"].values():
        table.add_row(row["label"], f"{row['variant']:.2f}", f"{row['base']:.2f}", _difference(row),
                      "yes" if row["significant"] else "")
    return table


def _difference(row: dict[str, Any]) -> str:
    interval = row["interval"]
    if interval is None:
        return f"{row['difference']:+.2f} ± ?"  # one game: no interval
    half = (interval[1] - interval[0]) / 2
    digits = max(2, decimals(half))
    return f"{row['difference']:+.{digits}f} ± {half:.{digits}f}"


def _seats_table(report: dict[str, Any]) -> Table:
    table = Table(box=None)
    for column in ("seat", report["variant"], report["base"]):
        table.add_column(column, justify="right")
    rates = report["win_rate_by_seat"]
    for seat in rates["variant"]:
        table.add_row(seat, _rate(rates["variant"][seat]), _rate(rates["base"][seat]))
    return table


def _balance_hint(variant: Summary) -> str:
    if len(set(variant.bots)) > 1:
        return "the bots rotate, so a seat's rate is that seat's advantage, not a bot's"
    return "every seat has the same bot"


def _rate(rate: dict[str, float]) -> str:
    return f"{rate['rate']:.2f} ({rate['low']:.2f}–{rate['high']:.2f})"
