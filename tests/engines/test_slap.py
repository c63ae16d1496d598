"""Slap rules engine: every scenario of rules section 6, plus the engine contract.

Notation follows the rules: seats A, B, C, D clockwise; in 3-player games A
turns yellow, B blue and C green cards (``B09`` is seat B's card); S is the
reveal time. Piles are arranged by replacing them on a started state, which
keeps every other part of the state exactly as the engine built it.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import replace
from typing import Any

import pytest
from pydantic import ValidationError

from app.engines import ENGINES, get_engine
from app.engines.base import IllegalAction, Link, Move, SeatSetup, Timing
from app.engines.cards import CardId, build_deck
from app.engines.rng import Rng
from app.engines.slap import NUMBERS, EndKind, FlipKind, Phase, SlapEngine, SlapOptions, SlapState
from app.engines.slap.scoring import placement_points
from tests.engines.helpers import assert_json_ready, known, same_links

ENGINE = SlapEngine()
A, B, C, D = 0, 1, 2, 3
COLOURS_BY_SIZE = {2: ("Y", "G"), 3: ("Y", "B", "G"), 4: ("Y", "B", "G", "P")}
CARD_RE = re.compile(r"\b[YGPB]\d\d\b")
S = 10_000


# -- helpers -------------------------------------------------------------------


VIEW_KEYS = {
    "game",
    "phase",
    "round",
    "rounds",
    "flip",
    "starter",
    "nu_mode",
    "deadline",
    "reveal_at",
    "round_started_at",
    "time_limit_at",
    "seats",
    "totals",
    "scores",
    "last",
    "winners",
    "you",
    "legal",
}


def new_game(players: int = 3, *, seed: str = "test", now: int = 0, colours=None, **options) -> SlapState:
    options.setdefault("first_starter", A)
    colours = colours or COLOURS_BY_SIZE[players]
    return ENGINE.start([SeatSetup({"colour": c}) for c in colours], SlapOptions(**options), seed, now)


def deck(state: SlapState) -> list[str]:
    return [card for colour in state.colours for card in build_deck(colour, NUMBERS)]


def assert_conserved(state: SlapState) -> None:
    cards = [c for pile in state.piles for c in pile] + list(state.table)
    assert sorted(cards) == sorted(deck(state))


def arrange(state: SlapState, tops, counts=None) -> SlapState:
    """Give seat i a pile that starts with ``tops[i]`` (top first) and is topped up to
    ``counts[i]`` cards with the unused cards of the match deck, in deck order."""
    counts = counts or [10] * state.players
    used = {c for top in tops for c in top}
    rest = [c for c in deck(state) if c not in used]
    piles = []
    for top, count in zip(tops, counts, strict=True):
        need = count - len(top)
        assert need >= 0
        piles.append((*top, *rest[:need]))
        del rest[:need]
    assert not rest, "counts must add up to the deck"
    arranged = replace(state, piles=tuple(piles))
    assert_conserved(arranged)
    return arranged


def nu(state: SlapState, at: int, seat: int | None = None) -> SlapState:
    return ENGINE.apply(state, Move(state.starter if seat is None else seat, {"type": "nu"}, at))


def reveal(state: SlapState, at: int = S) -> SlapState:
    """The starter calls Nu! so that the cards turn over exactly at ``at``."""
    state = nu(state, at - state.options.nu_lead_ms)
    state = ENGINE.tick(state, at)
    assert state.phase is Phase.FLIP_OPEN and state.reveal_at == at
    return state


def race_table(tops, counts=None, players: int = 3, **options) -> SlapState:
    """A table whose cards turn over at S = 10 000 with the given top cards."""
    state = new_game(players, now=S - 1000, **options)
    return reveal(arrange(state, [[t] for t in tops], counts))


def slap(state: SlapState, seat: int, arrival: int, *, rtt=None, reaction=None, flip=None) -> SlapState:
    action = {"type": "slap", "flip": state.flip if flip is None else flip}
    if reaction is not None:
        action["reaction_ms"] = reaction
    return ENGINE.apply(state, Move(seat, action, arrival, rtt))  # no timing: no link is known


def timed_slap(state: SlapState, seat: int, arrival: int, reaction, links) -> SlapState:
    """A slap as the room hands it over: with every seat's link (``(rtt, jitter)`` or None),
    the stimulus written to each connected seat at S."""
    key = f"flip:{state.flip}"
    timing = Timing(tuple(None if lk is None else Link(lk[0], lk[1], {key: S}) for lk in links))
    action = {"type": "slap", "flip": state.flip}
    if reaction is not None:
        action["reaction_ms"] = reaction
    return ENGINE.apply(state, Move(seat, action, arrival, links[seat][0], timing))


def honest_slap(state: SlapState, seat: int, arrival: int, rtt: int) -> SlapState:
    """A slap whose client honestly reports its reaction (shown rtt/2 after S, sent rtt/2 before arrival),
    with the timing the room hands over: every seat on a link like this one, shown the flip at its reveal."""
    assert state.reveal_at is not None
    action = {"type": "slap", "flip": state.flip, "reaction_ms": arrival - state.reveal_at - rtt}
    timing = same_links(state.players, rtt, {f"flip:{state.flip}": state.reveal_at})
    return ENGINE.apply(state, Move(seat, action, arrival, rtt, timing))


def illegal(state: SlapState, move: Move) -> str:
    """Apply a move that must be rejected; check the state was left alone and return the code."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, move)
    assert state == before
    assert info.value.message and info.value.message[0].isupper()
    return info.value.code


