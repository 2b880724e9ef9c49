"""The statistics of `brass simulate`: paired differences with a t interval, win rates with a
Wilson interval, and the verdicts in words.

    difference = paired_difference([52, 61, 58], [50, 55, 57])   # variant and base, game by game
    difference.mean, difference.low, difference.high               # 3.0 and its 95% interval
    verdict("mean VP", difference)          # "no significant difference after 3 games"
    wilson(5, 10)                           # (0.2366…, 0.7634…)

Nothing heavier than the standard library: the Student t quantile comes from the regularized
incomplete beta function (a continued fraction) inverted by bisection, exact to about 1e-12
for any number of games, so the interval is right for 3 games as for 100,000.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Difference:
    """The mean of paired differences (variant minus base, game by game) and its confidence
    interval; no interval (`low` and `high` None) under two games."""

    games: int
    mean: float
    low: float | None
    high: float | None
    p_value: float | None = None  # two-sided, of the paired t test of "no difference" (None under two games)

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 0."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    @property
    def half_width(self) -> float | None:
        return None if self.low is None or self.high is None else (self.high - self.low) / 2


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def paired_difference(variant: Sequence[float], base: Sequence[float],
                      confidence: float = CONFIDENCE) -> Difference:
    """The paired t interval of the mean difference `variant[i] - base[i]`."""
    if len(variant) != len(base):
        raise ValueError(f"paired samples differ in length: {len(variant)} and {len(base)}")
    differences = [a - b for a, b in zip(variant, base, strict=True)]
    count, centre = len(differences), mean(differences)
    if count < 2:
        return Difference(count, centre, None, None)
    variance = math.fsum((d - centre) ** 2 for d in differences) / (count - 1)
    half = t_quantile(1 - (1 - confidence) / 2, count - 1) * math.sqrt(variance / count)
    return Difference(count, centre, centre - half, centre + half, t_p_value(centre, variance, count))


def t_p_value(centre: float, variance: float, count: int) -> float:
    """The two-sided p-value of a mean `centre` of `count` values of sample variance `variance`
    against 0, under Student's t with count - 1 degrees of freedom."""
    return _t_test(centre, variance / count, count - 1)


def _t_test(centre: float, squared_error: float, df: int) -> float:
    """The two-sided p-value of an estimate `centre` of standard error sqrt(`squared_error`)
    against 0, under Student's t with `df` degrees of freedom."""
    if squared_error <= 0:
        return 1.0 if centre == 0 else 0.0
    t2 = centre * centre / squared_error
    return incomplete_beta(df / (df + t2), df / 2, 0.5)  # P(|T| > |t|)


@dataclass(frozen=True)
class Controlled:
    """A difference estimated with the base's games of other seeds as well (`controlled_difference`):
    the difference, the weight of the paired base games, and the share of the variance of two
    independent runs of as many games that the estimate removed."""

    difference: Difference
    weight: float
    removed: float | None


def controlled_difference(variant: Sequence[float], base: Sequence[float], others: Sequence[float],
                          confidence: float = CONFIDENCE) -> Controlled:
    """The mean difference `variant - base` when the base was also played on other seeds (`others`,
    a cached run of the base: it does not change between a designer's experiments).

    The paired base games serve as a control variate: the estimate is
    mean(variant) - w * mean(base) - (1 - w) * mean(others), unbiased for any fixed w, with
    w = (beta * M + n) / (M + n), beta = cov(variant, base) / var(base), n paired games and M
    others: the w of least variance (w = 1, plain pairing, with no other games; w = beta, the
    classic control variate, with a base mean known exactly). Pairing alone keeps all of the base
    games' own noise in the difference; here only the part the variant's games share is taken
    out, and the base's level comes from M + n games. Its squared standard error is
    var(variant - w * base) / n + (1 - w)^2 * var(others) / M, plus beta's own error carried
    by the distance between the two means of the base, judged under Student's t with n - 2
    degrees of freedom (one spent on beta). Under three paired games or two others, w = 1."""
    count, spare = len(variant), len(others)
    if len(base) != count:
        raise ValueError(f"paired samples differ in length: {count} and {len(base)}")
    if count < 3 or spare < 2:
        plain = paired_difference(variant, base, confidence)
        return Controlled(plain, 1.0, variance_removed(variant, base))
    base_variance = _variance(base)
    beta = _covariance(variant, base) / base_variance if base_variance > 0 else 0.0
    weight = (beta * spare + count) / (spare + count)
    centre = mean(variant) - weight * mean(base) - (1 - weight) * mean(others)
    # the residual's variance about a fitted line: n - 2 degrees of freedom, not n - 1
    residual = _variance([a - weight * b for a, b in zip(variant, base, strict=True)]) * (count - 1) / (count - 2)
    # beta is itself estimated: how far the paired base games' mean lies from the others' carries its
    # error into the estimate (the regression's error of prediction away from the mean)
    slope_error = residual / (base_variance * (count - 1)) if base_variance > 0 else 0.0
    lever = spare / (spare + count) * (mean(base) - mean(others))
    squared_error = residual / count + (1 - weight) ** 2 * _variance(others) / spare + lever ** 2 * slope_error
    half = t_quantile(1 - (1 - confidence) / 2, count - 2) * math.sqrt(squared_error)
    difference = Difference(count, centre, centre - half, centre + half, _t_test(centre, squared_error, count - 2))
    independent = (_variance(variant) + base_variance) / count
    return Controlled(difference, weight, 1 - squared_error / independent if independent > 0 else None)


