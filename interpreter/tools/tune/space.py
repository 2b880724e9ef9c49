"""What is tuned: a subset of the heuristic bot's parameters, each mapped to [0, 1] over the span
a tuner searches (a part of its declared range: `loan_below` may be anything up to £1,000,000, but
a useful value lies between £0 and £80), and the random steps of the search.

    space = Space.around(ruleset.bots.heuristic)    # the starting point is inside every span
    x = space.point(params)                          # [0, 1] per tuned parameter
    space.params(base, x)                            # back to HeuristicParams (ints rounded)

The steps are drawn from the engine's `Rng` (Box–Muller on its 64-bit outputs), never Python's
`random`, so a tuning run is the same for a seed on every Python version.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from interpreter.engine.rng import Rng
from interpreter.ruleset.bot_params import HeuristicParams, catalogue

# The parameters tuned, with the span searched: those whose change moves a game most (money,
# actions, loans, what a sale is worth, cards), chosen by reading the knowledge (docs/bots.md);
# the others keep their values. `looks` is left out on purpose: it buys strength with time.
SPANS: dict[str, tuple[float, float]] = {
    "vp_per_pound": (0.1, 1.5), "debt": (0.5, 6.0), "liquidity": (0.0, 0.5), "shortfall": (0.5, 8.0),
    "action_worth": (0.0, 6.0), "pass_waste": (0.0, 6.0), "sell_chance": (0.4, 1.0),
    "missing_link": (0.1, 0.9), "producer_chance": (0.5, 1.0), "free_slot_icons": (0.0, 2.0),
    "dead_tile": (0.0, 8.0), "reach": (0.0, 2.0), "wild_keep": (0.0, 6.0), "card_keep": (0.0, 2.5),
    "loan_below": (0, 80), "loan_actions": (0, 12),
}
TWO_PI = 2 * math.pi


@dataclass(frozen=True)
class Space:
    """The tuned parameters in a fixed order, each with its span (low, high) and whether it is an integer."""

    names: tuple[str, ...]
    spans: tuple[tuple[float, float], ...]
    integers: tuple[bool, ...]

    @classmethod
    def around(cls, start: HeuristicParams) -> Space:
        """The spans of SPANS, widened where needed to hold the starting value (a ruleset's own)."""
        kinds = {p.name: p.kind for p in catalogue() if p.group == "heuristic"}
        spans = []
        for name, (low, high) in SPANS.items():
            value = getattr(start, name)
            spans.append((min(low, value), max(high, value)))
        return cls(tuple(SPANS), tuple(spans), tuple(kinds[name] is int for name in SPANS))

    def point(self, params: HeuristicParams) -> list[float]:
        """The parameters as a point of [0, 1]^n."""
        return [(getattr(params, name) - low) / (high - low) if high > low else 0.0
                for name, (low, high) in zip(self.names, self.spans, strict=True)]

    def params(self, base: HeuristicParams, point: Sequence[float]) -> HeuristicParams:
        """`base` with the tuned parameters set from a point (clipped to [0, 1], integers rounded)."""
        values: dict[str, Any] = {}
        for name, (low, high), integer, x in zip(self.names, self.spans, self.integers, point, strict=True):
            value = low + min(1.0, max(0.0, x)) * (high - low)
            values[name] = round(value) if integer else round(value, 4)
        return replace(base, **values)

    def to_dict(self) -> dict[str, list[float]]:
        """JSON-ready, for a checkpoint's header (a resumed run must search the same space)."""
        return {name: [low, high] for name, (low, high) in zip(self.names, self.spans, strict=True)}


def steps(seed: int, generation: int, count: int, size: int) -> list[list[float]]:
    """`count` random directions of `size` standard normal numbers for a generation: the same for
    the same seed and generation, however the run was interrupted and resumed."""
    rng = Rng(seed * 1_000_003 + generation)
    return [[_normal(rng) for _ in range(size)] for _ in range(count)]


def _normal(rng: Rng) -> float:
    # Box–Muller: two uniforms in (0, 1] give a standard normal number.
    u1 = (rng.next_u64() + 1) / 2.0 ** 64
    u2 = rng.next_u64() / 2.0 ** 64
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(TWO_PI * u2)