def close(state: SlapState) -> SlapState:
    """Fire the pending flip deadline (race, no-pair window or pair timeout)."""
    assert state.phase in (Phase.FLIP_OPEN, Phase.RACE)
    return ENGINE.tick(state, known(state.deadline))


def play_flip(state: SlapState, slapper: int | None = None) -> SlapState:
    """From AWAIT_NU: Nu! by fallback, reveal, an optional honest slap 100 ms in, close."""
    assert state.phase is Phase.AWAIT_NU
    state = ENGINE.tick(state, known(state.deadline))
    state = ENGINE.tick(state, known(state.deadline))
    if slapper is not None:
        state = honest_slap(state, slapper, known(state.reveal_at) + 100, rtt=40)
    return close(state)


def views(state: SlapState) -> list[dict]:
    return [ENGINE.view(state, seat) for seat in [None, *range(state.players)]]


def cards_in(view: dict) -> set[str]:
    return set(CARD_RE.findall(json.dumps(view)))


# -- 1. setup ------------------------------------------------------------------


def test_setup_deals_each_player_ten_cards_of_their_own_colour():
    state = new_game(3, colours=("Y", "G", "B"))
    assert state.colours == ("Y", "G", "B")
    for colour, pile in zip(state.colours, state.piles, strict=True):
        assert sorted(pile) == build_deck(colour, NUMBERS)
    assert sum(len(p) for p in state.piles) == 30
    assert not any(card.startswith("P") for pile in state.piles for card in pile)
    assert state.phase is Phase.AWAIT_NU and state.round == 1 and state.penalties == (0, 0, 0)


def test_round_two_resets_piles_to_own_colours_and_penalties_to_zero():
    state = new_game(3, round_time_limit_s=1)
    state = arrange(state, [["Y01"], ["B02"], ["G03"]], [14, 9, 7])
    state = ENGINE.tick(state, known(state.deadline))
    state = ENGINE.tick(state, known(state.deadline))
    state = slap(state, B, known(state.reveal_at) + 300)  # no pair: a false slap
    state = close(state)
    assert state.phase is Phase.ROUND_OVER and state.penalties == (0, 1, 0)
    state = ENGINE.tick(state, known(state.deadline))
    assert state.phase is Phase.AWAIT_NU and state.round == 2
    assert state.penalties == (0, 0, 0)
    for colour, pile in zip(state.colours, state.piles, strict=True):
        assert sorted(pile) == build_deck(colour, NUMBERS)


def test_random_first_starter_follows_the_seed():
    starters = {ENGINE.start([SeatSetup()] * 3, SlapOptions(), f"seed-{i}", 0).starter for i in range(30)}
    assert starters == {0, 1, 2}
    one = ENGINE.start([SeatSetup()] * 3, SlapOptions(), "same", 0)
    two = ENGINE.start([SeatSetup()] * 3, SlapOptions(), "same", 0)
    assert one.starter == two.starter and one == two


def test_later_rounds_start_one_seat_clockwise():
    state = new_game(3, first_starter=2, rounds=3, round_time_limit_s=1)
    starters: dict[int, int] = {}
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.AWAIT_NU:
            starters.setdefault(state.round, state.starter)
        state = ENGINE.tick(state, known(state.deadline))
    assert starters == {1: 2, 2: 0, 3: 1}


def test_colours_default_to_the_first_free_one():
    prefs = [{"colour": "B"}, {}, {"colour": "B"}, {"colour": "g"}]
    state = ENGINE.start([SeatSetup(p) for p in prefs], SlapOptions(), "c", 0)
    assert state.colours == ("B", "Y", "P", "G")
    state = ENGINE.start([SeatSetup({"colour": "red"}), SeatSetup({"colour": 3})], SlapOptions(), "c", 0)
    assert state.colours == ("Y", "G")


# -- 2, 3. Nu! -------------------------------------------------------------------


def test_nu_by_the_wrong_seat_is_rejected():
    state = new_game(3)
    assert illegal(state, Move(B, {"type": "nu"}, 500)) == "NOT_STARTER"
    assert state.phase is Phase.AWAIT_NU


def test_nu_by_the_starter_calls_the_flip():
    state = nu(new_game(3, now=1000), 1500)
    assert (state.phase, state.flip, state.reveal_at, ENGINE.next_deadline(state)) == (
        Phase.NU_CALLED,
        1,
        2100,
        2100,
    )


def test_nu_outside_await_nu_is_the_wrong_phase():
    state = nu(new_game(3), 100)
    assert illegal(state, Move(A, {"type": "nu"}, 200)) == "WRONG_PHASE"


def test_nu_is_refused_when_the_server_calls_it():
    state = new_game(3, nu_mode="auto")
    assert illegal(state, Move(A, {"type": "nu"}, 100)) == "NU_MODE_AUTO"
    assert ENGINE.next_deadline(state) == 1000  # auto_nu_ms
    assert ENGINE.view(state, A)["legal"] == []


def test_nu_fallback_calls_nu_for_an_idle_starter():
    t0 = 5_000
    state = new_game(3, now=t0)
    assert ENGINE.tick(state, t0 + 1999) is state
    called = ENGINE.tick(state, t0 + 2000)
    assert called.phase is Phase.NU_CALLED and called.flip == 1
    assert called.reveal_at == t0 + 2600 == ENGINE.next_deadline(called)
    assert ENGINE.tick(called, t0 + 2600).phase is Phase.FLIP_OPEN


