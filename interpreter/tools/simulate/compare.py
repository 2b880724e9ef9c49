"""Two runs of the same games compared: a variant against its base (`brass simulate --against`).

Both runs play the same seeds with the same seating (the bots rotated from game to game), so
the games pair up by seed: each figure is read from every game, the differences are taken
game by game (variant minus base), and their mean gets a paired t interval. Pairing takes out
what the two games of a seed share (the setup, the bots' seeds), which is most of the spread
between games, so fewer games tell a real effect from noise.

    report = compare(variant_summary, base_summary)
    report["figures"]["vp_per_player"]    # {"variant": 61.2, "base": 55.1, "difference": 6.1, …}
    report["verdicts"]["vp_per_player"]   # "the variant raises mean VP by 6.1 ± 2.3"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.tools.simulate.games import GameRecord, Summary
from interpreter.tools.simulate.stats import CONFIDENCE, Difference, mean, paired_difference, verdict

DIGITS = 4  # of the figures in the JSON: beyond what a run can tell, and the same on every machine
METHOD = ("differences: variant minus base, game by game over the same seeds, with a paired t interval; "
          "significant when the interval excludes 0. Win rates: Wilson score interval, a win shared by k "
          "seats counting 1/k for each.")


@dataclass(frozen=True)
class Figure:
    """A figure read from each game: its key in the JSON, its label in the table, the words of
    its verdict, and whether it is one of the key figures whose verdicts are printed."""

    key: str
    label: str
    phrase: str
    read: Callable[[GameRecord], float]
    key_figure: bool = False


def figures(players: int, kinds: list[str]) -> list[Figure]:
    """Every figure compared, in the order of the table."""
    found = [Figure(f"vp_seat_{seat}", f"VP of seat {seat}", f"the VP of seat {seat}", _seat_vp(seat))
             for seat in range(1, players + 1)]
    found += [
        Figure("vp_per_player", "VP per player", "mean VP", _per_player("vp"), True),
        Figure("winner_vp", "winner's VP", "the winner's VP", GameRecord.winner_vp, True),
        Figure("margin", "margin (1st − 2nd, VP)", "the winning margin", GameRecord.margin, True),
        Figure("money_per_player", "money per player (£)", "mean money", _per_player("money"), True),
        Figure("income_position_per_player", "income position per player", "mean income track position",
               _per_player("income_position")),
        Figure("income_level_per_player", "income level per player", "mean income level",
               _per_player("income_level"), True),
        Figure("actions", "actions per game", "actions per game", lambda game: game.actions, True),
        Figure("decisions", "decisions per game", "decisions per game", lambda game: game.decisions, True),
    ]
    found += [Figure(f"actions_{kind}", f"{kind} actions per game", f"{kind} actions per game",
                     _action_count(kind)) for kind in kinds]
    return found


def _seat_vp(seat: int) -> Callable[[GameRecord], float]:
    return lambda game: next(row["vp"] for row in game.standings if row["seat"] == seat)


def _per_player(column: str) -> Callable[[GameRecord], float]:
    """The game's mean over its players: one value per game, so that games pair up."""
    return lambda game: mean([row[column] for row in game.standings])


def _action_count(kind: str) -> Callable[[GameRecord], float]:
    return lambda game: game.action_counts.get(kind, 0)


def compare(variant: Summary, base: Summary) -> dict[str, Any]:
    """The comparison, JSON-ready and the same for the same games: each figure's means, paired
    difference, interval and verdict; the key figures' verdicts; each side's seat balance."""
    _check_paired(variant, base)
    kinds = list(dict.fromkeys(variant.action_kinds + base.action_kinds))
    rows = {figure.key: _figure_row(figure, variant, base) for figure in figures(variant.players, kinds)}
    key_figures = [figure.key for figure in figures(variant.players, kinds) if figure.key_figure]
    return {"variant": variant.ruleset, "base": base.ruleset, "games": len(variant.games),
            "seeds": [variant.games[0].seed, variant.games[-1].seed] if variant.games else [],
            "seating": "rotated" if variant.rotated else "fixed", "confidence": CONFIDENCE, "method": METHOD,
            "figures": rows, "verdicts": {key: rows[key]["verdict"] for key in key_figures},
            "win_rate_by_seat": {"variant": _rates(variant), "base": _rates(base)}}


def _check_paired(variant: Summary, base: Summary) -> None:
    """The two runs must hold the same games, seed by seed and seat by seat, or nothing pairs."""
    if [g.seed for g in variant.games] != [g.seed for g in base.games]:
        raise ValueError("the two runs did not play the same seeds: their games cannot be paired")
    if variant.players != base.players or variant.bots != base.bots or variant.rotated != base.rotated:
        raise ValueError("the two runs did not seat the same bots: their games cannot be paired")


def _figure_row(figure: Figure, variant: Summary, base: Summary) -> dict[str, Any]:
    mine = [float(figure.read(game)) for game in variant.games]
    theirs = [float(figure.read(game)) for game in base.games]
    difference = paired_difference(mine, theirs)
    return {"label": figure.label, "variant": _rounded(mean(mine)), "base": _rounded(mean(theirs)),
            "difference": _rounded(difference.mean), "interval": _interval(difference),
            "significant": difference.significant, "verdict": verdict(figure.phrase, difference)}


def _interval(difference: Difference) -> list[float] | None:
    if difference.low is None or difference.high is None:
        return None
    return [_rounded(difference.low), _rounded(difference.high)]


def _rounded(value: float) -> float:
    return round(value, DIGITS) + 0.0  # + 0.0: never a "-0.0" in the JSON


def _rates(summary: Summary) -> dict[str, dict[str, float]]:
    return {str(seat): rate for seat, rate in summary.win_rate_by_seat().items()}
