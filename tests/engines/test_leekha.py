"""Leekha rules engine: every scenario of rules section 7, plus the engine contract.

Notation follows the rules: seats S1-S4 (engine seats 0-3), play order
S1 -> S4 -> S3 -> S2. Cards are engine ids: ``B12`` = Blue +2 (Big Leekha),
``Y10`` = Yellow 0 (Small Leekha), ``R14`` = Red 1, ``B13`` = Blue Skip,
``B11`` = Blue Reverse. Tables are arranged by replacing parts of a started
state (``dataclasses.replace``); unlisted cards are fillers that never include
a Leekha unless the test says so.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from pydantic import ValidationError

from app.bots.playout import playout, replay
from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.leekha import (
    BIG,
    DECK,
    ENGINE,
    SMALL,
    EndReason,
    LeekhaEngine,
    LeekhaOptions,
    LeekhaState,
    Phase,
    ffa_verdict,
    points_of,
    right,
    teams_verdict,
)
from app.engines.leekha.rules import auto_pass, pass_error
from app.engines.step import EndEarly
from app.engines.step import step as apply_input
from tests.engines.helpers import all_views, cards_shown, known

S1, S2, S3, S4 = 0, 1, 2, 3
CARD_RE = re.compile(r"\b[RBYG]\d\d\b")
LEEKHAS = [BIG, SMALL]
FILL_ORDER = [c for colour in "GRYB" for c in DECK if c[0] == colour and c not in LEEKHAS]


# -- helpers -------------------------------------------------------------------


def new_game(seed: str = "test", now: int = 0, **options) -> LeekhaState:
    return ENGINE.start([SeatSetup()] * 4, LeekhaOptions(**options), seed, now)


def _fill(wanted, sizes, avoid, used, *, with_leekhas: bool):
    hands = {s: list(wanted.get(s, [])) for s in range(4)}
    extra = [c for c in LEEKHAS if with_leekhas]
    pool = [c for c in FILL_ORDER + extra if c not in used]
    for seat in sorted(range(4), key=lambda s: -len(avoid.get(s, ""))):
        need = sizes[seat] - len(hands[seat])
        assert need >= 0, f"seat {seat} was given too many cards"
        picks = [c for c in pool if c[0] not in avoid.get(seat, "")][:need]
        assert len(picks) == need, f"not enough fillers for seat {seat}"
        hands[seat] += picks
        pool = [c for c in pool if c not in picks]
    return hands, pool


def assert_conserved(state: LeekhaState) -> None:
    cards = [c for h in state.hands for c in h] + [c for _, c in state.trick]
    cards += [c for cap in state.captured for c in cap] + list(state.discarded)
    assert Counter(cards) == Counter(DECK)


def sort_hand(cards):
    from app.engines.leekha.deck import sort_hand as sort

    return sort(cards)


def pass_table(hands, avoid=None, **options) -> LeekhaState:
    """A PASS_SELECT state whose seats hold ``hands`` (topped up to 13 with fillers)."""
    state = new_game(seed="pass", **options)
    used = {c for h in hands.values() for c in h}
    full, rest = _fill(hands, dict.fromkeys(range(4), 13), avoid or {}, used, with_leekhas=True)
    assert not rest
    state = replace(state, hands=tuple(sort_hand(full[s]) for s in range(4)))
    assert_conserved(state)
    return state


def play_table(
    hands=None,
    *,
    size: int = 8,
    trick=(),
    leader: int = S1,
    avoid=None,
    captured=None,
    dump: int = S1,
    round_pts=None,
    scores=(0, 0, 0, 0),
    base: LeekhaState | None = None,
    **options,
) -> LeekhaState:
    """A PLAY state before trick ``14 - size``: the current trick is ``trick`` (led by
    ``leader``), each seat holds its ``hands`` cards plus fillers, ``captured`` cards
    were won earlier, every other card was won earlier by ``dump``. Round points
    follow the captured cards unless ``round_pts`` is given."""
    hands = hands or {}
    captured = captured or {}
    if base is None:
        base = new_game(**options)
    played = {seat for seat, _ in trick}
    expected, at = [], leader
    for _ in trick:
        expected.append(at)
        at = right(at)
    assert [s for s, _ in trick] == expected, "the trick must be played in turn from the leader"
    sizes = {s: size - (1 if s in played else 0) for s in range(4)}
    used = (
        {c for h in hands.values() for c in h}
        | {c for _, c in trick}
        | {c for v in captured.values() for c in v}
    )
    full, rest = _fill(hands, sizes, avoid or {}, used, with_leekhas=False)
    won = {s: list(captured.get(s, [])) for s in range(4)}
    won[dump] += rest + [c for c in LEEKHAS if c not in used]
    if round_pts is None:
        round_pts = tuple(sum(points_of(c) for c in won[s]) for s in range(4))
    bl = next((s for s in range(4) if BIG in won[s]), None)
    sl = next((s for s in range(4) if SMALL in won[s]), None)
    turn_ms = base.options.turn_ms
    state = replace(
        base,
        phase=Phase.PLAY,
        starter=leader,
        hands=tuple(sort_hand(full[s]) for s in range(4)),
        passes=((),) * 4,
        received=((),) * 4,
        acked=(False,) * 4,
        trick=tuple(trick),
        turn=at,
        tricks_done=13 - size,
        round_pts=tuple(round_pts),
        captured=tuple(sort_hand(won[s]) for s in range(4)),
        discarded=(),
        bl_taker=bl,
        sl_taker=sl,
        end_reason=None,
        last_trick=None,
        deadline=turn_ms if turn_ms else None,
        scores=tuple(scores),
    )
    assert_conserved(state)
    return state


def act(state: LeekhaState, seat: int, action: dict, at: int = 1000) -> LeekhaState:
    return ENGINE.apply(state, Move(seat, action, at))


def play(state: LeekhaState, seat: int, card: str, at: int = 1000) -> LeekhaState:
    return act(state, seat, {"type": "play_card", "card": card}, at)


def give(state: LeekhaState, seat: int, cards, at: int = 1000) -> LeekhaState:
    return act(state, seat, {"type": "submit_pass", "cards": list(cards)}, at)


def illegal(state: LeekhaState, seat: int, action: Any, at: int = 1000) -> str:
    """Apply an action that must be rejected; check the state was left alone and return the code."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        act(state, seat, action, at)
    assert state == before
    assert info.value.message and info.value.message[0].isupper()
    return info.value.code


