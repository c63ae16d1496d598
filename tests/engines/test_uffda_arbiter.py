"""UFF-DA! penalty calls judged by the shared race arbiter (app.engines.race), as the room hands
them over: every move made while a mistake is live carries every seat's link and the time the
frame showing the mistake was written to it (``Move.timing``).

Seats A, B, C, D clockwise. The mistake becomes visible at its ``created_at`` and the room writes
that frame to every seat ``WRITE`` ms later; links are ``(rtt, jitter)``: A and B 20 ms, C 60 ms,
D 140 ms. An honest client reports its reaction ``r`` and its call arrives ``rtt + r`` after the
frame was written, so the arbiter puts it at ``created_at + r``. Defaults: 160 ms race window,
150 ms of credit at most, 10 ms tie margin.
"""

from __future__ import annotations

import json
from typing import cast

from app.engines.base import IllegalAction, Link, Move, Timing
from app.engines.race import ABOVE_WINDOW, INHUMAN, NO_REACTION
from app.engines.uffda import ENGINE, Kind, Offence, Phase, UffdaState
from app.engines.uffda.invariants import problems
from app.engines.uffda.penalties import stimulus_key
from tests.engines.helpers import assert_json_ready, due
from tests.engines.test_uffda_helpers import (
    SET_UP,
    T0,
    A,
    B,
    C,
    D,
    draw,
    end_at,
    kinds,
    nxt,
    offences,
    play,
    settle,
    table,
)
from tests.engines.test_uffda_races import COIN_HANDS, UFFDA_HANDS

Links = dict[int, tuple[int, int] | None]
"""Each seat's link as ``(rtt, jitter)``; None: not connected."""

WRITE = 2
LINKS: Links = {A: (20, 2), B: (20, 2), C: (60, 4), D: (140, 5)}


def timing(state: UffdaState, links: Links = LINKS) -> Timing | None:
    """What the room attaches to a move: None unless a mistake is live, else every seat's link."""
    keys = ENGINE.stimuli(state)
    if not keys:
        return None
    sent = {stimulus_key(o): o.created_at + WRITE for o in state.offences}
    return Timing(
        tuple(
            None if (link := links.get(seat)) is None else Link(*link, {k: sent[k] for k in keys})
            for seat in range(state.players)
        )
    )


def timed(state: UffdaState, seat: int, action: dict, arrival: int, links: Links = LINKS) -> UffdaState:
    link = links.get(seat)
    new = ENGINE.apply(
        state, Move(seat, action, arrival, None if link is None else link[0], timing(state, links))
    )
    assert not [p for p in problems(new) if p not in SET_UP], problems(new)
    return new


def offence_on(state: UffdaState, target: int) -> Offence:
    return next(o for o in state.offences if o.offender == target)


def honest(
    state: UffdaState,
    seat: int,
    kind: Kind,
    target: int,
    reaction: int,
    links: Links = LINKS,
    **fields: object,
) -> UffdaState:
    """``seat`` calls ``reaction`` ms after its screen showed the mistake, over its own link."""
    link = links[seat]
    assert link is not None
    arrival = offence_on(state, target).created_at + WRITE + link[0] + reaction
    action = {"type": "call", "kind": kind.value, "target": target, "reaction_ms": reaction, **fields}
    return timed(state, seat, action, arrival, links)


def honest_declaration(state: UffdaState, seat: int, reaction: int, links: Links = LINKS) -> UffdaState:
    link = links[seat]
    assert link is not None
    arrival = offence_on(state, seat).created_at + WRITE + link[0] + reaction
    return timed(state, seat, {"type": "declare_uffda", "reaction_ms": reaction}, arrival, links)


def rejected(state: UffdaState, seat: int, action: dict, arrival: int, links: Links = LINKS) -> str:
    link = links[seat]
    move = Move(seat, action, arrival, None if link is None else link[0], timing(state, links))
    try:
        ENGINE.apply(state, move)
    except IllegalAction as exc:
        return exc.code
    raise AssertionError("the move was accepted")


def caught(state: UffdaState) -> tuple[int, int, list[int]]:
    event = next(e for e in state.last if e.kind == "caught")
    info = dict(event.info)
    assert event.seat is not None
    return event.seat, cast(int, info["target"]), list(cast(tuple[int, ...], info["tied"]))


def forgotten_coin(**options) -> UffdaState:
    """A draws, plays nothing and says NEXT at T0 + 200 without the coin: COIN offence, B to move."""
    state = table(COIN_HANDS, board={A: ["0-1"]}, coins={A: False}, tops=(["4-6", "3-8"], []), **options)
    state = nxt(draw(state, A, T0 + 100), A, T0 + 200)
    assert offences(state) == [("COIN", A)] and offence_on(state, A).created_at == T0 + 200
    return state


