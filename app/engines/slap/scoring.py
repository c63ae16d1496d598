"""Round end tests and round scoring (rules 3.8 and 4.1)."""

from __future__ import annotations

from collections.abc import Sequence

from app.engines.cards import number_of
from app.engines.slap.options import SlapOptions
from app.engines.slap.state import EndKind, RoundRecord


def competition_ranks(counts: Sequence[int]) -> list[int]:
    """0-based rank by count, highest first; ties share the best rank of their block.

    >>> competition_ranks([17, 17, 6, 0])
    [0, 0, 2, 3]
    >>> competition_ranks([14, 13, 13, 0])
    [0, 1, 1, 3]
    """
    return [sum(1 for other in counts if other > mine) for mine in counts]


def is_stalled(piles: Sequence[Sequence[str]]) -> bool:
    """No number is held by two different players, so no flip can pair again.

    >>> is_stalled([["Y01", "G01"], ["Y02", "G02"]])
    True
    >>> is_stalled([["Y01", "G02"], ["Y02", "G01"]])
    False
    """
    owner: dict[int, int] = {}
    for seat, pile in enumerate(piles):
        for card in pile:
            if owner.setdefault(number_of(card), seat) != seat:
                return False
    return True


def end_kind(
    piles: Sequence[Sequence[str]], closed_at: int, round_started_at: int, options: SlapOptions
) -> EndKind | None:
    """The end test run after every close, in the rules' order E1, E2, E3."""
    if any(not pile for pile in piles):
        return EndKind.NORMAL
    if is_stalled(piles):
        return EndKind.STALL
    limit_ms = options.round_time_limit_s * 1000
    if limit_ms and closed_at - round_started_at >= limit_ms:
        return EndKind.TIME
    return None


def placement_points(counts: Sequence[int], end: EndKind, options: SlapOptions) -> tuple[int, ...]:
    """Points by place before penalties.

    A normal end gives the empty players 0 and ranks the rest among
    themselves; a stall or time end ranks everybody, with the two-player table
    of the seed for two players.

    >>> o = SlapOptions()
    >>> placement_points([16, 14, 10, 0], EndKind.NORMAL, o)
    (6, 4, 2, 0)
    >>> placement_points([30, 0, 0], EndKind.NORMAL, o)
    (6, 0, 0)
    >>> placement_points([14, 9, 7], EndKind.TIME, o)
    (6, 4, 2)
    >>> placement_points([12, 8], EndKind.STALL, o), placement_points([10, 10], EndKind.STALL, o)
    ((6, 2), (6, 6))
    """
    if end is EndKind.NORMAL:
        alive = [c for c in counts if c > 0]
        table: Sequence[int] = options.placement_points
        return tuple(table[sum(1 for other in alive if other > mine)] if mine > 0 else 0 for mine in counts)
    table = options.two_player_stall_points if len(counts) == 2 else options.placement_points
    return tuple(table[rank] for rank in competition_ranks(counts))


def score_round(
    round_no: int, end: EndKind, counts: Sequence[int], penalties: Sequence[int], options: SlapOptions
) -> RoundRecord:
    """Round score = placement points - penalty points; it may go negative.

    >>> score_round(1, EndKind.NORMAL, [20, 0], [0, 2], SlapOptions()).scores
    (6, -2)
    """
    placement = placement_points(counts, end, options)
    scores = tuple(p - pen for p, pen in zip(placement, penalties, strict=True))
    return RoundRecord(round_no, end, tuple(counts), placement, tuple(penalties), scores)