def playable(state: LeekhaState, seat: int) -> set[str]:
    return {a["card"] for a in ENGINE.view(state, seat)["legal"] if a["type"] == "play_card"}


def views(state: LeekhaState) -> list[dict]:
    return all_views(ENGINE, state, 4)


def cards_in(view: dict) -> set[str]:
    return cards_shown(CARD_RE, view)


def pass_all(state: LeekhaState, at: int = 1000) -> LeekhaState:
    for seat in range(4):
        state = give(state, seat, auto_pass(state.hands[seat]), at)
    return state


def to_play(state: LeekhaState, at: int = 2000) -> LeekhaState:
    """From PASS_SELECT: everyone passes, then everyone confirms."""
    state = pass_all(state, at)
    for seat in range(4):
        state = act(state, seat, {"type": "ack"}, at)
    assert state.phase is Phase.PLAY
    return state


def last_trick(scores, round_pts, *, base: LeekhaState | None = None, bl: int = S1, **options) -> LeekhaState:
    """The 13th trick of a round, worth nothing: S1 leads G05 and wins it. Before it the
    scores are ``scores`` and the round points ``round_pts``; ``bl`` took the Big Leekha."""
    state = play_table(
        {S1: ["G05"], S4: ["G04"], S3: ["G03"], S2: ["G02"]},
        size=1,
        captured={bl: [BIG]},
        round_pts=round_pts,
        scores=scores,
        base=base,
        **options,
    )
    return state


def finish_trick(state: LeekhaState, at: int = 1000) -> LeekhaState:
    """Play lowest legal cards until the current trick (or the next one) is complete."""
    played = False
    while state.phase is Phase.PLAY and (state.trick or not played):
        seat = known(state.turn)
        card = min(playable(state, seat), key=lambda c: (int(c[1:]), c))
        state = play(state, seat, card, at)
        played = True
    return state


def play_last_trick(state: LeekhaState, at: int = 1000) -> LeekhaState:
    for seat, card in ((S1, "G05"), (S4, "G04"), (S3, "G03"), (S2, "G02")):
        state = play(state, seat, card, at)
    return state


# -- 1. deck ---------------------------------------------------------------------


def test_deck_has_52_distinct_cards_13_per_colour_and_36_points():
    state = new_game()
    cards = [c for hand in state.hands for c in hand]
    assert len(cards) == len(set(cards)) == 52
    assert Counter(c[0] for c in cards) == {"R": 13, "B": 13, "Y": 13, "G": 13}
    assert all(len(hand) == 13 for hand in state.hands)
    assert sum(points_of(c) for c in cards) == 36
    assert (points_of("R12"), points_of("B12"), points_of("Y10"), points_of("G12")) == (1, 13, 10, 0)
    assert points_of("R10") == 1 and points_of("B10") == 0 and points_of("Y12") == 0


def test_deal_is_seeded_and_first_player_is_random():
    assert new_game(seed="same") == new_game(seed="same")
    starters = {new_game(seed=f"s-{i}").starter for i in range(40)}
    assert starters == {0, 1, 2, 3}


# -- 2-9. passing -----------------------------------------------------------------


def test_pass_routing_goes_to_the_right():
    state = new_game()
    before = state.hands
    state = pass_all(state)
    assert state.phase is Phase.PASS_REVEAL
    gives = state.passes
    # S1 -> S4, S4 -> S3, S3 -> S2, S2 -> S1.
    for giver, receiver in ((S1, S4), (S4, S3), (S3, S2), (S2, S1)):
        given = set(known(gives[giver]))
        assert given <= set(state.hands[receiver])
        assert not given & set(state.hands[giver])
        assert state.received[receiver] == gives[giver]
    assert all(len(h) == 13 for h in state.hands)
    assert Counter(c for h in state.hands for c in h) == Counter(c for h in before for c in h)


def test_pass_may_not_empty_red_even_if_red_will_be_received():
    state = pass_table({S2: ["R05", "G03", "G04"], S3: ["R02", "R03", "R04", "R06"]}, avoid={S2: "R"})
    state = give(state, S3, ["R02", "R03", "R04"])  # S3 passes to S2
    assert state.passes[S3] is not None
    code = illegal(state, S2, {"type": "submit_pass", "cards": ["R05", "G03", "G04"]})
    assert code == "PASS_EMPTIES_COLOUR"
    with pytest.raises(IllegalAction, match="red"):
        give(state, S2, ["R05", "G03", "G04"])


def test_pass_may_not_empty_green_even_with_the_ace():
    state = pass_table({S1: ["G14", "R02", "R03"]}, avoid={S1: "G"})
    assert (
        illegal(state, S1, {"type": "submit_pass", "cards": ["G14", "R02", "R03"]}) == "PASS_EMPTIES_COLOUR"
    )


def test_pass_empties_yellow_only_with_cards_from_the_zero_up():
    state = pass_table({S1: ["Y10", "Y06", "B03", "B04", "B05"]}, avoid={S1: "Y"})
    assert (
        illegal(state, S1, {"type": "submit_pass", "cards": ["Y10", "Y06", "B03"]}) == "PASS_EMPTIES_COLOUR"
    )
    state = give(state, S1, ["Y10", "B03", "B04"])  # yellow not emptied: Y6 stays
    assert state.passes[S1] == ("B04", "B03", "Y10")


def test_pass_empties_yellow_legally_with_zero_and_skip():
    state = pass_table({S1: ["Y10", "Y13", "R09", "R03"]}, avoid={S1: "Y"})
    state = give(state, S1, ["Y10", "Y13", "R09"])
    assert set(known(state.passes[S1])) == {"Y10", "Y13", "R09"}


