"""Choosing the first dealer and dealing a round (rules 2.2, 2.3).

>>> HAND_SIZE[2], HAND_SIZE[5], HAND_SIZE[8]
(7, 6, 4)
>>> first_dealer(["3-4", "0-2", "1-2"], 3, Rng(1))
(1, (('3-4', '0-2', '1-2'),))
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engines.cards import CardId, deal_hands
from app.engines.rng import Rng
from app.engines.uffda.dominoes import DECK, double, points

HAND_SIZE = {2: 7, 3: 7, 4: 7, 5: 6, 6: 5, 7: 4, 8: 4}
"""Cards dealt to each player by table size (SEED)."""

DrawRows = tuple[tuple[CardId | None, ...], ...]


def first_dealer(deck: Sequence[CardId], players: int, rng: Rng) -> tuple[int, DrawRows]:
    """Deal face-up cards from ``deck`` (already shuffled): the lowest total deals (rules 2.2).

    Only the tied players draw again; a deck that runs out leaves the choice
    among the still tied to ``rng`` (settled decision B). Returns the dealer
    and every face-up row (None for seats not drawing in that row).

    >>> first_dealer(["3-4", "0-2", "1-1", "5-6", "0-1"], 3, Rng(1))
    (2, (('3-4', '0-2', '1-1'), (None, '5-6', '0-1')))
    """
    contenders = list(range(players))
    rows: list[tuple[CardId | None, ...]] = []
    at = 0
    while len(contenders) > 1:
        if len(deck) - at < len(contenders):
            return rng.choice(contenders), tuple(rows)
        row: list[CardId | None] = [None] * players
        for seat in contenders:
            row[seat] = deck[at]
            at += 1
        rows.append(tuple(row))
        low = min(points(c) for c in row if c is not None)
        contenders = [s for s in contenders if (c := row[s]) is not None and points(c) == low]
    return contenders[0], tuple(rows)


def deal(
    rng: Rng, players: int, center: int
) -> tuple[tuple[tuple[CardId, ...], ...], tuple[tuple[CardId, ...], tuple[CardId, ...]]]:
    """Shuffle the deck without the centre double, deal the hands, split the rest in two piles.

    Pile A gets the odd card (rules 1.3). Hands are sorted; piles keep the shuffled order (top first).

    >>> hands, piles = deal(Rng(7), 3, 0)
    >>> [len(h) for h in hands], [len(p) for p in piles]
    ([7, 7, 7], [17, 16])
    """
    cards = [c for c in DECK if c != double(center)]
    rng.shuffle(cards)
    size = HAND_SIZE[players]
    dealt, rest = deal_hands(cards, players, size)
    hands = tuple(tuple(sorted(hand)) for hand in dealt)
    half = (len(rest) + 1) // 2
    return hands, (tuple(rest[:half]), tuple(rest[half:]))
