"""UFF-DA!: the turn timer (rules 7), time and ticks, and the engine contract (actions, views,
options, results)."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from pydantic import ValidationError

from app.engines.base import IllegalAction, SeatSetup
from app.engines.cards import CardId
from app.engines.uffda import ENGINE, Kind, Phase, Step, UffdaEngine, UffdaOptions, UffdaState
from tests.engines.helpers import due
from tests.engines.test_uffda_helpers import (
    T0,
    A,
    B,
    C,
    D,
    act,
    call,
    end_at,
    illegal,
    kinds,
    new_game,
    offences,
    play,
    settle,
    side_of,
    table,
)

HANDS = [["7-8", "8-9"], ["2-3", "3-3"], ["2-5", "6-6", "5-6"], ["2-2", "4-4", "9-9"]]


def timed(state: UffdaState, at: int = T0 + 1000) -> UffdaState:
    """Start the active turn's timer (tables are built untimed)."""
    return replace(state, turn=replace(state.turn, deadline=at))


# -- the turn timer ------------------------------------------------------------------------------


def test_timeout_draws_places_the_owed_coin_and_says_next():
    state = table(HANDS, board={A: ["0-1"]}, coins={A: False}, tops=(["4-6"], []), turn_seconds=30)
    state = timed(state)
    assert ENGINE.next_deadline(state) == T0 + 1000
    late = ENGINE.tick(state, T0 + 7000)  # a late tick lands where a punctual one would
    assert late == ENGINE.tick(state, T0 + 1000)
    assert kinds(late) == ["timeout", "draw", "coin", "next"] and {e.at for e in late.last} == {T0 + 1000}
    assert late.branches[A].coin and late.offences == () and "4-6" in late.hands[A]
    assert late.turn.seat == B and late.turn.started_at == T0 + 1000 and late.turn.deadline == T0 + 31_000


def test_timeout_makes_the_play_the_empty_piles_force_declared():
    hands = [["1-5", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "0-3"]]
    state = timed(table(hands, board={A: ["0-1"]}, piles=((), ())))
    state = ENGINE.tick(state, T0 + 1000)
    assert kinds(state) == ["timeout", "play", "next"] and dict(state.last[1].info)["uffda"] is True
    assert state.offences == () and state.hands[A] == ("8-9",) and state.turn.seat == B


def test_timeout_passes_when_nothing_can_be_done():
    hands = [["7-8", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "0-3"]]
    state = timed(table(hands, board={A: ["0-1"]}, coins={A: False}, piles=((), ())))
    state = ENGINE.tick(state, T0 + 1000)
    assert kinds(state) == ["timeout", "coin", "next"] and state.branches[A].coin


def test_timeout_after_a_last_card_double_draws_with_the_declaration():
    hands = [["6-6"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "3-3"]]
    state = table(hands, board={A: ["0-6"]}, tops=(["3-8"], []))
    state = timed(play(state, A, "6-6", end_at(state, A, 6), T0 + 100))
    state = ENGINE.tick(state, T0 + 1000)
    assert kinds(state) == ["timeout", "draw", "next"] and dict(state.last[1].info)["uffda"] is True
    assert state.offences == () and state.double is not None and state.hands[A] == ("3-8",)


def test_timeout_waits_for_a_late_declaration_before_going_out():
    hands = [["1-6", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "0-3"]]
    state = table(hands, board={A: ["0-1"]}, piles=((), ()))
    state = play(state, A, "1-6", end_at(state, A, 1), T0 + 100)  # down to 8/9, no UFF-DA!
    state = replace(state, hands=((CardId("6-8"),), *state.hands[1:]))  # A now holds a card that goes out
    state = timed(state, T0 + 500)
    state = replace(state, turn=replace(state.turn, step=Step.OPEN, played_any=False, played_own=False))
    state = ENGINE.tick(state, T0 + 500)
    assert kinds(state) == ["timeout", "uffda"] and state.turn.deadline == T0 + 660
    assert state.phase is Phase.PLAY and state.hands[A] == ("6-8",)
    state = ENGINE.tick(state, T0 + 660)
    assert kinds(state) == ["saved", "timeout", "play", "round_over"] and state.history[-1].winner == A


