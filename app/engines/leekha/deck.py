"""Leekha's deck, card values and seat geometry (rules 1 and 2.1).

Card ids are the shared ``colour + two-digit number`` ids of
:mod:`app.engines.cards`, the number being the rank value: ``B12`` is the Blue
+2 (queen), ``Y10`` the Yellow 0 (ten), ``R14`` the Red 1 (ace).

>>> len(DECK), sum(points_of(c) for c in DECK)
(52, 36)
>>> points_of(BIG), points_of(SMALL), points_of("R12"), points_of("G12")
(13, 10, 1, 0)
>>> [right(s) for s in range(4)]
[3, 0, 1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable

from app.engines.cards import CardId, build_deck, number_of
from app.engines.seats import clockwise, counter_clockwise

SEATS = 4
COLOURS = ("R", "B", "Y", "G")
"""Red, blue, yellow, green: also the colour tie-break order of decision 22 and the display order."""
COLOUR_NAMES = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}
RANKS = range(2, 15)
FACES = {10: "0", 11: "Reverse", 12: "+2", 13: "Skip", 14: "1"}

BIG = CardId("B12")
"""The Big Leekha, Blue +2: 13 points."""
SMALL = CardId("Y10")
"""The Small Leekha, Yellow 0: 10 points."""
LEEKHAS = (BIG, SMALL)
ROUND_POINTS = 36
RULE37_POINTS = 37

DECK: tuple[CardId, ...] = tuple(build_deck(COLOURS, RANKS))
_POINTS: dict[str, int] = {c: 13 if c == BIG else 10 if c == SMALL else 1 if c[0] == "R" else 0 for c in DECK}
_DISPLAY: dict[str, tuple[int, int]] = {c: (COLOURS.index(c[0]), -number_of(c)) for c in DECK}
_LOW: dict[str, tuple[int, int]] = {c: (number_of(c), COLOURS.index(c[0])) for c in DECK}


def points_of(card: str) -> int:
    """Penalty points of one card of the deck."""
    return _POINTS[card]


def points_in(cards: Iterable[str]) -> int:
    """
    >>> points_in(["B12", "Y10", "R02", "G14"])
    24
    """
    return sum(_POINTS[c] for c in cards)


def rank_of(card: str) -> int:
    return number_of(card)


def card_name(card: str) -> str:
    """How a player calls the card (UNO faces).

    >>> card_name("Y10"), card_name("B12"), card_name("R07")
    ('Yellow 0', 'Blue +2', 'Red 7')
    """
    rank = number_of(card)
    return f"{COLOUR_NAMES[card[0]].capitalize()} {FACES.get(rank, str(rank))}"


def sort_hand(cards: Iterable[CardId]) -> tuple[CardId, ...]:
    """Display order: by colour (red, blue, yellow, green), highest card first.

    >>> sort_hand(["Y02", "R03", "Y14", "B12"])
    ('R03', 'B12', 'Y14', 'Y02')
    """
    return tuple(sorted(cards, key=_DISPLAY.__getitem__))


def low_first(cards: Iterable[CardId]) -> list[CardId]:
    """Lowest rank first, ties by colour red, blue, yellow, green (decision 22).

    >>> low_first(["G02", "R14", "B02"])
    ['B02', 'G02', 'R14']
    """
    return sorted(cards, key=_LOW.__getitem__)


def right(seat: int) -> int:
    """The next seat in play order: play goes to the right, 0 -> 3 -> 2 -> 1 -> 0 (rules 2.1)."""
    return counter_clockwise(seat, SEATS)


def left(seat: int) -> int:
    """The inverse of :func:`right`: the seat that passes to ``seat``.

    >>> all(left(right(s)) == s for s in range(4))
    True
    """
    return clockwise(seat, SEATS)


def team_of(seat: int) -> int:
    """2 vs 2: teammates sit opposite, seats 0 + 2 are team 0, seats 1 + 3 team 1."""
    return seat % 2


def team_seats(team: int) -> tuple[int, int]:
    return (team, team + 2)
