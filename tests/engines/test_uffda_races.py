"""UFF-DA! penalty calls (rules 5): scenarios 10-18 of rules section 9, every window edge,
every tie and the Double UFF-DA!, judged through the shared race mechanism (app.engines.race).

Times: T0 = 10 000. With no ``rtt`` a call's reaction time is its arrival; the defaults are
a 160 ms race window, 150 ms of network credit at most and a 10 ms tie margin. These moves carry
no room timing (as in old logs), so they are judged by the capped round-trip credit; the same
races as the room times them, through the arbiter, are in ``test_uffda_arbiter``.
"""

from __future__ import annotations

from dataclasses import replace

from app.engines.cards import CardId
from app.engines.uffda import ENGINE, Kind, Phase
from tests.engines.test_uffda_helpers import (
    T0,
    A,
    B,
    C,
    D,
    act,
    call,
    declare,
    draw,
    end_at,
    illegal,
    kinds,
    nxt,
    offences,
    play,
    settle,
    side_of,
    table,
)

UFFDA_HANDS = [["0-5", "8-9"], ["1-2", "2-3"], ["3-4", "4-5", "5-6"], ["6-7", "7-8", "1-1"]]
COIN_HANDS = [["7-8", "8-9"], ["2-3", "3-3"], ["2-5", "6-6", "5-6"], ["2-2", "4-4", "9-9"]]


def missed_uffda(**options):
    """A plays down to one card at T0 + 100 without saying UFF-DA! (turn 1)."""
    state = table(UFFDA_HANDS, **options)
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    assert offences(state) == [("UFFDA", A)] and state.hands[A] == ("8-9",)
    return state


def forgotten_coin(**options):
    """A (coin off) draws, plays nothing and says NEXT at T0 + 200 without the coin."""
    state = table(COIN_HANDS, board={A: ["0-1"]}, coins={A: False}, tops=(["4-6", "3-8"], []), **options)
    state = nxt(draw(state, A, T0 + 100), A, T0 + 200)
    assert offences(state) == [("COIN", A)] and state.turn.seat == B
    return state


def honest(state, seat, kind, target, arrival, rtt, **kw):
    """A call whose client honestly reports its reaction: the mistake reached it rtt/2 late and
    the call took rtt/2 to arrive, so the reported reaction is the arrival minus the rtt."""
    created = next(o.created_at for o in state.offences if o.offender == target)
    return call(state, seat, kind, target, arrival, rtt=rtt, reaction=arrival - created - rtt, **kw)


def caught(state):
    event = next(e for e in state.last if e.kind == "caught")
    info = dict(event.info)
    return event.seat, info["target"], list(info["tied"])


# -- 10-12. COIN! ---------------------------------------------------------------------------


def test_coin_catch_places_the_coin_and_moves_the_catchers_card():
    state = forgotten_coin()
    state = call(state, C, Kind.COIN, A, T0 + 300, give="2-5")
    assert kinds(state) == ["call"] and state.offences[0].race_deadline == T0 + 460
    assert not state.branches[A].coin  # nothing happens before the race closes
    state = settle(state)
    assert state.branches[A].coin and "2-5" in state.hands[A] and "2-5" not in state.hands[C]
    assert len(state.hands[C]) == 2 and len(state.hands[A]) == 4 and state.offences == ()
    assert caught(state) == (C, A, [C]) and state.last[0].at == T0 + 460
    assert state.turn.seat == B and state.turn.step.value == "OPEN"  # the turn goes on untouched


def test_coin_window_closes_at_the_next_players_next():
    state = forgotten_coin()
    state = nxt(draw(state, B, T0 + 300), B, T0 + 400)
    assert illegal(state, D, {"type": "call", "kind": "COIN", "target": A}, T0 + 450) == "NO_OFFENCE"
    state = ENGINE.tick(state, T0 + 400 + 150)  # the last in-flight call could have arrived by now
    assert state.offences == () and not state.branches[A].coin
    assert illegal(state, D, {"type": "call", "kind": "COIN", "target": A}, T0 + 600) == "NO_OFFENCE"


