"""Kuuduk rules engine: every scenario of rules section 7, plus the engine contract.

Notation follows the rules: seats 0..N-1 clockwise; ``uG2-1`` is the first
green two-dot u (the rules write u·g2). Rows are given as ``{slot: card}``;
an empty slot between two cards is a marked swipe gap.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from pydantic import ValidationError

from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.kuuduk import (
    ENGINE,
    Direction,
    KuudukEngine,
    KuudukOptions,
    KuudukState,
    Layout,
    Phase,
    Step,
    build_deck,
    legal_placements,
)
from app.engines.kuuduk.layout import is_valid, place
from app.engines.kuuduk.rounds import round_scores
from app.engines.rng import Rng
from tests.engines.helpers import assert_json_ready
from tests.engines.test_kuuduk_helpers import (
    act,
    all_cards,
    arrange,
    assert_conserved,
    cards_in,
    draw_and_discard,
    hidden_from,
    illegal,
    in_play,
    new_game,
    row,
    views,
)

# Five cards of a row waiting for its d (slot 4 is a swipe gap) and the d that completes it.
FIVE = {1: "kP1-1", 2: "uP1-1", 3: "uO1-1", 5: "uP2-1", 6: "kP2-1"}
SIXTH = "dP1-1"


def due(state: KuudukState) -> KuudukState:
    """Fire the pending deadline (the end of a round's pause, or a turn timer)."""
    assert state.deadline is not None
    return ENGINE.tick(state, state.deadline)


def lay(card: str, placement: Any) -> dict[str, Any]:
    return {"type": "lay", "card": card, "placement": placement}


def playing(
    layout: Mapping[int, str | None], hand: list[str], players: int = 2, seat: int = 0, **options: Any
):
    """A table where ``seat`` has this row and hand and has just passed (step PLAY)."""
    state = new_game(players, **options)
    state = arrange(state, hands={seat: hand}, layouts={seat: layout})
    return in_play(state, seat, Step.PLAY)


# -- 1, 2. deck and deal -------------------------------------------------------------


def test_deck_has_77_distinct_cards_in_the_decided_counts():
    deck = build_deck()
    assert len(deck) == len(set(deck)) == 77
    letters = Counter(c[0] for c in deck if c[0] in "kud")
    assert letters == {"k": 18, "u": 27, "d": 18}
    combos = Counter(c.split("-")[0] for c in deck if c[0] in "kud")
    assert len(combos) == 27
    assert all(n == {"k": 2, "u": 3, "d": 2}[combo[0]] for combo, n in combos.items())
    blacks = Counter(c.split("-")[0] for c in deck if c[0] not in "kud")
    assert blacks == {"swipe_left": 4, "swipe_right": 4, "swipe_any": 2, "switch": 4}


def test_deal_gives_three_cards_a_face_up_discard_and_the_dealers_left_starts():
    state = new_game(4, dealer=2)
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert len(state.discard) == 1 and len(state.draw_pile) == 64
    assert (state.turn, state.step, state.direction, state.dealer) == (3, Step.ACQUIRE, Direction.CW, 2)
    assert all(layout == Layout() for layout in state.layouts)
    assert_conserved(state)
    v = ENGINE.view(state, None)
    assert (v["turn"], v["dealer"], v["direction"], v["draw_pile"], v["discard_size"]) == (3, 2, "cw", 64, 1)
    assert v["discard_top"] == state.discard[-1]


def test_first_dealer_is_random_and_follows_the_seed():
    dealers = {ENGINE.start([SeatSetup()] * 3, KuudukOptions(), f"seed-{i}", 0).dealer for i in range(40)}
    assert dealers == {0, 1, 2}
    one = ENGINE.start([SeatSetup()] * 5, KuudukOptions(), "same", 0)
    assert one == ENGINE.start([SeatSetup()] * 5, KuudukOptions(), "same", 0)


def test_a_black_card_turned_up_just_sits_on_the_discard_pile():
    state = arrange(new_game(3), discard=["swipe_any-1"])
    assert illegal(state, 1, {"type": "take_discard", "placement": 2}) == "DISCARD_TOP_BLACK"
    state = draw_and_discard(state)
    assert state.discard[0] == "swipe_any-1" and len(state.discard) == 2


# -- 3-12. placement rules -----------------------------------------------------------


def test_first_card_goes_anywhere_its_letter_fits():
    state = playing({}, ["uG2-1", "dO1-1", "kG1-1"])
    assert illegal(state, 0, lay("dO1-1", 2)) == "WRONG_LETTER_SLOT"
    after = act(state, 0, lay("uG2-1", 5))
    assert after.layouts[0].slots == (None, None, None, None, "uG2-1", None)
    assert after.hands[0] == ("dO1-1", "kG1-1") and after.turn == 1
    assert [t for t, _ in legal_placements(Layout(), "uG2-1")] == [2, 3, 5]


def test_match_by_colour():
    state = playing({2: "uG1-1"}, ["kG3-1"])
    assert act(state, 0, lay("kG3-1", 1)).layouts[0].slots[:2] == ("kG3-1", "uG1-1")


def test_match_by_dots():
    state = playing({2: "uG2-1"}, ["kO2-1"])
    assert act(state, 0, lay("kO2-1", 1)).layouts[0].slots[:2] == ("kO2-1", "uG2-1")


def test_no_match_is_rejected():
    state = playing({2: "uG2-1"}, ["kP3-1"])
    assert illegal(state, 0, lay("kP3-1", 1)) == "NO_MATCH"
    assert not any(a["type"] == "lay" for a in ENGINE.view(state, 0)["legal"])


def test_a_card_must_go_next_to_a_card():
    state = playing({2: "uG2-1"}, ["dG2-1"])
    assert illegal(state, 0, lay("dG2-1", 4)) == "NOT_ADJACENT"


def test_a_gap_card_must_match_both_neighbours():
    gap_row = {3: "uO1-1", 5: "uP2-1"}  # the d of slot 4 was swiped away
    assert row(gap_row).gaps == {4}
    state = playing(gap_row, ["dP1-1", "dO3-1", "dG3-1"])
    assert illegal(state, 0, lay("dO3-1", 4)) == "NO_MATCH"  # matches slot 3 only
    assert illegal(state, 0, lay("dG3-1", 4)) == "NO_MATCH"
    after = act(state, 0, lay("dP1-1", 4))  # dots with slot 3, colour with slot 5
    assert after.layouts[0].slots[2:5] == ("uO1-1", "dP1-1", "uP2-1") and after.layouts[0].gaps == frozenset()


def test_rearranging_can_make_room_for_a_match():
    state = playing({2: "uO1-1", 3: "uG1-1"}, ["dO2-1"])
    assert illegal(state, 0, lay("dO2-1", 4)) == "NO_MATCH"
    after = act(state, 0, lay("dO2-1", [None, "uG1-1", "uO1-1", "dO2-1", None, None]))
    assert after.layouts[0].slots == (None, "uG1-1", "uO1-1", "dO2-1", None, None)
    assert after.last[0].kind == "lay" and after.last[0].rearranged and after.last[0].slot == 4
    # The legal list offers that rearrangement for the d.
    legal = ENGINE.view(state, 0)["legal"]
    assert lay("dO2-1", [None, "uG1-1", "uO1-1", "dO2-1", None, None]) in legal


def test_separating_two_cards_for_the_new_one():
    state = playing({3: "uO1-1", 4: "dO2-1"}, ["uO2-1"])
    after = act(state, 0, lay("uO2-1", [None, "uO1-1", "uO2-1", "dO2-1", None, None]))
    assert after.layouts[0].slots[1:4] == ("uO1-1", "uO2-1", "dO2-1")


def test_rearranging_may_not_open_a_gap():
    state = playing({1: "kG1-1", 2: "uG2-1", 3: "uO2-1"}, ["uP2-1"])
    placement = ["kG1-1", "uG2-1", "uP2-1", None, "uO2-1", None]
    assert illegal(state, 0, lay("uP2-1", placement)) == "GAP_CREATED"


def test_a_placement_must_keep_the_laid_cards():
    state = playing({1: "kG1-1", 2: "uG2-1", 3: "uO2-1"}, ["uP2-1", "uG1-1"])
    dropped = ["kG1-1", "uP2-1", "uO2-1", None, None, None]
    duplicated = ["kG1-1", "uG2-1", "uG2-1", None, "uP2-1", None]
    assert illegal(state, 0, lay("uP2-1", dropped)) == "LAYOUT_CARDS_CHANGED"
    assert illegal(state, 0, lay("uP2-1", duplicated)) == "LAYOUT_CARDS_CHANGED"
    assert (
        illegal(state, 0, lay("uP2-1", ["kG1-1", "uG2-1", "uO2-1", None, None, "uP2-1"]))
        == "WRONG_LETTER_SLOT"
    )
    # A fourth u when slots 2, 3 and 5 are full has nowhere to go.
    full = playing({1: "kG2-1", 2: "uG2-1", 3: "uO2-1", 4: "dO2-1", 5: "uO3-1"}, ["uP2-1"])
    assert illegal(full, 0, lay("uP2-1", 5)) == "SLOT_TAKEN"
    every_u = ["kG2-1", "uG2-1", "uO2-1", "dO2-1", "uP2-1", None]
    assert illegal(full, 0, lay("uP2-1", every_u)) == "LAYOUT_CARDS_CHANGED"
    assert legal_placements(full.layouts[0], "uP2-1") == ()


# -- 13, 14. the discard pile ----------------------------------------------------------


def test_pick_up_from_the_discard_pile_lays_at_once_and_ends_the_turn():
    state = arrange(new_game(3), layouts={1: {1: "kG1-1"}}, discard=["uG2-1"])
    state = in_play(state, 1)
    hand = state.hands[1]
    legal = ENGINE.view(state, 1)["legal"]
    assert {"type": "take_discard", "placement": 2} in legal
    state = act(state, 1, {"type": "take_discard", "placement": 2})
    assert state.layouts[1].slots[:2] == ("kG1-1", "uG2-1") and state.hands[1] == hand
    assert state.turn == 2 and state.step is Step.ACQUIRE and state.discard == ()
    assert ENGINE.view(state, None)["discard_top"] is None
    assert illegal(state, 2, {"type": "take_discard", "placement": 2}) == "DISCARD_EMPTY"
    assert not any(a["type"] == "take_discard" for a in ENGINE.view(state, 2)["legal"])
    # No card is turned up: the pile stays empty until somebody discards.
    state = act(state, 2, {"type": "draw"})
    assert state.discard == ()
    state = act(state, 2, {"type": "discard", "card": state.drawn})
    assert len(state.discard) == 1


def test_pick_up_is_refused_for_black_cards_and_unplaceable_letters():
    state = in_play(arrange(new_game(3), layouts={1: {2: "uG2-1"}}, discard=["kO1-1", "swipe_left-1"]), 1)
    assert illegal(state, 1, {"type": "take_discard", "placement": 1}) == "DISCARD_TOP_BLACK"
    state = in_play(arrange(new_game(3), layouts={1: {2: "uG2-1"}}, discard=["kP3-1"]), 1)
    assert illegal(state, 1, {"type": "take_discard", "placement": 1}) == "NO_MATCH"
    assert illegal(state, 1, {"type": "take_discard", "placement": 6}) == "NOT_ADJACENT"
    assert not any(a["type"] == "take_discard" for a in ENGINE.view(state, 1)["legal"])


# -- 15, 16. the hand limit ------------------------------------------------------------


def test_draw_then_play_is_mandatory():
    state = new_game(4, dealer=3)
    assert state.turn == 0 and len(state.hands[0]) == 3
    state = act(state, 0, {"type": "draw"})
    assert len(state.hands[0]) == 4 and state.step is Step.PLAY and state.drawn == state.hands[0][-1]
    assert illegal(state, 0, {"type": "pass"}) == "WRONG_STEP"
    assert illegal(state, 0, {"type": "draw"}) == "WRONG_STEP"
    assert illegal(state, 0, {"type": "take_discard", "placement": 2}) == "WRONG_STEP"
    legal_types = {a["type"] for a in ENGINE.view(state, 0)["legal"]}
    assert legal_types <= {"lay", "discard", "swipe", "switch"} and "discard" in legal_types
    state = act(state, 0, {"type": "discard", "card": state.drawn})
    assert len(state.hands[0]) == 3 and state.turn == 1 and state.step is Step.ACQUIRE


def test_lay_and_discard_need_the_play_step():
    state = new_game(2, dealer=1)
    card = state.hands[0][0]
    assert illegal(state, 0, {"type": "discard", "card": card}) == "WRONG_STEP"
    assert illegal(state, 0, lay(card, 2)) == "WRONG_STEP"


def test_passing_shrinks_the_hand_for_good():
    state = new_game(3, dealer=2)
    state = act(state, 0, {"type": "pass"})
    assert state.step is Step.PLAY and len(state.hands[0]) == 3
    state = act(state, 0, {"type": "discard", "card": state.hands[0][0]})
    assert len(state.hands[0]) == 2
    for _ in range(9):  # three more turns each: a draw brings seat 0 to 3 only until its PLAY
        seat = state.turn
        state = act(state, seat, {"type": "draw"})
        if seat == 0:
            assert len(state.hands[0]) == 3
        state = act(state, seat, {"type": "discard", "card": state.drawn})
        assert len(state.hands[0]) == 2


def test_pass_with_an_empty_hand_ends_the_turn_at_once():
    state = in_play(arrange(new_game(3), hands={1: []}), 1)
    assert ENGINE.view(state, 1)["legal"][:2] == [{"type": "draw"}, {"type": "pass"}]
    state = act(state, 1, {"type": "pass"})
    assert state.turn == 2 and state.step is Step.ACQUIRE and state.hands[1] == ()


def test_cards_must_be_in_the_hand():
    state = playing({}, ["uG2-1", "kG1-1"])
    other = state.hands[1][0]
    assert illegal(state, 0, {"type": "discard", "card": other}) == "NOT_IN_HAND"
    assert illegal(state, 0, lay("uG3-1", 2)) == "NOT_IN_HAND"
    assert illegal(state, 0, {"type": "switch", "card": "nonsense"}) == "NOT_IN_HAND"


# -- 17-21. swipes ---------------------------------------------------------------------


def test_swipe_left_takes_from_the_left_neighbour_and_leaves_a_gap():
    state = new_game(4)
    victim_row = {2: "uG1-1", 3: "uG2-1", 4: "dG3-1"}
    state = arrange(state, hands={0: ["swipe_left-1", "kO3-1"]}, layouts={1: victim_row, 2: {2: "uO2-1"}})
    state = in_play(state, 0, Step.PLAY)
    swipe = {"type": "swipe", "card": "swipe_left-1", "victim": 2, "slot": 2, "placement": 2}
    assert illegal(state, 0, swipe) == "BAD_VICTIM"
    assert illegal(state, 0, {**swipe, "victim": 0}) == "BAD_VICTIM"
    assert illegal(state, 0, {**swipe, "victim": 1, "slot": 1}) == "NO_CARD_IN_SLOT"
    legal = ENGINE.view(state, 0)["legal"]
    assert {**swipe, "victim": 1, "slot": 3} in legal and swipe not in legal
    state = act(state, 0, {**swipe, "victim": 1, "slot": 3})
    assert state.layouts[1].slots[1:4] == ("uG1-1", None, "dG3-1") and state.layouts[1].gaps == {3}
    assert state.layouts[0].slots[1] == "uG2-1"
    assert state.discard[-1] == "swipe_left-1" and state.hands[0] == ("kO3-1",)
    event = state.last[0]
    assert (event.kind, event.victim, event.from_slot, event.taken, event.slot) == ("swipe", 1, 3, "uG2-1", 2)
    assert ENGINE.view(state, None)["seats"][1]["gaps"] == [False, False, True, False, False, False]
    assert_conserved(state)


def test_swipe_right_takes_from_the_right_neighbour():
    state = arrange(new_game(4), hands={0: ["swipe_right-1"]}, layouts={3: {2: "uG1-1"}, 1: {2: "uO1-1"}})
    state = in_play(state, 0, Step.PLAY)
    swipe = {"type": "swipe", "card": "swipe_right-1", "victim": 1, "slot": 2, "placement": 2}
    assert illegal(state, 0, swipe) == "BAD_VICTIM"
    state = act(state, 0, {**swipe, "victim": 3})
    assert state.layouts[0].slots[1] == "uG1-1" and state.layouts[3] == Layout()


def test_swipe_into_a_gap():
    state = new_game(4)
    state = arrange(
        state,
        hands={0: ["swipe_any-1"]},
        layouts={0: {2: "uG1-1", 4: "dO3-1"}, 2: {2: "uO1-1", 3: "uO2-1"}},
    )
    assert state.layouts[0].gaps == {3}
    state = in_play(state, 0, Step.PLAY)
    state = act(state, 0, {"type": "swipe", "card": "swipe_any-1", "victim": 2, "slot": 2, "placement": 3})
    assert state.layouts[0].slots[1:4] == ("uG1-1", "uO1-1", "dO3-1") and state.layouts[0].gaps == frozenset()
    assert state.layouts[2].slots[1:3] == (None, "uO2-1") and state.layouts[2].gaps == frozenset()


def test_a_swipe_target_must_fit_and_without_a_target_it_is_a_discard():
    state = new_game(3)
    state = arrange(state, hands={0: ["swipe_any-1", "kG1-1"]}, layouts={0: {2: "uG2-1"}, 1: {2: "uP3-1"}})
    state = in_play(state, 0, Step.PLAY)
    swipe = {"type": "swipe", "card": "swipe_any-1", "victim": 1, "slot": 2, "placement": 3}
    assert illegal(state, 0, swipe) == "NO_MATCH"
    assert not any(a.get("victim") == 1 for a in ENGINE.view(state, 0)["legal"])
    assert illegal(state, 0, {"type": "swipe", "card": "swipe_any-1", "victim": 1}) == "BAD_ACTION"
    plain = act(state, 0, {"type": "swipe", "card": "swipe_any-1"})
    assert plain.discard[-1] == "swipe_any-1" and plain.hands[0] == ("kG1-1",)
    assert plain.layouts == state.layouts and plain.turn == 1
    assert illegal(state, 0, {"type": "swipe", "card": "kG1-1"}) == "NOT_A_SWIPE"


def test_an_edge_swipe_leaves_no_gap():
    state = arrange(new_game(2), hands={0: ["swipe_left-1"]}, layouts={1: {1: "kG1-1", 2: "uG1-1"}})
    state = in_play(state, 0, Step.PLAY)
    state = act(state, 0, {"type": "swipe", "card": "swipe_left-1", "victim": 1, "slot": 1, "placement": 1})
    assert state.layouts[1] == row({2: "uG1-1"}) and state.layouts[1].gaps == frozenset()
    assert state.layouts[0] == row({1: "kG1-1"})


def test_with_two_players_both_swipes_target_the_opponent():
    for card in ("swipe_left-1", "swipe_right-1"):
        state = arrange(new_game(2), hands={0: [card]}, layouts={1: {2: "uG1-1"}})
        state = in_play(state, 0, Step.PLAY)
        after = act(state, 0, {"type": "swipe", "card": card, "victim": 1, "slot": 2, "placement": 5})
        assert after.layouts[0].slots[4] == "uG1-1" and after.layouts[1] == Layout()
    state = arrange(new_game(2), hands={0: ["swipe_any-1"]}, layouts={0: {2: "uG1-1"}})
    state = in_play(state, 0, Step.PLAY)
    assert illegal(
        state, 0, {"type": "swipe", "card": "swipe_any-1", "victim": 0, "slot": 2, "placement": 3}
    ) == ("BAD_VICTIM")


def test_a_swipe_may_take_from_a_complete_word_and_place_with_rearranging():
    full = {1: "kP1-1", 2: "uP1-1", 3: "uO1-1", 4: "dO2-1", 5: "uP2-1", 6: "kP2-1"}
    state = arrange(new_game(2), hands={0: ["swipe_any-1"]}, layouts={0: {2: "uO1-2", 3: "uG1-1"}, 1: full})
    state = in_play(state, 0, Step.PLAY)
    placement = [None, "uG1-1", "uO1-2", "dO2-1", None, None]
    state = act(
        state, 0, {"type": "swipe", "card": "swipe_any-1", "victim": 1, "slot": 4, "placement": placement}
    )
    assert state.layouts[0].slots == tuple(placement) and state.last[0].rearranged
    assert state.layouts[1].gaps == {4} and state.layouts[1].laid == 5


# -- 22. Switch -------------------------------------------------------------------------


def test_switch_reverses_the_direction_and_restarts_the_turn():
    state = new_game(4, dealer=0)
    state = arrange(state, hands={1: ["switch-1", "kG1-1", "uG1-1"]})
    assert state.turn == 1 and state.direction is Direction.CW
    state = act(state, 1, {"type": "draw"})
    assert len(state.hands[1]) == 4
    state = act(state, 1, {"type": "switch", "card": "switch-1"})
    assert state.direction is Direction.CCW and state.turn == 1 and state.step is Step.ACQUIRE
    assert state.restarted and len(state.hands[1]) == 3 and state.discard[-1] == "switch-1"
    assert ENGINE.view(state, 1)["legal"] == [{"type": "draw"}]
    assert illegal(state, 1, {"type": "pass"}) == "MUST_DRAW"
    assert illegal(state, 1, {"type": "take_discard", "placement": 2}) == "DISCARD_TOP_BLACK"
    state = act(state, 1, {"type": "draw"})
    assert len(state.hands[1]) == 4
    state = act(state, 1, {"type": "discard", "card": state.drawn})
    assert len(state.hands[1]) == 3 and state.turn == 0 and state.turns == 1
    assert ENGINE.view(state, None)["direction"] == "ccw"
    # The direction holds for the rest of the round.
    state = draw_and_discard(state)
    assert state.turn == 3


def test_a_switch_after_a_pass_may_pass_again_only_without_cards_to_draw():
    state = arrange(new_game(3, dealer=2), hands={0: ["switch-1", "switch-2"]})
    state = act(state, 0, {"type": "pass"})
    state = act(state, 0, {"type": "switch", "card": "switch-1"})
    assert illegal(state, 0, {"type": "pass"}) == "MUST_DRAW"
    empty = replace(state, draw_pile=(), discard=("switch-1",))
    assert ENGINE.view(empty, 0)["legal"] == [{"type": "pass"}]
    assert illegal(empty, 0, {"type": "draw"}) == "DRAW_PILE_EMPTY"
    after = act(empty, 0, {"type": "pass"})
    assert after.step is Step.PLAY and after.turn == 0
    # Switches chain, and with two players the toggle changes nothing but the turn still restarts.
    chained = act(after, 0, {"type": "switch", "card": "switch-2"})
    assert chained.turn == 0 and chained.step is Step.ACQUIRE and chained.direction is Direction.CW
    assert chained.hands[0] == ()


def test_switch_with_two_players_still_restarts_the_turn():
    state = arrange(new_game(2, dealer=1), hands={0: ["switch-1", "uG1-1"]})
    state = act(state, 0, {"type": "pass"})
    state = act(state, 0, {"type": "switch", "card": "switch-1"})
    assert (state.turn, state.step, state.restarted) == (0, Step.ACQUIRE, True)
    state = draw_and_discard(state)
    assert state.turn == 1


def test_a_switch_can_be_discarded_without_effect():
    state = playing({}, ["switch-1"], players=3)
    state = act(state, 0, {"type": "discard", "card": "switch-1"})
    assert state.direction is Direction.CW and state.turn == 1
    assert (
        illegal(playing({}, ["uG1-1"], players=3), 0, {"type": "switch", "card": "uG1-1"}) == "NOT_A_SWITCH"
    )


# -- 23-25. winning a round -------------------------------------------------------------


def test_win_on_the_sixth_card_scores_the_round():
    state = new_game(4)
    state = arrange(
        state,
        hands={3: [SIXTH], 0: ["kO1-1", "uO3-1"], 1: ["kG3-1", "uG3-2", "swipe_any-1"], 2: ["kO2-1"]},
        layouts={3: FIVE, 0: {1: "kG1-1", 2: "uG2-1", 3: "uG3-1", 4: "dG1-1"}, 2: {5: "uO2-1"}},
    )
    state = in_play(state, 3)
    state = act(state, 3, {"type": "pass"}, 5000)
    state = act(state, 3, lay(SIXTH, 4), 5000)
    assert state.phase is Phase.ROUND_END and state.layouts[3].complete
    record = state.history[-1]
    assert record.winner == 3 and record.scores == (2, -3, 0, 6) and state.totals == (2, -3, 0, 6)
    assert (record.laid, record.held) == ((4, 0, 1, 6), (2, 3, 1, 0))
    assert ENGINE.next_deadline(state) == 5000 + 8000
    assert [e.kind for e in state.last] == ["lay", "round_won"]
    assert illegal(state, 0, {"type": "draw"}, 6000) == "WRONG_PHASE"
    v = ENGINE.view(state, 0)
    assert v["legal"] == [] and v["next_round"] == {"seats": [0, 1, 2, 3], "tiebreak": False}
    assert v["rounds"][0]["scores"] == [2, -3, 0, 6] and v["turn"] is None
    # After the pause the next round is dealt; the deal moves one seat to the left.
    state = ENGINE.tick(state, 13_000)
    assert (state.phase, state.round, state.dealer, state.turn) == (Phase.TURN, 2, 1, 2)
    assert all(layout == Layout() for layout in state.layouts) and [len(h) for h in state.hands] == [3] * 4
    assert state.totals == (2, -3, 0, 6) and state.direction is Direction.CW
    assert_conserved(state)


def test_a_complete_word_with_cards_in_hand_is_no_win():
    state = arrange(new_game(3, dealer=2), hands={0: [SIXTH, "kG1-1"]}, layouts={0: FIVE})
    state = act(state, 0, {"type": "pass"})
    state = act(state, 0, lay(SIXTH, 4))
    assert state.phase is Phase.TURN and state.layouts[0].complete and state.turn == 1
    state = draw_and_discard(draw_and_discard(state))
    assert state.turn == 0
    state = act(state, 0, {"type": "pass"})
    state = act(state, 0, {"type": "discard", "card": "kG1-1"})
    assert state.phase is Phase.ROUND_END and state.history[-1].winner == 0
    assert state.history[-1].scores[0] == 6


def test_win_by_switch():
    full = {**FIVE, 4: SIXTH}
    state = arrange(new_game(3, dealer=2), hands={0: ["switch-1"]}, layouts={0: full})
    state = act(state, 0, {"type": "pass"})
    state = act(state, 0, {"type": "switch", "card": "switch-1"})
    assert state.phase is Phase.ROUND_END and state.history[-1].winner == 0
    assert [e.kind for e in state.last] == ["switch", "round_won"]


def test_win_by_pick_up_and_by_swipe():
    state = arrange(new_game(3, dealer=2), hands={0: []}, layouts={0: FIVE}, discard=[SIXTH])
    won = act(state, 0, {"type": "take_discard", "placement": 4})
    assert won.phase is Phase.ROUND_END and won.history[-1].winner == 0
    state = arrange(new_game(3), hands={0: ["swipe_any-1"]}, layouts={0: FIVE, 2: {4: SIXTH}})
    state = in_play(state, 0, Step.PLAY)
    won = act(state, 0, {"type": "swipe", "card": "swipe_any-1", "victim": 2, "slot": 4, "placement": 4})
    assert won.phase is Phase.ROUND_END and won.history[-1].winner == 0 and won.history[-1].scores[2] == -3


# -- 26. the empty draw pile ------------------------------------------------------------


def test_an_empty_draw_pile_is_refilled_from_the_discards_under_the_top():
    state = new_game(3, dealer=2)
    a, b, c = "uG1-1", "uG1-2", "kP3-1"
    # Only this corner of the table matters here, so the other cards are left out.
    state = replace(state, draw_pile=(), discard=(a, b, c))
    after = act(state, 0, {"type": "draw"})
    assert after.discard == (c,) and len(after.draw_pile) == 1
    assert after.drawn == state.rng.copy().shuffled([a, b])[0]
    assert {after.drawn, *after.draw_pile} == {a, b} and after.rng != state.rng
    assert [e.kind for e in after.last] == ["refill", "draw"] and after.last[0].count == 2
    bare = replace(state, discard=(c,))
    assert illegal(bare, 0, {"type": "draw"}) == "DRAW_PILE_EMPTY"
    assert ENGINE.view(bare, 0)["legal"][0] == {"type": "pass"}


# -- 27, 28. the end of the game ----------------------------------------------------------


def won_round(
    state: KuudukState,
    winner: int,
    others: Mapping[int, tuple[Mapping[int, str | None], list[str]]] | None = None,
    at: int = 5000,
) -> KuudukState:
    """``winner`` (on turn) completes its word with an empty hand; ``others`` sets rows and hands."""
    others = others or {}
    state = arrange(
        state,
        hands={winner: [SIXTH], **{s: h for s, (_, h) in others.items()}},
        layouts={winner: FIVE, **{s: r for s, (r, _) in others.items()}},
    )
    state = in_play(state, winner)
    state = act(state, winner, {"type": "pass"}, at)
    return act(state, winner, lay(SIXTH, 4), at)


def test_game_end_the_highest_total_wins():
    state = replace(new_game(3), totals=(10, 13, 13))
    state = won_round(
        state,
        0,
        {1: ({1: "kG1-1", 2: "uG1-1"}, ["kO3-1"]), 2: ({1: "kG2-1", 2: "uG2-1", 3: "uG3-1"}, ["kO2-1"])},
    )
    assert state.totals == (16, 14, 15)
    assert state.phase is Phase.GAME_OVER and state.winners == (0,)
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.scores == (16, 14, 15) and outcome.winners == (0,)
    assert outcome.detail["rounds"][0]["scores"] == [6, 1, 2]
    assert ENGINE.next_deadline(state) is None and ENGINE.tick(state, 10**12) is state
    for action in ({"type": "draw"}, {"type": "dance"}, "junk"):
        assert illegal(state, 1, action) == "GAME_OVER"
    assert all(v["legal"] == [] and v["winners"] == [0] and v["phase"] == "GAME_OVER" for v in views(state))
    assert state.last[-1].kind == "game_over"


def test_a_tie_at_the_top_plays_a_tie_break_round_among_the_tied():
    state = replace(new_game(3, dealer=0), totals=(10, 5, 14))
    state = won_round(state, 0, {2: ({1: "kG2-1", 2: "uG2-1", 3: "uG3-1"}, ["kO2-1"])})
    assert state.totals == (16, 2, 16) and state.phase is Phase.ROUND_END
    assert (state.next_seats, state.next_tiebreak) == ((0, 2), True)
    state = due(state)
    assert state.tiebreak and state.seats == (0, 2) and state.dealer == 2 and state.turn == 0
    assert state.hands[1] == () and len(state.draw_pile) == 77 - 6 - 1
    assert state.stall_limit == 20
    v = ENGINE.view(state, 1)
    assert [s["playing"] for s in v["seats"]] == [True, False, True] and v["tiebreak"] and v["legal"] == []
    assert illegal(state, 1, {"type": "draw"}) == "NOT_IN_ROUND"
    # Seat 1 is skipped and neighbours are counted among the tied players.
    state = draw_and_discard(state)
    assert state.turn == 2
    state = arrange(state, hands={2: ["swipe_left-1"]}, layouts={0: {2: "uG1-1"}})
    state = in_play(state, 2, Step.PLAY)
    swipe = {"type": "swipe", "card": "swipe_left-1", "victim": 0, "slot": 2, "placement": 2}
    assert act(state, 2, swipe).layouts[2].slots[1] == "uG1-1"
    # Whoever wins the tie-break wins the game, whatever the points; its scores are not added.
    state = in_play(state, 2)
    state = won_round(state, 2, {0: ({}, ["kO1-1", "kO2-1", "kO3-1"])})
    assert state.phase is Phase.GAME_OVER and state.winners == (2,) and state.totals == (16, 2, 16)
    record = state.history[-1]
    assert record.tiebreak and not record.counted and record.scores == (-3, 0, 6)


def test_max_rounds_ends_the_game_below_the_target():
    state = won_round(new_game(3, max_rounds=1), 1)
    assert state.phase is Phase.GAME_OVER and state.winners == (1,) and state.totals[1] < 15


def test_single_round_mode_the_first_round_winner_wins():
    state = won_round(new_game(4, mode="single_round"), 2)
    assert state.phase is Phase.GAME_OVER and state.winners == (2,)
    assert ENGINE.result(state).winners == (2,)


# -- 29. the stall guard ------------------------------------------------------------------


def test_a_stalled_round_is_void_and_dealt_again():
    state = replace(new_game(3, dealer=1), totals=(3, 2, 1))
    assert state.stall_limit == 30
    for i in range(29):
        state = draw_and_discard(state, at=1000 + i)
        assert state.phase is Phase.TURN and state.stall == i + 1
    state = draw_and_discard(state, at=2000)
    assert state.phase is Phase.ROUND_END
    record = state.history[-1]
    assert record.winner is None and not record.counted and record.scores == (0, 0, 0) and record.turns == 30
    assert state.totals == (3, 2, 1) and [e.kind for e in state.last] == ["discard", "round_void"]
    assert ENGINE.view(state, None)["rounds"][0]["void"]
    state = due(state)
    assert (state.round, state.dealer, state.turn, state.stall) == (2, 2, 0, 0)


def test_a_lay_resets_the_stall_count_but_a_swipe_does_not():
    state = arrange(
        new_game(3, stall_turns=5), hands={0: ["uG1-1", "swipe_any-1"]}, layouts={1: {2: "uO1-1"}}
    )
    state = in_play(replace(state, stall=4), 0, Step.PLAY)
    laid = act(state, 0, lay("uG1-1", 2))
    assert laid.phase is Phase.TURN and laid.stall == 0
    swiped = act(state, 0, {"type": "swipe", "card": "swipe_any-1", "victim": 1, "slot": 2, "placement": 3})
    assert swiped.phase is Phase.ROUND_END and swiped.history[-1].winner is None


def test_a_restarted_switch_turn_is_one_turn():
    state = arrange(new_game(3, dealer=2), hands={0: ["switch-1", "kG1-1"]})
    state = act(state, 0, {"type": "pass"})
    state = act(state, 0, {"type": "switch", "card": "switch-1"})
    state = draw_and_discard(state)
    assert state.turns == 1 and state.stall == 1


def test_a_void_tie_break_round_is_replayed():
    state = new_game(3, stall_turns=2)
    state = replace(state, seats=(0, 2), tiebreak=True, turn=0, hands=(state.hands[0], (), state.hands[2]))
    state = draw_and_discard(draw_and_discard(state))
    assert state.phase is Phase.ROUND_END and (state.next_seats, state.next_tiebreak) == ((0, 2), True)


def test_a_void_round_is_replayed_in_single_round_mode():
    state = draw_and_discard(draw_and_discard(new_game(2, mode="single_round", stall_turns=2)))
    assert state.phase is Phase.ROUND_END and state.next_seats == (0, 1)
    assert due(state).round == 2


# -- DECISION (void rounds): a deadlocked table ends the game -----------------------------


def void(state: KuudukState, at: int = 1000) -> KuudukState:
    """Nobody lays for ``stall_turns`` turns (draw and discard): the round is void."""
    while state.phase is Phase.TURN:
        state = draw_and_discard(state, at)
    assert state.history[-1].winner is None
    return state


def test_void_rounds_in_a_row_end_the_game_and_the_highest_total_wins():
    state = replace(new_game(3, stall_turns=2), totals=(3, 7, 5))
    assert state.options.void_rounds == 3
    state = due(void(state))
    state = void(state)
    assert state.phase is Phase.ROUND_END and ENGINE.view(state, 0)["void_streak"] == 2
    state = void(due(state))
    assert state.phase is Phase.GAME_OVER and state.winners == (1,) and state.totals == (3, 7, 5)
    assert [e.kind for e in state.last] == ["discard", "round_void", "game_over"]
    assert ENGINE.next_deadline(state) is None
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.winners == (1,) and outcome.detail["void_end"]
    assert [r["void"] for r in outcome.detail["rounds"]] == [True, True, True]
    v = ENGINE.view(state, 2)
    assert (v["void_streak"], v["void_rounds"], v["winners"], v["legal"]) == (3, 3, [1], [])


def test_void_rounds_end_with_the_players_tied_at_the_top_sharing_the_win():
    state = void(replace(new_game(3, stall_turns=2, void_rounds=1), totals=(7, 2, 7)))
    assert state.phase is Phase.GAME_OVER and state.winners == (0, 2)
    assert ENGINE.result(state).winners == (0, 2)


def test_a_won_round_breaks_the_run_of_void_rounds():
    state = due(void(new_game(3, stall_turns=2, void_rounds=2)))
    state = due(won_round(state, state.turn))
    assert state.phase is Phase.TURN and ENGINE.view(state, 0)["void_streak"] == 0
    state = void(state)
    assert state.phase is Phase.ROUND_END and not ENGINE.result(state).detail["void_end"]
    assert void(due(state)).phase is Phase.GAME_OVER


def test_void_rounds_end_a_single_round_game_shared_by_everybody():
    state = new_game(2, mode="single_round", stall_turns=2, void_rounds=2)
    state = void(due(void(state)))
    assert state.phase is Phase.GAME_OVER and state.winners == (0, 1)


def test_void_rounds_end_a_tie_break_shared_by_the_tied_players():
    state = new_game(3, stall_turns=2, void_rounds=1)
    state = replace(
        state,
        seats=(0, 2),
        tiebreak=True,
        turn=0,
        totals=(16, 9, 16),
        hands=(state.hands[0], (), state.hands[2]),
    )
    state = void(state)
    assert state.phase is Phase.GAME_OVER and state.winners == (0, 2) and state.totals == (16, 9, 16)


# -- 30. determinism and privacy -------------------------------------------------------------


def scripted_game(seed: str, players: int = 4) -> list[tuple[KuudukState, list[dict[str, Any]]]]:
    """A deterministic script: lay or pick up when possible; draw only while the hand is short of
    what the row still needs, else pass; discard the first card when nothing can be laid."""
    state = ENGINE.start([SeatSetup()] * players, KuudukOptions(mode="single_round"), seed, 0)
    trace = [(state, views(state))]
    at = 0
    while state.phase is not Phase.GAME_OVER:
        at += 100
        if state.phase is Phase.ROUND_END:
            state = due(state)
        else:
            seat = state.turn
            legal = ENGINE.view(state, seat)["legal"]
            best = [a for a in legal if a["type"] in ("lay", "take_discard")]
            if not best and state.step is Step.ACQUIRE:
                short = len(state.hands[seat]) < 6 - state.layouts[seat].laid
                best = [a for a in legal if a["type"] == ("draw" if short else "pass")]
            state = ENGINE.apply(state, Move(seat, (best or legal)[0], at))
        trace.append((state, views(state)))
        assert len(trace) < 5000
    return trace


def test_same_seed_and_inputs_give_the_same_game_and_no_view_leaks():
    one, two = scripted_game("det"), scripted_game("det")
    assert one == two and ENGINE.result(one[-1][0]) == ENGINE.result(two[-1][0])
    assert scripted_game("other")[-1][0] != one[-1][0]
    for state, vs in one:
        for seat, v in zip([None, *range(state.players)], vs, strict=True):
            assert not cards_in(v) & hidden_from(state, seat)
            assert [s["hand"] for s in v["seats"]] == [len(h) for h in state.hands]
            assert [s["layout"] for s in v["seats"]] == [list(layout.slots) for layout in state.layouts]
            assert v["hand"] == ([] if seat is None else list(state.hands[seat]))
            text = json.dumps(v)
            assert "det" not in text.replace("detail", "") and str(state.rng.state) not in text


def test_the_drawn_card_is_shown_only_to_its_owner():
    state = act(new_game(3, dealer=2), 0, {"type": "draw"})
    drawn = state.drawn
    assert ENGINE.view(state, 0)["drawn"] == drawn and drawn in ENGINE.view(state, 0)["hand"]
    for seat in (None, 1, 2):
        v = ENGINE.view(state, seat)
        assert v["drawn"] is None and drawn not in cards_in(v)
    assert [e["type"] for e in ENGINE.view(state, 1)["last"]] == ["draw"]
    assert ENGINE.view(state, 1)["seats"][0]["hand"] == 4


# -- options and the turn timer ----------------------------------------------------------------


def test_the_turn_timer_draws_and_discards_for_an_idle_player():
    state = new_game(3, dealer=2, turn_ms=1000, now=500)
    assert ENGINE.next_deadline(state) == 1500
    assert ENGINE.tick(state, 1499) is state
    top = state.draw_pile[0]
    hand = state.hands[0]
    timed = ENGINE.tick(state, 1500)
    assert timed.hands[0] == hand and timed.discard[-1] == top and timed.turn == 1
    assert ENGINE.next_deadline(timed) == 2500
    assert [e.kind for e in timed.last] == ["timeout", "draw", "discard"]
    # A late tick lands exactly where punctual ticks would.
    assert ENGINE.tick(state, 3700) == ENGINE.tick(ENGINE.tick(ENGINE.tick(state, 1500), 2500), 3500)
    # A move after a missed deadline sees that deadline fired first.
    assert illegal(state, 0, {"type": "draw"}, 1501) == "NOT_YOUR_TURN"
    assert act(state, 0, {"type": "draw"}, 1500).turn == 0  # exactly at the deadline: the move goes first


def test_a_timeout_in_play_discards_the_drawn_card_else_the_last_card():
    state = new_game(3, dealer=2, turn_ms=1000)
    drew = act(state, 0, {"type": "draw"}, 100)
    assert ENGINE.tick(drew, 1000).discard[-1] == drew.drawn
    passed = act(state, 0, {"type": "pass"}, 100)
    assert ENGINE.tick(passed, 1000).discard[-1] == state.hands[0][-1]
    empty = replace(state, draw_pile=(), hands=((), *state.hands[1:]))
    timed = ENGINE.tick(empty, 1000)
    assert [e.kind for e in timed.last] == ["timeout", "pass"] and timed.turn == 1
    nothing = replace(state, draw_pile=())
    timed = ENGINE.tick(nothing, 1000)
    assert [e.kind for e in timed.last] == ["timeout", "pass", "discard"] and timed.hands[0] == state.hands[
        0
    ][:2]


def test_a_switch_restarts_the_turn_timer_and_a_timeout_never_wins_by_laying():
    state = arrange(new_game(3, dealer=2, turn_ms=1000), hands={0: ["switch-1", "kG1-1"]})
    state = act(state, 0, {"type": "pass"}, 400)
    state = act(state, 0, {"type": "switch", "card": "switch-1"}, 600)
    assert ENGINE.next_deadline(state) == 1600
    timed = ENGINE.tick(state, 1600)
    assert timed.turn == 2 and timed.layouts[0] == Layout()


def test_options_defaults_bounds_and_descriptions():
    options = KuudukOptions()
    assert (options.mode, options.target, options.max_rounds, options.stall_turns, options.turn_ms) == (
        "points",
        15,
        30,
        0,
        90_000,
    )
    assert options.first_dealer == "random" and options.round_pause_ms == 8000
    schema = KuudukOptions.model_json_schema()
    assert all(field.get("description") for field in schema["properties"].values())
    assert KuudukOptions(target=20).target == 20 and KuudukOptions(target=6).target == 6
    for bad in (
        {"target": 5},
        {"mode": "marathon"},
        {"max_rounds": 0},
        {"stall_turns": -1},
        {"void_rounds": 0},
        {"turn_ms": -1},
        {"first_dealer": 8},
        {"first_dealer": "youngest"},
        {"players": 4},
    ):
        with pytest.raises(ValidationError):
            KuudukOptions.model_validate(bad)
    assert new_game(5).stall_limit == 50 and new_game(5, stall_turns=7).stall_limit == 7


def test_start_rejects_bad_tables():
    for n in (1, 9):
        with pytest.raises(IllegalAction) as info:
            ENGINE.start([SeatSetup()] * n, KuudukOptions(), "s", 0)
        assert info.value.code == "BAD_PLAYER_COUNT"
    with pytest.raises(IllegalAction) as info:
        ENGINE.start([SeatSetup()] * 3, KuudukOptions(first_dealer=3), "s", 0)
    assert info.value.code == "BAD_OPTIONS"


# -- the engine contract ----------------------------------------------------------------------


def test_bad_actions_are_rejected_with_codes():
    state = in_play(new_game(3), 0, Step.PLAY)
    card = state.hands[0][0]
    cases = [
        ({"type": "fold"}, "UNKNOWN_ACTION"),
        ({}, "BAD_ACTION"),
        ("draw", "BAD_ACTION"),
        (["draw"], "BAD_ACTION"),
        ({"type": 7}, "BAD_ACTION"),
        ({"type": "draw", "card": card}, "BAD_ACTION"),
        ({"type": "discard"}, "BAD_ACTION"),
        ({"type": "discard", "card": 3}, "BAD_ACTION"),
        ({"type": "discard", "card": ""}, "BAD_ACTION"),
        ({"type": "discard", "card": "x" * 500}, "BAD_ACTION"),
        ({"type": "lay", "card": card}, "BAD_ACTION"),
        ({"type": "lay", "card": card, "placement": 0}, "BAD_ACTION"),
        ({"type": "lay", "card": card, "placement": 7}, "BAD_ACTION"),
        ({"type": "lay", "card": card, "placement": True}, "BAD_ACTION"),
        ({"type": "lay", "card": card, "placement": "2"}, "BAD_ACTION"),
        ({"type": "lay", "card": card, "placement": [None] * 5}, "BAD_ACTION"),
        ({"type": "lay", "card": card, "placement": [1, None, None, None, None, None]}, "BAD_ACTION"),
        ({"type": "swipe", "card": card, "victim": "1", "slot": 2, "placement": 2}, "BAD_ACTION"),
        ({"type": "swipe", "card": card, "victim": 1, "slot": 9, "placement": 2}, "BAD_ACTION"),
        ({"type": "swipe", "card": card, "victim": 1, "slot": 2}, "BAD_ACTION"),
        ({"type": "take_discard"}, "BAD_ACTION"),
    ]
    for action, code in cases:
        assert illegal(state, 0, action) == code, action
    assert illegal(state, 3, {"type": "draw"}) == "NOT_SEATED"
    assert illegal(state, -1, {"type": "draw"}) == "NOT_SEATED"
    assert illegal(state, 1, {"type": "discard", "card": state.hands[1][0]}) == "NOT_YOUR_TURN"


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone():
    import copy

    state = new_game(3, dealer=2)
    before = copy.deepcopy(state)
    after = act(state, 0, {"type": "draw"})
    assert after is not state and state == before and after != state
    assert after.layouts is state.layouts  # unchanged parts are shared, not copied


def test_view_shape_and_json_types():
    state = new_game(3, dealer=2)
    keys = {
        "game",
        "phase",
        "step",
        "round",
        "tiebreak",
        "mode",
        "target",
        "dealer",
        "direction",
        "turn",
        "restarted",
        "deadline",
        "draw_pile",
        "discard_top",
        "discard_size",
        "stall",
        "stall_limit",
        "void_streak",
        "void_rounds",
        "seats",
        "hand",
        "drawn",
        "scores",
        "rounds",
        "next_round",
        "last",
        "winners",
        "you",
        "legal",
    }

    for v in views(state):
        assert set(v) == keys and v["game"] == "kuuduk" and v["phase"] == "TURN" and v["step"] == "ACQUIRE"
        assert [set(s) for s in v["seats"]] == [{"playing", "hand", "layout", "gaps", "laid", "score"}] * 3
        assert_json_ready(v)
    v = ENGINE.view(state, 0)
    assert v["you"] == 0 and v["legal"][:2] == [{"type": "draw"}, {"type": "pass"}]
    assert ENGINE.view(state, 1)["legal"] == [] and ENGINE.view(state, None)["you"] is None
    assert_json_ready(ENGINE.result(state).to_json())
    with pytest.raises(ValueError):
        ENGINE.view(state, 3)


def test_every_listed_action_is_accepted():
    state = arrange(
        new_game(4),
        hands={0: ["swipe_any-1", "swipe_left-1", "uO1-2", "switch-1"]},
        layouts={0: {2: "uG1-1", 4: "dO3-1"}, 1: {2: "uO1-1", 3: "uO2-1"}, 3: {1: "kG1-1", 2: "uG2-1"}},
    )
    state = in_play(state, 0, Step.PLAY)
    legal = ENGINE.view(state, 0)["legal"]
    assert {a["type"] for a in legal} == {"discard", "lay", "swipe", "switch"}
    for action in legal:
        after = act(state, 0, action)
        assert_conserved(after)
        assert all(is_valid(layout) for layout in after.layouts)


def test_placement_helpers():
    assert round_scores([6, 4, 0, 1], [0, 2, 3, 1], (0, 1, 2)) == (6, 2, -3, 0)
    layout = place(Layout(), "uG2-1", 3)
    assert layout.slots[2] == "uG2-1" and is_valid(layout)


def test_state_holds_its_own_rng_and_cards_are_conserved():
    state = new_game(8, seed="r")
    assert isinstance(state.rng, Rng) and state.rng != Rng.from_seed("r")
    assert all_cards(state) == Counter(build_deck()) and len(state.draw_pile) == 77 - 24 - 1


def test_package_exports_an_engine_instance():
    assert isinstance(ENGINE, KuudukEngine)
    assert (ENGINE.name, ENGINE.title, ENGINE.min_players, ENGINE.max_players) == ("kuuduk", "Kuuduk", 2, 8)
    assert ENGINE.options_model is KuudukOptions