@pytest.mark.parametrize(
    ("blues", "ok"),
    [(["B12", "B11"], False), (["B12", "B14"], True), (["B13"], True), (["B11"], False)],
)
def test_pass_empties_blue_only_with_cards_from_the_plus_two_up(blues, ok):
    state = pass_table({S1: [*blues, "G02", "G03", "G04"]}, avoid={S1: "B"})
    cards = [*blues, "G02", "G03"][:3]
    if ok:
        assert set(known(give(state, S1, cards).passes[S1])) == set(cards)
    else:
        assert illegal(state, S1, {"type": "submit_pass", "cards": cards}) == "PASS_EMPTIES_COLOUR"


def test_pass_may_empty_two_colours_at_once():
    state = pass_table({S1: ["Y14", "B13", "B12"]}, avoid={S1: "YB"})
    state = give(state, S1, ["Y14", "B13", "B12"])
    assert set(known(state.passes[S1])) == {"Y14", "B13", "B12"}


def test_malformed_passes_are_rejected_and_leave_the_state_alone():
    state = pass_table({S1: ["G02", "G03", "G04", "G05"]})
    assert illegal(state, S1, {"type": "submit_pass", "cards": ["G02", "G03"]}) == "PASS_NOT_THREE_DISTINCT"
    assert (
        illegal(state, S1, {"type": "submit_pass", "cards": ["G02", "G02", "G03"]})
        == "PASS_NOT_THREE_DISTINCT"
    )
    assert illegal(state, S1, {"type": "submit_pass", "cards": ["G02", "G03", "R99"]}) == "NOT_IN_HAND"
    not_mine = state.hands[S2][0]
    assert illegal(state, S1, {"type": "submit_pass", "cards": ["G02", "G03", not_mine]}) == "NOT_IN_HAND"
    assert illegal(state, S1, {"type": "submit_pass", "cards": "G02"}) == "BAD_ACTION"
    assert illegal(state, S1, {"type": "submit_pass", "cards": ["G02", "G03", 7]}) == "BAD_ACTION"
    assert illegal(state, S1, {"type": "submit_pass"}) == "BAD_ACTION"
    state = give(state, S1, ["G02", "G03", "G04"])
    assert (
        illegal(state, S1, {"type": "submit_pass", "cards": ["G05", "G03", "G04"]})
        == "PASS_ALREADY_SUBMITTED"
    )


def test_a_pass_is_hidden_until_all_four_have_passed():
    state = give(pass_table({S1: ["G02", "G03", "G04", "G05"]}), S1, ["G02", "G03", "G04"])
    mine = ENGINE.view(state, S1)
    assert mine["pass"] == ["G04", "G03", "G02"] and mine["legal"] == []
    for seat in (None, S2, S3, S4):
        v = ENGINE.view(state, seat)
        assert v["pass"] is None and v["seats"][S1]["passed"] is True
        assert not cards_in(v) & {"G02", "G03", "G04"}
    assert ENGINE.view(state, S2)["legal"][0]["type"] == "submit_pass"


# -- 10. reveal -----------------------------------------------------------------------


def test_reveal_shows_received_cards_to_the_receiver_only():
    state = pass_all(new_game(), at=3000)
    assert state.phase is Phase.PASS_REVEAL
    got = state.received[S4]
    assert ENGINE.view(state, S4)["received"] == list(got) == list(known(state.passes[S1]))
    assert not cards_in(ENGINE.view(state, S2)) & set(got)
    assert not cards_in(ENGINE.view(state, None)) & set(got)
    card = state.hands[state.starter][0]
    assert illegal(state, state.starter, {"type": "play_card", "card": card}, 3500) == "WRONG_PHASE"
    assert ENGINE.next_deadline(state) == 3000 + 5000
    acked = state
    for seat in range(4):
        assert acked.phase is Phase.PASS_REVEAL
        acked = act(acked, seat, {"type": "ack"}, 3500)
    assert acked.phase is Phase.PLAY and acked.turn == state.starter
    assert ENGINE.next_deadline(acked) == 3500 + 90000
    # Or the deadline passes.
    assert ENGINE.tick(state, 7999) is state
    timed = ENGINE.tick(state, 8000)
    assert timed.phase is Phase.PLAY and timed.turn == state.starter
    assert illegal(acked, S1, {"type": "ack"}, 3600) == "WRONG_PHASE"


def test_a_second_ack_is_rejected():
    state = act(pass_all(new_game()), S2, {"type": "ack"})
    assert illegal(state, S2, {"type": "ack"}) == "ALREADY_ACKED"
    assert ENGINE.view(state, S2)["legal"] == [] and ENGINE.view(state, S3)["legal"] == [{"type": "ack"}]


# -- 11-18. legal cards -----------------------------------------------------------------


def test_follow_colour():
    state = play_table({S4: ["G02", "R05"]}, trick=[(S1, "G07")], avoid={S4: "G"})
    assert state.turn == S4
    assert illegal(state, S4, {"type": "play_card", "card": "R05"}) == "MUST_FOLLOW_COLOUR"
    assert play(state, S4, "G02").trick == ((S1, "G07"), (S4, "G02"))


def test_forced_small_leekha_under_a_higher_yellow():
    state = play_table(
        {S3: ["Y10", "Y03", "Y09"], S2: ["Y02"]},
        trick=[(S1, "Y05"), (S4, "Y11")],
        avoid={S2: "Y", S3: "Y"},
    )
    assert state.turn == S3 and playable(state, S3) == {"Y10"}
    assert illegal(state, S3, {"type": "play_card", "card": "Y03"}) == "MUST_PLAY_LEEKHA_UNDER_HIGHER"
    before = state.round_pts[S4]
    state = play(play(state, S3, "Y10"), S2, "Y02")
    assert known(state.last_trick).winner == S4 and state.round_pts[S4] == before + 10
    assert state.sl_taker == S4 and state.turn == S4 and state.tricks_done == 6


def test_small_leekha_not_forced_by_lower_yellows():
    state = play_table({S4: ["Y10", "Y03"]}, trick=[(S1, "Y09")], avoid={S4: "Y"})
    assert playable(state, S4) == {"Y10", "Y03"}
    play(state, S4, "Y03")
    play(state, S4, "Y10")


def test_the_lead_counts_as_a_higher_card():
    state = play_table({S4: ["Y10", "Y02"]}, trick=[(S1, "Y14")], avoid={S4: "Y"})
    assert playable(state, S4) == {"Y10"}
    assert illegal(state, S4, {"type": "play_card", "card": "Y02"}) == "MUST_PLAY_LEEKHA_UNDER_HIGHER"