def test_coin_call_just_before_the_next_players_next_counts():
    state = forgotten_coin()
    state = draw(state, B, T0 + 300)
    state = call(state, D, Kind.COIN, A, T0 + 399)
    state = nxt(state, B, T0 + 400)
    state = ENGINE.tick(state, T0 + 399 + 160)
    assert caught(state) == (D, A, [D]) and state.branches[A].coin


def test_coin_call_in_flight_when_the_next_lands_counts_by_its_reaction_time():
    state = nxt(draw(forgotten_coin(), B, T0 + 300), B, T0 + 400)
    # Made at T0 + 390 (reaction 190 ms after the NEXT at T0 + 200), arriving 40 ms later.
    late = call(state, D, Kind.COIN, A, T0 + 430, rtt=40, reaction=190)
    assert late.offences[0].calls[0].claim.at == T0 + 390
    assert caught(settle(late))[0] == D
    # Made exactly at the NEXT (reaction 200 ms, 30 ms on the way): too late.
    at_next = {"type": "call", "kind": "COIN", "target": A, "reaction_ms": 200}
    assert illegal(state, D, at_next, T0 + 430, rtt=30) == "NO_OFFENCE"


def test_coin_tie_goes_to_the_shortest_clockwise_distance():
    state = forgotten_coin()
    state = call(state, B, Kind.COIN, A, T0 + 300)
    state = call(state, D, Kind.COIN, A, T0 + 305)  # within the 10 ms margin
    state = settle(state)
    # Distances to A: B -> A = 3 seats, D -> A = 1 seat.
    assert caught(state) == (D, A, [B, D])
    assert len(state.hands[D]) == 2 and len(state.hands[B]) == 2 and len(state.hands[A]) == 4


def test_coin_calls_outside_the_margin_go_to_the_earliest():
    state = forgotten_coin()
    state = call(state, B, Kind.COIN, A, T0 + 300)
    state = call(state, D, Kind.COIN, A, T0 + 311)
    assert caught(settle(state)) == (B, A, [B])


def test_a_forgotten_coin_is_never_placed_after_the_window():
    state = nxt(draw(forgotten_coin(), B, T0 + 300), B, T0 + 400)
    state = ENGINE.tick(state, T0 + 10_000)
    assert not state.branches[A].coin and state.offences == ()
    assert illegal(state, C, {"type": "call", "kind": "COIN", "target": A}, T0 + 10_001) == "NO_OFFENCE"


# -- 13-16. UFF-DA! ----------------------------------------------------------------------------


def test_declared_uffda_opens_no_offence():
    state = table(UFFDA_HANDS)
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100, uffda=True)
    assert state.offences == () and dict(state.last[0].info)["uffda"] is True
    assert illegal(state, C, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 200) == "NO_OFFENCE"


def test_a_declaration_flag_that_is_no_trigger_is_ignored():
    state = table([["0-5", "8-9", "7-9"], *UFFDA_HANDS[1:]])
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100, uffda=True)  # 3 -> 2 cards
    assert state.offences == () and dict(state.last[0].info)["uffda"] is False


def test_missed_uffda_caught_gives_the_player_a_card():
    state = missed_uffda()
    state = settle(call(state, C, Kind.UFFDA, A, T0 + 200))
    assert caught(state) == (C, A, [C]) and len(state.hands[A]) == 2 and len(state.hands[C]) == 2
    assert "5-6" in state.hands[A]  # no card named: the catcher's highest (5/6, 11 points)
    assert state.offences == ()


def test_late_declaration_before_any_call_clears_the_offence():
    state = declare(missed_uffda(), A, T0 + 200)
    assert kinds(state) == ["uffda"] and dict(state.last[0].info)["late"] is True
    assert illegal(state, B, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 250) == "NO_OFFENCE"
    state = settle(state)
    assert kinds(state) == ["saved"] and state.offences == () and len(state.hands[A]) == 1
    assert illegal(state, B, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 400) == "NO_OFFENCE"


