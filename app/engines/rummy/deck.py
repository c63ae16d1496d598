"""The Rummy deck (rules 2.1): 4 colours x 13 numbers x 2 copies, and 4 jokers.

>>> len(DECK), DECK[0], DECK[-1]
(108, 'R01a', 'J4')
>>> is_joker("J3"), is_joker("K13b")
(True, False)
>>> hand_value(["R07a", "J1", "B13b"], joker_value=25)
45
"""

from __future__ import annotations

from collections.abc import Iterable

from app.engines.cards import CardId, build_deck, number_of

COLOURS = ("R", "B", "Y", "K")
NUMBERS = range(1, 14)
COPIES = ("a", "b")
JOKERS: tuple[CardId, ...] = tuple(CardId(f"J{i}") for i in range(1, 5))
DECK: tuple[CardId, ...] = (*build_deck(COLOURS, NUMBERS, COPIES), *JOKERS)
KNOWN: frozenset[str] = frozenset(DECK)
HAND_SIZE = 14


def is_joker(card: str) -> bool:
    """Whether a (known) card id is a joker."""
    return card[0] == "J"


def hand_value(cards: Iterable[str], joker_value: int) -> int:
    """Minus points of cards left in a hand: the numbers, ``joker_value`` per joker (rules 4.1)."""
    return sum(joker_value if is_joker(c) else number_of(c) for c in cards)
