"""Random playouts (OpenSpiel style): random legal and illegal inputs and ticks until the game
ends, checking the engine's invariants after every step, then replaying the whole input log.

The driver has its own ``random.Random``; the engine only ever sees the seed string and the
inputs, which are logged and replayed. Bots pick from the view's ``legal`` with a bias towards
laying and towards passing when their hand exceeds what their row still needs (a bot that always
draws never empties its hand, never wins, and only ever produces void rounds).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.kuuduk import ENGINE, KuudukOptions, KuudukState, Phase, Step, build_deck
from app.engines.kuuduk.layout import is_valid
from app.engines.step import Input, Tick
from tests.engines.helpers import replay_log
from tests.engines.test_kuuduk_helpers import CARD_RE, hidden_from

DECK = set(build_deck())
valid_layout = lru_cache(maxsize=1 << 16)(is_valid)  # rows repeat from step to step
CODES = {
    "UNKNOWN_ACTION",
    "BAD_ACTION",
    "GAME_OVER",
    "WRONG_PHASE",
    "NOT_IN_ROUND",
    "NOT_YOUR_TURN",
    "WRONG_STEP",
    "NOT_IN_HAND",
    "MUST_DRAW",
    "DRAW_PILE_EMPTY",
    "DISCARD_EMPTY",
    "DISCARD_TOP_BLACK",
    "NOT_A_LETTER",
    "NOT_A_SWIPE",
    "NOT_A_SWITCH",
    "BAD_VICTIM",
    "NO_CARD_IN_SLOT",
    "LAYOUT_CARDS_CHANGED",
    "WRONG_LETTER_SLOT",
    "SLOT_TAKEN",
    "NO_MATCH",
    "NOT_ADJACENT",
    "GAP_CREATED",
}
JUNK = [
    {"type": "dance"},
    {},
    {"type": "lay", "card": "uG1-1"},
    {"type": "lay", "card": "uG1-1", "placement": 9},
    {"type": "swipe", "card": "swipe_any-1", "victim": 1},
    {"type": "draw", "now": True},
    "pass",
]
FAMILIES: dict[str, dict[str, Any]] = {
    "single_round": {"mode": "single_round"},
    "low_target": {"target": 6},
    "target": {"target": 9},
    "max_rounds": {"max_rounds": 2, "target": 40},
    "timer": {"turn_ms": 40, "target": 7},
    "stall": {"stall_turns": 6, "target": 8},
}
GAMES_PER_CASE = 24  # 7 player counts x 6 families x 24 = 1008 games


def options_for(rnd: random.Random, family: str, players: int) -> KuudukOptions:
    chosen: dict[str, Any] = dict(FAMILIES[family])
    chosen["round_pause_ms"] = rnd.choice([0, 3, 10])
    chosen["first_dealer"] = rnd.choice(["random", rnd.randrange(players)])
    if family != "timer" and rnd.random() < 0.2:
        chosen["turn_ms"] = rnd.randint(15, 80)
    return KuudukOptions(**chosen)


def check_state(state: KuudukState, now: int) -> None:
    # Card conservation: ids are unique, so 77 cards forming the deck's set means each exactly once.
    cards = [*state.draw_pile, *state.discard]
    for hand in state.hands:
        cards += hand
    for layout in state.layouts:
        cards += layout.cards()
    assert len(cards) == len(DECK) and set(cards) == DECK
    assert all(valid_layout(layout) for layout in state.layouts)
    for seat in range(state.players):
        if seat not in state.seats:
            assert not state.hands[seat] and not state.layouts[seat].laid
        limit = 4 if (state.phase is Phase.TURN and seat == state.turn and state.drawn is not None) else 3
        assert len(state.hands[seat]) <= limit
    assert state.deadline is None or state.deadline >= now
    if state.phase is Phase.TURN:
        assert state.turn in state.seats
        assert (state.deadline is None) == (state.options.turn_ms == 0)
        assert (state.drawn is not None) <= (
            state.step is Step.PLAY and state.drawn in state.hands[state.turn]
        )
        assert state.stall < state.stall_limit
    elif state.phase is Phase.ROUND_END:
        assert state.deadline is not None and state.next_seats
    else:
        assert state.deadline is None and state.winners


def check_views(state: KuudukState, seed: str, seats) -> None:
    secrets = (seed, str(state.rng.state), f"{state.rng.state:x}")
    for seat in seats:
        view = ENGINE.view(state, seat)
        text = json.dumps(view)
        assert not set(CARD_RE.findall(text)) & hidden_from(state, seat)
        assert not any(s in text for s in secrets)
        assert len(view["seats"]) == state.players and view["you"] == seat
        assert view["hand"] == ([] if seat is None else list(state.hands[seat]))


def check_result(state: KuudukState) -> None:
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.winners == state.winners
    totals = [0] * state.players
    for record in state.history:
        if record.winner is None:
            assert not record.counted and set(record.scores) == {0}
            continue
        assert record.laid[record.winner] == 6 and record.held[record.winner] == 0
        for seat in range(state.players):
            expected = record.laid[seat] - record.held[seat] if seat in record.seats else 0
            assert record.scores[seat] == expected
            assert record.scores[seat] <= 6 and (record.scores[seat] < 6 or seat == record.winner)
        assert record.counted == (not record.tiebreak)
        if record.counted:
            totals = [a + b for a, b in zip(totals, record.scores, strict=True)]
    assert tuple(totals) == outcome.scores == state.totals
    last = state.history[-1]
    options = state.options
    if last.winner is None:
        # DECISION (void rounds): too many void rounds in a row; the best total of the round's players wins.
        assert state.void_streak >= options.void_rounds
        best = max(totals[s] for s in last.seats)
        assert state.winners == tuple(s for s in last.seats if totals[s] == best)
        return
    if last.tiebreak or options.mode == "single_round":
        assert state.winners == (last.winner,)
    else:
        best = max(totals)
        assert best >= options.target or state.scored_rounds >= options.max_rounds
        assert state.winners == tuple(s for s in range(state.players) if totals[s] == best)
        assert len(state.winners) == 1
    if options.mode == "single_round":
        assert sum(1 for r in state.history if r.winner is not None) == 1


def bot_action(rnd: random.Random, state: KuudukState, legal: list[dict[str, Any]]) -> dict[str, Any]:
    seat = state.turn
    if rnd.random() < 0.12:
        return rnd.choice(legal)
    if state.step is Step.ACQUIRE:
        picks = [a for a in legal if a["type"] == "take_discard"]
        if picks and rnd.random() < 0.8:
            return rnd.choice(picks)
        needed = 6 - state.layouts[seat].laid
        want = "pass" if len(state.hands[seat]) >= needed and rnd.random() < 0.8 else "draw"
        return next((a for a in legal if a["type"] == want), legal[0])
    good = [a for a in legal if a["type"] == "lay" or (a["type"] == "swipe" and "victim" in a)]
    if good and rnd.random() < 0.85:
        return rnd.choice(good)
    return rnd.choice(legal)


def fuzz_action(rnd: random.Random, state: KuudukState) -> tuple[int, Any]:
    """Something probably illegal: junk, a wrong seat, or a random lay with a random row."""
    roll = rnd.random()
    seat = rnd.randrange(state.players)
    if roll < 0.3:
        return seat, rnd.choice(JUNK)
    hand = state.hands[state.turn]
    if roll < 0.5 or not hand:
        return seat, rnd.choice(
            [{"type": "draw"}, {"type": "pass"}, {"type": "take_discard", "placement": 2}]
        )
    card = rnd.choice(hand)
    if rnd.random() < 0.5:
        placement: object = rnd.randint(1, 6)
    else:
        cards = [*state.layouts[state.turn].cards(), card, None, None, None, None, None][:6]
        rnd.shuffle(cards)
        placement = cards
    kind = rnd.choice(["lay", "lay", "discard", "switch", "swipe"])
    action: dict[str, object] = {"type": kind, "card": card}
    if kind == "lay":
        action["placement"] = placement
    if kind == "swipe" and rnd.random() < 0.7:
        action.update(victim=rnd.randrange(state.players), slot=rnd.randint(1, 6), placement=placement)
    return state.turn if rnd.random() < 0.8 else seat, action


def playout(players: int, family: str, index: int, stats: Counter[str]) -> None:
    rnd = random.Random(f"kuuduk-{players}-{family}-{index}")
    seed = f"playout-seed-{players}-{family}-{index}-qz"
    options = options_for(rnd, family, players)
    seats = [SeatSetup()] * players
    start = rnd.randint(0, 10**6)
    state = ENGINE.start(seats, options, seed, start)
    log: list[Input] = []
    now = start
    check_state(state, now)
    check_views(state, seed, [None, *range(players)])
    for step in range(20_000):
        if state.phase is Phase.GAME_OVER:
            break
        deadline = state.deadline
        before = state
        if state.phase is Phase.ROUND_END or (deadline is not None and rnd.random() < 0.08):
            assert deadline is not None
            t = deadline + rnd.choice([0, 0, 0, 1, 5]) if rnd.random() < 0.9 else rnd.randint(now, deadline)
            state = ENGINE.tick(state, t)
            if t < deadline:
                assert state is before
            log.append(Tick(t))
            stats["ticks"] += 1
        else:
            horizon = deadline + 2 if deadline is not None else now + 30
            t = rnd.randint(now, max(now, horizon))
            legal = ENGINE.view(state, state.turn)["legal"]
            assert legal, "the player on turn always has a legal action"
            if rnd.random() < 0.1:
                seat, action = fuzz_action(rnd, state)
            else:
                seat, action = state.turn, bot_action(rnd, state, legal)
            move = Move(seat, action, t)
            try:
                state = ENGINE.apply(state, move)
            except IllegalAction as exc:
                assert exc.code in CODES, exc.code
                assert state is before
                # A listed action is only refused because a deadline fired before it arrived.
                assert action not in legal or seat != before.turn or (deadline is not None and t > deadline)
                stats["rejected"] += 1
                t = now  # a rejected input never reached the state, nor its clock
            else:
                log.append(move)
                stats["moves"] += 1
        now = max(now, t)
        check_state(state, now)
        # Views are checked on a sample of the steps (they dominate the run time): every seat's
        # and the spectator's at every round end and every 10th step, the player on turn's every 3rd.
        if step % 10 == 0 or state.phase is not Phase.TURN:
            check_views(state, seed, [None, *range(players)])
        elif step % 3 == 0:
            check_views(state, seed, [state.turn])
    else:
        pytest.fail("the game did not end")

    check_result(state)
    stats["rounds"] += len(state.history)
    stats["void"] += sum(1 for r in state.history if r.winner is None)
    stats["void_end"] += ENGINE.result(state).detail["void_end"]
    stats["tiebreaks"] += sum(1 for r in state.history if r.tiebreak)

    # A full replay from the seed rebuilds the final state exactly.
    assert replay_log(ENGINE, seats, options, seed, start, log) == state


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("players", range(2, 9))
def test_random_playout_keeps_the_invariants(players: int, family: str) -> None:
    stats: Counter[str] = Counter()
    for index in range(GAMES_PER_CASE):
        playout(players, family, index, stats)
    assert stats["moves"] and stats["rejected"]