def test_forced_big_leekha_under_blue_skip_or_one_but_not_reverse():
    skip = play_table({S3: ["B12", "B04"]}, trick=[(S1, "B03"), (S4, "B13")], avoid={S3: "B"})
    assert playable(skip, S3) == {"B12"}
    assert illegal(skip, S3, {"type": "play_card", "card": "B04"}) == "MUST_PLAY_LEEKHA_UNDER_HIGHER"
    reverse = play_table({S3: ["B12", "B04"]}, trick=[(S1, "B03"), (S4, "B11")], avoid={S3: "B"})
    assert playable(reverse, S3) == {"B12", "B04"}
    ace_lead = play_table({S4: ["B12", "B04"]}, trick=[(S1, "B14")], avoid={S4: "B"})
    assert playable(ace_lead, S4) == {"B12"}


def test_forced_leekha_binds_even_when_the_teammate_is_winning():
    state = play_table(
        {S2: ["Y10", "Y03"]}, trick=[(S1, "Y05"), (S4, "Y02"), (S3, "Y13")], avoid={S2: "Y"}, mode="teams"
    )
    assert playable(state, S2) == {"Y10"}  # S3 is S2's teammate


def test_a_high_yellow_played_off_colour_forces_nothing():
    state = play_table(
        {S4: ["Y13"], S3: ["Y10", "G05", "G06"]}, trick=[(S1, "G03")], avoid={S4: "G", S3: "G"}
    )
    state = play(state, S4, "Y13")  # S4 is void in green and holds no Leekha
    assert playable(state, S3) == {"G05", "G06"}
    assert illegal(state, S3, {"type": "play_card", "card": "Y10"}) == "MUST_FOLLOW_COLOUR"


def test_void_player_must_drop_a_leekha():
    state = play_table({S4: ["B12", "Y10", "G09"]}, trick=[(S1, "R04")], avoid={S4: "R"})
    assert playable(state, S4) == {"B12", "Y10"}
    assert illegal(state, S4, {"type": "play_card", "card": "G09"}) == "MUST_PLAY_LEEKHA_VOID"
    only_small = play_table({S4: ["Y10", "G09"]}, trick=[(S1, "R04")], avoid={S4: "RBY"})
    assert playable(only_small, S4) == {"Y10"}
    assert all(c[0] in "GY" for c in only_small.hands[S4])


def test_void_player_without_leekha_may_play_anything():
    state = play_table({S4: ["G09", "B03", "Y05"]}, trick=[(S1, "R04")], avoid={S4: "R"})
    assert playable(state, S4) == set(state.hands[S4])
    play(state, S4, "B03")


def test_any_card_may_be_led_from_the_first_trick():
    state = to_play(new_game(seed="lead"))
    starter = state.starter
    leader_hand = {starter: ["B12", "R14", "Y10"]}
    table = play_table(leader_hand, size=13, leader=starter)
    assert table.tricks_done == 0
    assert {"B12", "R14", "Y10"} <= playable(table, starter)
    assert play(table, starter, "B12").trick == ((starter, "B12"),)
    later = replace(table, round=3)
    assert play(later, starter, "R14").led_colour == "R"


# -- 19-22. tricks, the 37 rule, throwing in ---------------------------------------------


def test_trick_goes_to_the_highest_card_of_the_led_colour():
    state = play_table(
        {S4: ["G09"], S3: ["R14"], S2: ["B12"]},
        trick=[(S1, "G03")],
        avoid={S3: "G", S2: "G"},
    )
    before = state.round_pts
    state = play(state, S4, "G09")
    state = play(state, S3, "R14")
    assert playable(state, S2) == {"B12"}
    state = play(state, S2, "B12")
    assert known(state.last_trick).winner == S4 and known(state.last_trick).points == 14
    assert state.round_pts[S4] == before[S4] + 14 and state.bl_taker == S4
    assert state.turn == S4 and state.trick == () and state.phase is Phase.PLAY
    assert_conserved(state)


def test_rule_37_ends_the_round_mid_round():
    captured = {S2: ["R02", "R03", "R04", "R05", "R06"], S3: ["R07", "R08", "R09"]}
    state = play_table(
        {S1: ["B13"], S4: ["B12"], S3: ["Y10"], S2: ["B05"]},
        size=8,
        avoid={S3: "B"},
        captured=captured,
        scores=(20, 30, 40, 50),
    )
    assert state.round_pts == (0, 5, 3, 0) and state.tricks_done == 5
    state = play(state, S1, "B13")
    assert playable(state, S4) == {"B12"}
    state = play(state, S4, "B12")
    assert playable(state, S3) == {"Y10"}
    state = play(state, S3, "Y10")
    state = play(state, S2, "B05")
    assert state.phase is Phase.ROUND_END and state.end_reason is EndReason.RULE37
    assert state.round_pts == (37, 0, 0, 0) and state.scores == (57, 30, 40, 50)
    assert len(state.discarded) == 28 and all(h == () for h in state.hands)
    assert state.bl_taker == state.sl_taker == S1
    assert state.history[-1].points == (37, 0, 0, 0) and state.history[-1].end is EndReason.RULE37
    for v in views(state):
        assert not cards_in(v) & set(state.discarded)
    assert_conserved(state)
    state = ENGINE.tick(state, known(state.deadline))
    assert state.phase is Phase.PASS_SELECT and state.round == 2 and state.starter == S4


def test_rule_37_applies_on_the_last_trick_too():
    state = play_table({S1: ["B13"], S4: ["B12"], S3: ["Y10"], S2: ["B05"]}, size=1, dump=S2)
    assert state.round_pts[S2] == 13
    for seat, card in ((S1, "B13"), (S4, "B12"), (S3, "Y10"), (S2, "B05")):
        state = play(state, seat, card)
    assert state.end_reason is EndReason.RULE37 and state.round_pts == (37, 0, 0, 0)