def test_timeouts_never_create_mistakes():
    hands = [["7-8", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "0-3"]]
    state = table(hands, board={A: ["0-1"]}, coins={A: False}, tops=(["3-4"], []))
    state = act(state, A, {"type": "draw", "pile": 0}, T0 + 100)
    state = ENGINE.tick(timed(state), T0 + 1000)
    assert state.offences == () and state.branches[A].coin


def test_a_full_game_plays_itself_on_timeouts():
    state = new_game(3, seed="idle", rounds=2, turn_seconds=5, round_end_pause_ms=1000)
    ticks = 0
    while state.phase is not Phase.GAME_OVER:
        state = ENGINE.tick(state, due(ENGINE, state))
        ticks += 1
        assert ticks < 2000
    assert len(state.history) == 2 and ENGINE.result(state).finished
    assert all(e.kind != "caught" for e in state.last)


# -- time ------------------------------------------------------------------------------------------


def test_tick_returns_the_same_state_when_nothing_is_due():
    state = new_game(4, turn_seconds=60, now=T0)
    assert ENGINE.next_deadline(state) == T0 + 60_000
    assert ENGINE.tick(state, T0 + 59_999) is state
    assert new_game(4).turn.deadline is None and ENGINE.next_deadline(new_game(4)) is None


def test_a_move_after_a_missed_deadline_sees_that_deadline_fired():
    state = timed(table(HANDS, tops=(["4-6"], [])))
    assert act(state, A, {"type": "draw", "pile": 0}, T0 + 1000).turn.seat == A  # same ms: the move first
    assert illegal(state, A, {"type": "draw", "pile": 0}, T0 + 1001) == "NOT_YOUR_TURN"


def test_the_earliest_deadline_fires_first_and_races_before_the_timer():
    state = table([["0-5", "8-9"], ["1-2", "2-3"], ["3-4", "4-5", "5-6"], ["6-7", "7-8", "1-1"]])
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    state = call(state, C, Kind.UFFDA, A, T0 + 200)
    state = timed(state, T0 + 360)  # the race also closes at T0 + 360
    state = ENGINE.tick(state, T0 + 360)
    assert kinds(state)[:2] == ["caught", "timeout"]


def test_events_are_numbered_and_each_step_starts_a_new_log():
    state = table(HANDS, tops=(["4-6"], []))
    drawn = act(state, A, {"type": "draw", "pile": 0}, T0 + 100)
    done = act(drawn, A, {"type": "next"}, T0 + 200)
    assert [e.kind for e in done.last] == ["next"] and done.last[0].seq == drawn.last[0].seq + 1
    view = ENGINE.view(done, C)
    assert view["last"] == [
        {"seq": done.last[0].seq, "at": T0 + 200, "kind": "next", "seat": A, "passed": False}
    ]


# -- the engine contract ------------------------------------------------------------------------------


def test_apply_and_tick_return_new_states_and_leave_the_old_one_alone():
    state = table(HANDS, board={A: ["0-1"]}, coins={A: False}, tops=(["4-6"], []), turn_seconds=10)
    state = timed(state)
    before = copy.deepcopy(state)
    after = act(state, A, {"type": "draw", "pile": 0}, T0 + 100)
    assert after is not state and state == before and after != state
    ticked = ENGINE.tick(after, T0 + 1000)
    assert ticked is not after and after.turn.step is Step.AFTER_DRAW and state == before


