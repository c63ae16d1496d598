"""Whole-table checks (rules 3.4-3.6): a draft's conservation, a commit's
validity, the timeout's salvage, and the turn summary.

``t0`` is the table at the start of the turn, ``hand`` the player's hand at
the start of the turn (H0); cards are unique ids, so sets of ids stand in for
multisets.

>>> from app.engines.rummy.melds import Meld
>>> run = Meld(("R11a", "J1", "R13a"))
>>> check_table((), ("R11a", "J1", "R13a", "B02a"), (run,), opened=False, opening_min=40).problems
(Problem(code='OPENING_BELOW_MIN', set=None, cards=(), points=36),)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.engines.cards import CardId
from app.engines.rummy.deck import KNOWN, is_joker
from app.engines.rummy.melds import Meld, MeldCheck, Table, meld_key
from app.engines.rummy.problems import (
    DUPLICATE_CARD,
    EMPTY_SET,
    JOKER_NUMBER_CHANGED,
    NO_HAND_CARD_PLAYED,
    NOT_IN_HAND,
    OPENING_BELOW_MIN,
    OPENING_TABLE_CHANGED,
    TABLE_CARD_MISSING,
    UNKNOWN_CARD,
    Problem,
)


def cards_of(table: Sequence[Meld]) -> list[CardId]:
    return [c for meld in table for c in meld.cards]


@lru_cache(maxsize=64)
def table_cards(t0: Table) -> frozenset[CardId]:
    """The cards of a turn's starting table: every check of that turn's drafts asks."""
    return frozenset(cards_of(t0))


def partition_problems(
    t0: Table, hand: Collection[str], table: Sequence[Meld], on_table: Collection[str] | None = None
) -> tuple[Problem, ...]:
    """V1: ``table`` holds every card of ``t0`` and otherwise only hand cards, each once, no empty set.

    >>> t0 = (Meld(("B07a", "B08a", "B09a")),)
    >>> partition_problems(t0, {"R09a"}, [Meld(("B07a", "B08a")), Meld(("R09a", "R09a", "X99"))])
    (Problem(code='DUPLICATE_CARD', set=1, cards=('R09a',), points=None), \
Problem(code='UNKNOWN_CARD', set=1, cards=('X99',), points=None), \
Problem(code='TABLE_CARD_MISSING', set=None, cards=('B09a',), points=None))
    """
    if on_table is None:
        on_table = table_cards(t0)
    placed = cards_of(table)
    unique = set(placed)
    fine = len(unique) == len(placed) and unique.issuperset(on_table) and all(meld.cards for meld in table)
    if fine and unique.difference(on_table).issubset(hand):
        return ()  # the common case, checked in one go
    found: dict[tuple[int, str], list[CardId]] = {}
    seen: set[str] = set()
    for i, meld in enumerate(table):
        if not meld.cards:
            found[(i, EMPTY_SET)] = []
        for card in meld.cards:
            if card not in KNOWN:
                code = UNKNOWN_CARD
            elif card in seen:
                code = DUPLICATE_CARD
            elif card not in on_table and card not in hand:
                code = NOT_IN_HAND
            else:
                seen.add(card)
                continue
            found.setdefault((i, code), []).append(card)
    problems = [Problem(code, i, tuple(cards)) for (i, code), cards in found.items()]
    missing = tuple(c for c in cards_of(t0) if c not in seen)
    if missing:
        problems.append(Problem(TABLE_CARD_MISSING, None, missing))
    return tuple(problems)


@dataclass(frozen=True, slots=True)
class TableCheck:
    """The verdict on a proposed final table.

    ``table`` is the table as checked, each valid set's kind filled in (what
    gets committed); ``sets`` the verdict per set (empty when conservation
    already failed); ``played`` the hand cards it places, in table order.
    """

    table: Table
    sets: tuple[MeldCheck, ...]
    problems: tuple[Problem, ...]
    played: tuple[CardId, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_table(
    t0: Table, hand: Collection[str], table: Sequence[Meld], *, opened: bool, opening_min: int
) -> TableCheck:
    """Rules 3.5: V1 conservation, V2 progress, V3 sets, V4 joker lock, V5 opening.

    Every failed check is reported, in that order; when conservation fails the
    rest is not judged (the layout is not a table the player could make).
    """
    as_given = tuple(table)
    on_table = table_cards(t0)
    conservation = partition_problems(t0, hand, as_given, on_table)
    if conservation:
        return TableCheck(as_given, (), conservation, ())
    checks = tuple(m.check() for m in as_given)
    played = tuple(c for m in as_given for c in m.cards if c not in on_table)
    problems: list[Problem] = []
    if not played:
        problems.append(Problem(NO_HAND_CARD_PLAYED))
    for i, check in enumerate(checks):
        if check.errors:
            problems.extend(set_problems(check.errors, i))
    if not _jokers_keep_numbers(t0, as_given, checks):
        problems.append(Problem(JOKER_NUMBER_CHANGED))
    if not opened:
        problems.extend(_opening_problems(t0, on_table, as_given, checks, opening_min))
    resolved = tuple(
        m if m.kind is c.kind or not c.ok else Meld(m.cards, c.kind)
        for m, c in zip(as_given, checks, strict=True)
    )
    return TableCheck(resolved, checks, tuple(problems), played)


@lru_cache(maxsize=1 << 10)
def set_problems(errors: tuple[str, ...], index: int) -> tuple[Problem, ...]:
    """The problems of set ``index``: the same objects in every check (a draft keeps most sets)."""
    return tuple(Problem(code, index) for code in errors)


@lru_cache(maxsize=64)
def _set_keys(t0: Table) -> Counter[tuple[str | None, tuple[str, ...]]]:
    return Counter(meld_key(m.kind, m.cards) for m in t0)


@lru_cache(maxsize=256)
def draft_verdict(
    t0: Table, hand: tuple[CardId, ...], draft: Table, opened: bool, opening_min: int
) -> TableCheck:
    """:func:`check_table` for a stored draft, memoised: every seat's view of a
    state shows the same verdict, and the timeout or a commit asks again."""
    return check_table(t0, hand, draft, opened=opened, opening_min=opening_min)


@lru_cache(maxsize=64)
def _joker_numbers(t0: Table) -> Counter[int]:
    """The numbers the jokers of a turn's starting table stand for: every check of that turn's drafts asks."""
    return Counter(n for m in t0 for n in m.check().jokers)


def _jokers_keep_numbers(t0: Table, table: Sequence[Meld], checks: Sequence[MeldCheck]) -> bool:
    """V4: the numbers the table's jokers stood for are still stood for (a multiset).

    Jokers in an invalid set stand for nothing yet; they are counted as able
    to stand for anything, so this only reports a change no fix of those sets
    could undo.
    """
    before = _joker_numbers(t0)
    if not before:
        return True
    after = Counter(n for c in checks for n in c.jokers)
    undecided = sum(sum(map(is_joker, m.cards)) for m, c in zip(table, checks, strict=True) if not c.ok)
    return (before - after).total() <= undecided


def _opening_problems(
    t0: Table, on_table: frozenset[str], table: Sequence[Meld], checks: Sequence[MeldCheck], opening_min: int
) -> list[Problem]:
    """V5: every set of t0 unchanged, the other sets only hand cards, worth ``opening_min``."""
    left = dict(_set_keys(t0))
    mixed: int | None = None
    total = 0
    for i, (meld, check) in enumerate(zip(table, checks, strict=True)):
        if check.ok and left.get(key := meld_key(check.kind, meld.cards), 0) > 0:
            left[key] -= 1
        elif not on_table.isdisjoint(meld.cards):
            mixed = i if mixed is None else mixed
        else:
            total += check.value
    problems: list[Problem] = []
    if mixed is not None or any(left.values()):
        problems.append(Problem(OPENING_TABLE_CHANGED, mixed))
    if total < opening_min:
        problems.append(Problem(OPENING_BELOW_MIN, points=total))
    return problems


def salvage(
    t0: Table, hand: Collection[str], draft: Table, *, opened: bool, opening_min: int
) -> tuple[TableCheck, tuple[CardId, ...]] | None:
    """Timeout step 2 (rules 3.6): keep the draft's valid sets, return the hand
    cards of the others, if that makes a valid commit; else None.

    >>> t0 = (Meld(("B07a", "B08a", "B09a")),)
    >>> draft = (*t0, Meld(("B03a", "B04a", "B05a")), Meld(("K09a", "K10a")))
    >>> kept, back = salvage(t0, ("B03a", "B04a", "B05a", "K09a", "K10a"), draft, opened=True, opening_min=40)
    >>> len(kept.table), back
    (2, ('K09a', 'K10a'))
    """
    keep: list[Meld] = []
    back: list[CardId] = []
    for meld in draft:
        if meld.check().ok:
            keep.append(meld)
        else:
            back.extend(meld.cards)
    if not back or not set(back).isdisjoint(cards_of(t0)):
        return None
    check = check_table(t0, hand, keep, opened=opened, opening_min=opening_min)
    return (check, tuple(back)) if check.ok else None


@dataclass(frozen=True, slots=True)
class Changes:
    """How a committed table differs from the turn's starting one (the turn summary)."""

    rebuilt: int
    new_sets: int
    jokers_exchanged: int


