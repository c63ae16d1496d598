"""Seats around the table when only some of them take part (rules 2.1, 4.4).

Seats are numbered clockwise. ``left`` is the next taking part seat clockwise,
``right`` the next one counter-clockwise; the seat asked about need not take
part itself (a dealer outside a tie-break round passes the deal on).

>>> left_among((0, 2, 3), 0, 4), right_among((0, 2, 3), 0, 4), left_among((0, 2, 3), 1, 4)
(2, 3, 2)
>>> left_among((0, 1), 0, 2) == right_among((0, 1), 0, 2) == 1
True
"""

from __future__ import annotations

from collections.abc import Container


def left_among(seats: Container[int], seat: int, players: int) -> int:
    """The first seat of ``seats`` clockwise after ``seat`` (``seat`` itself if it is the only one)."""
    for step in range(1, players + 1):
        other = (seat + step) % players
        if other in seats:
            return other
    raise ValueError("no seat takes part")


def right_among(seats: Container[int], seat: int, players: int) -> int:
    """The first seat of ``seats`` counter-clockwise after ``seat``."""
    for step in range(1, players + 1):
        other = (seat - step) % players
        if other in seats:
            return other
    raise ValueError("no seat takes part")