def test_bad_actions_are_rejected_with_codes():
    state = table(HANDS)
    cases = [
        ({"type": "fold"}, "UNKNOWN_ACTION"),
        ({}, "BAD_ACTION"),
        ("next", "BAD_ACTION"),
        ({"type": 7}, "BAD_ACTION"),
        ({"type": "next", "now": True}, "BAD_ACTION"),
        ({"type": "play"}, "BAD_ACTION"),
        ({"type": "play", "card": "8-7", "branch": 0, "on": -1}, "BAD_ACTION"),
        ({"type": "play", "card": "7-8", "branch": "0", "on": -1}, "BAD_ACTION"),
        ({"type": "play", "card": "7-8", "branch": 0, "on": -2}, "BAD_ACTION"),
        ({"type": "play", "card": "7-8", "branch": 0, "on": -1, "side": 2}, "BAD_ACTION"),
        ({"type": "play", "card": "7-8", "branch": 0, "on": -1, "uffda": 1}, "BAD_ACTION"),
        ({"type": "draw"}, "BAD_ACTION"),
        ({"type": "draw", "pile": 2}, "BAD_ACTION"),
        ({"type": "draw", "pile": False}, "BAD_ACTION"),
        ({"type": "place_coin", "coin": 1}, "BAD_ACTION"),
        ({"type": "play", "card": "2-3", "branch": 0, "on": -1}, "CARD_NOT_IN_HAND"),
        ({"type": "play", "card": "7-8", "branch": 0, "on": -1}, "NO_MATCH"),
        ({"type": "play", "card": "7-8", "branch": 9, "on": -1}, "NO_END"),
        ({"type": "play", "card": "7-8", "branch": 0, "on": 3}, "NO_END"),
        ({"type": "place_coin"}, "NO_COIN_DUTY"),
        ({"type": "remove_coin"}, "COIN_NOT_REMOVABLE"),
    ]
    for action, code in cases:
        assert illegal(state, A, action) == code, action
    assert illegal(state, B, {"type": "draw", "pile": 0}) == "NOT_YOUR_TURN"
    assert illegal(state, B, {"type": "next"}) == "NOT_YOUR_TURN"
    assert illegal(state, 4, {"type": "next"}) == "NOT_SEATED"
    assert illegal(state, -1, {"type": "next"}) == "NOT_SEATED"


def test_view_shape():
    state = table(HANDS, tops=(["4-6"], []))
    keys = {
        "shapes",
        "game", "phase", "round", "rounds", "center", "dealer", "first_draw", "turn", "deadline", "piles",
        "branches", "community_open", "double", "seats", "hand", "drawn", "totals", "scores", "last",
        "penalties", "offences", "winners", "you", "legal", "recent", "previous",
    }  # fmt: skip
    view = ENGINE.view(state, A)
    assert set(view) == keys and view["game"] == "uffda" and view["phase"] == "PLAY" and view["you"] == A
    assert view["hand"] == ["7-8", "8-9"] and view["turn"] == {
        "seat": A, "no": 1, "step": "OPEN", "drew": False, "played": False
    }  # fmt: skip
    assert view["branches"][4] == {
        "owner": None,
        "coin": True,
        "cards": [],
        "ends": [{"value": 0, "on": -1, "side": 0}],
    }
    assert view["legal"][:2] == [{"type": "draw", "pile": 0}, {"type": "draw", "pile": 1}]
    assert view["legal"][2:] == [  # rules 8.36: offered with no mistake open
        {"type": "call", "kind": kind, "target": t} for kind in ("COIN", "UFFDA") for t in (B, C, D)
    ]
    assert view["recent"] == [] and view["previous"] is None  # a table starts with no past
    assert [set(s) for s in view["seats"]] == [{"cards", "total"}] * 4
    assert all(a["type"] == "call" for a in ENGINE.view(state, B)["legal"])  # not B's turn: shouts only
    assert ENGINE.view(state, None)["legal"] == [] and ENGINE.view(state, None)["hand"] is None
    doubled = table([["5-5", "5-7", "8-8"], *HANDS[1:]], board={A: ["0-5"]})
    doubled = play(doubled, A, "5-5", end_at(doubled, A, 5), T0 + 100)
    shown = {"branch": A, "on": 1, "value": 5, "sides": [None, None], "layer": A}
    assert ENGINE.view(doubled, C)["double"] == shown
    filled = play(doubled, A, "5-7", side_of(doubled, 1), T0 + 200, uffda=True)
    assert ENGINE.view(filled, C)["double"]["sides"] == [None, 7]
    with pytest.raises(ValueError):
        ENGINE.view(state, 4)


