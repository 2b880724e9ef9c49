"""A small random number generator whose sequence is fixed by this file alone.

Python's `random.shuffle`, `randrange` and `choice` may change between versions;
a game must replay identically everywhere, so games draw from this SplitMix64
generator and shuffle with our own Fisher–Yates. The state is one integer, which
the game's JSON records.

Each purpose of chance draws from a stream of its own (`stream`): the deal, the merchant
tiles, the turn order, each random stack, and every shuffle during play. So a variant that
changes one part of the game (a card more, a merchant tile less, an extra stack) leaves the
others exactly as its base deals them, and a comparison of the two plays the same deal.
"""

from __future__ import annotations

import hashlib
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


def stream(seed: int, purpose: str) -> Rng:
    """The generator of one purpose of chance in the game with `seed`. Derived by a hash, not
    by drawing from a shared generator: how much one purpose draws (a bigger deck, a longer
    stack) never moves another purpose's draws. BLAKE2 is in every Python's standard library and
    its output is fixed by its specification, so the streams are the same everywhere."""
    digest = hashlib.blake2b(f"{seed & MASK}:{purpose}".encode(), digest_size=8).digest()
    return Rng(int.from_bytes(digest, "big"))
