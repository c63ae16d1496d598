"""Kuuduk's 77 cards and what an id says about its card (rules 1.1, 1.2).

A letter card's id is ``<letter><colour><dots>-<copy>`` (``uG2-3``: the third
green two-dot u); a black card's id is ``<kind>-<copy>`` (``swipe_any-2``).
Ids are unique, so a card is its id everywhere: in hands, layouts, piles and
on the wire. The accessors slice instead of parsing; they assume an id from
:func:`build_deck` (check untrusted input against a hand or a layout first).

>>> deck = build_deck()
>>> len(deck), deck[0], deck[-1]
(77, 'kG1-1', 'switch-4')
>>> letter_of("uG2-3"), colour_of("uG2-3"), dots_of("uG2-3")
('u', 'G', 2)
>>> is_letter("dP1-2"), is_letter("switch-1"), black_kind("swipe_left-4")
(True, False, <Black.SWIPE_LEFT: 'swipe_left'>)
"""

from __future__ import annotations

from enum import StrEnum

CardId = str
"""A card id as described above (kept a plain ``str``: ids travel as JSON)."""

LETTERS = ("k", "u", "d")
COLOURS = ("G", "O", "P")
DOTS = (1, 2, 3)
COPIES = {"k": 2, "u": 3, "d": 2}
"""Copies of every (colour, dots) combination per letter (rules 1.1, DECISION)."""


class Black(StrEnum):
    """The black cards (rules 1.2); the value is the id prefix."""

    SWIPE_LEFT = "swipe_left"
    SWIPE_RIGHT = "swipe_right"
    SWIPE_ANY = "swipe_any"
    SWITCH = "switch"


BLACK_COPIES = {Black.SWIPE_LEFT: 4, Black.SWIPE_RIGHT: 4, Black.SWIPE_ANY: 2, Black.SWITCH: 4}
SWIPES = frozenset({Black.SWIPE_LEFT, Black.SWIPE_RIGHT, Black.SWIPE_ANY})
DECK_SIZE = 77


def letter_card(letter: str, colour: str, dots: int, copy: int = 1) -> CardId:
    """The id of one letter card.

    >>> letter_card("k", "O", 3, 2)
    'kO3-2'
    """
    if letter not in LETTERS or colour not in COLOURS or dots not in DOTS or not 1 <= copy <= COPIES[letter]:
        raise ValueError(f"no such card: {letter!r} {colour!r} {dots!r} copy {copy!r}")
    return f"{letter}{colour}{dots}-{copy}"


def build_deck() -> list[CardId]:
    """Every card once, letters first (k, u, d by colour, dots, copy), then the black cards."""
    letters = [
        letter_card(letter, colour, dots, copy)
        for letter in LETTERS
        for colour in COLOURS
        for dots in DOTS
        for copy in range(1, COPIES[letter] + 1)
    ]
    blacks = [f"{kind.value}-{copy}" for kind, n in BLACK_COPIES.items() for copy in range(1, n + 1)]
    return letters + blacks


def is_letter(card: CardId) -> bool:
    return card[0] in "kud"


def letter_of(card: CardId) -> str:
    return card[0]


def colour_of(card: CardId) -> str:
    return card[1]


def dots_of(card: CardId) -> int:
    return int(card[2])


def black_kind(card: CardId) -> Black | None:
    """The kind of a black card, None for a letter card."""
    if is_letter(card):
        return None
    return Black(card.rsplit("-", 1)[0])


def matches(a: CardId, b: CardId) -> bool:
    """Two letter cards match iff they share the colour or the number of dots (rules 1.3).

    >>> matches("uG2-1", "kO2-1"), matches("uG2-1", "kG3-1"), matches("uG2-1", "kP3-1")
    (True, True, False)
    """
    return a[1] == b[1] or a[2] == b[2]