def test_a_late_tick_lands_where_punctual_ticks_would():
    state = arrange(new_game(3, now=0), [["Y01"], ["B02"], ["G03"]])
    punctual, fired = state, 0
    while known(punctual.deadline) <= 6_999:
        punctual = ENGINE.tick(punctual, known(punctual.deadline))
        fired += 1
    assert fired == 5  # Nu!, reveal, no-pair close, pause, Nu! again
    late = ENGINE.tick(state, 6_999)
    assert late == punctual
    assert late.phase is Phase.NU_CALLED and late.reveal_at == 6_400 + 600


# -- 4. information --------------------------------------------------------------


def test_no_card_is_shown_before_the_reveal():
    state = nu(new_game(3), 100)
    assert state.phase is Phase.NU_CALLED
    for v in views(state):
        assert cards_in(v) == set()
        assert all(seat["card"] is None for seat in v["seats"])
        assert v["reveal_at"] == 700 and v["flip"] == 1
    tops = [pile[0] for pile in state.piles]
    shown = ENGINE.tick(state, 700)
    for v in views(shown):
        assert [seat["card"] for seat in v["seats"]] == tops
        assert cards_in(v) == set(tops)


def test_views_never_show_face_down_cards_or_the_seed():
    state = new_game(4, seed="very-secret-seed")
    for _ in range(8):
        for v in views(state):
            face_down = {c for pile in state.piles for c in pile}
            assert not cards_in(v) & face_down
            text = json.dumps(v)
            assert "very-secret-seed" not in text and str(state.rng.state) not in text
        state = ENGINE.tick(state, known(state.deadline))


# -- 5-10. the race ---------------------------------------------------------------


def test_simple_trick_goes_under_the_winners_pile():
    state = race_table(["Y07", "B02", "G07"])
    state = slap(state, B, 10_300)
    state = slap(state, A, 10_380)  # correct but slower: costs nothing
    before = state
    state = ENGINE.tick(state, 10_300 + 210)  # no links known: the race stays open race_window_ms
    assert state.phase is Phase.FLIP_RESULT
    assert known(state.last).kind is FlipKind.TRICK and known(state.last).winner == B
    # No tie, so the first draw after the close is the shuffle of the table.
    assert state.piles[B][-3:] == tuple(before.rng.copy().shuffled(before.table))
    assert [len(p) for p in state.piles] == [9, 12, 9]
    assert state.starter == B and state.penalties == (0, 0, 0) and state.table == ()
    assert ENGINE.next_deadline(state) == 10_510 + 1500
    assert_conserved(state)


EQUAL_60 = [(60, 0), (60, 0), (60, 0)]


def test_two_slaps_20ms_apart_on_equal_links():
    state = race_table(["Y05", "B01", "G05"])
    state = timed_slap(state, A, 10_420, 360, EQUAL_60)
    # B or C could still win until S + 360 + tie margin 10 + their reach (60 + one frame 17).
    assert state.phase is Phase.RACE and ENGINE.next_deadline(state) == 10_447
    state = timed_slap(state, C, 10_440, 380, EQUAL_60)
    assert [(c.seat, c.at) for c in state.slaps] == [(A, 10_360), (C, 10_380)]
    assert ENGINE.tick(state, 10_446) is state
    state = ENGINE.tick(state, 10_447)
    assert known(state.last).winner == A
    last = ENGINE.view(state, None)["last"]
    common = {"credit": 60, "flags": []}
    assert last["claims"] == [
        {"seat": A, "arrival": 10_420, "at": 10_360, "reaction": 360, "claimed": 360, **common},
        {"seat": C, "arrival": 10_440, "at": 10_380, "reaction": 380, "claimed": 380, **common},
    ]


def test_without_links_the_race_stays_open_the_whole_window():
    state = slap(race_table(["Y05", "B01", "G05"]), A, 10_420, rtt=60, reaction=360)
    assert ENGINE.next_deadline(state) == 10_420 + 210


def test_the_race_closes_once_every_seat_has_slapped():
    state = race_table(["Y05", "B01", "G05"])
    for seat, arrival in ((A, 10_420), (C, 10_440)):
        state = timed_slap(state, seat, arrival, arrival - S - 60, EQUAL_60)
    assert ENGINE.next_deadline(state) == 10_447
    state = timed_slap(state, B, 10_445, 385, EQUAL_60)
    assert ENGINE.next_deadline(state) == 10_445  # nobody left who could win: close now


def test_a_seat_never_shown_the_flip_does_not_hold_the_race_open():
    links = [(60, 0), None, (60, 0)]  # B has no connection
    state = timed_slap(race_table(["Y05", "B01", "G05"]), A, 10_420, 360, links)
    state = timed_slap(state, C, 10_440, 380, links)
    assert ENGINE.next_deadline(state) == 10_440


def test_a_slow_link_keeps_the_race_open_long_enough_to_win():
    links = [(20, 2), (150, 5), (20, 2)]
    state = timed_slap(race_table(["Y05", "B01", "G05"]), A, 10_270, 250, links)
    # B (150 ms + jitter 5 + one frame) could still win until S + 250 + 10 + 172.
    assert ENGINE.next_deadline(state) == 10_432
    state = timed_slap(state, B, 10_400, 230, links)  # reacted 20 ms faster, arrived 130 ms later
    assert ENGINE.next_deadline(state) == 10_400  # C (20 ms) can no longer win: close now
    last = ENGINE.tick(state, 10_400).last
    assert last is not None and last.winner == B


def test_compensation_reverses_arrival_order():
    state = race_table(["Y05", "B01", "G05"])
    state = honest_slap(state, A, 10_420, rtt=40)
    state = honest_slap(state, C, 10_440, rtt=120)
    assert [(c.seat, c.at) for c in state.slaps] == [(A, 10_380), (C, 10_320)]
    state = close(state)
    assert known(state.last).winner == C and [c.seat for c in known(state.last).claims] == [C, A]


