"""Seats around the table: who comes next, clockwise or counter-clockwise.

Seats are numbered ``0 .. players - 1`` clockwise. ``among`` narrows the ring
to the seats taking part (a round some players sit out); the seat asked about
need not take part itself (a dealer outside a tie-break round passes the deal
on), and a seat that is the only one taking part comes back to itself.

>>> clockwise(3, 4), counter_clockwise(0, 4)
(0, 3)
>>> taking_part = (0, 2, 3)
>>> clockwise(0, 4, taking_part), counter_clockwise(0, 4, taking_part), clockwise(1, 4, taking_part)
(2, 3, 2)
>>> list(clockwise_from(2, 4))
[3, 0, 1, 2]
"""

from __future__ import annotations

from collections.abc import Container, Iterator

from app.engines.base import IllegalAction


def require_player_count(game: str, players: int, least: int, most: int) -> None:
    """Refuse a table of the wrong size at the start with ``BAD_PLAYER_COUNT``.

    >>> require_player_count("Rummy", 3, 2, 4)
    >>> require_player_count("Rummy", 5, 2, 4)
    Traceback (most recent call last):
    ...
    app.engines.base.IllegalAction: Rummy needs 2 to 4 players, not 5.
    >>> require_player_count("Leekha", 3, 4, 4)
    Traceback (most recent call last):
    ...
    app.engines.base.IllegalAction: Leekha needs exactly 4 players, not 3.
    """
    if not least <= players <= most:
        wanted = f"exactly {least}" if least == most else f"{least} to {most}"
        raise IllegalAction("BAD_PLAYER_COUNT", f"{game} needs {wanted} players, not {players}.")


def clockwise_from(seat: int, players: int) -> Iterator[int]:
    """Every seat once, clockwise, starting after ``seat`` and ending with ``seat`` itself."""
    return ((seat + step) % players for step in range(1, players + 1))


def counter_clockwise_from(seat: int, players: int) -> Iterator[int]:
    """Every seat once, counter-clockwise, starting after ``seat`` and ending with ``seat`` itself.

    >>> list(counter_clockwise_from(1, 4))
    [0, 3, 2, 1]
    """
    return ((seat - step) % players for step in range(1, players + 1))


def clockwise(seat: int, players: int, among: Container[int] | None = None) -> int:
    """The first seat clockwise after ``seat`` (of ``among`` when given).

    >>> clockwise(1, 2, among=(1,))
    1
    >>> clockwise(0, 3, among=())
    Traceback (most recent call last):
    ...
    ValueError: no seat takes part
    """
    if among is None:
        return (seat + 1) % players
    return _first_among(clockwise_from(seat, players), among)


def counter_clockwise(seat: int, players: int, among: Container[int] | None = None) -> int:
    """The first seat counter-clockwise after ``seat`` (of ``among`` when given)."""
    if among is None:
        return (seat - 1) % players
    return _first_among(counter_clockwise_from(seat, players), among)


def _first_among(ring: Iterator[int], among: Container[int]) -> int:
    for other in ring:
        if other in among:
            return other
    raise ValueError("no seat takes part")
