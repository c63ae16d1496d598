"""UFF-DA! rules engine: every scenario of rules section 9, then the turn, board and round rules.

Notation follows the rules: seats A, B, C, D clockwise; A to move unless stated;
round 1 (centre 0/0) unless stated. Tables are arranged with the helpers of
``test_uffda_helpers``; penalty races have their own file, ``test_uffda_races``.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from app.bots.uffda import offences_seen
from app.engines.base import Move, SeatSetup
from app.engines.rng import Rng
from app.engines.uffda import ENGINE, Kind, Phase, Step, UffdaOptions
from app.engines.uffda.deal import HAND_SIZE, first_dealer
from app.engines.uffda.dominoes import DECK, is_double, points
from app.engines.uffda.invariants import problems
from app.engines.uffda.rounds import begin_round
from tests.engines.helpers import ids, known
from tests.engines.test_uffda_helpers import (
    T0,
    A,
    B,
    C,
    D,
    act,
    call,
    draw,
    end_at,
    illegal,
    kinds,
    new_game,
    nxt,
    offences,
    play,
    settle,
    side_of,
    table,
    turn_actions,
)

CARD_RE = re.compile(r"\b\d-\d\b")
FILLER = ["7-8", "8-8", "8-9", "9-9", "7-9", "7-7"]  # no 0-6 anywhere: matches nothing early on


# -- 1-3. deck, deal, first dealer ---------------------------------------------------------


def test_deck_has_55_distinct_cards_ten_doubles_and_495_points():
    assert len(DECK) == len(set(DECK)) == 55
    assert sum(is_double(c) for c in DECK) == 10 and sum(points(c) for c in DECK) == 495
    for n in range(10):
        assert sum(str(n) in c for c in DECK) == 10  # each number on ten cards
    state = new_game(3)
    dealt = [c for h in state.hands for c in h] + [*state.piles[0], *state.piles[1]]
    assert sorted(dealt) == sorted(c for c in DECK if c != "0-0")
    later = begin_round(state, 4, B, 5_000)
    assert later.center == 3 and "3-3" not in [c for h in later.hands for c in h] + list(later.piles[0])
    assert "3-3" not in later.piles[1] and not problems(later)


@pytest.mark.parametrize(
    ("players", "each", "piles"),
    [
        (2, 7, (20, 20)),
        (3, 7, (17, 16)),
        (4, 7, (13, 13)),
        (5, 6, (12, 12)),
        (6, 5, (12, 12)),
        (7, 4, (13, 13)),
        (8, 4, (11, 11)),
    ],
)
def test_deal_sizes_by_player_count(players, each, piles):
    state = new_game(players)
    assert [len(h) for h in state.hands] == [each] * players and HAND_SIZE[players] == each
    assert (len(state.piles[0]), len(state.piles[1])) == piles
    view = ENGINE.view(state, A)
    assert view["piles"] == list(piles) and view["seats"][B]["cards"] == each


def test_first_dealer_is_the_lowest_face_up_card():
    assert first_dealer(ids("3-4", "0-2", "1-2"), 3, Rng(1)) == (B, (("3-4", "0-2", "1-2"),))


def test_first_dealer_ties_redraw_only_the_tied_players():
    dealer, rows = first_dealer(ids("3-4", "0-2", "1-1", "0-5", "0-1", "9-9"), 3, Rng(1))
    assert rows == (("3-4", "0-2", "1-1"), (None, "0-5", "0-1"))
    assert dealer == C


def test_first_dealer_tie_running_out_of_cards_is_a_seeded_pick():
    # Settled decision B: the RNG picks among the players still tied.
    picks = {first_dealer(ids("0-1", "0-1", "1-0"), 3, Rng(seed))[0] for seed in range(40)}
    assert picks == {A, B, C}


def test_the_first_dealer_deals_and_moves_first():
    for i in range(12):
        state = ENGINE.start([SeatSetup()] * 4, UffdaOptions(), f"dealer-{i}", 0)
        rows = state.first_draw
        last = rows[-1]
        low = min(points(c) for c in last if c is not None)
        assert points(known(last[state.dealer])) == low and state.turn.seat == state.dealer
        assert len(rows[0]) == 4 and all(c is not None for c in rows[0])
        assert ENGINE.view(state, None)["first_draw"] == [list(r) for r in rows]


# -- 4-7. branches and coins -------------------------------------------------------------


def test_open_start_lets_anyone_start_an_open_branch_but_not_the_community():
    state = table([["0-5", *FILLER[:2]], FILLER[2:4], ["1-2", "2-3"], ["3-4", "4-5"]])
    assert all(b.coin for b in state.branches)
    assert illegal(state, A, {"type": "play", "card": "0-5", **end_at(state, 4, 0)}) == "COMMUNITY_NOT_READY"
    state = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    assert [p.card for p in state.branches[B].cards] == ["0-5"] and state.branches[B].owner == B
    assert state.turn.step is Step.DONE and not state.turn.played_own


def test_community_unlocks_when_the_last_player_branch_starts():
    board = {A: ["0-1"], B: ["0-2"], C: ["0-3"]}
    state = table([["0-4", "7-8"], ["0-5", "6-7"], ["8-8", "8-9"], ["9-9", "7-9"]], board=board)
    assert not ENGINE.view(state, A)["community_open"]
    state = play(state, A, "0-4", end_at(state, D, 0), T0 + 100)
    assert ENGINE.view(state, A)["community_open"]
    state = nxt(state, A, T0 + 200)
    community = {"type": "play", "card": "0-5", "branch": 4, "on": -1, "side": 0}
    assert community in ENGINE.view(state, B)["legal"]
    state = play(state, B, "0-5", end_at(state, 4, 0), T0 + 300)
    assert state.branches[4].cards[0].card == "0-5" and state.branches[4].coin


def test_protected_branch_rejects_others_and_accepts_its_owner():
    state = table(
        [["3-5", "7-8"], ["3-6", "8-8"], ["8-9", "9-9"], ["7-9", "7-7"]],
        board={B: ["0-3"]},
        coins={B: False},
    )
    assert illegal(state, A, {"type": "play", "card": "3-5", **end_at(state, B, 3)}) == "BRANCH_PROTECTED"
    assert not any(a.get("branch") == B for a in ENGINE.view(state, A)["legal"])
    state = replace(state, turn=replace(state.turn, seat=B))
    state = play(state, B, "3-6", end_at(state, B, 3), T0 + 100)
    assert state.branches[B].ends[0].value == 6


def test_coin_removal_only_after_playing_on_your_own_branch_and_before_next():
    hands = [FILLER[:2], ["0-4", "0-5", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"]]
    state = table(hands, seat=B)
    on_c = play(state, B, "0-4", end_at(state, C, 0), T0 + 100)
    assert illegal(on_c, B, {"type": "remove_coin"}) == "COIN_NOT_REMOVABLE"
    assert {"type": "remove_coin"} not in ENGINE.view(on_c, B)["legal"]
    own = play(state, B, "0-5", end_at(state, B, 0), T0 + 100)
    assert {"type": "remove_coin"} in ENGINE.view(own, B)["legal"]
    assert illegal(own, A, {"type": "remove_coin"}) == "NOT_YOUR_TURN"
    off = act(own, B, {"type": "remove_coin"}, T0 + 150)
    assert not off.branches[B].coin and kinds(off) == ["coin"]
    assert illegal(off, B, {"type": "remove_coin"}) == "COIN_NOT_REMOVABLE"
    after = nxt(own, B, T0 + 200)
    assert illegal(after, B, {"type": "remove_coin"}, T0 + 250) == "NOT_YOUR_TURN"
    assert after.branches[B].coin


# -- 8-9. the turn and the coin duty -----------------------------------------------------------


def test_one_card_per_turn_and_after_a_draw_only_the_drawn_card():
    hands = [["0-5", "0-6", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "7-8"]]
    state = table(hands, board={A: ["0-1"]}, coins={A: False}, tops=(["1-3"], []))
    assert illegal(state, A, {"type": "next"}) == "MUST_PLAY_OR_DRAW"
    once = play(state, A, "0-5", end_at(state, B, 0), T0 + 100)
    assert illegal(once, A, {"type": "play", "card": "0-6", **end_at(once, C, 0)}) == "WRONG_PHASE"
    assert illegal(once, A, {"type": "draw", "pile": 0}) == "WRONG_PHASE"
    drawn = draw(state, A, T0 + 100)
    assert drawn.turn.step is Step.AFTER_DRAW and drawn.turn.drawn == "1-3" and "1-3" in drawn.hands[A]
    assert illegal(drawn, A, {"type": "play", "card": "0-5", **end_at(drawn, B, 0)}) == "NOT_DRAWN_CARD"
    assert illegal(drawn, A, {"type": "draw", "pile": 1}) == "WRONG_PHASE"
    played = play(drawn, A, "1-3", end_at(drawn, A, 1), T0 + 200)
    assert played.turn.step is Step.DONE and {"type": "place_coin"} not in ENGINE.view(played, A)["legal"]
    done = nxt(played, A, T0 + 300)
    assert not done.branches[A].coin and done.offences == ()  # a card was played: no coin owed


def test_coin_duty_met_by_placing_the_coin_before_next():
    hands = [["7-8", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "6-6"]]
    state = table(hands, board={A: ["0-1"]}, coins={A: False}, tops=(["4-5"], []))
    state = draw(state, A, T0 + 100)
    assert {"type": "place_coin"} in ENGINE.view(state, A)["legal"]
    assert illegal(state, B, {"type": "place_coin"}) == "NOT_YOUR_TURN"
    state = act(state, A, {"type": "place_coin"}, T0 + 200)
    assert state.branches[A].coin and state.turn.step is Step.DONE
    assert illegal(state, A, {"type": "play", "card": "4-5", **end_at(state, A, 1)}) == "WRONG_PHASE"
    state = nxt(state, A, T0 + 300)
    assert state.branches[A].coin and state.offences == () and state.turn.seat == B


def test_coin_duty_forgotten_opens_a_coin_offence():
    hands = [["7-8", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "6-6"]]
    state = table(hands, board={A: ["0-1"]}, coins={A: False}, tops=(["4-5"], []))
    state = nxt(draw(state, A, T0 + 100), A, T0 + 300)
    assert not state.branches[A].coin and offences(state) == [("COIN", A)]
    assert state.offences[0].turn == 1 and state.offences[0].created_at == T0 + 300
    assert [e["kind"] for e in ENGINE.view(state, B)["last"]] == ["next"]  # nothing flags it


def test_no_coin_duty_when_the_coin_is_already_on():
    hands = [["7-8", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "6-6"]]
    state = table(hands, tops=(["4-5"], []))
    state = draw(state, A, T0 + 100)
    assert illegal(state, A, {"type": "place_coin"}) == "NO_COIN_DUTY"
    assert nxt(state, A, T0 + 200).offences == ()


def test_draw_from_an_empty_pile_must_use_the_other():
    hands = [["7-8", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "6-6"]]
    state = table(hands, piles=((), ("4-5",)))
    assert illegal(state, A, {"type": "draw", "pile": 0}) == "PILE_EMPTY"
    assert turn_actions(state, A) == [{"type": "draw", "pile": 1}]
    state = draw(state, A, T0 + 100, pile=1)
    assert state.piles == ((), ()) and state.turn.drawn == "4-5"


# -- 19-23. doubles ---------------------------------------------------------------------------


def double_table(**kw):
    """A's branch ends in 4; A holds 4/4 and 4/7; B holds 2/4 and 3/5; C and D hold no 4."""
    hands = [["4-4", "4-7", "8-9"], ["2-4", "3-5", "9-9"], ["5-6", "7-9", "1-1"], ["3-3", "5-5", "6-6"]]
    return table(hands, board={A: ["0-4"], B: ["0-3"]}, **kw)


