"""Double-nine domino cards (rules 1.1): ids, points and matching.

A card is one unordered pair ``{a, b}`` with ``0 <= a <= b <= 9``; its id is
``"a-b"`` with the smaller number first, so ids compare, hash and sort for
free. The helpers assume an id that came from here (they slice, not parse);
use :func:`is_domino` on anything a client sent.

>>> len(DECK), sum(points(c) for c in DECK), sum(is_double(c) for c in DECK)
(55, 495, 10)
>>> domino(7, 3), other("3-7", 3), has("3-7", 7), has("3-7", 5)
('3-7', 7, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engines.cards import CardId

NUMBERS = range(10)


def domino(a: int, b: int) -> CardId:
    """The id of the card showing ``a`` and ``b`` (in either order)."""
    lo, hi = (a, b) if a <= b else (b, a)
    if not 0 <= lo <= hi <= 9:
        raise ValueError(f"not a double-nine card: {a}/{b}")
    return CardId(f"{lo}-{hi}")


DECK: tuple[CardId, ...] = tuple(domino(a, b) for a in NUMBERS for b in NUMBERS if a <= b)
_DECK_SET = frozenset(DECK)


def is_domino(value: object) -> bool:
    """Whether an untrusted value is a card id of this deck.

    >>> is_domino("2-5"), is_domino("5-2"), is_domino("2-10"), is_domino(25)
    (True, False, False, False)
    """
    return isinstance(value, str) and value in _DECK_SET


def halves(card: str) -> tuple[int, int]:
    return int(card[0]), int(card[2])


def points(card: str) -> int:
    """A card's point value: its pip total (rules 1.1, DECISION 8.2).

    >>> points("0-0"), points("4-7"), points("9-9")
    (0, 11, 18)
    """
    return int(card[0]) + int(card[2])


def is_double(card: str) -> bool:
    return card[0] == card[2]


def has(card: str, value: int) -> bool:
    """Whether the card matches an end of ``value`` (rules 3.2)."""
    digit = str(value)
    return card[0] == digit or card[2] == digit


def other(card: str, value: int) -> int:
    """The number left open when ``card`` is attached by its ``value`` half."""
    a, b = int(card[0]), int(card[2])
    return b if a == value else a


def double(value: int) -> CardId:
    return domino(value, value)


def hand_points(hand: Sequence[str]) -> int:
    """The points a hand scores (rules 6.3).

    >>> hand_points(["9-9", "0-1"])
    19
    """
    return sum(points(c) for c in hand)


def highest(hand: Sequence[CardId]) -> CardId:
    """The highest-point card, the lowest id on ties (the default penalty card, DECISION 8.27).

    >>> highest([CardId("2-7"), CardId("4-5"), CardId("0-1")])
    '2-7'
    """
    return min(hand, key=lambda c: (-points(c), c))