def test_without_compensation_arrival_order_decides():
    state = race_table(["Y05", "B01", "G05"], latency_compensation=False)
    state = slap(state, A, 10_420, rtt=40, reaction=380)
    state = slap(state, C, 10_440, rtt=120, reaction=320)
    assert [c.at for c in state.slaps] == [10_420, 10_440]
    assert known(close(state).last).winner == A


def test_credit_is_capped_and_a_claim_after_the_race_is_stale():
    links = [(20, 0), (20, 0), (500, 0)]
    state = timed_slap(race_table(["Y05", "B01", "G05"]), A, 10_400, 380, links)
    # C's link is slower than max_credit_ms (200): it can be forgiven 200 ms, no more.
    assert state.slaps[0].at == 10_380 and ENGINE.next_deadline(state) == S + 380 + 10 + 200
    c_slap = Move(
        C,
        {"type": "slap", "flip": state.flip, "reaction_ms": 250},
        10_750,
        500,
        Timing(tuple(Link(r, j, {"flip:1": S}) for r, j in links)),
    )
    # Whether or not the room has ticked the race close yet, C is too late.
    assert illegal(state, c_slap) == "STALE_SLAP"
    closed = ENGINE.tick(state, 10_590)
    assert illegal(closed, c_slap) == "STALE_SLAP"
    assert known(closed.last).winner == A


def test_a_larger_credit_cap_lets_the_slow_link_win():
    links = [(20, 0), (20, 0), (500, 0)]
    state = race_table(["Y05", "B01", "G05"], max_credit_ms=500, race_window_ms=510)
    state = timed_slap(state, A, 10_400, 380, links)
    assert ENGINE.next_deadline(state) == S + 380 + 10 + 500
    state = timed_slap(state, C, 10_750, 250, links)
    assert state.slaps[1].at == 10_250
    assert known(close(state).last).winner == C


def test_a_lying_client_gets_no_more_than_its_round_trip_jitter_and_a_frame():
    links = [(80, 4), (80, 4), (80, 4)]
    for reported in (0, 100, 200, 320, 400, 10**6):
        state = timed_slap(race_table(["Y05", "B01", "G05"]), C, 10_400, reported, links)
        assert state.slaps[0].at >= 10_400 - (80 + 4 + 17)
    lying = timed_slap(race_table(["Y05", "B01", "G05"]), C, 10_400, 0, links)
    assert lying.slaps[0].at == 10_299 and lying.slaps[0].effective_ms == 299
    assert lying.slaps[0].flags == ("ABOVE_WINDOW", "INHUMAN")
    assert timed_slap(race_table(["Y05", "B01", "G05"]), C, 10_400, 310, links).slaps[0].flags == ()


def test_a_slap_without_timing_is_judged_with_no_link_and_no_credit():
    action = {"type": "slap", "flip": 1, "reaction_ms": 300}
    state = ENGINE.apply(race_table(["Y05", "B01", "G05"]), Move(C, action, 10_400, 80))
    claim = state.slaps[0]
    assert (claim.at, claim.credit, claim.sent, claim.rtt) == (10_400, 0, None, None)
    assert claim.flags == ("NO_STIMULUS", "NO_SYNC")
    # Nobody's link is known, so the race waits its whole window for the others.
    assert ENGINE.next_deadline(state) == 10_400 + state.options.race_window_ms


def test_a_flagged_claim_loses_a_tie_to_a_clean_one():
    links = [(80, 4), (80, 4), (80, 4)]
    for seed in ("x", "y", "z", "w"):
        state = race_table(["Y05", "B01", "G05"], seed=seed)
        state = timed_slap(state, C, 10_380, 150, links)  # effective 279 (under-reported), flagged
        state = timed_slap(state, A, 10_365, 285, links)  # honest, 6 ms slower: inside the tie margin
        last = close(state).last
        assert last is not None and (last.winner, last.tied) == (A, (A,))


def test_claims_within_the_tie_margin_are_a_seeded_draw():
    def tie(seed: str):
        state = new_game(3, seed=seed, now=S - 1000)
        state = reveal(arrange(state, [["Y05"], ["B01"], ["G05"]]))
        state = honest_slap(state, A, 10_400, rtt=100)  # reacted in 300 ms: at 10 300
        state = honest_slap(state, C, 10_406, rtt=100)  # reacted in 306 ms: at 10 306
        return state, close(state)

    racing, closed = tie("tie")
    assert [c.at for c in racing.slaps] == [10_300, 10_306]
    assert closed.last.tied == (A, C)
    assert closed.last.winner == racing.rng.copy().choice((A, C))
    assert tie("tie")[1] == closed  # same seed and inputs, same winner
    assert {tie(f"tie-{i}")[1].last.winner for i in range(20)} == {A, C}


def test_a_claim_arriving_exactly_at_the_race_deadline_counts():
    state = race_table(["Y05", "B01", "G05"])
    state = slap(state, A, 10_400)
    state = slap(state, C, 10_560)
    assert [c.seat for c in state.slaps] == [A, C]


# -- 11-13. false and ignored slaps ------------------------------------------------


def test_false_slap_costs_a_point_and_the_cards_stay():
    state = race_table(["Y03", "B09", "G05"])
    table = state.table
    state = slap(state, B, S + 400)
    assert state.penalties == (0, 1, 0)
    assert ENGINE.view(state, A)["seats"][B]["penalties"] == 1
    assert state.table == table and state.phase is Phase.FLIP_OPEN
    assert ENGINE.next_deadline(state) == S + 1500
    assert ENGINE.tick(state, S + 1499) is state
    closed = ENGINE.tick(state, S + 1500)
    assert known(closed.last).kind is FlipKind.NO_PAIR and [c.seat for c in known(closed.last).claims] == [B]
    assert "Y03" in closed.piles[A] and "B09" in closed.piles[B] and "G05" in closed.piles[C]
    assert [len(p) for p in closed.piles] == [10, 10, 10]
    assert closed.starter == A and closed.penalties == (0, 1, 0)
    assert_conserved(closed)