def test_a_call_earlier_than_the_declaration_by_more_than_the_margin_wins():
    state = missed_uffda()
    state = call(state, B, Kind.UFFDA, A, T0 + 289)
    state = declare(state, A, T0 + 300)
    assert caught(settle(state)) == (B, A, [B])
    # Declared first, but the call was made earlier and arrives later (reaction time counts).
    state = declare(missed_uffda(), A, T0 + 300)
    state = call(state, B, Kind.UFFDA, A, T0 + 330, rtt=60, reaction=170)  # made at T0 + 270
    assert caught(settle(state)) == (B, A, [B])


def test_a_call_tied_with_the_declaration_loses_to_it():
    for call_at in (T0 + 290, T0 + 300, T0 + 305):
        state = call(missed_uffda(), B, Kind.UFFDA, A, call_at)
        state = settle(declare(state, A, T0 + 300))
        assert kinds(state) == ["saved"] and len(state.hands[A]) == 1 and len(state.hands[B]) == 2
        tied = dict(state.last[0].info)["tied"]
        assert tied == (A, B)


def test_uffda_window_closes_at_the_next_players_next():
    state = missed_uffda()
    state = nxt(state, A, T0 + 200)  # turn 1 (the miss) ends
    state = draw(state, B, T0 + 300)
    assert offences(call(state, C, Kind.UFFDA, A, T0 + 399)) == [("UFFDA", A)]
    state = nxt(state, B, T0 + 400)  # turn 2 ends: the window is closed
    assert illegal(state, C, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 401) == "NO_OFFENCE"
    assert state.offences[0].closes_at == T0 + 400 and ENGINE.next_deadline(state) == T0 + 550
    assert ENGINE.tick(state, T0 + 550).offences == ()


def test_uffda_call_just_before_the_next_players_next_is_judged_after_it():
    state = draw(nxt(missed_uffda(), A, T0 + 200), B, T0 + 300)
    state = call(state, C, Kind.UFFDA, A, T0 + 399)
    state = nxt(state, B, T0 + 400)
    late = {"type": "call", "kind": "UFFDA", "target": A}
    assert illegal(state, D, late, T0 + 420) == "NO_OFFENCE"  # the race is open, but D is too late
    state = ENGINE.tick(state, T0 + 559)
    assert caught(state) == (C, A, [C]) and len(state.hands[A]) == 2


def test_a_mistake_stays_catchable_after_the_hand_changed():
    state = nxt(missed_uffda(), A, T0 + 200)
    state = replace(state, hands=((CardId("8-9"), CardId("9-9")), *state.hands[1:]))  # A got a card meanwhile
    assert caught(settle(call(state, D, Kind.UFFDA, A, T0 + 300)))[0] == D


# -- 17-18. Double UFF-DA! and callers -------------------------------------------------------------


def test_double_uffda_the_catcher_becomes_the_caught():
    state = missed_uffda()
    state = settle(call(state, B, Kind.UFFDA, A, T0 + 150))  # B had 2 cards, says nothing
    assert (len(state.hands[A]), len(state.hands[B])) == (2, 1)
    assert offences(state) == [("UFFDA", B)] and state.offences[0].turn == state.turn.no
    assert state.offences[0].created_at == T0 + 310
    assert {"type": "call", "kind": "UFFDA", "target": B} in ENGINE.view(state, A)["legal"]
    state = settle(call(state, A, Kind.UFFDA, B, T0 + 350, uffda=True))
    assert caught(state) == (A, B, [A]) and dict(state.last[0].info)["uffda"] is True
    assert (len(state.hands[A]), len(state.hands[B])) == (1, 2) and state.offences == ()


def test_double_uffda_chain_goes_on_while_catchers_forget():
    state = settle(call(missed_uffda(), B, Kind.UFFDA, A, T0 + 150))
    state = settle(call(state, A, Kind.UFFDA, B, T0 + 350))  # A forgets too
    assert offences(state) == [("UFFDA", A)]
    state = settle(call(state, C, Kind.UFFDA, A, T0 + 600))
    assert (len(state.hands[A]), len(state.hands[C])) == (2, 2) and state.offences == ()


