"""Standings from totals: places with ties shared, and the seats sharing the best or worst total.

Whether high or low totals win is each game's rule; the names say which end
a function looks at.

>>> totals = [30, 12, 30, 12]
>>> places_lowest_first(totals), seats_with_lowest(totals), seats_with_highest(totals)
([3, 1, 3, 1], (1, 3), (0, 2))
"""

from __future__ import annotations

from collections.abc import Sequence


def places_lowest_first(scores: Sequence[int]) -> list[int]:
    """1-based places, lowest score first; equal scores share the better place.

    >>> places_lowest_first([40, 20, 40])
    [2, 1, 2]
    """
    return [1 + sum(1 for other in scores if other < mine) for mine in scores]


def seats_with_lowest(scores: Sequence[int]) -> tuple[int, ...]:
    """Every seat sharing the lowest score, in seat order."""
    low = min(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == low)


def seats_with_highest(scores: Sequence[int]) -> tuple[int, ...]:
    """Every seat sharing the highest score, in seat order.

    >>> seats_with_highest([40, 40, -80])
    (0, 1)
    """
    best = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)