def test_lay_a_double_obliges_a_follow_up_on_it():
    state = double_table()
    state = play(state, A, "4-4", end_at(state, A, 4), T0 + 100)
    assert state.turn.step is Step.FOLLOW_UP and state.double is not None
    assert state.double.value == 4 and state.double.layer == A and state.branches[A].ends == ()
    assert illegal(state, A, {"type": "play", "card": "8-9", **end_at(state, C, 0)}) == "MUST_FOLLOW_UP"
    assert illegal(state, A, {"type": "next"}) == "MUST_FOLLOW_UP"
    legal = ENGINE.view(state, A)["legal"]
    assert {"type": "play", "card": "4-7", **side_of(state, 0)} in legal and {"type": "next"} not in legal
    state = play(state, A, "4-7", side_of(state, 0), T0 + 200)
    assert state.turn.step is Step.DONE and known(state.double).open_sides() == (1,)
    state = nxt(state, A, T0 + 300)
    # B must fill the other side or draw: normal play is paused for everyone.
    assert illegal(state, B, {"type": "play", "card": "3-5", **end_at(state, B, 3)}, T0 + 350) == (
        "DOUBLE_ACTIVE_FILL_ONLY"
    )
    assert illegal(state, B, {"type": "next"}, T0 + 350) == "MUST_PLAY_OR_DRAW"
    assert illegal(state, B, {"type": "play", "card": "2-4", **side_of(state, 0)}, T0 + 350) == "NO_END"
    legal = ENGINE.view(state, B)["legal"]
    assert [a for a in legal if a["type"] == "play"] == [{"type": "play", "card": "2-4", **side_of(state, 1)}]
    state = play(state, B, "2-4", side_of(state, 1), T0 + 400)
    assert state.double is None and state.turn.step is Step.DONE