def missed_uffda(**options) -> UffdaState:
    """A plays down to one card at T0 + 100 without saying UFF-DA!."""
    state = table(UFFDA_HANDS, **options)
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    assert offences(state) == [("UFFDA", A)]
    return state


COIN_SEEN = T0 + 200 + WRITE  # the frame showing A's coinless NEXT was written to every socket
UFFDA_SEEN = T0 + 100 + WRITE


# -- the stimuli and rulings hooks -------------------------------------------------------------------


def test_each_live_mistake_is_a_stimulus_until_no_call_on_it_can_come():
    state = forgotten_coin()
    key = stimulus_key(state.offences[0])
    assert key.startswith("coin:") and ENGINE.stimuli(state) == (key,)
    state = timed(draw(state, B, T0 + 300), B, {"type": "next"}, T0 + 400)
    assert ENGINE.stimuli(state) == (key,)  # window closed, calls may still be in flight
    state = ENGINE.tick(state, due(ENGINE, state))
    assert state.offences == () and ENGINE.stimuli(state) == ()
    assert ENGINE.stimuli(missed_uffda())[0].startswith("uffda:")
    assert ENGINE.stimuli(table(UFFDA_HANDS)) == ()


def test_a_table_without_penalties_has_no_stimuli():
    state = table(UFFDA_HANDS, penalties=False)
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    assert ENGINE.stimuli(state) == () and ENGINE.rulings(state) == ()


def test_a_closed_race_is_reported_once_with_every_input_of_the_ruling():
    state = forgotten_coin()
    key = stimulus_key(state.offences[0])
    state = honest(state, C, Kind.COIN, A, 240)
    assert ENGINE.rulings(state) == ()
    state = settle(state)
    (ruling,) = ENGINE.rulings(state)
    assert_json_ready(ruling)
    assert ruling["race"] == key
    assert (ruling["outcome"], ruling["winner"], ruling["tied"], ruling["offender"]) == ("caught", C, [C], A)
    assert ruling["stimulus_at"] == T0 + 200 and ruling["dropped"] == []
    assert dict(state.last[0].info)["reaction"] == 240  # the table is told how fast the catch was
    (claim,) = ruling["claims"]
    assert claim == {
        "seat": C,
        "arrival": COIN_SEEN + 60 + 240,
        "sent": COIN_SEEN,
        "claimed": 240,
        "rtt": 60,
        "jitter": 4,
        "credit": 60,
        "reaction": 240,
        "at": T0 + 200 + 240,
        "flags": [],
    }
    # The next step reports nothing new: the room logs each ruling once, with the input that closed it.
    assert ENGINE.rulings(draw(state, B, T0 + 700)) == ()


def test_a_replayed_log_with_its_timing_rebuilds_every_ruling():
    start = forgotten_coin()
    state, log = start, []
    for seat, rtt, reaction in ((B, 20, 250), (D, 140, 256)):
        action = {"type": "call", "kind": "COIN", "target": A, "reaction_ms": reaction}
        move = Move(seat, action, COIN_SEEN + rtt + reaction, rtt, timing(state))
        assert move.timing is not None
        stored = json.loads(json.dumps(move.timing.to_json()))  # as its own database column stores it
        log.append((seat, action, move.at, rtt, stored))
        state = ENGINE.apply(state, move)
    again = start
    for seat, action, at, rtt, stored in log:
        again = ENGINE.apply(again, Move(seat, action, at, rtt, Timing.from_json(stored)))
    state, again = settle(state), settle(again)
    assert again == state and ENGINE.rulings(again) == ENGINE.rulings(state) != ()
    assert caught(state) == (D, A, [B, D])


# -- COIN!: the window edges, judged by the arbiter ---------------------------------------------------


def test_coin_call_arriving_just_before_the_next_players_next_counts():
    state = draw(forgotten_coin(), B, T0 + 300)
    state = honest(state, C, Kind.COIN, A, 137)  # made at T0 + 337, heard at T0 + 399
    assert state.offences[0].calls[0].claim.arrival == T0 + 399
    state = timed(state, B, {"type": "next"}, T0 + 400)
    state = settle(state)
    assert caught(state) == (C, A, [C]) and state.branches[A].coin


