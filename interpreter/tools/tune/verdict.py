"""The verdict of a tuning run: the tuned parameters in one seat against the starting ones in every
other, seats rotated, on fresh seeds (never played while tuning), in words with Wilson's interval.

A game counts as won by the tuned parameters when their seat scores more VP than the mean of the
other seats, half when equal: with nothing changed, the rate is 50 % at any player count.

    verdict_text(71, 100)   # "tuned beats the starting parameters in 71 of 100 games (Wilson 61–79 %)"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from interpreter.tools.simulate.stats import wilson


@dataclass(frozen=True)
class Verdict:
    """The verdict's games reduced to what is said of them."""

    games: int
    wins: float  # a game whose margin is 0 counts half
    tuned_vp: float  # mean VP of the tuned seat
    others_vp: float  # mean VP of a seat with the starting parameters

    @property
    def better(self) -> bool:
        """Whether the tuned parameters win more than half of the games, surely (the interval is above 50 %)."""
        return self.games > 0 and wilson(self.wins, self.games)[0] > 0.5


def verdict(margins: Sequence[float], tuned_vp: Sequence[float], others_vp: Sequence[float]) -> Verdict:
    wins = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins)
    count = max(len(margins), 1)
    return Verdict(len(margins), wins, sum(tuned_vp) / count, sum(others_vp) / count)


def verdict_text(wins: float, games: int) -> str:
    """The verdict in words: the count (a half for games tied on the margin) and the 95 % Wilson interval."""
    low, high = wilson(wins, games)
    count = f"{wins:g}"
    return (f"tuned beats the starting parameters in {count} of {games} games "
            f"(Wilson {round(low * 100)}–{round(high * 100)} %)")