def test_fill_ignores_coins():
    state = double_table(coins={A: False})
    state = play(state, A, "4-4", end_at(state, A, 4), T0 + 100)
    state = nxt(draw(state, A, T0 + 150), A, T0 + 200)  # A draws instead of filling
    assert not state.branches[A].coin and state.double is not None
    state = play(state, B, "2-4", side_of(state, 0), T0 + 300)
    assert [p.card for p in state.branches[A].cards][-1] == "2-4"


def test_a_completed_double_splits_the_branch_into_two_ends():
    state = double_table()
    state = play(state, A, "4-4", end_at(state, A, 4), T0 + 100)
    state = play(state, A, "4-7", side_of(state, 0), T0 + 200, uffda=True)
    state = nxt(state, A, T0 + 300)
    state = play(state, B, "2-4", side_of(state, 1), T0 + 400)
    ends = state.branches[A].ends
    assert sorted(e.value for e in ends) == [2, 7] and 4 not in [e.value for e in ends]
    view = ENGINE.view(state, A)["branches"][A]
    assert [c["card"] for c in view["cards"]] == ["0-4", "4-4", "4-7", "2-4"]
    assert view["ends"] == [{"value": 7, "on": 2, "side": 0}, {"value": 2, "on": 3, "side": 0}]
    # Both arms share A's coin: open to others while it is on, protected once it is off.
    protected = replace(state, branches=(replace(state.branches[A], coin=False), *state.branches[1:]))
    c_turn = replace(protected, turn=replace(state.turn, seat=C, step=Step.OPEN))
    assert illegal(c_turn, C, {"type": "play", "card": "7-9", **end_at(c_turn, A, 7)}) == "BRANCH_PROTECTED"
    c_open = replace(state, turn=replace(state.turn, seat=C, step=Step.OPEN))
    assert play(c_open, C, "7-9", end_at(c_open, A, 7), T0 + 500).branches[A].ends[0].value == 9
    a_turn = replace(protected, turn=replace(state.turn, seat=A, step=Step.OPEN))
    a_turn = replace(a_turn, hands=(ids("2-5"), *state.hands[1:]))
    assert {"type": "play", "card": "2-5", **end_at(a_turn, A, 2)} in ENGINE.view(a_turn, A)["legal"]