def test_leekhas_in_different_tricks_score_normally():
    # S2 took the Blue +2 back in trick 3; in trick 8 it takes the Yellow 0 as well.
    state = play_table(
        {S2: ["Y13"], S1: ["Y04"], S4: ["Y10"], S3: ["Y05"]},
        size=6,
        leader=S2,
        captured={S2: ["B12", "G06", "G07", "G08"]},
        avoid={S4: "Y"},
    )
    assert state.bl_taker == S2 and state.tricks_done == 7
    before = state.round_pts[S2]
    state = play(state, S2, "Y13")
    state = play(state, S1, "Y04")
    state = play(state, S4, "Y10")
    state = play(state, S3, "Y05")
    assert state.round_pts[S2] == before + 10 and state.phase is Phase.PLAY
    while state.phase is Phase.PLAY:  # the rest by timeouts
        state = ENGINE.tick(state, known(state.deadline))
    assert state.end_reason is EndReason.COMPLETE and state.history[-1].tricks == 13
    assert sum(state.history[-1].points) == 36 and state.history[-1].points[S2] >= 23
    assert_conserved(state)


def test_throw_in_takes_every_point_still_in_play():
    captured = {S1: ["R03", "R04", "R05"], S2: ["R06", "R10"], S4: ["R11", "R12", "R13", "R14"]}
    state = play_table(
        {S2: ["B12", "R09"], S3: ["R07"], S1: ["R08"]},
        size=5,
        trick=[(S1, "R02"), (S4, "Y10")],
        avoid={S4: "R"},
        captured=captured,
        dump=S4,
    )
    assert state.tricks_done == 8 and state.turn == S3
    assert state.round_pts == (3, 2, 0, 4)
    state = act(state, S3, {"type": "throw_in"})
    assert state.phase is Phase.ROUND_END and state.end_reason is EndReason.THROW_IN
    assert state.round_pts == (3, 2, 27, 4) and sum(state.round_pts) == 36
    assert state.bl_taker == S3 and state.sl_taker == S3
    assert known(state.last).kind == "throw_in" and known(state.last).points == 27
    for v in views(state):
        assert not cards_in(v) & set(state.discarded)
    assert_conserved(state)
    state = ENGINE.tick(state, known(state.deadline))
    assert state.starter == S2


def test_throw_in_keeps_a_captured_big_leekha_with_its_taker_and_may_be_worth_nothing():
    state = play_table(
        {S1: ["G05"]}, size=2, captured={S4: ["B12", "Y10", *(f"R{r:02d}" for r in range(2, 15))]}
    )
    assert state.round_pts == (0, 0, 0, 36)
    state = act(state, S1, {"type": "throw_in"})
    assert state.end_reason is EndReason.THROW_IN and state.round_pts == (0, 0, 0, 36)
    assert state.bl_taker == S4 and state.sl_taker == S4 and known(state.last).points == 0


def test_throw_in_only_on_your_turn_in_trick_play():
    state = play_table(trick=[(S1, "G07")])
    assert illegal(state, S3, {"type": "throw_in"}) == "NOT_YOUR_TURN"
    assert illegal(new_game(), S1, {"type": "throw_in"}) == "WRONG_PHASE"
    assert illegal(pass_all(new_game()), S1, {"type": "throw_in"}) == "WRONG_PHASE"
    assert {"type": "throw_in"} in ENGINE.view(state, S4)["legal"]
    assert ENGINE.view(state, S3)["legal"] == []


@pytest.mark.parametrize(("taker", "next_starter"), [(S2, S1), (S1, S4), (S4, S3), (S3, S2)])
def test_next_round_is_led_by_the_right_of_the_big_leekha_taker(taker, next_starter):
    state = last_trick((0, 0, 0, 0), (13, 0, 0, 0), bl=taker)
    state = play_last_trick(state)
    assert state.phase is Phase.ROUND_END and state.bl_taker == taker
    for seat in range(4):
        state = act(state, seat, {"type": "ack"}, 2000)
    assert state.phase is Phase.PASS_SELECT and state.round == 2 and state.starter == next_starter
    state = to_play(state, 3000)
    assert state.turn == next_starter


# -- 25-28. match end -------------------------------------------------------------------


def test_free_for_all_end_the_highest_score_loses():
    state = play_last_trick(last_trick((90, 91, 27, 20), (13, 10, 13, 0)))
    assert state.scores == (103, 101, 40, 20)
    assert state.phase is Phase.MATCH_END and ENGINE.next_deadline(state) is None
    assert known(state.verdict).losers == (S1,) and known(state.verdict).places == (4, 3, 2, 1)
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.winners == (S4,) and outcome.scores == (103, 101, 40, 20)
    assert outcome.detail["result"]["losers"] == [S1]
    assert illegal(state, S1, {"type": "ack"}) == "GAME_OVER"
    assert ENGINE.view(state, S1)["result"] == {"losers": [S1], "places": [4, 3, 2, 1], "early": False}


def test_free_for_all_ranking_ties_share_the_better_place():
    assert known(ffa_verdict((110, 50, 50, 30), 101)).places == (4, 2, 2, 1)
    assert known(ffa_verdict((110, 30, 30, 60), 101)).places == (4, 1, 1, 3)


def test_free_for_all_tie_at_the_top_plays_another_round():
    state = play_last_trick(last_trick((90, 94, 50, 30), (14, 10, 0, 12)))
    assert state.scores == (104, 104, 50, 42)
    assert state.phase is Phase.ROUND_END and state.verdict is None
    assert ENGINE.view(state, None)["decider"] is True
    state = ENGINE.tick(state, known(state.deadline))
    assert state.phase is Phase.PASS_SELECT and state.round == 2
    # The decider is tied again: yet another round.
    again = play_last_trick(last_trick(state.scores, (3, 3, 15, 15), base=state))
    assert again.scores == (107, 107, 65, 57) and again.phase is Phase.ROUND_END
    state = ENGINE.tick(again, known(again.deadline))
    state = play_last_trick(last_trick(state.scores, (3, 0, 20, 13), base=state))
    assert state.scores == (110, 107, 85, 70)
    assert state.phase is Phase.MATCH_END and known(state.verdict).losers == (S1,)
    assert len(state.history) == 3


def test_free_for_all_below_the_limit_goes_on():
    state = play_last_trick(last_trick((80, 80, 80, 80), (20, 16, 0, 0)))
    assert state.scores == (100, 96, 80, 80) and state.phase is Phase.ROUND_END
    assert ENGINE.view(state, None)["decider"] is False


