"""What the bot tests share: a seat's share of a win, and "clearly better than random" as a test."""

from __future__ import annotations

import math
from collections.abc import Sequence


def win_share(winners: Sequence[int], seat: int) -> float:
    """A seat's share of a game's win (a shared win is split).

    >>> win_share([0, 2], 2), win_share([1], 2)
    (0.5, 0.0)
    """
    return 1 / len(winners) if seat in winners else 0.0


def assert_clearly_above(shares: list[float], players: int) -> None:
    """The bot's mean win share beats the random baseline (1/players, every seat alike) by more
    than four standard deviations of that baseline: a share in [0, 1] with mean p has variance at
    most p(1 - p)."""
    n, p = len(shares), 1 / players
    margin = 4 * math.sqrt(p * (1 - p) / n)
    assert sum(shares) / n > p + margin, (sum(shares) / n, p, margin)