def test_a_draw_under_a_double_never_costs_a_coin():
    state = double_table(coins={B: False})
    state = play(state, A, "4-4", end_at(state, A, 4), T0 + 100)
    state = play(state, A, "4-7", side_of(state, 0), T0 + 200, uffda=True)
    state = nxt(state, A, T0 + 300)
    state = draw(state, B, T0 + 400)
    assert state.turn.drew_under_double and {"type": "place_coin"} not in ENGINE.view(state, B)["legal"]
    assert illegal(state, B, {"type": "place_coin"}, T0 + 450) == "NO_COIN_DUTY"
    state = nxt(state, B, T0 + 500)
    assert state.offences == () and not state.branches[B].coin


def test_a_drawn_card_under_a_double_may_only_fill_it():
    state = double_table(tops=(["1-2", "3-4"], []))
    state = play(state, A, "4-4", end_at(state, A, 4), T0 + 100)
    state = nxt(draw(state, A, T0 + 150), A, T0 + 200)
    state = draw(state, B, T0 + 300)
    plays = [a for a in ENGINE.view(state, B)["legal"] if a["type"] == "play"]
    assert {a["card"] for a in plays} == {"3-4"}
    state = play(state, B, "3-4", side_of(state, 1), T0 + 400)
    assert state.turn.step is Step.DONE