def test_teams_one_team_over_loses_even_with_the_smaller_sum():
    state = play_last_trick(last_trick((88, 90, 10, 72), (13, 0, 0, 23), mode="teams"))
    assert state.scores == (101, 90, 10, 95)
    assert state.phase is Phase.MATCH_END and known(state.verdict).losers == (S1, S3)
    assert ENGINE.result(state).winners == (S2, S4)
    assert ENGINE.view(state, S1)["seats"][S3]["team"] == 0


def test_teams_both_over_the_higher_individual_score_loses():
    verdict = known(teams_verdict((110, 105, 0, 100), 101))
    assert verdict.losers == (S1, S3)  # hi 110 vs 105, although sums are 110 vs 205
    assert known(teams_verdict((101, 130, 100, 0), 101)).losers == (S2, S4)


def test_teams_both_over_equal_highs_then_the_higher_sum_loses():
    state = play_last_trick(last_trick((92, 92, 40, 48), (13, 13, 0, 10), mode="teams"))
    assert state.scores == (105, 105, 40, 58) and known(state.verdict).losers == (S2, S4)
    exact = play_last_trick(last_trick((92, 92, 40, 50), (13, 13, 0, 10), mode="teams"))
    assert exact.scores == (105, 105, 40, 60) and known(exact.verdict).losers == (S2, S4)


def test_teams_equal_highs_and_sums_play_another_round():
    state = play_last_trick(last_trick((92, 92, 40, 30), (13, 13, 0, 10), mode="teams"))
    assert state.scores == (105, 105, 40, 40)
    assert state.phase is Phase.ROUND_END and state.verdict is None
    assert ENGINE.view(state, S1)["decider"] is True
    state = ENGINE.tick(state, known(state.deadline))
    assert state.round == 2 and state.phase is Phase.PASS_SELECT
    state = play_last_trick(last_trick(state.scores, (0, 1, 20, 15), base=state))
    assert state.scores == (105, 106, 60, 55)
    assert state.phase is Phase.MATCH_END and known(state.verdict).losers == (S2, S4)


def test_teams_nobody_over_goes_on():
    assert teams_verdict((100, 100, 100, 100), 101) is None


# -- 29-30. early end ---------------------------------------------------------------------


def end_early(state: LeekhaState, at: int) -> LeekhaState:
    """The host ends the match early, through the one input door."""
    return apply_input(ENGINE, state, EndEarly(at))


def early_end_table(**options) -> LeekhaState:
    """Free for All: S2 had 95 and took 12 this round (live 107), the Big Leekha is gone,
    8 red points are left, the others are at 70 / 60 / 50."""
    return play_table(
        {S1: ["R07", "R08"], S2: ["R09", "R10"], S3: ["R11", "R12"], S4: ["R13", "R14"]},
        size=5,
        captured={S1: ["B12"], S2: ["Y10", "R02", "R03"], S3: ["R04", "R05", "R06"]},
        dump=S4,
        scores=(57, 95, 57, 50),
        **options,
    )


def test_early_end_available_once_the_loser_is_certain():
    state = early_end_table()
    assert state.round_pts == (13, 12, 3, 0) and state.live == (70, 107, 60, 50)
    for v in views(state):
        assert v["decided"] == {"seat": S2, "losers": [S2]}
    assert illegal(state, S3, {"type": "end_match_early"}) == "NOT_ADMIN"
    ended = end_early(state, 5000)
    assert ended.phase is Phase.MATCH_END and ended.end_reason is EndReason.EARLY_END
    assert ended.scores == (70, 107, 60, 50)
    assert (
        known(ended.verdict).losers == (S2,)
        and known(ended.verdict).places == (3, 4, 2, 1)
        and known(ended.verdict).early
    )
    assert ended.history[-1].end is EndReason.EARLY_END and ended.history[-1].points == (13, 12, 3, 0)
    assert known(ended.last).kind == "early_end" and known(ended.last).seat == S2
    assert ENGINE.result(ended).winners == (S4,)
    assert_conserved(ended)
    for v in views(ended):
        assert not cards_in(v) & set(ended.discarded)
    with pytest.raises(IllegalAction) as info:
        end_early(ended, 6000)
    assert info.value.code == "GAME_OVER"


def test_early_end_stays_available_for_the_rest_of_the_round():
    state = early_end_table()
    state = finish_trick(state)
    assert state.tricks_done == 9 and ENGINE.view(state, None)["decided"]["seat"] == S2
    turn = known(state.turn)
    state = play(state, turn, min(playable(state, turn)))
    assert ENGINE.view(state, None)["decided"]["seat"] == S2  # mid-trick too


def test_early_end_not_available_while_a_37_could_wipe_the_round():
    state = play_table(
        {S1: ["B12"], S3: ["Y10"]},
        size=5,
        captured={S2: ["R02", "R03", "R04", "R05", "R06", "R07", "R08", "R09"]},
        dump=S4,
        scores=(10, 95, 20, 30),
    )
    assert state.live[S2] == 103 and state.bl_taker is None and state.sl_taker is None
    assert ENGINE.view(state, None)["decided"] is None
    with pytest.raises(IllegalAction) as info:
        end_early(state, 5000)
    assert info.value.code == "NOT_DECIDED"


def test_early_end_not_available_when_an_opponent_can_reach_the_same_score():
    def table(s1_pre: int) -> LeekhaState:
        return play_table(
            {S1: ["R02", "R03", "R04"], S3: ["Y10", "R05", "R06"], S2: ["R07", "R08"], S4: ["R09"]},
            size=5,
            captured={S2: ["B12"], S4: ["R10", "R11", "R12", "R13", "R14"]},
            dump=S4,
            scores=(s1_pre, 95, 0, 10),
            mode="teams",
        )

    tied = table(90)
    # S2: 95 + 13 = 108; S1 can still take all 18 points left: 90 + 18 = 108.
    assert tied.live[S2] == 108 and 36 - sum(tied.round_pts) == 18
    assert ENGINE.view(tied, S1)["decided"] is None
    with pytest.raises(IllegalAction):
        end_early(tied, 5000)
    one_short = table(89)
    assert ENGINE.view(one_short, S1)["decided"] == {"seat": S2, "losers": [S2, S4]}
    ended = end_early(one_short, 5000)
    assert known(ended.verdict).losers == (S2, S4) and ENGINE.result(ended).winners == (S1, S3)


