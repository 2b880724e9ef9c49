"""`brass simulate VARIANT --against BASE --until-decided`: play batches until the primary figure
is decided, with an interval that stays valid however often it is looked at.

    look = confidence_sequence(differences, planned=400)   # variant minus base, game by game
    decide(differences, margin=3.0, planned=400)           # "differ", "equivalent" or "continue"

A t interval is valid for one look at a number of games fixed in advance. Looking after every
batch and stopping when it first excludes 0 declares far more differences than the 5 % it
states (with 20 looks, about a quarter). The interval here is a *confidence sequence*: with
probability at least 95 % it holds the true mean difference at every number of games at once,
so stopping at any look, for any reason, keeps the 5 %. It is Robbins' normal-mixture boundary
(the mixture martingale of a unit-variance sum, Ville's inequality) with the sample variance
put in for the variance: the asymptotic confidence sequence of Waudby-Smith, Arnold, Wu, Howard
and Ramdas ("Time-uniform central limit theory and asymptotic confidence sequences", 2021). It
is wider than a t interval at the same games: the price of looking as often as one likes.

The mixture's one parameter (rho) is chosen so that the sequence is narrowest at the planned
number of games (`--max-games`), as Howard et al. ("Time-uniform, nonparametric, nonasymptotic
confidence sequences", 2021, eq. 3.11) suggest. Its coverage is asymptotic: below MIN_GAMES the
variance estimate is too rough to trust, so no decision is taken there.

Decisions, both from the same sequence, so together they are wrong at most 5 % of the time:
- "differ": the sequence excludes 0;
- "equivalent" (with a margin M): the sequence lies inside (-M, +M): any difference is smaller
  than M, the two one-sided tests of equivalence read off a time-uniform interval;
- "undecided": the planned games are played and neither holds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from interpreter.tools.simulate.stats import CONFIDENCE, mean

__all__ = ["METHOD", "MIN_GAMES", "Decision", "Look", "confidence_sequence", "decide", "describe"]

MIN_GAMES = 20  # games (pairs) before any decision: the variance estimate needs that many
METHOD = ("an asymptotic confidence sequence (Robbins' normal mixture with the sample variance; Waudby-Smith "
          "et al. 2021) of the primary figure's paired differences, tightest at --max-games: with 95% "
          "probability it holds the true difference at every look at once. 'differ' when it excludes 0, "
          "'equivalent' when it lies within ±margin, no decision before 20 games")


@dataclass(frozen=True)
class Look:
    """The mean difference after `games` pairs and the confidence sequence's interval there."""

    games: int
    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class Decision:
    outcome: str  # "differ", "equivalent", "undecided" or "continue"
    look: Look

    @property
    def final(self) -> bool:
        return self.outcome != "continue"


def mixture_rho(planned: int, alpha: float) -> float:
    """The mixture's spread that makes the sequence narrowest at `planned` games (unit variance)."""
    log_term = -2 * math.log(alpha)
    return math.sqrt((log_term + math.log(log_term + 1)) / max(1, planned))


def confidence_sequence(differences: Sequence[float], planned: int, confidence: float = CONFIDENCE) -> Look:
    """The time-uniform interval of the mean of `differences` after all of them."""
    count = len(differences)
    centre = mean(differences)
    if count < 2:
        return Look(count, centre, -math.inf, math.inf)
    alpha = 1 - confidence
    sd = math.sqrt(math.fsum((d - centre) ** 2 for d in differences) / (count - 1))
    rho = mixture_rho(planned, alpha)
    spread = count * rho * rho + 1
    half = sd * math.sqrt(2 * spread / (count * count * rho * rho) * math.log(math.sqrt(spread) / alpha))
    return Look(count, centre, centre - half, centre + half)


def decide(differences: Sequence[float], planned: int, margin: float | None = None,
           confidence: float = CONFIDENCE) -> Decision:
    """What the games so far say about the mean difference; "continue" while they say nothing
    and fewer than `planned` games are played."""
    look = confidence_sequence(differences, planned, confidence)
    if look.games >= MIN_GAMES:
        if look.low > 0 or look.high < 0:
            return Decision("differ", look)
        if margin is not None and -margin < look.low and look.high < margin:
            return Decision("equivalent", look)
    return Decision("undecided" if look.games >= planned else "continue", look)


def describe(decision: Decision, label: str, margin: float | None) -> str:
    """The decision in words, with the interval it rests on."""
    look = decision.look
    interval = f"{look.mean:+.2f}, always-valid 95% interval {look.low:+.2f} to {look.high:+.2f}"
    if decision.outcome == "differ":
        return f"{label} differs after {look.games} games ({interval})"
    if decision.outcome == "equivalent":
        return f"{label} is the same within ±{margin:g} after {look.games} games ({interval})"
    within = f", nor shown within ±{margin:g}" if margin is not None else " (give --margin to test for no difference)"
    return f"{label}: undecided after {look.games} games: no difference shown{within} ({interval})"
