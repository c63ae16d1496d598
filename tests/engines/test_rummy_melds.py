"""Set validation (rules 3.1; scenarios 2-4 of section 6) and exhaustive checks
of small sets against a definition-based reference.

The reference knows nothing of how the engine decides: it tries every number
a group could show and every colour and start a run could have, and asks
whether the cards fit. Over every small set of an edge-heavy alphabet (1s,
2s, 12s, 13s, copies, jokers) and every one-numbered-card set with jokers,
the engine must agree on validity, value and joker numbers, and give at
least one reason whenever it refuses.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from app.engines.cards import CardId, colour_of, number_of
from app.engines.rummy import Kind, check_meld
from app.engines.rummy.deck import COLOURS, is_joker
from tests.engines.test_rummy import ids


def codes(text: str, kind: str | None = None) -> tuple[str, ...]:
    return check_meld(ids(text), None if kind is None else Kind(kind)).errors


# -- 2. groups -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("R7 B7 Y7", ()),
        ("R7 B7 Y7 K7", ()),
        ("R7 B7 Y7 K7 J1", ("GROUP_TOO_LONG",)),
        ("R7 R7b B7", ("GROUP_DUPLICATE_COLOUR",)),
        ("R7 B8 Y7", ("GROUP_NUMBER_MISMATCH",)),
        ("R7 B7", ("SET_TOO_SHORT",)),
        ("J1 J2 J3", ("NO_NATURAL_CARD",)),
    ],
)
def test_group_validity(cards, expected):
    assert codes(cards, "group") == expected
    numbers = [number_of(c) for c in ids(cards) if not is_joker(c)]
    if len(numbers) >= 2 and len(set(numbers)) == 1:
        assert codes(cards) == expected  # inferred as a group


def test_group_jokers_take_the_missing_colours():
    check = check_meld(ids("R7 J1 Y7 J2"), Kind.GROUP)
    assert check.ok and check.value == 28 and check.jokers == (7, 7)
    assert codes("R7 B7 Y7 K7 J1 J2", "group") == ("GROUP_TOO_LONG",)


# -- 3. runs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("R3 R4 R5", ()),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", ()),
        ("R12 R13 R1", ("RUN_NOT_CONSECUTIVE",)),
        ("R13 R1 R2", ("RUN_NOT_CONSECUTIVE",)),
        ("R3 B4 R5", ("RUN_COLOUR_MISMATCH",)),
        ("R3 R5 R6", ("RUN_NOT_CONSECUTIVE",)),
        ("R5 R4 R3", ("RUN_NOT_CONSECUTIVE",)),
        ("J1 R1 R2", ("RUN_OUT_OF_RANGE",)),
        ("R12 R13 J1", ("RUN_OUT_OF_RANGE",)),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J1", ("RUN_OUT_OF_RANGE",)),
        ("R3 R4", ("SET_TOO_SHORT",)),
    ],
)
def test_run_validity(cards, expected):
    assert codes(cards, "run") == expected
    assert codes(cards) == expected  # inferred as a run


def test_run_values_and_joker_numbers():
    check = check_meld(ids("R1 J1 R3 J2 R5"))
    assert check.kind is Kind.RUN and check.value == 15 and check.jokers == (2, 4)
    assert check_meld(ids("J1 J2 R13"), Kind.RUN).jokers == (11, 12)


# -- 4. the kind -------------------------------------------------------------------------


def test_kind_is_required_with_one_numbered_card():
    assert codes("J1 B7 J2") == ("KIND_REQUIRED",)
    as_run = check_meld(ids("J1 B7 J2"), Kind.RUN)
    assert as_run.ok and as_run.jokers == (6, 8) and as_run.value == 21
    assert check_meld(ids("J1 B7 J2"), Kind.GROUP).jokers == (7, 7)
    assert check_meld(ids("J1 B7 J2 J3"), Kind.GROUP).value == 28
    assert check_meld(ids("J1 B7 J2 J3"), Kind.RUN).value == 30


def test_a_set_without_kind_reports_the_errors_of_the_kind_its_numbers_suggest():
    assert codes("R7 R7b B7 B7b") == ("GROUP_DUPLICATE_COLOUR",)  # one number: group errors
    assert codes("R7 B8 Y7") == ("RUN_COLOUR_MISMATCH", "RUN_NOT_CONSECUTIVE")  # mixed: run errors
    assert codes("R7 B7 Y7", "run") == ("RUN_COLOUR_MISMATCH", "RUN_NOT_CONSECUTIVE")  # declared wins


# -- exhaustive small cases --------------------------------------------------------------


def reference(cards: tuple[str, ...], kind: Kind) -> tuple[int, tuple[int, ...]] | None:
    """(value, joker numbers) if the cards can be read as a valid set of that kind, else None."""
    naturals = [(i, c) for i, c in enumerate(cards) if not is_joker(c)]
    if len(cards) < 3 or not naturals:
        return None
    found = []
    if kind is Kind.GROUP:
        for n in range(1, 14):
            colours = [colour_of(c) for _, c in naturals]
            if (
                len(cards) <= 4
                and all(number_of(c) == n for _, c in naturals)
                and len(set(colours)) == len(colours)
            ):
                found.append((n * len(cards), tuple(n for c in cards if is_joker(c))))
    else:
        for colour in COLOURS:
            for start in range(1, 14):
                fits = all(colour_of(c) == colour and number_of(c) == start + i for i, c in naturals)
                if fits and start + len(cards) - 1 <= 13:
                    value = sum(range(start, start + len(cards)))
                    found.append((value, tuple(start + i for i, c in enumerate(cards) if is_joker(c))))
    assert len(set(found)) <= 1, (cards, found)  # a valid reading is unique
    return found[0] if found else None


def agree(cards: tuple[str, ...], kind: Kind | None) -> None:
    check = check_meld(cards, kind)
    if kind is None:
        naturals = sum(not is_joker(c) for c in cards)
        readings = [r for k in Kind if (r := reference(cards, k)) is not None]
        expected = readings[0] if naturals >= 2 and readings else None
        if naturals == 1:
            assert "KIND_REQUIRED" in check.errors, cards
        assert len(readings) <= 1 or naturals < 2, cards
    else:
        expected = reference(cards, kind)
    if expected is None:
        assert not check.ok and check.value == 0 and check.jokers == (), (cards, kind, check)
    else:
        assert check.ok and (check.value, check.jokers) == expected, (cards, kind, check)


ALPHABET = ids("R1 R2 R12 R13 R1b B1 B13 Y13 K13 J1 J2 J3")


def test_every_small_set_agrees_with_the_reference():
    seen = 0
    for size in range(1, 5):
        for cards in permutations(ALPHABET, size):
            for kind in (None, Kind.GROUP, Kind.RUN):
                agree(cards, kind)
                seen += 1
    assert seen == 3 * sum(len(list(permutations(ALPHABET, k))) for k in range(1, 5))


def test_every_one_numbered_card_set_with_jokers():
    jokers = ids("J1 J2 J3 J4")
    for colour in COLOURS:
        for number in range(1, 14):
            natural = CardId(f"{colour}{number:02d}a")
            for size in range(1, 6):
                for position in range(size):
                    cards = [*jokers[: size - 1]]
                    cards.insert(position, natural)
                    for kind in (None, Kind.GROUP, Kind.RUN):
                        agree(tuple(cards), kind)


def test_every_all_joker_set_is_refused():
    for size in range(1, 5):
        for kind in (None, Kind.GROUP, Kind.RUN):
            errors = check_meld(ids("J1 J2 J3 J4")[:size], kind).errors
            assert "NO_NATURAL_CARD" in errors and ("SET_TOO_SHORT" in errors) == (size < 3)