def test_a_drawn_double_opens_its_own_follow_up():
    hands = [["0-4", "4-7", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "6-6"]]
    state = table(hands, board={A: ["0-5"]}, tops=(["5-5", "5-8"], []))
    state = draw(state, A, T0 + 100)
    state = play(state, A, "5-5", end_at(state, A, 5), T0 + 200)
    assert state.turn.step is Step.FOLLOW_UP and "draw" in [a["type"] for a in ENGINE.view(state, A)["legal"]]
    state = draw(state, A, T0 + 300)
    assert state.turn.step is Step.FOLLOW_UP_DRAWN and state.turn.drawn == "5-8"
    state = play(state, A, "5-8", side_of(state, 0), T0 + 400)
    assert state.turn.step is Step.DONE and state.branches[A].cards[-1].card == "5-8"


def test_last_card_double_requires_the_extra_draw():
    hands = [["6-6"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "3-3"]]
    state = table(hands, board={A: ["0-6"]}, tops=(["1-6"], ["3-8"]))
    state = play(state, A, "6-6", end_at(state, A, 6), T0 + 100)
    assert state.phase is Phase.PLAY and state.hands[A] == () and state.turn.step is Step.FOLLOW_UP
    assert illegal(state, A, {"type": "next"}) == "MUST_FOLLOW_UP"
    assert ENGINE.view(state, A)["legal"] == [
        {"type": "draw", "pile": 0},
        {"type": "draw", "pile": 1},
        {"type": "remove_coin"},
    ]
    # Drawn card matches: A may fill and win.
    fits = draw(state, A, T0 + 200, pile=0, uffda=True)
    assert fits.offences == () and dict(fits.last[-1].info)["uffda"] is True
    won = play(fits, A, "1-6", side_of(fits, 0), T0 + 300)
    assert won.phase is Phase.ROUND_OVER and won.history[-1].winner == A
    assert won.history[-1].scores[A] == -5
    # Drawn card does not match: A keeps it, NEXT is allowed, the double stays active.
    misses = draw(state, A, T0 + 200, pile=1, uffda=True)
    assert misses.hands[A] == ("3-8",) and {"type": "next"} in ENGINE.view(misses, A)["legal"]
    misses = nxt(misses, A, T0 + 300)
    assert misses.double is not None and misses.turn.seat == B and misses.phase is Phase.PLAY


def test_last_card_double_without_draw_cards_wins_with_the_bonus():
    hands = [["6-6"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "3-3"]]
    state = table(hands, round_no=2, board={A: ["1-6"]}, piles=((), ()))
    state = play(state, A, "6-6", end_at(state, A, 6), T0 + 100)
    assert state.phase is Phase.ROUND_OVER
    record = state.history[-1]
    assert record.winner == A and record.scores == (-10, 34, 25, 22)


def test_missed_declaration_on_the_extra_draw_blocks_going_out():
    hands = [["6-6"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "3-3"]]
    state = table(hands, board={A: ["0-6"]}, tops=(["1-6"], []))
    state = play(state, A, "6-6", end_at(state, A, 6), T0 + 100)
    state = draw(state, A, T0 + 200)  # no uffda: T3 missed
    assert offences(state) == [("UFFDA", A)]
    assert (
        illegal(state, A, {"type": "play", "card": "1-6", **side_of(state, 0)}, T0 + 250) == "UFFDA_PENDING"
    )
    assert {"type": "declare_uffda"} in ENGINE.view(state, A)["legal"]
    assert not any(a["type"] == "play" for a in ENGINE.view(state, A)["legal"])
    state = act(state, A, {"type": "declare_uffda"}, T0 + 300)
    # Calls made before the declaration may still be in flight: going out waits for the race.
    assert (
        illegal(state, A, {"type": "play", "card": "1-6", **side_of(state, 0)}, T0 + 310) == "UFFDA_PENDING"
    )
    state = settle(state)
    assert kinds(state) == ["saved"] and state.offences == ()
    state = play(state, A, "1-6", side_of(state, 0), T0 + 600)
    assert state.phase is Phase.ROUND_OVER and state.history[-1].winner == A


# -- 26-28. empty piles, passes, terminated rounds ------------------------------------------


