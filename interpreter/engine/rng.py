"""A small random number generator whose sequence is fixed by this file alone.

Python's `random.shuffle`, `randrange` and `choice` may change between versions;
a game must replay identically everywhere, so games draw from this SplitMix64
generator and shuffle with our own Fisher–Yates. The state is one integer, which
the game's JSON records.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng:
    """SplitMix64 (Steele, Lea, Flood 2014): fast, tiny state, good enough for shuffling cards."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