def changes(t0: Table, table: Table) -> Changes:
    """Sets of ``t0`` not kept as they were, sets that are new, and table jokers
    exchanged: for each old set, its jokers beyond those now lying with its
    numbered cards (jokers are interchangeable, so swapping two is no exchange).

    >>> t0 = (Meld(("R04a", "J1", "R06a"), None),)
    >>> changes(t0, (Meld(("R04a", "R05a", "R06a")), Meld(("B05a", "Y05a", "J1"))))
    Changes(rebuilt=1, new_sets=2, jokers_exchanged=1)
    >>> changes(t0, (Meld(("R04a", "J2", "R06a")), Meld(("B05a", "Y05a", "J1"))))
    Changes(rebuilt=0, new_sets=1, jokers_exchanged=0)
    """
    left = Counter(meld_key(m.kind, m.cards) for m in t0)
    new_sets = 0
    for meld in table:
        key = meld_key(meld.kind, meld.cards)
        if left[key] > 0:
            left[key] -= 1
        else:
            new_sets += 1
    home = {c: i for i, m in enumerate(table) for c in m.cards}
    exchanged = 0
    for meld in t0:
        jokers = sum(map(is_joker, meld.cards))
        if jokers:
            now_with = {home[c] for c in meld.cards if not is_joker(c)}
            exchanged += max(0, jokers - sum(sum(map(is_joker, table[i].cards)) for i in now_with))
    return Changes(left.total(), new_sets, exchanged)
