"""Round scores, the next dealer and the final standings (rules 6.3-6.5)."""

from __future__ import annotations

from collections.abc import Sequence

from app.engines.seats import clockwise_from
from app.engines.uffda.dominoes import hand_points


def bonus(round_no: int) -> int:
    """The progressive bonus of round r: 5, 10, ..., 50 (SEED).

    >>> [bonus(r) for r in (1, 3, 10)]
    [5, 15, 50]
    """
    return 5 * round_no


def round_scores(
    round_no: int, hands: Sequence[Sequence[str]], winner: int | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(hand points, round scores): the winner scores minus the bonus, everyone else their hand.

    A terminated round (``winner`` None) scores every hand and gives no bonus.

    >>> round_scores(3, [[], ["9-9", "0-1"], ["2-3"]], 0)
    ((0, 19, 5), (-15, 19, 5))
    >>> round_scores(3, [["1-1"], ["9-9"]], None)
    ((2, 18), (2, 18))
    """
    points = tuple(hand_points(list(h)) for h in hands)
    scores = tuple(-bonus(round_no) if seat == winner else p for seat, p in enumerate(points))
    return points, scores


def next_dealer(scores: Sequence[int], winner: int | None, dealer: int) -> int:
    """The round winner; after a terminated round the lowest round score, ties going to the
    first tied seat clockwise from the seat after the dealer (rules 6.4, DECISION 8.32).

    >>> next_dealer([5, -10, 3], 1, 0)
    1
    >>> next_dealer([4, 9, 4, 4], None, 2)
    3
    >>> next_dealer([4, 9, 4, 4], None, 3)
    0
    """
    if winner is not None:
        return winner
    n = len(scores)
    low = min(scores)
    return next(s for s in clockwise_from(dealer, n) if scores[s] == low)
