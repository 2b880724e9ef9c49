"""Two runs of the same games compared: a variant against its base (`brass simulate --against`).

Both runs play the same seeds with the same seating (the bots rotated from game to game), so
the games pair up by seed: each figure is read from every game, the differences are taken
game by game (variant minus base), and their mean gets a paired t interval. Pairing takes out
what the two games of a seed share (the setup, the bots' seeds); the games of a seed soon go
their own ways, so for VP it removes only about a quarter of the variance (`variance_removed`
says how much, per figure).

With the base's games of other seeds as well (`others`: `--base-from`, a cached run of the base,
which does not change between a designer's experiments), each difference is estimated with the
paired base games as a control variate (`stats.controlled_difference`): about half the variance
of two independent runs is removed, where pairing alone removes a quarter.

Verdicts are honest about how many figures are looked at: the *primary* figure (mean VP per
player unless the designer names another) is judged alone at 5 %; every other figure is judged
with Holm's correction over all of them, so that when nothing changed the chance of any
"the variant raises …" among them stays at most 5 % (one test per figure at 5 % declared
something in about a quarter of null comparisons).

    report = compare(variant_summary, base_summary)
    report["figures"]["vp_per_player"]    # {"variant": 61.2, "base": 55.1, "difference": 6.1, …}
    report["verdicts"]["vp_per_player"]   # "the variant raises mean VP by 6.1 ± 2.3"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.tools.simulate.games import GameRecord, Summary
from interpreter.tools.simulate.stats import (
    CONFIDENCE,
    Controlled,
    Difference,
    controlled_difference,
    holm,
    mean,
    paired_difference,
    variance_removed,
    verdict,
)

DIGITS = 4  # of the figures in the JSON: beyond what a run can tell, and the same on every machine
PRIMARY = "vp_per_player"  # judged alone unless --primary names another figure
METHOD = ("differences: variant minus base, game by game over the same seeds, with a paired t interval "
          "and its p-value. The primary figure is significant when its interval excludes 0 (p < 0.05); every "
          "other figure when its Holm-adjusted p-value over all the others is below 0.05, so that the chance "
          "of any false 'significant' among them is at most 5%. Win rates: Wilson score interval, a win shared "
          "by k seats counting 1/k for each.")

CONTROL_METHOD = ("the base's games of other seeds (--base-from) give its level; the paired base games serve as a "
                  "control variate at the weight of least variance, estimated from the games (interval: Student's t "
                  "with games - 2 degrees of freedom)")


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


def figure_keys(players: int, kinds: list[str]) -> list[str]:
    return [figure.key for figure in figures(players, kinds)]


def compare(variant: Summary, base: Summary, primary: str = PRIMARY, others: Summary | None = None) -> dict[str, Any]:
    """The comparison, JSON-ready and the same for the same games: each figure's means, paired
    difference, interval, p-value and verdict (the primary figure judged alone, the others with
    Holm's correction); the key figures' verdicts; how many figures differ; each side's seat balance.
    `others`: the base's games of seeds the comparison did not play, for a control variate."""
    _check_paired(variant, base)
    kinds = list(dict.fromkeys(variant.action_kinds + base.action_kinds))
    every = figures(variant.players, kinds)
    if primary not in {figure.key for figure in every}:
        raise ValueError(f"no figure {primary!r} to judge first; figures: {', '.join(f.key for f in every)}")
    differences = {figure.key: _difference_of(figure, variant, base, others) for figure in every}
    p_values = {key: d.difference.p_value for key, (_, _, d) in differences.items() if key != primary}
    adjusted = holm({key: p for key, p in p_values.items() if p is not None})
    rows = {figure.key: _figure_row(figure, *differences[figure.key], adjusted.get(figure.key), figure.key == primary)
            for figure in every}
    key_figures = [primary] + [figure.key for figure in every if figure.key_figure and figure.key != primary]
    found = {"variant": variant.ruleset, "base": base.ruleset, "games": len(variant.games),
            "seeds": [variant.games[0].seed, variant.games[-1].seed] if variant.games else [],
            "seating": "rotated" if variant.rotated else "fixed", "confidence": CONFIDENCE, "method": METHOD,
            "primary": primary, "figures": rows, "verdicts": {key: rows[key]["verdict"] for key in key_figures},
            "differ": _differ(rows, primary),
            "win_rate_by_seat": {"variant": _rates(variant), "base": _rates(base)}}
    if others is not None:
        found["control"] = {"base_games": len(others.games), "method": CONTROL_METHOD}
    return found


def primary_differences(variant: Summary, base: Summary, primary: str = PRIMARY) -> tuple[str, list[float]]:
    """The primary figure's label and its paired differences, variant minus base, game by game."""
    _check_paired(variant, base)
    kinds = list(dict.fromkeys(variant.action_kinds + base.action_kinds))
    figure = next(f for f in figures(variant.players, kinds) if f.key == primary)
    mine, theirs = _values(figure, variant), _values(figure, base)
    return figure.label, [a - b for a, b in zip(mine, theirs, strict=True)]


def variance_sentence(row: dict[str, Any]) -> str | None:
    """How much of the variance of two independent runs a figure's estimate removed, in words
    (None when the figure did not vary)."""
    removed = row["variance_removed"]
    if removed is None:
        return None
    if "control_weight" not in row:
        return f"pairing the games seed by seed removed {removed:.0%} of the variance of the {row['label']} difference"
    paired = row["variance_removed_by_pairing"]
    alone = "" if paired is None else f" (pairing alone: {paired:.0%})"
    return (f"the base's other games and the paired ones as a control (weight {row['control_weight']:.2f}) removed "
            f"{removed:.0%} of the variance of the {row['label']} difference of two independent runs{alone}")


def _differ(rows: dict[str, dict[str, Any]], primary: str) -> dict[str, Any]:
    """How many of the other figures differ after the correction, and how many one test per figure
    at 5 % would have declared different in expectation if nothing changed."""
    others = [row for key, row in rows.items() if key != primary and row["p_value"] is not None]
    return {"figures": len(others), "significant": sum(row["significant"] for row in others),
            "by_chance_uncorrected": round(len(others) * (1 - CONFIDENCE), 2)}


def _check_paired(variant: Summary, base: Summary) -> None:
    """The two runs must hold the same games, seed by seed and seat by seat, or nothing pairs."""
    if [g.seed for g in variant.games] != [g.seed for g in base.games]:
        raise ValueError("the two runs did not play the same seeds: their games cannot be paired")
    if variant.players != base.players or variant.bots != base.bots or variant.rotated != base.rotated:
        raise ValueError("the two runs did not seat the same bots: their games cannot be paired")


def _difference_of(figure: Figure, variant: Summary, base: Summary,
                   others: Summary | None) -> tuple[list[float], list[float], Controlled]:
    mine, theirs = _values(figure, variant), _values(figure, base)
    if others is None:
        return mine, theirs, Controlled(paired_difference(mine, theirs), 1.0, variance_removed(mine, theirs))
    return mine, theirs, controlled_difference(mine, theirs, _values(figure, others))


def _values(figure: Figure, summary: Summary) -> list[float]:
    return [float(figure.read(game)) for game in summary.games]


def _figure_row(figure: Figure, mine: list[float], theirs: list[float], controlled: Controlled,
                holm_p: float | None, primary: bool) -> dict[str, Any]:
    """A figure's row. The primary figure is significant when its own interval excludes 0; another
    when its Holm-adjusted p-value is below 5 % (its interval, shown, is still its own 95 %)."""
    difference, removed = controlled.difference, controlled.removed
    significant = difference.significant if primary or holm_p is None else holm_p < 1 - CONFIDENCE
    text = verdict(figure.phrase, difference)
    if difference.significant and not significant:
        text = (f"no significant difference after {difference.games} games, judged with the other figures "
                f"(alone it would read: {text})")
    row = {"label": figure.label, "variant": _rounded(mean(mine)), "base": _rounded(mean(theirs)),
            "difference": _rounded(difference.mean), "interval": _interval(difference),
            "p_value": None if difference.p_value is None else _rounded(difference.p_value),
            "p_holm": None if holm_p is None else _rounded(holm_p), "primary": primary,
            "significant": significant, "verdict": text,
            "variance_removed": None if removed is None else _rounded(removed)}
    if controlled.weight != 1.0:
        by_pairing = variance_removed(mine, theirs)
        row["control_weight"] = _rounded(controlled.weight)
        row["variance_removed_by_pairing"] = None if by_pairing is None else _rounded(by_pairing)
    return row


def _interval(difference: Difference) -> list[float] | None:
    if difference.low is None or difference.high is None:
        return None
    return [_rounded(difference.low), _rounded(difference.high)]


def _rounded(value: float) -> float:
    return round(value, DIGITS) + 0.0  # + 0.0: never a "-0.0" in the JSON


def _rates(summary: Summary) -> dict[str, dict[str, float]]:
    return {str(seat): rate for seat, rate in summary.win_rate_by_seat().items()}