def test_empty_piles_force_a_play_and_a_pass_puts_the_coin_on():
    hands = [["1-5", "8-9"], ["9-9", "7-9"], ["7-7", "5-6"], ["8-8", "0-3"]]
    state = table(hands, board={A: ["0-1"]}, coins={A: False}, piles=((), ()))
    assert illegal(state, A, {"type": "next"}) == "MUST_PLAY_OR_DRAW"
    assert {"type": "next"} not in ENGINE.view(state, A)["legal"]
    stuck = replace(state, hands=(ids("7-8", "8-9"), *state.hands[1:]))
    assert turn_actions(stuck, A) == [{"type": "next"}]
    passed = nxt(stuck, A, T0 + 100)
    assert passed.branches[A].coin and passed.offences == () and passed.turn.seat == B
    assert kinds(passed) == ["coin", "next"] and dict(passed.last[0].info)["auto"] is True


def test_a_pass_under_an_active_double_leaves_the_coin():
    hands = [["8-9", "7-8"], ["9-9", "7-9"], ["5-7", "5-6"], ["8-8", "3-3"]]
    state = table(hands, board={B: ["0-5", "5-5"]}, coins={A: False}, piles=((), ()))
    assert state.double is not None and state.double.value == 5
    state = nxt(state, A, T0 + 100)
    assert not state.branches[A].coin and state.turn.seat == B
    state = nxt(state, B, T0 + 200)  # B holds no 5 either
    assert illegal(state, C, {"type": "next"}, T0 + 250) == "MUST_PLAY_OR_DRAW"  # C must fill


def test_terminated_round_scores_every_hand_without_bonus():
    hands = [["5-5", "1-2"], ["3-4", "0-0"], ["2-2", "0-4"], ["0-1", "3-3"]]
    state = table(hands, round_no=2, seat=A, board={A: ["1-5"]}, piles=((), ()))
    state = replace(state, dealer=C)
    state = play(state, A, "5-5", end_at(state, A, 5), T0 + 100)
    assert state.phase is Phase.ROUND_OVER and kinds(state)[-1] == "round_over"
    record = state.history[-1]
    assert record.winner is None and record.scores == (3, 7, 8, 7) and state.totals == (3, 7, 8, 7)
    assert ENGINE.view(state, None)["scores"][-1]["terminated"] is True
    nxt_round = settle(state)
    assert nxt_round.round == 3 and nxt_round.dealer == A and nxt_round.turn.seat == A


def test_terminated_round_dealer_tie_goes_clockwise_from_the_dealer():
    hands = [["5-5", "0-3"], ["1-2", "2-2"], ["0-1", "0-2"], ["9-9"]]
    state = table(hands, round_no=2, board={A: ["1-5"]}, piles=((), ()))
    state = replace(state, dealer=B)
    state = play(state, A, "5-5", end_at(state, A, 5), T0 + 100)
    assert state.history[-1].scores == (3, 7, 3, 18)
    assert settle(state).dealer == C  # A and C tie on 3: C comes first after dealer B


def test_not_terminated_while_a_protected_branch_may_still_open():
    hands = [["8-9", "7-8"], ["3-6", "7-9"], ["7-7", "6-9"], ["8-8", "6-6"]]
    board = {A: ["0-3"], B: ["0-1"], C: ["0-2"], D: ["0-4"], 4: ["0-5"]}
    state = table(hands, board=board, coins={A: False}, piles=((), ()))
    # Only B's 3/6 could go anywhere, and only on A's protected branch; A cannot play.
    assert turn_actions(state, A) == [{"type": "next"}]
    state = nxt(state, A, T0 + 100)  # A passes: the coin goes on by itself
    assert state.phase is Phase.PLAY and state.branches[A].coin and state.turn.seat == B
    assert illegal(state, B, {"type": "next"}, T0 + 150) == "MUST_PLAY_OR_DRAW"
    assert [a for a in ENGINE.view(state, B)["legal"] if a["type"] == "play"] == [
        {"type": "play", "card": "3-6", **end_at(state, A, 3)}
    ]
    state = play(state, B, "3-6", end_at(state, A, 3), T0 + 200)
    assert state.branches[A].ends[0].value == 6 and state.phase is Phase.PLAY


# -- 29-30. scoring and the end of the game -------------------------------------------------------