def test_second_slap_in_the_same_flip_is_ignored():
    state = slap(race_table(["Y03", "B09", "G05"]), B, S + 400)
    again = Move(B, {"type": "slap", "flip": state.flip}, S + 500)
    assert illegal(state, again) == "ALREADY_SLAPPED"
    assert state.penalties == (0, 1, 0)


def test_stale_slaps_are_ignored_without_penalty():
    state = replace(new_game(3), flip=7)
    assert illegal(state, Move(B, {"type": "slap", "flip": 7}, 100)) == "STALE_SLAP"  # AWAIT_NU
    state = nu(state, 200)
    assert state.flip == 8 and state.phase is Phase.NU_CALLED
    assert illegal(state, Move(B, {"type": "slap", "flip": 7}, 300)) == "STALE_SLAP"
    assert illegal(state, Move(B, {"type": "slap", "flip": 8}, 300)) == "STALE_SLAP"
    shown = ENGINE.tick(state, known(state.deadline))
    assert illegal(shown, Move(B, {"type": "slap", "flip": 7}, 900)) == "STALE_SLAP"
    after = close(shown)
    assert illegal(after, Move(B, {"type": "slap", "flip": 8}, known(after.deadline))) == "STALE_SLAP"
    assert after.penalties == (0, 0, 0)


# -- 14-16. what makes a trick ----------------------------------------------------


def test_a_player_outside_the_pair_may_win_it():
    state = race_table(["Y04", "B09", "G04"])
    state = slap(state, B, S + 250)
    state = slap(state, A, S + 300)
    state = close(state)
    assert known(state.last).winner == B
    assert sorted(state.piles[B][-3:]) == ["B09", "G04", "Y04"]
    assert [len(p) for p in state.piles] == [9, 12, 9]


def test_four_of_a_kind_is_one_trick():
    state = race_table(["Y06", "B06", "G06", "P06"], players=4)
    state = close(honest_slap(state, D, S + 300, rtt=50))
    assert known(state.last).winner == D and known(state.last).pairs == (6,)
    assert [len(p) for p in state.piles] == [9, 9, 9, 13]


def test_two_pairs_are_one_trick():
    state = race_table(["Y03", "B03", "G08", "P08"], players=4)
    state = close(honest_slap(state, A, S + 300, rtt=50))
    assert known(state.last).kind is FlipKind.TRICK and known(state.last).pairs == (3, 8)
    assert [len(p) for p in state.piles] == [13, 9, 9, 9]


def test_an_unclaimed_pair_goes_back_after_the_timeout():
    state = race_table(["Y02", "B02", "G05"])
    assert ENGINE.next_deadline(state) == S + 15_000
    assert ENGINE.tick(state, S + 14_999) is state
    closed = ENGINE.tick(state, S + 15_000)
    assert known(closed.last).kind is FlipKind.UNCLAIMED and known(closed.last).winner is None
    assert "Y02" in closed.piles[A] and "B02" in closed.piles[B] and "G05" in closed.piles[C]
    assert [len(p) for p in closed.piles] == [10, 10, 10] and closed.starter == A
    assert illegal(closed, Move(B, {"type": "slap", "flip": 1}, S + 15_100)) == "STALE_SLAP"


def test_a_slap_after_the_pair_timeout_is_stale():
    # Rules scenario 16's "slap at S + 8100", with the timeout it implies (8000).
    state = race_table(["Y02", "B02", "G05"], pair_timeout_ms=8000)
    assert illegal(state, Move(B, {"type": "slap", "flip": 1}, S + 8100)) == "STALE_SLAP"
    assert known(ENGINE.tick(state, S + 8100).last).kind is FlipKind.UNCLAIMED


def test_a_pair_waits_forever_when_the_timeout_is_zero():
    state = race_table(["Y02", "B02", "G05"], pair_timeout_ms=0)
    assert ENGINE.next_deadline(state) is None
    assert ENGINE.tick(state, 10**9) is state
    assert known(close(slap(state, C, 10**9)).last).winner == C


# -- 17-23. round end and scoring --------------------------------------------------


def test_normal_end_with_four_players():
    state = race_table(["Y05", "B05", "G01", "P02"], [13, 15, 11, 1], players=4)
    state = replace(state, penalties=(1, 0, 2, 0))
    state = close(honest_slap(state, A, S + 300, rtt=50))
    assert state.phase is Phase.ROUND_OVER
    record = state.history[-1]
    assert record.end is EndKind.NORMAL
    assert record.counts == (16, 14, 10, 0)
    assert record.placement == (6, 4, 2, 0)
    assert record.scores == (5, 4, 0, 0) == state.totals
    assert known(ENGINE.next_deadline(state)) == known(state.last).closed_at + 8000


def test_two_players_emptied_by_one_trick_both_score_zero():
    state = race_table(["Y01", "B04", "G04"], [28, 1, 1])
    state = close(honest_slap(state, A, S + 300, rtt=50))
    record = state.history[-1]
    assert (record.end, record.counts, record.scores) == (EndKind.NORMAL, (30, 0, 0), (6, 0, 0))