def test_a_caller_needs_two_cards_and_a_valid_rival_wins_instead():
    hands = [["0-5", "8-9"], ["1-2"], ["3-4", "4-5", "5-6"], ["6-7", "7-8", "1-1"]]
    state = table(hands)
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    assert (
        illegal(state, B, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 150) == "CALLER_TOO_FEW_CARDS"
    )
    assert not [a for a in ENGINE.view(state, B)["legal"] if a["type"] == "call"]
    assert caught(settle(call(state, C, Kind.UFFDA, A, T0 + 160))) == (C, A, [C])


def b_to_move_after_a_miss():
    """A misses UFF-DA! on C's branch and says NEXT; B (0/2, 2/3) is to move."""
    hands = [["0-5", "8-9"], ["0-2", "2-3"], ["3-4", "4-5", "5-6"], ["6-7", "7-8", "1-1"]]
    state = table(hands)
    state = play(state, A, "0-5", end_at(state, C, 0), T0 + 100)
    return nxt(state, A, T0 + 150)


def test_a_caller_who_drops_to_one_card_before_the_close_loses_the_call():
    state = b_to_move_after_a_miss()
    state = call(state, B, Kind.UFFDA, A, T0 + 200)
    state = call(state, C, Kind.UFFDA, A, T0 + 250)
    state = play(state, B, "0-2", end_at(state, B, 0), T0 + 260, uffda=True)  # B is down to one card
    assert caught(settle(state)) == (C, A, [C])


def test_a_race_whose_only_caller_ran_out_of_cards_leaves_the_mistake_open():
    state = b_to_move_after_a_miss()
    state = call(state, B, Kind.UFFDA, A, T0 + 200)
    state = play(state, B, "0-2", end_at(state, B, 0), T0 + 260, uffda=True)
    state = settle(state)
    assert kinds(state) == ["void"] and offences(state) == [("UFFDA", A)]
    assert caught(settle(call(state, D, Kind.UFFDA, A, T0 + 400)))[0] == D


# -- ties and timing --------------------------------------------------------------------------


def test_three_way_uffda_tie_goes_to_the_nearest_clockwise():
    state = missed_uffda()
    for seat, at in ((B, T0 + 200), (C, T0 + 204), (D, T0 + 209)):
        state = call(state, seat, Kind.UFFDA, A, at)
    assert caught(settle(state)) == (D, A, [B, C, D])


def test_tie_break_distance_counts_from_the_caller_to_the_penalised_player():
    hands = [["3-4", "4-5", "5-6"], ["6-7", "7-8", "1-1"], ["0-5", "8-9"], ["1-2", "2-3"]]
    state = table(hands, seat=C)
    state = play(state, C, "0-5", end_at(state, D, 0), T0 + 100)
    state = call(state, D, Kind.UFFDA, C, T0 + 200)  # D -> C: 3 seats
    state = call(state, A, Kind.UFFDA, C, T0 + 201)  # A -> C: 2 seats
    state = call(state, B, Kind.UFFDA, C, T0 + 202)  # B -> C: 1 seat
    assert caught(settle(state)) == (B, C, [A, B, D])


def test_latency_compensation_lets_the_faster_reaction_on_a_slower_link_win():
    state = missed_uffda()
    state = honest(state, B, Kind.UFFDA, A, T0 + 420, rtt=40)  # reacted at T0 + 380
    state = honest(state, D, Kind.UFFDA, A, T0 + 440, rtt=120)  # reacted at T0 + 320
    assert caught(settle(state)) == (D, A, [D])
    plain = missed_uffda(latency_compensation=False)  # by arrival (no links, so the race waits its window)
    plain = call(plain, B, Kind.UFFDA, A, T0 + 420, rtt=None, reaction=280)
    plain = call(plain, D, Kind.UFFDA, A, T0 + 440, rtt=None, reaction=220)
    assert caught(settle(plain)) == (B, A, [B])


