"""Reaction races: who reacted first to something everyone saw at once.

Shared by every game with a race (Slap's slap, UFF-DA!'s COIN! and UFF-DA!
calls). Three pieces, each pure and replaceable on its own:

1. :func:`compensated_time` turns a claim's server arrival into the time the
   player really reacted, within what the network allows (Slap rules 3.6).
2. :func:`rule` ranks the claims and breaks ties with a game-specific rule.
3. :func:`race_deadline` / :func:`accepts`: a race stays open for a window
   after the first arrival, so a faster player on a slower link can still win.

>>> claims = [Claim(0, 10420, 10360), Claim(2, 10440, 10380)]
>>> rule(claims, tie_margin_ms=10, tie_break=min).winner
0
>>> race_deadline(10420, 160)
10580
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

TieBreak = Callable[[tuple[int, ...]], int]
"""Picks the winner among tied seats (given in seat order); must return one of them."""


def compensated_time(
    arrival: int,
    stimulus_at: int,
    reaction_ms: int | None,
    rtt: int | None,
    max_credit_ms: int,
    *,
    enabled: bool = True,
) -> int:
    """The compensated time ``at`` of a claim; smaller is earlier.

    The client reports its own reaction time (reaction shown on screen to
    click). Whatever it claims, the credit never exceeds the measured round
    trip nor ``max_credit_ms``, and ``at`` never falls before the stimulus, so
    a lying client gains at most its own jitter.

    Honest client, rtt 60, reacted in 360 ms, arrives 420 ms after the reveal:

    >>> compensated_time(10420, 10000, 360, 60, 150)
    10360

    A client claiming a 0 ms reaction gets its round trip and no more:

    >>> compensated_time(10400, 10000, 0, 80, 150)
    10320

    A slow link is capped at ``max_credit_ms``; unknown data means no credit:

    >>> compensated_time(10750, 10000, 250, 500, 150)
    10600
    >>> compensated_time(10750, 10000, None, 500, 150), compensated_time(10750, 10000, 250, None, 150)
    (10750, 10750)
    >>> compensated_time(10420, 10000, 360, 60, 150, enabled=False)
    10420
    """
    if not enabled or reaction_ms is None or rtt is None:
        return arrival
    elapsed = max(0, arrival - stimulus_at)
    claimed = min(max(reaction_ms, 0), elapsed)
    credit = max(0, min(elapsed - claimed, rtt, max_credit_ms))
    return arrival - credit


@dataclass(frozen=True, slots=True)
class Claim:
    """One player's claim in a race: server ``arrival``, compensated time ``at``.

    ``reaction_ms`` and ``rtt`` are the inputs ``at`` was computed from, kept so
    a result screen (and an audit) can explain the ruling.
    """

    seat: int
    arrival: int
    at: int
    reaction_ms: int | None = None
    rtt: int | None = None


@dataclass(frozen=True, slots=True)
class Ruling:
    """The outcome of a race.

    ``winner`` is the seat that won; ``tied`` the seats (in seat order) whose
    claims were within the tie margin of the best one, the winner included
    (a single seat means no tie); ``order`` every claim, the winner's first,
    then by compensated time, arrival and seat.
    """

    winner: int
    tied: tuple[int, ...]
    order: tuple[Claim, ...]


def _rank_key(claim: Claim) -> tuple[int, int, int]:
    return (claim.at, claim.arrival, claim.seat)


def rule(claims: Sequence[Claim], tie_margin_ms: int, tie_break: TieBreak) -> Ruling:
    """Judge a closed race: smallest ``at`` wins; ``at <= best + margin`` is a tie.

    ``tie_break`` is called only when two or more seats tie, so a game that
    draws from its RNG there consumes randomness only on real ties.

    >>> a, c = Claim(0, 10410, 10300), Claim(2, 10415, 10306)
    >>> r = rule([a, c], 10, tie_break=max)
    >>> r.winner, r.tied, [x.seat for x in r.order]
    (2, (0, 2), [2, 0])
    >>> rule([a, c], 5, tie_break=max).tied
    (0,)
    """
    if not claims:
        raise ValueError("a race needs at least one claim")
    seats = {c.seat for c in claims}
    if len(seats) != len(claims):
        raise ValueError("one claim per seat")
    order = sorted(claims, key=_rank_key)
    limit = order[0].at + tie_margin_ms
    tied = tuple(sorted(c.seat for c in order if c.at <= limit))
    if len(tied) == 1:
        return Ruling(tied[0], tied, tuple(order))
    winner = tie_break(tied)
    if winner not in tied:
        raise ValueError(f"tie break chose seat {winner}, not one of {tied}")
    first = next(c for c in order if c.seat == winner)
    return Ruling(winner, tied, (first, *(c for c in order if c is not first)))


def race_deadline(first_arrival: int, window_ms: int) -> int:
    """When a race closes: ``window_ms`` after the first claim *arrived*."""
    return first_arrival + window_ms


def accepts(arrival: int, deadline: int) -> bool:
    """Whether a claim still counts; one arriving exactly at the deadline does.

    >>> accepts(10580, race_deadline(10420, 160)), accepts(10581, 10580)
    (True, False)
    """
    return arrival <= deadline


def min_window(max_credit_ms: int, tie_margin_ms: int) -> int:
    """The shortest window that still lets every claim able to win or tie be heard.

    A claim arriving later than ``first + max_credit + margin`` cannot get
    ``at <= first.at + margin`` even with full credit, so it cannot matter.

    >>> min_window(150, 10)
    160
    """
    return max_credit_ms + tie_margin_ms