def test_equal_counts_share_a_place():
    state = race_table(["Y05", "B05", "G01", "P02"], [14, 18, 7, 1], players=4)
    state = close(honest_slap(state, A, S + 300, rtt=50))
    record = state.history[-1]
    assert record.counts == (17, 17, 6, 0) and record.placement == (6, 6, 2, 0)
    options = SlapOptions()
    assert placement_points([14, 13, 13, 0], EndKind.NORMAL, options) == (6, 4, 4, 0)
    assert placement_points([10, 10], EndKind.STALL, options) == (6, 6)


def two_player_round(winners: list[int]) -> SlapState:
    state = new_game(2)
    state = replace(state, piles=(tuple(build_deck("Y", NUMBERS)), tuple(build_deck("G", NUMBERS))))
    for n, winner in enumerate(winners, start=1):
        state = play_flip(state, winner)
        assert known(state.last).kind is FlipKind.TRICK and known(state.last).winner == winner
        if n < len(winners):
            assert state.phase is Phase.FLIP_RESULT, f"round ended early after trick {n}"
            state = ENGINE.tick(state, known(state.deadline))
    return state


def test_two_player_round_ends_by_stall_after_the_tenth_trick():
    state = two_player_round([A] * 6 + [B] * 4)
    assert state.phase is Phase.ROUND_OVER
    record = state.history[-1]
    assert (record.end, record.counts, record.placement) == (EndKind.STALL, (12, 8), (6, 2))


def test_two_player_round_won_outright_is_a_normal_end():
    record = two_player_round([A] * 10).history[-1]
    assert (record.end, record.counts, record.placement) == (EndKind.NORMAL, (20, 0), (6, 0))


def stall_table(*, share_8_and_9: bool) -> SlapState:
    """A holds the 1-4s, B the 6-8s, C the 9-10s; all three turn a 5."""
    a = ["Y05"] + [f"{c}{n:02d}" for c in "YBG" for n in range(1, 5)]
    b = ["B05"] + [f"{c}{n:02d}" for c in "YBG" for n in range(6, 9)]
    c = ["G05"] + [f"{c}{n:02d}" for c in "YBG" for n in range(9, 11)]
    if share_8_and_9:
        b[b.index("Y08")], c[c.index("Y09")] = "Y09", "Y08"
    state = new_game(3, now=S - 1000)
    return reveal(replace(state, piles=tuple(tuple(map(CardId, pile)) for pile in (a, b, c))))


def test_stall_ends_a_three_player_round():
    state = close(honest_slap(stall_table(share_8_and_9=False), A, S + 300, rtt=50))
    record = state.history[-1]
    assert (record.end, record.counts, record.placement) == (EndKind.STALL, (15, 9, 6), (6, 4, 2))


def test_no_stall_while_a_number_is_shared():
    state = close(honest_slap(stall_table(share_8_and_9=True), A, S + 300, rtt=50))
    assert state.phase is Phase.FLIP_RESULT and state.history == ()


def time_limit_table(round_started_at: int) -> SlapState:
    # The flip turns over at 298.9 s and, without a pair, closes at 300.4 s.
    state = new_game(3, now=296_300, round_time_limit_s=300)
    piles = (
        (*build_deck("Y", NUMBERS), *build_deck("B", range(1, 5))),
        (*build_deck("B", range(5, 11)), *build_deck("G", range(1, 4))),
        tuple(build_deck("G", range(4, 11))),
    )
    return replace(state, piles=piles, round_started_at=round_started_at)


def test_time_limit_ends_the_round_at_the_next_close():
    state = time_limit_table(0)
    state = ENGINE.tick(state, 300_000)
    assert state.phase is Phase.FLIP_OPEN  # the flip open at 300 s is finished first
    state = ENGINE.tick(state, 300_400)
    record = state.history[-1]
    assert (record.end, record.counts, record.placement) == (EndKind.TIME, (14, 9, 7), (6, 4, 2))


def test_a_close_before_the_time_limit_continues_the_round():
    state = ENGINE.tick(time_limit_table(401), 300_400)
    assert state.phase is Phase.FLIP_RESULT


def test_negative_round_score():
    state = race_table(["Y03", "G03"], [19, 1], players=2)
    state = replace(state, penalties=(0, 2))
    state = close(honest_slap(state, A, S + 300, rtt=50))
    assert state.history[-1].scores == (6, -2) and state.totals == (6, -2)


# -- 24. match end -----------------------------------------------------------------


def test_match_end_with_equal_totals_is_a_shared_win():
    state = new_game(3, rounds=3, round_time_limit_s=1)
    plan = [  # (tops, counts, false slapper): rounds end by the time limit at the first close
        (["Y01", "B05", "G09"], [12, 10, 8], None),
        (["Y01", "B05", "G09"], [12, 10, 8], C),
        (["Y01", "B05", "G09"], [6, 12, 12], None),
    ]
    for tops, counts, false_slapper in plan:
        assert state.phase is Phase.AWAIT_NU
        state = arrange(state, [[t] for t in tops], counts)
        state = ENGINE.tick(state, known(state.deadline))  # Nu! fallback
        state = ENGINE.tick(state, known(state.deadline))  # reveal
        if false_slapper is not None:
            state = slap(state, false_slapper, known(state.reveal_at) + 200)
        state = close(state)
        assert state.phase is Phase.ROUND_OVER and state.history[-1].end is EndKind.TIME
        assert not ENGINE.result(state).finished
        state = ENGINE.tick(state, known(state.deadline))
    assert state.phase is Phase.MATCH_OVER
    assert [r.scores for r in state.history] == [(6, 4, 2), (6, 4, 1), (2, 6, 6)]
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.scores == (14, 14, 9) and outcome.winners == (A, B)
    assert [r["penalties"] for r in outcome.detail["rounds"]] == [[0, 0, 0], [0, 0, 1], [0, 0, 0]]
    assert outcome.to_json()["winners"] == [0, 1]
    # After MATCH_OVER nothing is legal and nothing is due.
    junk: tuple[Any, ...] = ({"type": "nu"}, {"type": "slap", "flip": state.flip}, {"type": "dance"}, "junk")
    for action in junk:
        assert illegal(state, Move(A, action, known(state.last).closed_at + 10**6)) == "GAME_OVER"
    assert all(v["legal"] == [] and v["winners"] == [A, B] for v in views(state))
    assert ENGINE.next_deadline(state) is None and ENGINE.tick(state, 10**12) is state


