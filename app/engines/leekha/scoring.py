"""Match end (rules 4.3, 4.4) and the early-end test (rules 4.5).

Scores are penalty points: lower is better, and reaching the limit loses.

>>> ffa_verdict((103, 101, 40, 20), 101)
Verdict(losers=(0,), places=(4, 3, 2, 1), early=False)
>>> teams_verdict((101, 90, 10, 95), 101).losers
(0, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from app.engines.leekha.deck import ROUND_POINTS, RULE37_POINTS, SEATS, team_of, team_seats
from app.engines.leekha.state import Verdict
from app.engines.ranking import places_lowest_first

Mode = Literal["ffa", "teams"]


def ffa_verdict(scores: Sequence[int], limit: int) -> Verdict | None:
    """Free for All: once someone reached the limit, the single highest score loses;
    None = play (another) round, also when the top is tied.

    >>> ffa_verdict((104, 104, 50, 30), 101) is None
    True
    >>> ffa_verdict((100, 30, 30, 10), 101) is None
    True
    """
    top = max(scores)
    if top < limit:
        return None
    tops = [seat for seat, score in enumerate(scores) if score == top]
    if len(tops) > 1:
        return None
    loser = tops[0]
    others = [seat for seat in range(SEATS) if seat != loser]
    ranked = places_lowest_first([scores[s] for s in others])  # ties share the better place (decision 18)
    places = [SEATS] * SEATS
    for seat, place in zip(others, ranked, strict=True):
        places[seat] = place
    return Verdict((loser,), tuple(places))


def teams_verdict(scores: Sequence[int], limit: int) -> Verdict | None:
    """2 vs 2: a team with a member at the limit loses; if both teams have one, the
    higher individual score loses, then the higher sum; equal sums = another round.

    >>> teams_verdict((105, 105, 40, 60), 101).losers
    (1, 3)
    >>> teams_verdict((105, 105, 40, 40), 101) is None
    True
    """
    hi = [max(scores[s] for s in team_seats(t)) for t in (0, 1)]
    total = [sum(scores[s] for s in team_seats(t)) for t in (0, 1)]
    over = [t for t in (0, 1) if hi[t] >= limit]
    if not over:
        return None
    if len(over) == 1:
        loser = over[0]
    elif hi[0] != hi[1]:
        loser = 0 if hi[0] > hi[1] else 1
    elif total[0] != total[1]:
        loser = 0 if total[0] > total[1] else 1
    else:
        return None
    places = tuple(2 if team_of(seat) == loser else 1 for seat in range(SEATS))
    return Verdict(team_seats(loser), places)


def verdict(scores: Sequence[int], mode: Mode, limit: int) -> Verdict | None:
    """The match-end check run at the end of every round; None = play another round."""
    return ffa_verdict(scores, limit) if mode == "ffa" else teams_verdict(scores, limit)


def opponents(seat: int, mode: Mode) -> tuple[int, ...]:
    """
    >>> opponents(1, "ffa"), opponents(1, "teams")
    ((0, 2, 3), (0, 2))
    """
    if mode == "ffa":
        return tuple(s for s in range(SEATS) if s != seat)
    return team_seats(1 - team_of(seat))


@dataclass(frozen=True, slots=True)
class Decided:
    """The match is decided mid-round: ``seat`` has lost whatever happens, and with it ``losers``."""

    seat: int
    losers: tuple[int, ...]


def decided(
    pre: Sequence[int], round_pts: Sequence[int], open37: bool, mode: Mode, limit: int
) -> Decided | None:
    """The early-end candidate from public information only (rules 4.5, decision 19).

    ``pre`` are the scores at the round's start, ``round_pts`` the points taken
    so far, ``open37`` whether neither Leekha has been captured yet.

    >>> decided((10, 95, 20, 30), (0, 12, 8, 8), False, "ffa", 101)
    Decided(seat=1, losers=(1,))
    >>> decided((10, 95, 20, 30), (0, 8, 0, 0), True, "ffa", 101) is None
    True
    """
    left_in_play = ROUND_POINTS - sum(round_pts)
    live = [p + r for p, r in zip(pre, round_pts, strict=True)]
    floor = list(pre) if open37 else live
    reach = RULE37_POINTS if open37 else 0
    ceil = [p + max(r + left_in_play, reach) for p, r in zip(pre, round_pts, strict=True)]
    candidates = [
        seat
        for seat in range(SEATS)
        if floor[seat] >= limit and all(ceil[o] < floor[seat] for o in opponents(seat, mode))
    ]
    if not candidates:
        return None
    seat = max(candidates, key=lambda s: (floor[s], -s))
    losers = (seat,) if mode == "ffa" else team_seats(team_of(seat))
    return Decided(seat, losers)