def test_round_scoring_bonus_totals_and_next_dealer():
    hands = [["2-3"], ["9-9", "0-1"], ["1-1", "1-2"], ["0-0", "1-3"]]
    state = table(hands, round_no=3, round_end_pause_ms=5000)
    state = play(state, A, "2-3", end_at(state, A, 2), T0 + 100)
    record = state.history[-1]
    assert record.winner == A and record.scores == (-15, 19, 5, 4) and record.round == 3
    assert state.totals == (-15, 19, 5, 4) and state.phase is Phase.ROUND_OVER
    assert ENGINE.view(state, B)["deadline"] == T0 + 100 + 5000
    assert illegal(state, B, {"type": "draw", "pile": 0}, T0 + 200) == "WRONG_PHASE"
    state = ENGINE.tick(state, T0 + 5100)
    assert state.round == 4 and state.center == 3 and state.dealer == A and state.turn.seat == A
    assert "3-3" not in [c for h in state.hands for c in h] and state.branches[0].ends[0].value == 3
    assert all(b.coin and not b.cards for b in state.branches) and state.totals == (-15, 19, 5, 4)


def test_game_end_lowest_total_wins_and_equal_totals_share():
    hands = [["2-3"], ["8-8", "0-1"], ["1-1"], ["0-0", "2-2"]]
    state = table(hands, round_no=10, board={A: ["2-9"]})
    state = replace(state, totals=(60, 50, 0, 40))
    state = play(state, A, "2-3", end_at(state, A, 2), T0 + 100)
    assert state.phase is Phase.GAME_OVER and state.totals == (10, 67, 2, 44)
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.winners == (C,) and outcome.scores == (10, 67, 2, 44)
    assert ENGINE.next_deadline(state) is None and ENGINE.tick(state, 10**12) is state
    assert illegal(state, B, {"type": "next"}, T0 + 200) == "GAME_OVER"
    assert all(ENGINE.view(state, s)["legal"] == [] for s in (None, A, B, C, D))
    tied = table(hands, round_no=10, board={A: ["2-9"]})
    tied = play(replace(tied, totals=(60, 50, 8, 40)), A, "2-3", end_at(tied, A, 2), T0 + 100)
    assert ENGINE.result(tied).winners == (A, C) and ENGINE.view(tied, None)["winners"] == [A, C]
    assert ENGINE.result(tied).detail["ranks"] == [1, 4, 1, 3]


def test_a_shorter_game_keeps_the_bonus_table():
    state = new_game(3, rounds=2, round_end_pause_ms=0)
    assert state.options.rounds == 2 and ENGINE.view(state, A)["rounds"] == 2
    hands = [["2-3"], ["9-9", "0-1"], ["5-5"]]
    state = table(hands, round_no=2, board={A: ["1-2"]}, rounds=2)
    state = play(state, A, "2-3", end_at(state, A, 2), T0 + 100)
    assert state.phase is Phase.GAME_OVER and state.history[-1].scores[A] == -10
    one = table(hands, round_no=1, board={A: ["0-2"]}, rounds=1)
    one = play(one, A, "2-3", end_at(one, A, 2), T0 + 100)
    assert one.phase is Phase.GAME_OVER and one.history[-1].scores[A] == -5


# -- 31-32. determinism, privacy, round end cancels races -----------------------------------------


def scripted_game(seed: str, players: int = 4) -> list:
    """A deterministic script: play the first listed play, else draw; forget every fourth coin;
    declare UFF-DA! on odd turns; the next seat calls whatever it notices (from its view)."""
    state = new_game(players, seed=seed, rounds=2, round_end_pause_ms=1000, turn_seconds=30)
    trace = [(state, [ENGINE.view(state, s) for s in (None, *range(players))])]
    now = 0
    while state.phase is not Phase.GAME_OVER:
        now += 150  # a call 150 ms after a mistake is a human reaction (the arbiter floors faster ones)
        deadline = ENGINE.next_deadline(state)
        if deadline is not None and deadline <= now:
            state = ENGINE.tick(state, deadline)
        elif state.phase is Phase.ROUND_OVER:
            continue
        else:
            seat = state.turn.seat
            caller = (seat + 1) % players
            legal = turn_actions(state, seat)
            view = ENGINE.view(state, caller)
            seen = offences_seen(view)
            calls = [a for a in view["legal"] if a["type"] == "call" and (a["kind"], a["target"]) in seen]
            plays = [a for a in legal if a["type"] == "play"]
            owes = ("UFFDA", seat) in offences_seen(ENGINE.view(state, seat))
            if not legal and not calls and not owes:
                continue  # waiting for a race to be settled
            if calls:
                state = ENGINE.apply(state, Move(caller, calls[0], now, 30))
            elif owes:
                state = ENGINE.apply(state, Move(seat, {"type": "declare_uffda"}, now))
            elif plays:
                state = ENGINE.apply(state, Move(seat, {**plays[0], "uffda": state.turn.no % 2 == 1}, now))
            elif {"type": "place_coin"} in legal and state.turn.no % 4:
                state = ENGINE.apply(state, Move(seat, {"type": "place_coin"}, now))
            else:
                draws = [a for a in legal if a["type"] == "draw"]
                action = draws[0] if draws and state.turn.step in (Step.OPEN, Step.FOLLOW_UP) else legal[-1]
                state = ENGINE.apply(state, Move(seat, action, now))
        trace.append((state, [ENGINE.view(state, s) for s in (None, *range(players))]))
    return trace