# -- 25, 26. disconnects and determinism ---------------------------------------------


def test_a_disconnected_starter_and_player_still_flip():
    state = new_game(3, first_starter=B)
    for _ in range(3):
        assert state.phase is Phase.AWAIT_NU and state.starter == B  # nobody wins, B stays starter
        b_top, b_size = state.piles[B][0], len(state.piles[B])
        state = ENGINE.tick(state, known(state.deadline))  # the Nu! fallback covers B
        assert state.phase is Phase.NU_CALLED
        state = ENGINE.tick(state, known(state.deadline))
        assert state.table[B] == b_top and len(state.piles[B]) == b_size - 1
        if not state.has_pair:
            state = slap(state, A, known(state.reveal_at) + 100)  # a false slap, to see penalties
        # B reconnects: its view shows the current flip like everyone else's.
        b_view, spectator = ENGINE.view(state, B), ENGINE.view(state, None)
        assert b_view["flip"] == state.flip and b_view["seats"] == spectator["seats"]
        assert b_view["legal"] == [{"type": "slap", "flip": state.flip}]
        state = close(state)
        assert state.phase is Phase.FLIP_RESULT
        state = ENGINE.tick(state, known(state.deadline))
    assert ENGINE.view(state, B)["seats"][A]["penalties"] == state.penalties[A]


def scripted_game(seed: str) -> list:
    """A small deterministic script: the seat after the starter slaps every pair,
    seat 0 slaps every third no-pair flip; the starter calls Nu! after 300 ms."""
    state = new_game(3, seed=seed, rounds=1, round_time_limit_s=60)
    trace = [(state, [ENGINE.view(state, s) for s in (None, 0, 1, 2)])]
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.AWAIT_NU:
            state = nu(state, known(state.deadline) - state.options.nu_auto_ms + 300)
        elif state.phase is Phase.FLIP_OPEN and state.has_pair:
            state = slap(state, (state.starter + 1) % 3, known(state.reveal_at) + 250, rtt=50, reaction=200)
            state = slap(state, state.starter, known(state.reveal_at) + 255, rtt=50, reaction=205)
        elif state.phase is Phase.FLIP_OPEN and state.flip % 3 == 0 and not state.has_slapped(0):
            state = slap(state, 0, known(state.reveal_at) + 100)
        else:
            state = ENGINE.tick(state, known(state.deadline))
        trace.append((state, [ENGINE.view(state, s) for s in (None, 0, 1, 2)]))
    return trace


def test_same_seed_and_inputs_give_the_same_game():
    one, two = scripted_game("det"), scripted_game("det")
    assert one == two
    assert ENGINE.result(one[-1][0]) == ENGINE.result(two[-1][0])
    assert any(s.last and s.last.tied[1:] for s, _ in one)  # the script produced real ties
    for state, vs in one:
        face_down = {c for pile in state.piles for c in pile}
        assert all(not cards_in(v) & face_down for v in vs)
    assert scripted_game("other")[-1][0] != one[-1][0]


# -- the engine contract --------------------------------------------------------------


def test_apply_and_tick_return_new_states_and_leave_the_old_one_alone():
    state = race_table(["Y05", "B01", "G05"])
    before = copy.deepcopy(state)
    after = slap(state, A, 10_400)
    assert after is not state and state == before and after != state
    closed = ENGINE.tick(after, known(after.deadline))
    assert closed is not after and after.phase is Phase.RACE


def test_bad_actions_are_rejected_with_codes():
    state = race_table(["Y05", "B01", "G05"])
    cases: list[tuple[Any, str]] = [
        ({"type": "fold"}, "UNKNOWN_ACTION"),
        ({}, "BAD_ACTION"),
        ("slap", "BAD_ACTION"),
        ({"type": 7}, "BAD_ACTION"),
        ({"type": "slap"}, "BAD_ACTION"),
        ({"type": "slap", "flip": "1"}, "BAD_ACTION"),
        ({"type": "slap", "flip": True}, "BAD_ACTION"),
        ({"type": "slap", "flip": 1, "reaction_ms": -1}, "BAD_ACTION"),
        ({"type": "slap", "flip": 1, "reaction_ms": 1.5}, "BAD_ACTION"),
        ({"type": "slap", "flip": 1, "reaction_ms": 2**40}, "BAD_ACTION"),
        ({"type": "slap", "flip": 1, "cheat": 1}, "BAD_ACTION"),
        ({"type": "nu", "now": True}, "BAD_ACTION"),
    ]
    for action, code in cases:
        assert illegal(state, Move(A, action, 10_100)) == code, action
    assert illegal(state, Move(3, {"type": "slap", "flip": 1}, 10_100)) == "NOT_SEATED"
    assert illegal(state, Move(-1, {"type": "slap", "flip": 1}, 10_100)) == "NOT_SEATED"
    assert slap(state, A, 10_100, reaction=None).slaps[0].reaction_ms is None