def test_coin_call_made_after_the_next_players_next_does_not_count():
    state = timed(draw(forgotten_coin(), B, T0 + 300), B, {"type": "next"}, T0 + 400)
    late = {"type": "call", "kind": "COIN", "target": A, "reaction_ms": 208}
    assert rejected(state, C, late, COIN_SEEN + 60 + 208) == "NO_OFFENCE"  # made at T0 + 408


def test_a_far_seats_call_made_before_the_next_but_arriving_after_it_is_credited():
    state = timed(draw(forgotten_coin(), B, T0 + 300), B, {"type": "next"}, T0 + 400)
    # D (140 ms link) reacted 199 ms after the NEXT without the coin: made at T0 + 399, arriving at T0 + 541.
    made_in_time = honest(state, D, Kind.COIN, A, 199)
    claim = made_in_time.offences[0].calls[0].claim
    assert (claim.arrival, claim.at, claim.credit, claim.flags) == (T0 + 541, T0 + 399, 140, ())
    assert caught(settle(made_in_time)) == (D, A, [D])
    # One millisecond later it was made at the NEXT itself: too late.
    at_the_next = {"type": "call", "kind": "COIN", "target": A, "reaction_ms": 200}
    assert rejected(state, D, at_the_next, COIN_SEEN + 140 + 200) == "NO_OFFENCE"


def test_the_closed_window_waits_exactly_as_long_as_the_farthest_seat_needs():
    state = timed(draw(forgotten_coin(), B, T0 + 300), B, {"type": "next"}, T0 + 400)
    # D's credit is capped at max_credit_ms (150): a call made by T0 + 400 arrives by T0 + 552.
    assert state.offences[0].expires_at == COIN_SEEN + (400 - 200) + 150 == ENGINE.next_deadline(state)
    near: Links = {A: (20, 2), B: (20, 2), C: (60, 4), D: (20, 2)}
    quick = timed(draw(forgotten_coin(), B, T0 + 300), B, {"type": "next"}, T0 + 400, near)
    assert ENGINE.next_deadline(quick) == COIN_SEEN + 200 + (60 + 4 + 17)  # C's reach
    gone: Links = {A: (20, 2), B: (20, 2), C: None, D: None}
    lonely = timed(draw(forgotten_coin(), B, T0 + 300), B, {"type": "next"}, T0 + 400, gone)
    assert ENGINE.next_deadline(lonely) == COIN_SEEN + 200 + (20 + 2 + 17)
    # The turn timer's NEXT carries no links: the older fixed linger (max_credit_ms) applies.
    untimed = nxt(draw(forgotten_coin(), B, T0 + 300), B, T0 + 400)
    assert ENGINE.next_deadline(untimed) == T0 + 400 + 150


def test_without_compensation_the_window_closes_with_the_next():
    state = forgotten_coin(latency_compensation=False)
    state = timed(draw(state, B, T0 + 300), B, {"type": "next"}, T0 + 400)
    assert state.offences == ()


# -- ties ---------------------------------------------------------------------------------------------


def test_coin_tie_goes_to_the_shortest_clockwise_distance_whatever_the_arrival_order():
    state = honest(forgotten_coin(), B, Kind.COIN, A, 250)  # arrives at T0 + 472
    state = honest(state, D, Kind.COIN, A, 256)  # arrives at T0 + 598, 6 ms slower: a tie
    assert caught(settle(state)) == (D, A, [B, D])  # D -> A is 1 seat, B -> A is 3


def test_outside_the_margin_the_faster_reaction_wins_though_it_arrived_last():
    state = honest(forgotten_coin(), B, Kind.COIN, A, 262)
    state = honest(state, D, Kind.COIN, A, 251)
    assert caught(settle(state)) == (D, A, [D])


def test_three_way_uffda_tie_goes_to_the_nearest_clockwise():
    state = missed_uffda()
    for seat, reaction in ((B, 300), (C, 304), (D, 309)):
        state = honest(state, seat, Kind.UFFDA, A, reaction)
    assert caught(settle(state)) == (D, A, [B, C, D])


def test_a_call_whose_timing_does_not_add_up_loses_a_tie_to_a_clean_one():
    state = honest(forgotten_coin(), B, Kind.COIN, A, 250)
    # D claims a 150 ms reaction but arrives 396 ms after its frame over a 140 ms link.
    lie = {"type": "call", "kind": "COIN", "target": A, "reaction_ms": 150}
    state = timed(state, D, lie, COIN_SEEN + 140 + 256)
    claim = next(c.claim for c in state.offences[0].calls if c.claim.seat == D)
    assert claim.flags == (ABOVE_WINDOW,) and claim.at == T0 + 200 + 246
    assert caught(settle(state)) == (B, A, [B])  # tied with B (250), but D is suspect


