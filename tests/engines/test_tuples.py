"""The copy-with-changes helpers every engine's frozen state goes through."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

import pytest

from app.engines.base import SeatSetup
from app.engines.rummy.engine import RummyEngine
from app.engines.rummy.options import RummyOptions
from app.engines.tuples import evolve


@dataclass(frozen=True, slots=True)
class Hand:
    cards: tuple[str, ...]
    seat: int
    away: bool = False


@dataclass(frozen=True, slots=True)
class Marker:
    at: int


@dataclass(frozen=True, slots=True)
class Nothing:
    pass


def test_evolve_changes_the_named_fields_and_copies_every_other_one() -> None:
    hand = Hand(("H2", "S9"), seat=1)
    moved = evolve(hand, seat=3, away=True)
    assert moved == Hand(("H2", "S9"), seat=3, away=True)
    assert moved.cards is hand.cards


def test_evolve_leaves_the_original_as_it_was() -> None:
    hand = Hand(("H2",), seat=1)
    evolve(hand, cards=(), seat=2)
    assert hand == Hand(("H2",), seat=1)


def test_evolve_with_no_changes_is_an_equal_copy() -> None:
    hand = Hand(("H2",), seat=1)
    copy = evolve(hand)
    assert copy == hand and copy is not hand


def test_evolve_of_a_one_field_and_a_fieldless_class() -> None:
    assert evolve(Marker(5), at=7) == Marker(7)
    assert evolve(Marker(5)) == Marker(5)
    assert evolve(Nothing()) == Nothing()


def test_evolve_refuses_a_field_the_class_does_not_have() -> None:
    with pytest.raises(TypeError, match="Hand has no field colour"):
        evolve(Hand((), seat=0), colour="red")


def test_evolve_builds_what_dataclasses_replace_builds_for_a_real_state() -> None:
    engine = RummyEngine()
    state = engine.start([SeatSetup() for _ in range(4)], RummyOptions(), "evolve-seed", 0)
    changes: dict[str, Any] = {"seat": 2, "turn_id": state.turn_id + 1, "draft": ()}
    ours, theirs = evolve(state, **changes), replace(state, **changes)
    assert ours == theirs
    assert all(getattr(ours, f.name) is getattr(theirs, f.name) for f in fields(state))