def test_a_move_after_a_missed_deadline_sees_that_deadline_fired():
    state = new_game(3)
    # The fallback at 2000 came first, even though the room has not ticked it yet.
    assert illegal(state, Move(A, {"type": "nu"}, 2_001)) == "WRONG_PHASE"
    assert nu(state, 2_000).reveal_at == 2_600  # exactly at the deadline: the move goes first
    assert nu(state, 1_999).reveal_at == 2_599


def test_next_deadline_follows_every_phase():
    state = new_game(3, now=0)
    assert ENGINE.next_deadline(state) == 2000  # AWAIT_NU
    state = nu(state, 100)
    assert ENGINE.next_deadline(state) == 700  # NU_CALLED: reveal_at
    state = arrange(state, [["Y01"], ["B02"], ["G03"]])
    state = ENGINE.tick(state, 700)
    assert ENGINE.next_deadline(state) == 700 + 1500  # FLIP_OPEN, no pair
    state = ENGINE.tick(state, 2200)
    assert state.phase is Phase.FLIP_RESULT and ENGINE.next_deadline(state) == 2200 + 300
    state = ENGINE.tick(state, 2500)
    assert state.phase is Phase.AWAIT_NU and ENGINE.next_deadline(state) == 4500


def test_view_shape_and_legal_actions():
    state = new_game(3)
    keys = VIEW_KEYS
    v = ENGINE.view(state, A)
    assert set(v) == keys and v["game"] == "slap" and v["phase"] == "AWAIT_NU"
    assert v["legal"] == [{"type": "nu"}] and v["you"] == A
    assert ENGINE.view(state, B)["legal"] == [] and ENGINE.view(state, None)["legal"] == []
    assert ENGINE.view(state, None)["you"] is None
    assert [set(s) for s in v["seats"]] == [{"colour", "pile", "card", "penalties", "slapped"}] * 3
    assert (v["time_limit_at"], v["rounds"], v["totals"]) == (300_000, 3, [0, 0, 0])
    # A slap is offered on a flip without a pair too: the view never flags a pair.
    no_pair = race_table(["Y01", "B02", "G03"])
    pair = race_table(["Y01", "B01", "G03"])
    for s in (no_pair, pair):
        view = ENGINE.view(s, B)
        assert set(view) == keys and view["legal"] == [{"type": "slap", "flip": 1}]
        assert view["deadline"] is None  # its length would tell a pair from no pair
    slapped = slap(pair, B, S + 200)
    assert ENGINE.view(slapped, None)["deadline"] == S + 200 + 210
    assert ENGINE.view(slapped, B)["legal"] == [] and ENGINE.view(slapped, A)["seats"][B]["slapped"]
    with pytest.raises(ValueError):
        ENGINE.view(state, 3)


def test_views_hold_only_json_types():
    state = close(honest_slap(race_table(["Y05", "B01", "G05"]), A, S + 300, rtt=50))
    for v in views(state):
        assert_json_ready(v)
    assert_json_ready(ENGINE.result(state).to_json())


def test_result_before_the_end_is_unfinished():
    outcome = ENGINE.result(new_game(3))
    assert (outcome.finished, outcome.scores, outcome.winners) == (False, (0, 0, 0), ())
    assert outcome.detail == {"colours": ["Y", "B", "G"], "rounds": [], "totals": [0, 0, 0]}


def test_start_rejects_bad_tables():
    with pytest.raises(IllegalAction) as info:
        ENGINE.start([SeatSetup()] * 2, SlapOptions(first_starter=3), "s", 0)
    assert info.value.code == "BAD_OPTIONS"
    with pytest.raises(IllegalAction) as info:
        ENGINE.start([SeatSetup()] * 5, SlapOptions(), "s", 0)
    assert info.value.code == "BAD_PLAYER_COUNT"


def test_options_defaults_bounds_and_descriptions():
    options = SlapOptions()
    assert (options.rounds, options.nu_auto_ms, options.pair_timeout_ms, options.race_window_ms) == (
        3,
        2000,
        15000,
        210,
    )
    assert options.placement_points == (6, 4, 2, 0) and options.two_player_stall_points == (6, 2)
    schema = SlapOptions.model_json_schema()
    assert all(field.get("description") for field in schema["properties"].values())
    assert len(schema["properties"]) == 19
    for bad in (
        {"rounds": 0},
        {"rounds": 11},
        {"nu_lead_ms": -1},
        {"no_pair_window_ms": 0},
        {"first_starter": 4},
        {"first_starter": "youngest"},
        {"race_window_ms": 100},
        {"tie_policy": "tiebreak"},
        {"placement_points": [6, 4, 2]},
        {"placement_points": [0, 2, 4, 6]},
        {"colour": "Y"},
    ):
        with pytest.raises(ValidationError):
            SlapOptions.model_validate(bad)
    short = SlapOptions(race_window_ms=3, max_credit_ms=2, tie_margin_ms=1, no_pair_window_ms=1, nu_auto_ms=0)
    assert short.race_window_ms == 3
    assert SlapOptions.model_validate({"placement_points": [6, 4, 2, 0]}) == options


def test_registry():
    assert isinstance(get_engine("slap"), SlapEngine) and ENGINES["slap"] is get_engine("slap")
    engine = get_engine("slap")
    assert (engine.name, engine.title, engine.min_players, engine.max_players) == ("slap", "Slap", 2, 4)
    assert engine.options_model is SlapOptions
    with pytest.raises(KeyError):
        get_engine("chess")


def test_state_holds_its_own_rng():
    state = new_game(3, seed="r")
    assert isinstance(state.rng, Rng) and state.rng != Rng.from_seed("r")  # it has dealt since