def holm(p_values: dict[str, float], alpha: float = 1 - CONFIDENCE) -> dict[str, float]:
    """Holm's step-down adjusted p-values: a figure differs when its adjusted p-value is below
    `alpha`, and the chance that any of the figures is declared different when none is stays at
    most `alpha`, however the figures depend on one another (unlike one test per figure at
    `alpha`, which with 15 figures declares something in about half the null comparisons)."""
    ordered = sorted(p_values, key=lambda key: (p_values[key], key))
    adjusted: dict[str, float] = {}
    running = 0.0
    for rank, key in enumerate(ordered):
        running = max(running, min(1.0, (len(ordered) - rank) * p_values[key]))
        adjusted[key] = running
    return adjusted


def variance_removed(variant: Sequence[float], base: Sequence[float]) -> float | None:
    """How much of the variance of a difference pairing removed: 1 - var(variant - base) /
    (var(variant) + var(base)), the share two independent runs would have had in addition (0:
    pairing did not help; 1: the two games of a seed moved together exactly). None when the
    figure does not vary."""
    if len(variant) < 2:
        return None
    independent = _variance(variant) + _variance(base)
    if independent <= 0:
        return None
    return 1 - _variance([a - b for a, b in zip(variant, base, strict=True)]) / independent


def _variance(values: Sequence[float]) -> float:
    centre = mean(values)
    return math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1)


def _covariance(first: Sequence[float], second: Sequence[float]) -> float:
    one, two = mean(first), mean(second)
    return math.fsum((a - one) * (b - two) for a, b in zip(first, second, strict=True)) / (len(first) - 1)


def wilson(wins: float, games: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a win rate. Unlike rate ± z·SE it stays within [0, 1] and is
    not empty at 0 or all wins, which a seat may well reach in a short run. `wins` may be
    fractional (a shared win counts 1/k)."""
    if games <= 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    rate, spread = wins / games, z * z / games
    centre = (rate + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(rate * (1 - rate) / games + spread / (4 * games))
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exact at the ends, not 1e-17 off
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return low, high


def verdict(phrase: str, difference: Difference) -> str:
    """In plain words: "the variant raises mean VP by 6.1 ± 2.3" when the interval excludes 0,
    else "no significant difference after N games"."""
    half = difference.half_width
    if half is None:
        return f"too few games to tell ({difference.games}; an interval needs 2 or more)"
    if not difference.significant:
        return f"no significant difference after {difference.games} games"
    digits = decimals(half)
    way = "raises" if difference.mean > 0 else "lowers"
    return f"the variant {way} {phrase} by {abs(difference.mean):.{digits}f} ± {half:.{digits}f}"


def decimals(half_width: float) -> int:
    """Decimals that show the half-width with two significant digits (0 to 3): 2.3, 0.034, 23."""
    if half_width <= 0:
        return 2
    return max(0, min(3, 1 - math.floor(math.log10(half_width))))


# -- the Student t quantile --------------------------------------------------------------------------

def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with `df` degrees of freedom (the inverse of its CDF)."""
    if not 0 < p < 1 or df < 1:
        raise ValueError(f"no t quantile for p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    tail = 2 * (1 - p)  # P(|T| > t) = I_x(df/2, 1/2) with x = df / (df + t²), falling as t grows
    low, high = 0.0, 1.0  # over x: I_x rises with x, so bisect for I_x = tail
    for _ in range(200):
        middle = (low + high) / 2
        if incomplete_beta(middle, df / 2, 0.5) < tail:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    x = (low + high) / 2
    return math.sqrt(df * (1 - x) / x)


def incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):  # where the fraction converges fast; else use the symmetry
        return front * _beta_fraction(x, a, b) / a
    return 1 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result