def test_early_end_is_never_offered_outside_trick_play():
    state = play_last_trick(last_trick((95, 0, 0, 0), (13, 0, 0, 0)))
    assert state.scores[S1] == 108 and state.phase is Phase.MATCH_END
    with pytest.raises(IllegalAction):
        end_early(new_game(), 0)
    assert ENGINE.view(new_game(), S1)["decided"] is None


# -- 31. determinism and privacy --------------------------------------------------------------


def scripted_match(seed: str) -> tuple[LeekhaState, list]:
    """A few rounds where everyone passes and plays the lowest legal card on time."""
    state = new_game(seed=seed, turn_ms=100, reveal_ms=50, scoreboard_ms=70)
    log: list[Any] = []
    t = 0
    while state.phase is not Phase.MATCH_END and state.round <= 3:
        t += 7
        if state.phase is Phase.PLAY and state.turn is not None:
            seat = state.turn
            card = sorted(playable(state, seat))[0]
            move = Move(seat, {"type": "play_card", "card": card}, t)
        elif state.phase is Phase.PASS_SELECT:
            seat = next(s for s in range(4) if state.passes[s] is None)
            move = Move(seat, {"type": "submit_pass", "cards": list(auto_pass(state.hands[seat]))}, t)
        else:
            t = max(t, known(state.deadline))
            state = ENGINE.tick(state, t)
            log.append(t)
            continue
        state = ENGINE.apply(state, move)
        log.append(move)
    return state, log


def test_determinism_same_seed_and_inputs_same_state():
    one, log = scripted_match("det")
    assert len(log) > 150
    two, _ = scripted_match("det")
    assert one == two and one.round >= 3
    assert scripted_match("other")[0] != one


def test_no_view_shows_another_seats_hand_pass_or_received_cards():
    state = new_game(seed="privacy-seed")
    for step in range(120):
        for seat in (None, 0, 1, 2, 3):
            v = ENGINE.view(state, seat)
            shown = cards_in(v)
            text = json.dumps(v)
            assert "privacy-seed" not in text and str(state.rng.state) not in text
            for other in range(4):
                if other == seat:
                    continue
                # Another seat's cards still in hand, among them its pass and what it received;
                # only the cards this seat passed itself are known to it.
                secret = set(state.hands[other])
                if seat is not None:
                    secret -= set(state.passes[seat] or ())
                assert not shown & secret, (step, seat, other)
            assert not shown & set(state.discarded)
        if state.phase is Phase.PASS_SELECT:
            seat = next(s for s in range(4) if state.passes[s] is None)
            state = give(state, seat, auto_pass(state.hands[seat]), 10 * step)
        else:
            state = ENGINE.tick(state, known(state.deadline))


# -- the engine contract ------------------------------------------------------------------------


def test_the_package_exports_a_ready_engine():
    assert isinstance(ENGINE, LeekhaEngine) and ENGINE.name == "leekha" and ENGINE.title == "Leekha"


def test_exactly_four_players():
    with pytest.raises(IllegalAction) as info:
        ENGINE.start([SeatSetup()] * 3, LeekhaOptions(), "x", 0)
    assert info.value.code == "BAD_PLAYER_COUNT"
    assert (LeekhaEngine.min_players, LeekhaEngine.max_players) == (4, 4)


def test_options_have_defaults_bounds_and_descriptions():
    schema = LeekhaOptions.model_json_schema()
    assert set(schema["properties"]) == {"mode", "limit", "reveal_ms", "turn_ms", "scoreboard_ms"}
    assert all(field.get("description") for field in schema["properties"].values())
    o = LeekhaOptions()
    assert (o.mode, o.limit, o.reveal_ms, o.turn_ms, o.scoreboard_ms) == ("ffa", 101, 5000, 90000, 10000)
    for bad in ({"mode": "solo"}, {"limit": 0}, {"turn_ms": -1}, {"colour": "R"}):
        with pytest.raises(ValidationError):
            LeekhaOptions(**bad)
    assert ENGINE.options_model is LeekhaOptions


def test_unknown_and_malformed_actions():
    state = play_table(trick=[(S1, "G07")])
    assert illegal(state, S4, {"type": "dance"}) == "UNKNOWN_ACTION"
    assert illegal(state, S4, {}) == "BAD_ACTION"
    assert illegal(state, S4, ["play_card"]) == "BAD_ACTION"
    assert illegal(state, S4, {"type": "play_card"}) == "BAD_ACTION"
    assert illegal(state, S4, {"type": "play_card", "card": "G2"}) == "BAD_ACTION"
    assert illegal(state, S4, {"type": "play_card", "card": state.hands[S4][0], "x": 1}) == "BAD_ACTION"
    assert illegal(state, S4, {"type": "throw_in", "now": True}) == "BAD_ACTION"
    assert illegal(state, S4, {"type": "play_card", "card": "R99"}) == "NOT_IN_HAND"
    assert illegal(state, S3, {"type": "play_card", "card": state.hands[S3][0]}) == "NOT_YOUR_TURN"
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, Move(7, {"type": "throw_in"}, 1000))
    assert info.value.code == "NOT_SEATED"


def test_tick_returns_the_same_state_when_nothing_is_due():
    state = new_game(now=1000)
    assert ENGINE.next_deadline(state) == 91_000
    assert ENGINE.tick(state, 90_999) is state


def test_pass_timeout_passes_the_lowest_legal_cards_for_the_late_seats():
    mine = ["R02", "R03", "R04", "G02", "G03", "G04", "G05", "B02", "B03", "B04", "B05", "Y02", "Y03"]
    state = pass_table({S1: mine})
    state = give(state, S2, auto_pass(state.hands[S2]), 500)
    fired = ENGINE.tick(state, 90_000)
    assert fired.phase is Phase.PASS_REVEAL
    assert set(known(fired.passes[S1])) == {"R02", "B02", "Y02"}
    assert fired.passes[S2] == state.passes[S2]
    assert known(fired.last).kind == "passed" and known(fired.last).auto and known(fired.last).at == 90_000
    assert ENGINE.next_deadline(fired) == 95_000


