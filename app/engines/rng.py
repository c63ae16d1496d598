"""A small seeded RNG that lives inside a game state.

Chance is data: the generator is one 64-bit integer (splitmix64), so a state
that owns it copies, compares and serialises cheaply, and the same seed always
gives the same deal.

>>> a = Rng.from_seed("deal-1")
>>> b = Rng.from_seed("deal-1")
>>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
True
>>> a.shuffled([1, 2, 3]) != [1, 2, 3] or True
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: str) -> Rng:
        return cls(int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big"))

    def copy(self) -> Rng:
        return Rng(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng({self.state:#x})"

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias).

        >>> r = Rng(1)
        >>> all(0 <= r.below(7) < 7 for _ in range(100))
        True
        """
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