# -- the late self-declaration racing the catchers ------------------------------------------------------


def test_a_late_declaration_tied_with_a_call_saves_the_player():
    state = honest(missed_uffda(), B, Kind.UFFDA, A, 300)
    state = honest_declaration(state, A, 306)
    state = settle(state)
    assert kinds(state) == ["saved"] and dict(state.last[0].info)["tied"] == (A, B)
    assert len(state.hands[A]) == 1 and len(state.hands[B]) == 2
    (ruling,) = ENGINE.rulings(state)
    assert (ruling["outcome"], ruling["winner"], ruling["tied"]) == ("saved", A, [A, B])


def test_a_call_earlier_than_the_declaration_by_more_than_the_margin_catches():
    state = honest_declaration(missed_uffda(), A, 311)  # heard at T0 + 433
    state = honest(state, D, Kind.UFFDA, A, 300)  # heard later (T0 + 542) but made 11 ms earlier
    state = settle(state)
    assert caught(state) == (D, A, [D]) and len(state.hands[A]) == 2


def test_a_declaration_sent_before_the_offenders_screen_showed_the_play_counts_from_the_release():
    state = timed(missed_uffda(), A, {"type": "declare_uffda"}, T0 + 110)  # 8 ms after the frame went out
    claim = state.offences[0].declaration.claim  # type: ignore[union-attr]
    assert claim.at == T0 + 100 and NO_REACTION in claim.flags  # no human floor for one's own UFF-DA!
    assert INHUMAN in claim.flags
    quick = {"type": "call", "kind": "UFFDA", "target": A, "reaction_ms": 120}
    assert rejected(state, B, quick, UFFDA_SEEN + 20 + 120) == "NO_OFFENCE"
    assert kinds(settle(state)) == ["saved"]


def test_a_call_after_the_declaration_is_refused_unless_the_arbiter_puts_it_clearly_first():
    state = honest_declaration(missed_uffda(), A, 300)
    tied = {"type": "call", "kind": "UFFDA", "target": A, "reaction_ms": 291}
    assert rejected(state, D, tied, UFFDA_SEEN + 140 + 291) == "NO_OFFENCE"
    state = honest(state, D, Kind.UFFDA, A, 289)
    assert caught(settle(state)) == (D, A, [D])


# -- the UFF-DA! window and the far seat -------------------------------------------------------------------


def uffda_window_closed() -> UffdaState:
    """A's miss in turn 1; A's NEXT at T0 + 200; B draws, then says NEXT at T0 + 400 (end of turn 2)."""
    state = timed(missed_uffda(), A, {"type": "next"}, T0 + 200)
    state = timed(state, B, {"type": "draw", "pile": 0}, T0 + 300)
    return timed(state, B, {"type": "next"}, T0 + 400)


def test_uffda_call_arriving_just_before_the_next_players_next_counts():
    state = timed(missed_uffda(), A, {"type": "next"}, T0 + 200)
    state = timed(state, B, {"type": "draw", "pile": 0}, T0 + 300)
    state = honest(state, C, Kind.UFFDA, A, 237)  # heard at T0 + 399
    state = timed(state, B, {"type": "next"}, T0 + 400)
    assert caught(settle(state)) == (C, A, [C])


def test_uffda_window_edge_for_the_far_seat():
    state = uffda_window_closed()
    at_the_next = {"type": "call", "kind": "UFFDA", "target": A, "reaction_ms": 300}
    assert rejected(state, C, at_the_next, UFFDA_SEEN + 60 + 300) == "NO_OFFENCE"
    # D reacted 299 ms after the miss (made at T0 + 399) and is heard at T0 + 541: it counts.
    assert caught(settle(honest(state, D, Kind.UFFDA, A, 299))) == (D, A, [D])
    too_late = {"type": "call", "kind": "UFFDA", "target": A, "reaction_ms": 300}
    assert rejected(state, D, too_late, UFFDA_SEEN + 140 + 300) == "NO_OFFENCE"


def test_the_faster_reaction_over_the_slower_link_wins_where_arrival_order_would_not():
    state = honest(missed_uffda(), B, Kind.UFFDA, A, 300)  # arrives at T0 + 422
    state = honest(state, D, Kind.UFFDA, A, 240)  # arrives at T0 + 482
    assert caught(settle(state)) == (D, A, [D])
    # By arrival order B is first by 60 ms: its race closes before D's call is heard.
    plain = honest(missed_uffda(latency_compensation=False), B, Kind.UFFDA, A, 300)
    d_call = {"type": "call", "kind": "UFFDA", "target": A, "reaction_ms": 240}
    assert rejected(plain, D, d_call, T0 + 482) == "NO_OFFENCE"
    assert caught(settle(plain)) == (B, A, [B])