def test_a_call_arriving_exactly_at_the_race_close_counts():
    state = call(missed_uffda(), B, Kind.UFFDA, A, T0 + 200)
    assert state.offences[0].race_deadline == T0 + 360
    assert len(call(state, D, Kind.UFFDA, A, T0 + 360, rtt=200, reaction=0).offences[0].calls) == 2
    # One millisecond later the race has been judged (the engine catches up first).
    assert illegal(state, D, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 361) == "NO_OFFENCE"


# -- the catcher's card ----------------------------------------------------------------------------


def test_the_catcher_chooses_the_penalty_card_or_gives_the_highest():
    state = settle(call(missed_uffda(), C, Kind.UFFDA, A, T0 + 200, give="3-4"))
    assert "3-4" in state.hands[A] and state.hands[C] == ("4-5", "5-6")
    assert illegal(missed_uffda(), C, {"type": "call", "kind": "UFFDA", "target": A, "give_card": "9-9"}) == (
        "CARD_NOT_IN_HAND"
    )


def test_a_named_penalty_card_no_longer_held_falls_back_to_the_highest():
    state = b_to_move_after_a_miss()
    state = call(state, B, Kind.UFFDA, A, T0 + 200, give="0-2")
    b_hand = (CardId("0-2"), CardId("1-4"), CardId("2-3"))
    state = replace(state, hands=(state.hands[A], b_hand, *state.hands[2:]))
    state = play(state, B, "0-2", end_at(state, B, 0), T0 + 260)
    state = settle(state)
    assert caught(state)[0] == B and "1-4" in state.hands[A] and state.hands[B] == ("2-3",)


# -- settled decisions A and C, and rejections ----------------------------------------------------


def two_misses():
    """A owes UFF-DA! twice in one turn: 4/4 (2 -> 1 card), draw (1 -> 2), fill 4/7 (2 -> 1)."""
    hands = [["4-4", "8-9"], ["1-2", "2-3", "8-8"], ["3-5", "5-6", "1-1"], ["6-7", "7-9", "2-2"]]
    state = table(hands, board={A: ["0-4"]}, tops=(["4-7"], []))
    state = play(state, A, "4-4", end_at(state, A, 4), T0 + 100)
    state = draw(state, A, T0 + 150)
    state = play(state, A, "4-7", side_of(state, 0), T0 + 200)
    assert offences(state) == [("UFFDA", A), ("UFFDA", A)] and len(state.hands[A]) == 1
    return state


def test_a_catch_takes_the_oldest_of_two_missed_declarations():
    state = settle(call(two_misses(), B, Kind.UFFDA, A, T0 + 250))
    assert caught(state)[0] == B and offences(state) == [("UFFDA", A)]
    assert state.offences[0].created_at == T0 + 200


def test_a_late_declaration_clears_every_missed_declaration():
    state = declare(two_misses(), A, T0 + 250)
    assert all(o.declaration is not None for o in state.offences)
    state = settle(state)
    assert kinds(state) == ["saved", "saved"] and state.offences == ()


def test_a_stray_declaration_is_rejected():
    state = table(UFFDA_HANDS)
    assert illegal(state, A, {"type": "declare_uffda"}) == "NO_OFFENCE"
    state = declare(missed_uffda(), A, T0 + 200)
    assert illegal(state, A, {"type": "declare_uffda"}, T0 + 210) == "NO_OFFENCE"


def test_call_rejections():
    state = missed_uffda()
    assert illegal(state, A, {"type": "call", "kind": "UFFDA", "target": A}) == "SELF_CALL"
    assert illegal(state, B, {"type": "call", "kind": "UFFDA", "target": 4}) == "BAD_ACTION"
    assert illegal(state, B, {"type": "call", "kind": "COIN", "target": A}) == "NO_OFFENCE"
    assert illegal(state, B, {"type": "call", "kind": "UFFDA", "target": C}) == "NO_OFFENCE"
    once = call(state, B, Kind.UFFDA, A, T0 + 200)
    assert illegal(once, B, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 210) == "ALREADY_CALLED"
    for bad in (
        {"type": "call", "kind": "uffda", "target": A},
        {"type": "call", "kind": "UFFDA"},
        {"type": "call", "kind": "UFFDA", "target": True},
        {"type": "call", "kind": "UFFDA", "target": A, "give_card": "5-0"},
        {"type": "call", "kind": "UFFDA", "target": A, "uffda": "yes"},
        {"type": "call", "kind": "UFFDA", "target": A, "reaction_ms": -1},
        {"type": "declare_uffda", "reaction_ms": 1.5},
    ):
        assert illegal(state, B, bad) == "BAD_ACTION", bad


