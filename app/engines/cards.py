"""Card ids for colour + number decks, shared by the games that use them.

An id is one uppercase colour letter, a two-digit number and an optional
lowercase copy tag: ``G07`` (Slap), ``B12`` (Leekha), ``R07a`` (Rummy's first
copy of red 7). Ids are plain strings on the wire and in states, so they
compare, hash and serialise for free; the helpers below are the one place
that knows the layout.

>>> deck = build_deck("YG", range(1, 3))
>>> deck
['Y01', 'Y02', 'G01', 'G02']
>>> colour_of(deck[2]), number_of(deck[2])
('G', 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NewType, TypeVar

CardId = NewType("CardId", str)
T = TypeVar("T")

_CARD_RE = re.compile(r"([A-Z])(\d{2})([a-z]?)")


@dataclass(frozen=True, slots=True)
class Card:
    """A parsed card id.

    >>> parse_card("R07a")
    Card(colour='R', number=7, copy='a')
    >>> parse_card("R07a").id
    'R07a'
    """

    colour: str
    number: int
    copy: str = ""

    @property
    def id(self) -> CardId:
        return card_id(self.colour, self.number, self.copy)


def card_id(colour: str, number: int, copy: str = "") -> CardId:
    """Build an id, rejecting anything the parser would not read back.

    >>> card_id("G", 7)
    'G07'
    >>> card_id("G", 100)
    Traceback (most recent call last):
    ...
    ValueError: not a card: colour 'G', number 100, copy ''
    """
    text = f"{colour}{number:02d}{copy}"
    if _CARD_RE.fullmatch(text) is None:
        raise ValueError(f"not a card: colour {colour!r}, number {number!r}, copy {copy!r}")
    return CardId(text)


def is_card_id(value: object) -> bool:
    """Whether ``value`` is a well-formed id (use on untrusted client input).

    >>> is_card_id("Y10"), is_card_id("Y1"), is_card_id(10)
    (True, False, False)
    """
    return isinstance(value, str) and _CARD_RE.fullmatch(value) is not None


def parse_card(value: str) -> Card:
    match = _CARD_RE.fullmatch(value)
    if match is None:
        raise ValueError(f"not a card id: {value!r}")
    return Card(match[1], int(match[2]), match[3])


# The two accessors below sit on hot paths (pair tests on every flip), so they
# slice instead of parsing; they assume an id that came from this module.
def colour_of(card: str) -> str:
    return card[0]


def number_of(card: str) -> int:
    return int(card[1:3])


def build_deck(colours: Iterable[str], numbers: Iterable[int], copies: Iterable[str] = ("",)) -> list[CardId]:
    """Every colour x number x copy, in that nesting order (shuffle it yourself).

    >>> build_deck("R", [1], "ab")
    ['R01a', 'R01b']
    """
    nums = list(numbers)
    tags = list(copies)
    return [card_id(c, n, t) for c in colours for n in nums for t in tags]


def deal_hands(
    deck: Sequence[T], players: int, hand_size: int
) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...]]:
    """Deal a (shuffled) deck in blocks: the first ``hand_size`` cards to seat 0, the next to seat 1, ...

    Returns the hands (in dealt order; sort them yourself) and the cards left over, in deck order.

    >>> deal_hands(["a", "b", "c", "d", "e"], 2, 2)
    ((('a', 'b'), ('c', 'd')), ('e',))
    """
    hands = tuple(tuple(deck[i * hand_size : (i + 1) * hand_size]) for i in range(players))
    return hands, tuple(deck[players * hand_size :])
