"""The draw pile running out: reshuffle the discards under the top (rules 3.9, UNO style).

>>> from app.engines.rng import Rng
>>> rng = Rng.from_seed("r")
>>> pile, discard = refill_from_discards(("a", "b", "c"), rng)
>>> sorted(pile), discard
(['a', 'b'], ('c',))
>>> refill_from_discards(("c",), rng)
((), ('c',))
"""

from __future__ import annotations

from typing import TypeVar

from app.engines.rng import Rng

T = TypeVar("T")


def refill_from_discards(discard: tuple[T, ...], rng: Rng) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """A new draw pile (top first) from every discard except the top one, shuffled with ``rng``
    (which advances: pass a copy), and the discard pile that is left (its top card, if any)."""
    if len(discard) < 2:
        return (), discard
    return tuple(rng.shuffled(discard[:-1])), discard[-1:]