def test_options_defaults_bounds_and_descriptions():
    options = UffdaOptions()
    assert (options.rounds, options.penalties, options.assist, options.turn_seconds) == (10, True, False, 60)
    assert (options.race_window_ms, options.max_credit_ms, options.tie_margin_ms) == (210, 200, 10)
    schema = UffdaOptions.model_json_schema()
    assert all(field.get("description") for field in schema["properties"].values())
    assert set(schema["properties"]) == {
        "rounds", "penalties", "assist", "turn_seconds", "round_end_pause_ms", "race_window_ms",
        "max_credit_ms", "tie_margin_ms", "latency_compensation",
    }  # fmt: skip
    for bad in ({"rounds": 0}, {"rounds": 11}, {"turn_seconds": -1}, {"race_window_ms": 100}, {"seed": "x"}):
        with pytest.raises(ValidationError):
            UffdaOptions.model_validate(bad)
    with pytest.raises(ValidationError):
        UffdaOptions().rounds = 3  # type: ignore[misc]


def test_engine_identity_and_player_counts():
    assert isinstance(ENGINE, UffdaEngine) and ENGINE.options_model is UffdaOptions
    assert (ENGINE.name, ENGINE.title, ENGINE.min_players, ENGINE.max_players) == ("uffda", "UFF-DA!", 2, 8)
    for players in (1, 9):
        with pytest.raises(IllegalAction) as info:
            ENGINE.start([SeatSetup()] * players, UffdaOptions(), "s", 0)
        assert info.value.code == "BAD_PLAYER_COUNT"


def test_result_before_and_after_the_end():
    state = new_game(3)
    outcome = ENGINE.result(state)
    assert (outcome.finished, outcome.scores, outcome.winners) == (False, (0, 0, 0), ())
    assert outcome.detail["rounds"] == [] and outcome.detail["ranks"] == [1, 1, 1]
    hands = [["2-3"], ["8-8", "0-1"], ["1-1"]]
    done = table(hands, round_no=1, board={A: ["0-2"]}, rounds=1)
    done = play(done, A, "2-3", end_at(done, A, 2), T0 + 100)
    outcome = ENGINE.result(done)
    assert outcome.finished and outcome.scores == (-5, 17, 2) and outcome.winners == (A,)
    assert outcome.detail["rounds"] == [
        {"round": 1, "center": 0, "dealer": A, "winner": A, "terminated": False, "hand_points": [0, 17, 2],
         "scores": [-5, 17, 2], "totals": [-5, 17, 2]}
    ]  # fmt: skip
    assert outcome.to_json()["winners"] == [A]


def test_seeded_starts_differ_and_repeat():
    one = ENGINE.start([SeatSetup()] * 5, UffdaOptions(), "same", 0)
    assert one == ENGINE.start([SeatSetup()] * 5, UffdaOptions(), "same", 0)
    assert one != ENGINE.start([SeatSetup()] * 5, UffdaOptions(), "other", 0)
    assert len({ENGINE.start([SeatSetup()] * 4, UffdaOptions(), f"s{i}", 0).dealer for i in range(30)}) == 4


def test_a_coin_catch_and_a_play_can_share_a_turn():
    # Calls never disturb the active player's turn (rules 5.6.4): B keeps drawing and playing.
    state = table(HANDS, board={A: ["0-1"]}, coins={A: False}, tops=(["4-6", "0-7"], []))
    state = act(act(state, A, {"type": "draw", "pile": 0}, T0 + 100), A, {"type": "next"}, T0 + 200)
    state = act(state, B, {"type": "draw", "pile": 0}, T0 + 250)
    state = settle(call(state, D, Kind.COIN, A, T0 + 300))
    assert state.turn.seat == B and state.turn.step is Step.AFTER_DRAW and offences(state) == []
    state = play(state, B, "0-7", end_at(state, C, 0), T0 + 500)
    assert state.turn.step is Step.DONE and len(state.hands[D]) == 2
