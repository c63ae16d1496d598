"""The word row: six slots with fixed letters k-u-u-d-u-k (rules 1.3, 3.7, 3.8).

Slots are numbered 1 to 6 (``slots[0]`` is slot 1). A card may sit only in a
slot of its letter; neighbouring cards must match; an empty slot between two
cards is allowed only as a marked swipe gap.

>>> row = Layout()
>>> row = place(row, "uG2-1", 5)            # the first card goes anywhere its letter fits
>>> row = place(row, "dO2-1", 4)            # matches the u by dots
>>> row.slots
(None, None, None, 'dO2-1', 'uG2-1', None)
>>> place(row, "uP3-1", 3)
Traceback (most recent call last):
...
app.engines.base.IllegalAction: The cards in slots 3 and 4 share neither colour nor dots.
>>> card, victim = take(place(row, "uO1-1", 3), 4)    # a swipe from the middle leaves a gap
>>> card, sorted(victim.gaps)
('dO2-1', [4])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise, permutations, product

from app.engines.base import IllegalAction
from app.engines.kuuduk.deck import CardId, matches

WORD = "kuuduk"
SLOT_COUNT = 6
LETTER_SLOTS = {"k": (1, 6), "u": (2, 3, 5), "d": (4,)}
"""The slot numbers of each letter."""

Slots = tuple[CardId | None, ...]
Placement = int | Slots
"""A lay's placement: a target slot (nothing moves) or the full new row of six entries."""

EMPTY: Slots = (None,) * SLOT_COUNT


@dataclass(frozen=True, slots=True)
class Layout:
    """One player's row: ``slots[i]`` is slot i + 1; ``gaps`` holds the marked swipe-gap slot numbers."""

    slots: Slots = EMPTY
    gaps: frozenset[int] = field(default_factory=frozenset)

    @property
    def laid(self) -> int:
        return SLOT_COUNT - self.slots.count(None)

    @property
    def complete(self) -> bool:
        return None not in self.slots

    def cards(self) -> list[CardId]:
        return [card for card in self.slots if card is not None]


def interior_empty(slots: Slots) -> frozenset[int]:
    """Slot numbers of the empty slots with a card somewhere on each side.

    >>> sorted(interior_empty((None, "u", None, None, "u", None)))
    [3, 4]
    """
    filled = [i for i, card in enumerate(slots) if card is not None]
    if not filled:
        return frozenset()
    return frozenset(i + 1 for i in range(filled[0] + 1, filled[-1]) if slots[i] is None)


def is_valid(layout: Layout) -> bool:
    """Every card in a slot of its letter, neighbours matching, and the marks exactly the interior gaps.

    (Rules 1.3 ask only that interior empty slots are marked; the engine also
    drops marks that stopped being interior, so the two sets are equal.)

    >>> is_valid(Layout(("kG1-1", "uG2-1", None, "dO2-1", None, None), frozenset({3})))
    True
    >>> is_valid(Layout(("kG1-1", "uP3-1", None, None, None, None)))
    False
    """
    slots = layout.slots
    if len(slots) != SLOT_COUNT:
        return False
    if any(card is not None and card[0] != WORD[i] for i, card in enumerate(slots)):
        return False
    for a, b in pairwise(slots):
        if a is not None and b is not None and not matches(a, b):
            return False
    return layout.gaps == interior_empty(slots)


def _slot_name(index: int) -> str:
    return f"slot {index + 1} ({WORD[index]})"


def placement_error(layout: Layout, card: CardId, new: Slots) -> IllegalAction | None:
    """Why ``new`` is not a legal lay of ``card`` into ``layout`` (rules 3.7), or None if it is.

    The checks run in the order of the rules: same cards, letters, matching
    neighbours, next to a card, no new gap.
    """
    old = layout.slots
    before = [c for c in old if c is not None]
    if len(new) != SLOT_COUNT or sorted(c for c in new if c is not None) != sorted([*before, card]):
        return IllegalAction(
            "LAYOUT_CARDS_CHANGED", "The new row must hold the cards you laid plus the new one, each once."
        )
    for i, c in enumerate(new):
        if c is not None and c[0] != WORD[i]:
            return IllegalAction("WRONG_LETTER_SLOT", f"Slot {i + 1} takes a {WORD[i]}, not a {c[0]}.")
    for i in range(SLOT_COUNT - 1):
        a, b = new[i], new[i + 1]
        if a is not None and b is not None and not matches(a, b):
            return IllegalAction(
                "NO_MATCH", f"The cards in slots {i + 1} and {i + 2} share neither colour nor dots."
            )
    pos = new.index(card)
    if before and not (
        (pos > 0 and new[pos - 1] is not None) or (pos < SLOT_COUNT - 1 and new[pos + 1] is not None)
    ):
        return IllegalAction("NOT_ADJACENT", "Lay the card next to one of your cards.")
    for gap in sorted(interior_empty(new)):
        if gap not in layout.gaps:
            return IllegalAction(
                "GAP_CREATED", f"That would leave slot {gap} empty; only a swipe can make a gap."
            )
    return None