# -- the race closes as soon as nobody else could win ----------------------------------------------------


def test_the_race_closes_once_no_seat_that_has_not_called_could_win():
    state = honest(missed_uffda(), B, Kind.UFFDA, A, 250)
    # A (declaring), C and D could still tie with a 260 ms reaction heard with their full credit: D's is 150.
    assert state.offences[0].race_deadline == UFFDA_SEEN + 250 + 10 + 150
    away: Links = {A: (20, 2), B: (20, 2), C: None, D: None}
    state = honest(missed_uffda(), B, Kind.UFFDA, A, 250, away)
    assert state.offences[0].race_deadline == UFFDA_SEEN + 250 + 10 + 39  # only A is waited for
    # The move carries no links (a test, an old log): the whole window.
    untimed = ENGINE.apply(missed_uffda(), Move(B, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 300))
    assert untimed.offences[0].race_deadline == T0 + 300 + 160


def test_a_coin_race_everyone_has_joined_closes_at_the_last_call():
    state = forgotten_coin()
    for seat, reaction in ((B, 300), (C, 295), (D, 280)):
        state = honest(state, seat, Kind.COIN, A, reaction)
    last_arrival = COIN_SEEN + 140 + 280
    assert state.offences[0].race_deadline == last_arrival  # the offender cannot call a COIN
    assert caught(ENGINE.tick(state, last_arrival)) == (D, A, [D])


# -- Double UFF-DA! ----------------------------------------------------------------------------------


def test_double_uffda_each_catch_is_raced_from_its_own_mistake():
    state = honest(missed_uffda(), B, Kind.UFFDA, A, 250)  # B (2 cards) forgets its own UFF-DA!
    state = settle(state)
    assert caught(state) == (B, A, [B]) and offences(state) == [("UFFDA", B)]
    (first,) = ENGINE.rulings(state)
    second = offence_on(state, B)
    assert second.created_at == state.last[0].at and ENGINE.stimuli(state) == (stimulus_key(second),)
    # A (2 cards again) and C race to catch B, from the frame showing B down to one card.
    state = honest(state, A, Kind.UFFDA, B, 275, uffda=True)  # heard first
    state = honest(state, C, Kind.UFFDA, B, 280)
    state = settle(state)
    assert caught(state) == (A, B, [A, C])  # tied; A -> B is 1 seat, C -> B is 3
    assert (len(state.hands[A]), len(state.hands[B])) == (1, 2) and state.offences == ()
    (ruling,) = ENGINE.rulings(state)
    assert ruling["race"] == stimulus_key(second) != first["race"]
    assert [c["seat"] for c in ruling["claims"]] == [A, C]
    assert ruling["claims"][0]["sent"] == second.created_at + WRITE


def test_a_void_race_is_reported_and_the_mistake_stays_catchable():
    hands = [["0-5", "8-9"], ["0-2", "2-3"], ["3-4", "4-5", "5-6"], ["6-7", "7-8", "1-1"]]
    state = table(hands)
    state = play(state, A, "0-5", end_at(state, C, 0), T0 + 100)
    state = timed(state, A, {"type": "next"}, T0 + 150)
    state = honest(state, B, Kind.UFFDA, A, 200)
    state = timed(state, B, {"type": "play", "card": "0-2", **end_at(state, B, 0), "uffda": True}, T0 + 330)
    state = settle(state)
    (ruling,) = ENGINE.rulings(state)
    assert (ruling["outcome"], ruling["winner"], ruling["claims"]) == ("void", None, [])
    assert ruling["dropped"] == [B]
    assert offences(state) == [("UFFDA", A)] and state.phase is Phase.PLAY


def test_a_call_without_timing_is_judged_with_no_link_and_no_credit():
    state = missed_uffda()
    move = Move(B, {"type": "call", "kind": "UFFDA", "target": A, "reaction_ms": 150}, T0 + 300, 80)
    offence = ENGINE.apply(state, move).offences[0]
    claim = offence.calls[0].claim
    assert (claim.at, claim.credit, claim.sent, claim.rtt) == (T0 + 300, 0, None, None)
    assert claim.flags == ("NO_STIMULUS", "NO_SYNC")
    # Nobody's link is known, so the race waits its whole window for the others.
    assert offence.race_deadline == T0 + 300 + state.options.race_window_ms
