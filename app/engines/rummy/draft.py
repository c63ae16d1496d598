"""Draft steps (rules 3.4): one card moved, or one set's kind declared, on the
working table of the player whose turn it is.

The draft is a :data:`Table` that always holds every card of the turn's
starting table plus some cards of the player's hand; these steps keep it so.
A set that a step leaves empty disappears. A set whose cards change forgets
its declared kind unless it still needs one (one numbered card at most), so
dragging cards around never leaves a stale "group" on what became a run.

>>> from app.engines.rummy.melds import Meld
>>> draft = (Meld(("B05a", "R05a", "K05a", "Y05a"), Kind.GROUP),)
>>> draft = move_card(draft, frozenset(draft[0].cards), ("Y04a",), "Y04a", "new")
>>> draft = move_card(draft, frozenset(), ("Y04a",), "Y05a", Slot(1))
>>> [m.cards for m in draft], [m.kind for m in draft]
([('B05a', 'R05a', 'K05a'), ('Y04a', 'Y05a')], [None, None])
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from app.engines.base import IllegalAction
from app.engines.cards import CardId
from app.engines.rummy.deck import KNOWN, is_joker
from app.engines.rummy.melds import Kind, Meld, Table
from app.engines.rummy.problems import NOT_IN_HAND, TABLE_CARD_MISSING, UNKNOWN_CARD


@dataclass(frozen=True, slots=True)
class Slot:
    """A place in an existing set of the draft: set index, then position
    (None = at the end) counted once the card has left its old place."""

    set: int
    index: int | None = None


Target = Literal["hand", "new"] | Slot


def locate(draft: Table, card: str) -> tuple[int, int] | None:
    for i, meld in enumerate(draft):
        if card in meld.cards:
            return i, meld.cards.index(card)
    return None


def _rekind(cards: tuple[CardId, ...], kind: Kind | None) -> Meld:
    naturals = sum(1 for c in cards if not is_joker(c))
    return Meld(cards, kind if naturals <= 1 else None)


def no_such_set(index: int, sets: int) -> IllegalAction:
    return IllegalAction("NO_SUCH_SET", f"There is no set {index + 1} on the table (it has {sets}).")


def move_card(draft: Table, on_table: Collection[str], hand: Collection[str], card: str, to: Target) -> Table:
    """The draft after moving ``card`` (from the hand or a set) to ``to``.

    ``on_table`` are the cards of the turn's starting table, ``hand`` the
    player's hand at the start of the turn. Raises IllegalAction for a card the
    player cannot move there; returns ``draft`` itself when nothing changes.
    """
    if card not in KNOWN:
        raise IllegalAction(UNKNOWN_CARD, f"There is no card called {card!r}.")
    where = locate(draft, card)
    if where is None and card not in hand:
        raise IllegalAction(NOT_IN_HAND, f"{card} is neither in your hand nor on the table.")
    if to == "hand":
        if card in on_table:
            raise IllegalAction(TABLE_CARD_MISSING, "Cards on the table cannot go back to a hand.")
        if where is None:
            return draft
    elif isinstance(to, Slot) and not 0 <= to.set < len(draft):
        raise no_such_set(to.set, len(draft))
    sets = [list(m.cards) for m in draft]
    kinds = [m.kind for m in draft]
    touched: set[int] = set()
    if where is not None:
        sets[where[0]].pop(where[1])
        touched.add(where[0])
    if to == "new":
        touched.add(len(sets))
        sets.append([CardId(card)])
        kinds.append(None)
    elif isinstance(to, Slot):
        target = sets[to.set]
        index = len(target) if to.index is None else to.index
        if not 0 <= index <= len(target):
            raise IllegalAction("NO_SUCH_PLACE", f"Set {to.set + 1} has no place {index + 1}.")
        target.insert(index, CardId(card))
        touched.add(to.set)
    moved = tuple(
        _rekind(tuple(cards), kind) if i in touched else draft[i]
        for i, (cards, kind) in enumerate(zip(sets, kinds, strict=True))
        if cards
    )
    return draft if moved == draft else moved


def declare(draft: Table, index: int, kind: Kind | None) -> Table:
    """The draft with set ``index`` declared a group, a run, or neither (None).

    >>> declare((Meld(("J1", "B07a", "J2")),), 0, Kind.RUN)[0].kind
    <Kind.RUN: 'run'>
    """
    if not 0 <= index < len(draft):
        raise no_such_set(index, len(draft))
    if draft[index].kind is kind:
        return draft
    return (*draft[:index], Meld(draft[index].cards, kind), *draft[index + 1 :])
