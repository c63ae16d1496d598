"""What the views offer for calls and late declarations (rules 4.5, 5.4, 7, 8.30, 8.36).

Noticing a mistake is the skill (rules 8.36): the calls are offered wherever calling is possible
at all, mistake or none, and a late UFF-DA! wherever one could be owed, said or not. Nothing in
a view may tell an open mistake from none, but the public facts themselves (and, with ``assist``,
the ``offences`` list). The last test checks that over random games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.bots.playout import playout
from app.bots.uffda import random_player
from app.engines.base import JSON
from app.engines.uffda import ENGINE, Kind, Phase, UffdaOptions, UffdaState
from tests.engines.test_uffda_helpers import (
    T0,
    A,
    B,
    C,
    D,
    act,
    declare,
    draw,
    end_at,
    illegal,
    nxt,
    play,
    table,
)
from tests.engines.test_uffda_races import COIN_HANDS, UFFDA_HANDS

SEATS = (A, B, C, D)


def calls(view: JSON) -> list[JSON]:
    return [a for a in view["legal"] if a["type"] == "call"]


def every_call(seat: int, players: int) -> list[JSON]:
    """What rules 5.4 lets a seat with two cards call: each kind on each other seat."""
    return [
        {"type": "call", "kind": kind.value, "target": target}
        for kind in Kind
        for target in range(players)
        if target != seat
    ]


def released_to_one(uffda: bool, **options: Any) -> UffdaState:
    """A plays down to one card at T0 + 100, saying UFF-DA! with it or not."""
    state = table(UFFDA_HANDS, **options)
    return play(state, A, "0-5", end_at(state, B, 0), T0 + 100, uffda=uffda)


def next_without_coin(place: bool) -> UffdaState:
    """A (coin off) draws, plays nothing and says NEXT, having placed the coin it owed or not."""
    state = table(COIN_HANDS, board={A: ["0-1"]}, coins={A: False}, tops=(["4-6", "3-8"], []))
    state = draw(state, A, T0 + 100)
    if place:
        state = act(state, A, {"type": "place_coin"}, T0 + 150)
    return nxt(state, A, T0 + 200)


def without_flags(view: JSON) -> JSON:
    """A view with the UFF-DA! flags of its events blanked: the one public trace of a miss."""
    blank = [{**e, "uffda": None} if "uffda" in e else e for e in view["last"]]
    recent = [{**e, "uffda": None} if "uffda" in e else e for e in view["recent"]]
    return {**view, "last": blank, "recent": recent}


# -- rules 8.36: calls are offered whether or not a mistake is open ------------------------------------


def test_8_36_calls_are_offered_with_no_mistake_open():
    state = table(UFFDA_HANDS)
    assert state.offences == ()
    for seat in (C, D):
        view = ENGINE.view(state, seat)
        assert calls(view) == every_call(seat, 4) and view["offences"] == []


def test_8_30_a_call_with_no_mistake_is_refused_and_changes_nothing():
    state = table(UFFDA_HANDS)
    for kind in Kind:
        action = {"type": "call", "kind": kind.value, "target": A}
        assert action in ENGINE.view(state, C)["legal"]
        assert illegal(state, C, action) == "NO_OFFENCE"  # illegal() checks the state is unchanged


def test_5_4_a_seat_with_one_card_is_offered_no_call():
    state = released_to_one(uffda=True)
    assert calls(ENGINE.view(state, A)) == [] and calls(ENGINE.view(state, C)) == every_call(C, 4)


def test_7_penalties_off_offers_neither_calls_nor_declarations():
    state = released_to_one(uffda=False, penalties=False)
    assert not [
        a for s in SEATS for a in ENGINE.view(state, s)["legal"] if a["type"] in ("call", "declare_uffda")
    ]


def test_8_36_a_missed_uffda_shows_only_as_the_public_flag_of_the_play():
    missed, said = released_to_one(uffda=False), released_to_one(uffda=True)
    assert missed.offences and not said.offences
    for seat in (None, *SEATS):
        one, other = ENGINE.view(missed, seat), ENGINE.view(said, seat)
        assert one != other and without_flags(one) == without_flags(other)


def test_8_36_a_forgotten_coin_shows_only_as_the_public_coin():
    forgot, placed = next_without_coin(place=False), next_without_coin(place=True)
    assert forgot.offences and not placed.offences
    for seat in (B, C, D):
        one, other = ENGINE.view(forgot, seat), ENGINE.view(placed, seat)
        assert one["legal"] == other["legal"] and one["offences"] == other["offences"] == []
        assert (
            one["previous"]
            == other["previous"]
            == {"seat": A, "no": 1, "drew": True, "played": False, "drew_under_double": False}
        )
        assert one["branches"][A]["coin"] is False and other["branches"][A]["coin"] is True


# -- rules 7: assist flags the open mistakes --------------------------------------------------------


def test_7_assist_flags_the_open_mistakes_and_offers_the_same_actions():
    plain, helped = released_to_one(uffda=False), released_to_one(uffda=False, assist=True)
    flag = [{"kind": "UFFDA", "offender": A, "turn": 1, "closing": False, "calls": []}]
    for seat in (None, *SEATS):
        assert ENGINE.view(plain, seat)["offences"] == []
        assert ENGINE.view(helped, seat)["offences"] == flag
        assert ENGINE.view(helped, seat)["legal"] == ENGINE.view(plain, seat)["legal"]


# -- rules 5.2: the late declaration is offered after any release to one card in the window -----------


def test_5_2_a_late_declaration_is_offered_after_a_release_to_one_card_said_or_not():
    for uffda in (False, True):
        state = released_to_one(uffda=uffda)
        assert {"type": "declare_uffda"} in ENGINE.view(state, A)["legal"]
        assert all({"type": "declare_uffda"} not in ENGINE.view(state, s)["legal"] for s in (B, C, D))
    assert illegal(released_to_one(uffda=True), A, {"type": "declare_uffda"}) == "NO_OFFENCE"
    assert declare(released_to_one(uffda=False), A, T0 + 150).offences[0].declaration is not None


def test_5_3_the_late_declaration_is_no_longer_offered_once_the_window_closed():
    state = nxt(released_to_one(uffda=True), A, T0 + 200)
    assert {"type": "declare_uffda"} in ENGINE.view(state, A)["legal"]  # turn 2: still open
    state = nxt(draw(state, B, T0 + 300), B, T0 + 400)
    assert {"type": "declare_uffda"} not in ENGINE.view(state, A)["legal"]


def test_5_2_no_late_declaration_is_offered_before_any_release():
    state = table(UFFDA_HANDS)
    assert all({"type": "declare_uffda"} not in ENGINE.view(state, s)["legal"] for s in SEATS)


# -- the property: over random games, the offers follow the public conditions only ------------------


def released_lately(state: UffdaState, view: JSON, seat: int) -> bool:
    """From the public events only: the seat released a card leaving it one, this turn or the last."""
    counts = [s["cards"] for s in view["seats"]]
    for e in reversed(view["recent"]):
        if e["kind"] in ("play", "draw") and e["seat"] == seat and counts[seat] == 1:
            return True
        if e["kind"] == "caught" and e["seat"] == seat and counts[seat] == 1:
            return True
        if e["kind"] == "play":
            counts[e["seat"]] += 1
        elif e["kind"] == "draw":
            counts[e["seat"]] -= 1
        elif e["kind"] == "caught":
            counts[e["seat"]] += 1
            counts[e["target"]] -= 1
    return False


def states(players: int, games: int) -> Iterator[UffdaState]:
    """Every state of some random games, played by players who shout only what they notice."""
    for game_no in range(games):
        seen: list[UffdaState] = []
        options = UffdaOptions(rounds=1, turn_seconds=0)
        chooser = [random_player] * players
        playout(
            ENGINE,
            players,
            options,
            f"calls-{players}-{game_no}",
            random.Random(game_no),
            chooser,
            on_step=seen.append,
        )
        yield from seen


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_8_36_the_offers_depend_on_seat_hand_and_public_events_only(players: int):
    shown = 0
    for state in states(players, 4):
        open_ = state.phase is Phase.PLAY and state.options.penalties
        for seat in range(players):
            view = ENGINE.view(state, seat)
            wanted = every_call(seat, players) if open_ and len(state.hands[seat]) >= 2 else []
            assert calls(view) == wanted
            late = {"type": "declare_uffda"} in view["legal"]
            assert late == (open_ and released_lately(state, view, seat))
            assert view["offences"] == []
            shown += bool(state.offences)
    assert shown  # the games had open mistakes the views kept quiet about