# -- the T2 trigger and going out (rules 5.1, 8.25) ------------------------------------------------


def test_a_catcher_left_with_one_card_must_declare_before_going_out():
    state = settle(call(missed_uffda(), B, Kind.UFFDA, A, T0 + 150))  # B: 1 card, T2 missed
    state = replace(state, hands=(state.hands[A], (CardId("3-5"),), *state.hands[2:]))
    state = nxt(state, A, T0 + 400)  # B's turn: B's offence is still open
    out = {"type": "play", "card": "3-5", **end_at(state, B, 5)}
    assert illegal(state, B, out, T0 + 450) == "UFFDA_PENDING"
    assert ENGINE.view(state, B)["legal"][-1] == {"type": "declare_uffda"}
    state = settle(declare(state, B, T0 + 500))
    state = act(state, B, out, T0 + 700)
    assert state.phase is Phase.ROUND_OVER and state.history[-1].winner == B


def test_the_catcher_who_declares_with_the_call_owes_nothing():
    state = settle(call(missed_uffda(), B, Kind.UFFDA, A, T0 + 150, uffda=True))
    assert len(state.hands[B]) == 1 and state.offences == ()


# -- options: penalties off, assist ------------------------------------------------------------------


def test_without_penalties_coins_go_on_and_every_uffda_counts_as_said():
    state = table(COIN_HANDS, board={A: ["0-1"]}, coins={A: False}, tops=(["4-6"], []), penalties=False)
    state = nxt(draw(state, A, T0 + 100), A, T0 + 200)
    assert state.branches[A].coin and state.offences == () and kinds(state) == ["coin", "next"]
    state = table(UFFDA_HANDS, penalties=False)
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    assert state.offences == () and dict(state.last[0].info)["uffda"] is True
    assert illegal(state, C, {"type": "call", "kind": "UFFDA", "target": A}) == "PENALTIES_OFF"
    assert illegal(state, A, {"type": "declare_uffda"}) == "NO_OFFENCE"
    assert all(a["type"] != "call" for s in range(4) for a in ENGINE.view(state, s)["legal"])
    assert ENGINE.view(state, C)["penalties"] is False


def test_assist_shows_open_mistakes_to_everyone():
    plain = missed_uffda()
    assert all(ENGINE.view(plain, s)["offences"] == [] for s in (None, A, B, C, D))
    helped = missed_uffda(assist=True)
    shown = [{"kind": "UFFDA", "offender": A, "turn": 1, "closing": False, "calls": []}]
    assert all(ENGINE.view(helped, s)["offences"] == shown for s in (None, A, B, C, D))


# -- what the views say about penalty cards and optional fields (rules 5.8) ---------------------------


def test_a_drawn_card_given_away_as_a_penalty_card_is_no_longer_shown_as_drawn():
    state = draw(nxt(missed_uffda(), A, T0 + 200), B, T0 + 300)
    drawn = ENGINE.view(state, B)["drawn"]
    assert drawn is not None and drawn in state.hands[B]
    state = settle(call(state, B, Kind.UFFDA, A, T0 + 400, give=drawn))
    assert drawn in state.hands[A] and drawn not in state.hands[B]
    assert ENGINE.view(state, B)["drawn"] is None


def test_the_view_describes_every_optional_action_field():
    shapes = ENGINE.view(missed_uffda(), B)["shapes"]
    assert set(shapes["play"]) == {"uffda"} and set(shapes["draw"]) == {"uffda"}
    assert set(shapes["call"]) == {"give_card", "uffda", "reaction_ms"}
    assert set(shapes["declare_uffda"]) == {"reaction_ms"}
