"""Set validation (rules 3.1): groups, runs, jokers, 1 low only.

A set on the table is a :class:`Meld`: its cards in the order they lie and an
optional declared kind. :func:`check_meld` judges one set on its own and says
what its jokers stand for.

>>> check_meld(["R07a", "B07a", "Y07b"])
MeldCheck(kind=<Kind.GROUP: 'group'>, errors=(), value=21, jokers=())
>>> check_meld(["J1", "B07a", "J2"], Kind.RUN).jokers
(6, 8)
>>> check_meld(["R12a", "R13a", "R01a"]).errors
('RUN_NOT_CONSECUTIVE',)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from app.engines.base import JSON
from app.engines.cards import CardId, colour_of, number_of
from app.engines.rummy.deck import is_joker
from app.engines.rummy.problems import (
    GROUP_DUPLICATE_COLOUR,
    GROUP_NUMBER_MISMATCH,
    GROUP_TOO_LONG,
    KIND_REQUIRED,
    NO_NATURAL_CARD,
    RUN_COLOUR_MISMATCH,
    RUN_NOT_CONSECUTIVE,
    RUN_OUT_OF_RANGE,
    SET_TOO_SHORT,
)

MIN_SET = 3
MAX_GROUP = 4
TOP = 13


class Kind(StrEnum):
    GROUP = "group"
    RUN = "run"


KIND_JSON: dict[Kind | None, str | None] = {None: None, Kind.GROUP: "group", Kind.RUN: "run"}
"""A kind as plain JSON (the enum's own ``.value`` is a slow descriptor on a hot path)."""


class Meld(NamedTuple):
    """A set as it lies: ``kind`` None means "let the server tell" (rules 3.1).

    A named tuple rather than a frozen dataclass: tables are memo keys all along a draft step
    (the verdict, the JSON, the starting table's cards), and a tuple hashes in C where a
    dataclass runs a Python ``__hash__`` for each of its sets, every time.
    """

    cards: tuple[CardId, ...]
    kind: Kind | None = None

    def to_json(self) -> JSON:
        return {"kind": KIND_JSON[self.kind], "cards": list(self.cards)}

    def check(self) -> MeldCheck:
        """:func:`check_meld` of this set, memoised: a draft step changes one set of the table, and
        every check of the table judges them all."""
        return _meld_check(self)


Table = tuple[Meld, ...]


class MeldCheck(NamedTuple):
    """The verdict on one set (a named tuple, as :class:`Meld` is: a memo key on every step).

    ``kind`` is the kind judged (declared, or inferred from two or more
    numbered cards; None when it cannot be told). ``value`` (jokers at the
    numbers they stand for) and ``jokers`` (those numbers, in card order) are
    only filled in for a valid set.
    """

    kind: Kind | None
    errors: tuple[str, ...]
    value: int = 0
    jokers: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


def check_meld(cards: Sequence[str], kind: Kind | None = None) -> MeldCheck:
    """Judge one set against S1-S2, G1-G3 or R1-R3, reporting every failed rule.

    Without a declared kind, a set whose numbered cards all show one number
    is judged as a group, any other as a run: at most one of the two can be
    valid once there are two numbered cards. With a single numbered card
    both may be valid with different joker numbers, so the kind is required.

    >>> check_meld(["J1", "B07a", "J2"]).errors
    ('KIND_REQUIRED',)
    >>> four = ["J1", "B07a", "J2", "J3"]
    >>> check_meld(four, Kind.GROUP).value, check_meld(four, Kind.RUN).value
    (28, 30)
    >>> check_meld(["J1", "J2"]).errors
    ('SET_TOO_SHORT', 'NO_NATURAL_CARD')
    """
    return _judge(tuple(cards), kind)


@lru_cache(maxsize=1 << 13)
def _judge(cards: tuple[str, ...], kind: Kind | None) -> MeldCheck:
    # A pure function of immutable input: the same sets are judged again and
    # again (every view shows the draft's verdict), so answers are memoised.
    errors: list[str] = []
    if len(cards) < MIN_SET:
        errors.append(SET_TOO_SHORT)
    naturals = [(i, c) for i, c in enumerate(cards) if not is_joker(c)]
    if not naturals:
        errors.append(NO_NATURAL_CARD)
        return MeldCheck(kind, tuple(errors))
    if kind is None:
        if len(naturals) == 1:
            errors.append(KIND_REQUIRED)
            return MeldCheck(None, tuple(errors))
        first = number_of(naturals[0][1])
        kind = Kind.GROUP if all(number_of(c) == first for _, c in naturals) else Kind.RUN
    if kind is Kind.GROUP:
        value, jokers = _group(cards, naturals, errors)
    else:
        value, jokers = _run(cards, naturals, errors)
    if errors:
        return MeldCheck(kind, tuple(errors))
    return MeldCheck(kind, (), value, jokers)


Naturals = list[tuple[int, str]]
"""The numbered cards of a set with their positions."""


def _group(cards: Sequence[str], naturals: Naturals, errors: list[str]) -> tuple[int, tuple[int, ...]]:
    n = number_of(naturals[0][1])
    if len(cards) > MAX_GROUP:
        errors.append(GROUP_TOO_LONG)
    if any(number_of(c) != n for _, c in naturals):
        errors.append(GROUP_NUMBER_MISMATCH)
    colours = [colour_of(c) for _, c in naturals]
    if len(set(colours)) < len(colours):
        errors.append(GROUP_DUPLICATE_COLOUR)
    return n * len(cards), (n,) * (len(cards) - len(naturals))


def _run(cards: Sequence[str], naturals: Naturals, errors: list[str]) -> tuple[int, tuple[int, ...]]:
    if len({colour_of(c) for _, c in naturals}) > 1:
        errors.append(RUN_COLOUR_MISMATCH)
    # Card i of a run is worth start + i: every numbered card must agree on the start.
    starts = {number_of(c) - i for i, c in naturals}
    if len(starts) > 1:
        errors.append(RUN_NOT_CONSECUTIVE)
        return 0, ()
    start = starts.pop()
    size = len(cards)
    if start < 1 or start + size - 1 > TOP:
        errors.append(RUN_OUT_OF_RANGE)
    return size * (2 * start + size - 1) // 2, tuple(start + i for i, c in enumerate(cards) if is_joker(c))


@lru_cache(maxsize=1 << 12)
def meld_key(kind: Kind | None, cards: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """What makes two sets "the same set": kind and cards, jokers interchangeable,
    a group's order irrelevant, a run's order kept (rules 3.5 V5).

    >>> meld_key(Kind.GROUP, ("B09a", "J2", "Y09a")) == meld_key(Kind.GROUP, ("J4", "Y09a", "B09a"))
    True
    """
    canon = tuple("J" if is_joker(c) else c for c in cards)
    return (kind, tuple(sorted(canon)) if kind is Kind.GROUP else canon)


@lru_cache(maxsize=1 << 12)
def _meld_check(meld: Meld) -> MeldCheck:
    return check_meld(meld.cards, meld.kind)
