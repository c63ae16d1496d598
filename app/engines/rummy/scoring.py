"""Round scoring and the match winners (rules 4.1, 4.2)."""

from __future__ import annotations

from collections.abc import Sequence


def score_out(winner: int, values: Sequence[int]) -> tuple[int, ...]:
    """Going out: every other player loses their hand value, the winner gains their sum.

    >>> score_out(0, [0, 30, 15])
    (45, -30, -15)
    """
    gained = sum(v for seat, v in enumerate(values) if seat != winner)
    return tuple(gained if seat == winner else -v for seat, v in enumerate(values))


def score_blocked(values: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Blocked round: the lowest hands win and share the losers' values (rounded down).

    >>> score_blocked([12, 7, 20])
    ((1,), (-12, 32, -20))
    >>> score_blocked([7, 7, 20])
    ((0, 1), (10, 10, -20))
    >>> score_blocked([9, 9])
    ((0, 1), (0, 0))
    """
    low = min(values)
    winners = tuple(seat for seat, v in enumerate(values) if v == low)
    share = sum(v for v in values if v != low) // len(winners)
    return winners, tuple(share if v == low else -v for v in values)