def test_same_seed_and_inputs_give_the_same_game_and_views():
    one, two = scripted_game("det-seed-q7"), scripted_game("det-seed-q7")
    assert one == two and ENGINE.result(one[-1][0]) == ENGINE.result(two[-1][0])
    assert any(e.kind == "caught" for s, _ in one for e in s.last)
    for state, views in one:
        board = {p.card for b in state.branches for p in b.cards}
        for seat, view in zip((None, A, B, C, D), views, strict=True):
            mine = set(state.hands[seat]) if seat is not None else set()
            told = {e.secret for e in state.last if seat in e.secret_to}
            text = json.dumps(dict(view, first_draw=None))
            assert set(CARD_RE.findall(text)) <= board | mine | told
            assert "det-seed-q7" not in text
    assert scripted_game("other")[-1][0] != one[-1][0]


def test_views_hide_other_hands_the_drawn_card_and_the_penalty_card():
    hands = [["7-8", "8-9"], ["9-9", "7-9", "6-6"], ["7-7", "5-6", "4-4"], ["8-8", "3-3"]]
    state = table(hands, board={A: ["0-1"]}, coins={A: False}, tops=(["4-5"], []))
    state = draw(state, A, T0 + 100)
    assert ENGINE.view(state, A)["drawn"] == "4-5" and ENGINE.view(state, A)["last"][0]["card"] == "4-5"
    for seat in (None, B, C, D):
        view = ENGINE.view(state, seat)
        assert view["drawn"] is None and "4-5" not in json.dumps(dict(view, first_draw=None))
        assert view["last"] == [
            {
                "seq": view["last"][0]["seq"],
                "at": T0 + 100,
                "kind": "draw",
                "seat": A,
                "pile": 0,
                "uffda": False,
            }
        ]
    state = call(nxt(state, A, T0 + 200), C, Kind.COIN, A, T0 + 300, give="5-6")
    state = settle(state)
    assert kinds(state) == ["caught"] and "5-6" in state.hands[A]
    for seat, sees in ((A, True), (C, True), (B, False), (D, False), (None, False)):
        assert ("5-6" in json.dumps(ENGINE.view(state, seat)["last"])) is sees
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["legal"] == [] and spectator["you"] is None
    assert [s["cards"] for s in spectator["seats"]] == [4, 3, 2, 2]


def test_round_end_cancels_open_mistakes_and_races():
    hands = [["2-3", "0-1"], ["9-9", "7-9", "6-6"], ["7-7", "5-6", "4-4"], ["8-8", "3-3"]]
    state = table(hands, board={A: ["0-2"]}, tops=(["5-8"], []))
    state = play(state, A, "2-3", end_at(state, A, 2), T0 + 100)  # to one card, no UFF-DA!
    state = nxt(state, A, T0 + 200)
    state = call(state, C, Kind.UFFDA, A, T0 + 300)  # a race is running
    assert state.offences[0].race_deadline == T0 + 460
    state = replace(state, hands=(state.hands[A], ids("0-5"), *state.hands[2:]))
    state = play(state, B, "0-5", end_at(state, B, 0), T0 + 350)  # B goes out
    assert state.phase is Phase.ROUND_OVER and state.offences == ()
    assert ENGINE.next_deadline(state) == state.resume_at
    assert illegal(state, D, {"type": "call", "kind": "UFFDA", "target": A}, T0 + 400) == "WRONG_PHASE"