def target_row(layout: Layout, card: CardId, placement: Placement) -> Slots:
    """The full new row a placement asks for; a bare slot must be one of the card's letter and free."""
    if not isinstance(placement, int):
        return placement
    index = placement - 1
    if card[0] != WORD[index]:
        raise IllegalAction("WRONG_LETTER_SLOT", f"Slot {placement} takes a {WORD[index]}, not a {card[0]}.")
    if layout.slots[index] is not None:
        raise IllegalAction("SLOT_TAKEN", f"Slot {placement} is taken; send the full new row to move cards.")
    return (*layout.slots[:index], card, *layout.slots[index + 1 :])


def place(layout: Layout, card: CardId, placement: Placement) -> Layout:
    """Lay ``card`` (rules 3.7), raising IllegalAction when the placement breaks a rule."""
    new = target_row(layout, card, placement)
    error = placement_error(layout, card, new)
    if error is not None:
        raise error
    # Every interior empty slot was a mark (checked above); marks now filled or outside are dropped.
    return Layout(new, interior_empty(new))


def take(layout: Layout, slot: int) -> tuple[CardId, Layout]:
    """Remove the card in ``slot`` (a swipe, rules 3.5): the slot becomes a gap if it is interior."""
    card = layout.slots[slot - 1]
    if card is None:
        raise ValueError(f"slot {slot} is empty")
    new = (*layout.slots[: slot - 1], None, *layout.slots[slot:])
    # The old marks were exactly the old interior gaps; removing a card can only add
    # this slot to them or push others outside, so the new marks are the new interior gaps.
    return card, Layout(new, interior_empty(new))


def _rows(layout: Layout, card: CardId) -> list[Slots]:
    """Every arrangement of the laid cards plus ``card`` with each card in a slot of its letter."""
    cards = [*layout.cards(), card]
    groups: list[tuple[list[CardId], Sequence[tuple[int, ...]]]] = []
    for letter, slots in LETTER_SLOTS.items():
        mine = [c for c in cards if c[0] == letter]
        if len(mine) > len(slots):
            return []
        groups.append((mine, list(permutations(slots, len(mine)))))
    rows = []
    for choice in product(*(options for _, options in groups)):
        row: list[CardId | None] = [None] * SLOT_COUNT
        for (mine, _), positions in zip(groups, choice, strict=True):
            for c, slot in zip(mine, positions, strict=True):
                row[slot - 1] = c
        rows.append(tuple(row))
    return rows


@lru_cache(maxsize=1 << 12)
def legal_placements(layout: Layout, card: CardId) -> tuple[tuple[int, Placement], ...]:
    """One legal placement per target slot of ``card``: the one moving the fewest laid cards.

    The placement is the bare slot when nothing moves, else the full row.
    (Pure and cached: the legal lists of every view ask again and again.)

    >>> row = Layout((None, "uO1-1", "uG1-1", None, None, None))
    >>> legal_placements(row, "dO2-1")
    ((4, (None, 'uG1-1', 'uO1-1', 'dO2-1', None, None)),)
    >>> legal_placements(row, "kG1-1")
    ((1, 1),)
    """
    best: dict[int, tuple[int, Slots]] = {}
    for row in _rows(layout, card):
        if placement_error(layout, card, row) is not None:
            continue
        target = row.index(card) + 1
        moved = sum(1 for old, new in zip(layout.slots, row, strict=True) if old is not None and old != new)
        if target not in best or moved < best[target][0]:
            best[target] = (moved, row)
    return tuple((t, t if best[t][0] == 0 else best[t][1]) for t in sorted(best))


def can_place(layout: Layout, card: CardId) -> bool:
    return bool(legal_placements(layout, card))