def test_play_timeout_plays_the_lowest_legal_card_and_never_throws_in():
    state = play_table({S4: ["Y10", "Y03", "G02"]}, trick=[(S1, "Y09")], avoid={S4: "Y"})
    assert ENGINE.next_deadline(state) == 90_000
    fired = ENGINE.tick(state, 90_000)
    assert fired.trick[-1] == (S4, "Y03") and known(fired.last).auto
    assert fired.turn == S3 and ENGINE.next_deadline(fired) == 180_000
    forced = play_table({S4: ["Y10", "Y03"]}, trick=[(S1, "Y12")], avoid={S4: "Y"})
    assert ENGINE.tick(forced, 90_000).trick[-1] == (S4, "Y10")
    leading = play_table({S1: ["R02", "G02", "B02"]}, size=3, avoid={S1: "RGBY"})
    assert ENGINE.tick(leading, 90_000).trick == ((S1, "R02"),)


def test_a_late_tick_lands_where_punctual_ticks_would():
    state = play_table(size=2, turn_ms=1000)
    punctual = state
    for _ in range(5):
        punctual = ENGINE.tick(punctual, known(punctual.deadline))
    late = ENGINE.tick(state, 5_500)
    assert late == punctual and late.tricks_done == 12 and late.trick[-1][0] == known(late.last).seat
    assert known(late.last).at == 5_000


def test_a_move_after_a_missed_deadline_sees_the_deadline_first():
    state = play_table({S1: ["G05", "G06"]}, size=3, turn_ms=1000, avoid={S1: "G"})
    # S1's clock ran out at 1000 and the server played for it, so this card comes too late.
    assert illegal(state, S1, {"type": "play_card", "card": "G06"}, at=1001) == "NOT_YOUR_TURN"
    assert play(state, S1, "G06", at=1000).trick == ((S1, "G06"),)


def test_round_end_confirmations_deal_the_next_round_early():
    state = play_last_trick(last_trick((0, 0, 0, 0), (13, 0, 23, 0)))
    assert state.phase is Phase.ROUND_END and ENGINE.next_deadline(state) == 1000 + 10_000
    for seat in range(3):
        state = act(state, seat, {"type": "ack"}, 2000)
        assert state.phase is Phase.ROUND_END
    assert ENGINE.view(state, S4)["legal"] == [{"type": "ack"}]
    state = act(state, S4, {"type": "ack"}, 2000)
    assert state.phase is Phase.PASS_SELECT and state.round == 2 and known(state.last).at == 2000
    assert state.scores == (13, 0, 23, 0) and state.round_pts == (0, 0, 0, 0)
    assert ENGINE.view(state, S1)["history"][0]["points"] == [13, 0, 23, 0]


def test_apply_never_mutates_the_given_state():
    state = to_play(new_game(seed="mut"))
    snapshot = copy.deepcopy(state)
    seat = known(state.turn)
    card = sorted(playable(state, seat))[0]
    after = play(state, seat, card, 3000)
    assert state == snapshot and after != state


VIEW_KEYS = {
    "game",
    "phase",
    "mode",
    "limit",
    "round",
    "decider",
    "starter",
    "turn",
    "deadline",
    "led",
    "trick",
    "last_trick",
    "tricks_done",
    "seats",
    "scores",
    "bl_taker",
    "sl_taker",
    "end_reason",
    "history",
    "decided",
    "result",
    "hand",
    "pass",
    "received",
    "pass_rule",
    "last",
    "you",
    "legal",
}


def test_view_shape_is_fixed_and_json_ready():
    state = play_table({S4: ["G02", "R05"]}, trick=[(S1, "G07")], avoid={S4: "G"})
    for seat in (None, 0, 1, 2, 3):
        v = ENGINE.view(state, seat)
        assert set(v) == VIEW_KEYS and len(v["seats"]) == 4
        assert json.loads(json.dumps(v)) == v
        assert v["game"] == "leekha" and v["you"] == seat and v["led"] == "G"
    v = ENGINE.view(state, S4)
    assert v["hand"] == list(state.hands[S4]) and v["seats"][S1]["cards"] == 7
    assert v["legal"] == [{"type": "play_card", "card": "G02"}, {"type": "throw_in"}]
    assert ENGINE.view(state, None)["hand"] == [] and ENGINE.view(state, None)["legal"] == []
    table = pass_table({S1: ["R02", "Y10", "Y12"]}, avoid={S1: "Y"})
    pass_view = ENGINE.view(table, S1)
    assert pass_view["pass_rule"] == {"count": 3, "must_keep": ["R", "G"]}
    assert all(a["type"] == "submit_pass" and len(a["cards"]) == 3 for a in pass_view["legal"])
    assert ENGINE.view(table, None)["pass_rule"] is None and v["pass_rule"] is None


def test_the_view_lists_exactly_the_legal_passes():
    for i in range(40):
        state = new_game(seed=f"passes-{i}")
        for seat in range(4):
            hand = state.hands[seat]
            listed = [tuple(a["cards"]) for a in ENGINE.view(state, seat)["legal"]]
            brute = [g for g in itertools.combinations(hand, 3) if pass_error(hand, g) is None]
            assert listed == brute and len(listed) == len(set(listed))
            assert set(auto_pass(hand)) in [set(g) for g in brute]


def test_the_shared_playout_driver_plays_whole_matches():
    for game_no in range(2):
        options = LeekhaOptions(mode=("ffa", "teams")[game_no], limit=40)
        seed = f"driver-{game_no}-secret"
        game = playout(ENGINE, 4, options, seed, random.Random(game_no))
        assert game.outcome.finished and game.outcome.winners
        assert replay(ENGINE, 4, options, seed, game.log) == game.state


def test_hands_are_listed_highest_first_by_colour():
    state = new_game()
    for hand in state.hands:
        for a, b in itertools.pairwise(hand):
            order = "RBYG"
            assert (order.index(a[0]), -int(a[1:])) < (order.index(b[0]), -int(b[1:]))
