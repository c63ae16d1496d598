"""Random playouts (OpenSpiel style): random legal and illegal inputs, ticks and host
early ends until the match ends, checking the engine's invariants after every step.

The driver has its own ``random.Random``; the engine only ever sees the seed
string and the inputs, which are logged and replayed at the end of every game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.leekha import (
    DECK,
    ENGINE,
    EndReason,
    LeekhaOptions,
    LeekhaState,
    Phase,
    decided_now,
    points_of,
    right,
)
from app.engines.leekha.scoring import opponents
from app.engines.step import EndEarly, Input, Tick
from app.engines.step import step as apply_input
from tests.engines.helpers import assert_json_ready, replay_log
from tests.engines.test_leekha import CARD_RE, VIEW_KEYS

SORTED_DECK = sorted(DECK)
GAMES_PER_BATCH = 50
BATCHES = 10  # x 2 modes = 1000 games
JUNK: list[Any] = [
    {"type": "dance"},
    {},
    {"type": 3},
    {"type": "play_card"},
    {"type": "play_card", "card": "B1"},
    {"type": "submit_pass", "cards": "B12"},
    {"type": "submit_pass", "cards": [1, 2, 3]},
    {"type": "ack", "x": 1},
    {"type": "throw_in", "all": True},
    {"type": "end_match_early"},
]
REJECTIONS = {
    "UNKNOWN_ACTION",
    "BAD_ACTION",
    "NOT_ADMIN",
    "WRONG_PHASE",
    "NOT_YOUR_TURN",
    "NOT_IN_HAND",
    "PASS_NOT_THREE_DISTINCT",
    "PASS_ALREADY_SUBMITTED",
    "PASS_EMPTIES_COLOUR",
    "MUST_FOLLOW_COLOUR",
    "MUST_PLAY_LEEKHA_UNDER_HIGHER",
    "MUST_PLAY_LEEKHA_VOID",
    "ALREADY_ACKED",
    "GAME_OVER",
}


def check_view(state: LeekhaState, seat: int | None, view: dict, secrets: tuple[str, ...]) -> None:
    assert set(view) == VIEW_KEYS and len(view["seats"]) == 4 and view["you"] == seat
    text = json.dumps(view)
    assert json.loads(text) == view  # JSON-ready: no tuples, no non-string keys
    shown = set(CARD_RE.findall(text))
    hidden = set(state.discarded)
    for other in range(4):
        if other != seat:
            hidden |= set(state.hands[other])
    if seat is not None and state.phase in (Phase.PASS_SELECT, Phase.PASS_REVEAL, Phase.PLAY):
        hidden -= set(state.passes[seat] or ())  # the giver knows what it gave
    assert not shown & hidden, (seat, shown & hidden)
    assert not any(s in text for s in secrets)


def check_views(state: LeekhaState, secrets: tuple[str, ...], *, full: bool = True) -> None:
    for seat in (None, 0, 1, 2, 3):
        view = ENGINE.view(state, seat)
        if full and seat is None:
            assert_json_ready(view)  # and only plain types (no enums)
        check_view(state, seat, view, secrets)


def check(state: LeekhaState, now: int) -> None:
    """The state invariants of rules 3.8."""
    cards = [c for h in state.hands for c in h] + [c for _, c in state.trick]
    cards += [c for cap in state.captured for c in cap] + list(state.discarded)
    assert sorted(cards) == SORTED_DECK
    phase = state.phase
    assert state.deadline is None or state.deadline >= now
    timed = state.options.turn_ms > 0 or phase in (Phase.PASS_REVEAL, Phase.ROUND_END)
    assert (state.deadline is not None) == (timed and phase is not Phase.MATCH_END)
    assert state.tricks_done <= 13
    if phase in (Phase.PASS_SELECT, Phase.PASS_REVEAL):
        assert all(len(h) == 13 for h in state.hands) and state.tricks_done == 0
    if phase is Phase.PLAY:
        size = 13 - state.tricks_done
        played = {s for s, _ in state.trick}
        assert [len(h) for h in state.hands] == [size - (s in played) for s in range(4)]
        expected = state.trick[0][0] if state.trick else state.turn
        for seat, _ in state.trick:
            assert seat == expected
            expected = right(expected)
        assert state.turn == expected
        assert list(state.round_pts) == [sum(points_of(c) for c in cap) for cap in state.captured]
        assert state.end_reason is None
    total = [0, 0, 0, 0]
    for record in state.history:
        total = [a + b for a, b in zip(total, record.points, strict=True)]
        assert list(record.totals) == total
        if record.end is EndReason.RULE37:
            assert sorted(record.points) == [0, 0, 0, 37] and record.bl_taker == record.sl_taker
        elif record.end is EndReason.EARLY_END:
            assert sum(record.points) <= 36
        else:
            assert sum(record.points) == 36
        if record.end is EndReason.COMPLETE:
            assert record.tricks == 13
        if record.end is not EndReason.EARLY_END:
            assert record.bl_taker is not None and record.sl_taker is not None
    assert list(state.scores) == total
    if phase in (Phase.ROUND_END, Phase.MATCH_END):
        assert state.history and state.history[-1].round == state.round
    if phase is not Phase.MATCH_END:
        assert state.verdict is None


def check_verdict(state: LeekhaState) -> None:
    verdict = state.verdict
    assert verdict is not None
    scores, options = state.scores, state.options
    losers = verdict.losers
    if options.mode == "ffa":
        (loser,) = losers
        assert all(scores[loser] > scores[o] for o in range(4) if o != loser)
        assert verdict.places[loser] == 4
        assert sorted(verdict.places[o] for o in range(4) if o != loser)[0] == 1
    else:
        assert losers in ((0, 2), (1, 3))
        assert set(verdict.places) == {1, 2}
    if verdict.early:
        assert state.history[-1].end is EndReason.EARLY_END
        assert max(scores[s] for s in losers) >= options.limit
        loser_top = max(scores[s] for s in losers)
        assert all(scores[o] < loser_top for o in opponents(losers[0], options.mode))
        return
    assert max(scores[s] for s in losers) >= options.limit
    if options.mode == "teams":
        winners = [s for s in range(4) if s not in losers]
        hi_l, hi_w = max(scores[s] for s in losers), max(scores[s] for s in winners)
        if hi_w >= options.limit:
            sums = sum(scores[s] for s in losers), sum(scores[s] for s in winners)
            assert hi_l > hi_w or (hi_l == hi_w and sums[0] > sums[1])


def emptying_pass(rnd: random.Random, hand: list[str], must_keep: list[str]) -> list[str] | None:
    """Three cards that empty a colour the seat must keep, when there is such a choice."""
    for colour in must_keep:
        of_colour = [c for c in hand if c[0] == colour]
        if len(of_colour) <= 3:
            rest = [c for c in hand if c[0] != colour]
            return of_colour + rnd.sample(rest, 3 - len(of_colour))
    return None


def active_seats(state: LeekhaState) -> list[int]:
    """The seats that may act (each view's ``legal`` must agree)."""
    phase = state.phase
    if phase is Phase.PASS_SELECT:
        return [s for s in range(4) if state.passes[s] is None]
    if phase in (Phase.PASS_REVEAL, Phase.ROUND_END):
        return [s for s in range(4) if not state.acked[s]]
    if phase is Phase.PLAY:
        assert state.turn is not None
        return [state.turn]
    return []


def choose(rnd: random.Random, state: LeekhaState) -> tuple[int, dict, bool]:
    """A seat and an action for it; the flag says the action is legal right now."""
    active = active_seats(state)
    if active and rnd.random() < 0.92:
        seat = rnd.choice(active)
        view = ENGINE.view(state, seat)
        options = view["legal"]
        assert options
        plays = [a for a in options if a["type"] == "play_card"]
        if plays and rnd.random() < 0.99:
            return seat, rnd.choice(plays), True
        return seat, dict(rnd.choice(options)), True
    # An illegal try.
    seat = rnd.randrange(4)
    view = ENGINE.view(state, seat)
    assert bool(view["legal"]) == (seat in active)
    roll = rnd.random()
    hand = view["hand"]
    if roll < 0.3 or not hand:
        return seat, rnd.choice(JUNK), False
    if state.phase is Phase.PASS_SELECT and view["legal"]:
        bad = emptying_pass(rnd, hand, view["pass_rule"]["must_keep"])
        if bad is not None:
            return seat, {"type": "submit_pass", "cards": bad}, False
        return seat, {"type": "submit_pass", "cards": hand[:2]}, False
    if view["legal"] and state.phase is Phase.PLAY:
        allowed = {a.get("card") for a in view["legal"]}
        banned = [c for c in hand if c not in allowed]
        if banned:
            return seat, {"type": "play_card", "card": rnd.choice(banned)}, False
        return (
            seat,
            {"type": "play_card", "card": rnd.choice([c for c in SORTED_DECK if c not in hand])},
            False,
        )
    if not view["legal"]:
        kind = rnd.choice(["play_card", "throw_in", "ack", "submit_pass"])
        if kind == "play_card":
            return seat, {"type": kind, "card": rnd.choice(hand)}, False
        if kind == "submit_pass":
            return seat, {"type": kind, "cards": rnd.sample(hand, min(3, len(hand)))}, False
        return seat, {"type": kind}, False
    return seat, rnd.choice(JUNK), False


def options_for(rnd: random.Random, mode: str) -> LeekhaOptions:
    return LeekhaOptions(
        mode=mode,
        limit=rnd.choice([101, 50, 25, 12]),
        turn_ms=rnd.choice([0, 15, 40, 90000]),
        reveal_ms=rnd.choice([0, 5, 30]),
        scoreboard_ms=rnd.choice([0, 10, 40]),
    )


def playout(mode: str, index: int, stats: Counter) -> None:
    rnd = random.Random(f"{mode}-{index}")
    seed = f"leekha-playout-{mode}-{index}-zq"
    options = options_for(rnd, mode)
    start = rnd.randint(0, 10**6)
    seats = [SeatSetup()] * 4
    state = ENGINE.start(seats, options, seed, start)
    secrets = (seed, str(state.rng.state), f"{state.rng.state:x}")
    log: list[Input] = []
    now = start
    decided_round: int | None = None
    check(state, now)
    check_views(state, secrets)
    for step in range(100_000):
        if state.phase is Phase.MATCH_END:
            break
        deadline = state.deadline
        before = state
        rng_state = state.rng.state
        roll = rnd.random()
        decided = decided_now(state)
        if step % 7 == 0:
            shown = ENGINE.view(state, None)["decided"]
            assert shown == (
                None if decided is None else {"seat": decided.seat, "losers": list(decided.losers)}
            )
        if decided is not None:
            assert state.phase is Phase.PLAY
            decided_round = state.round
        elif decided_round == state.round and state.phase is Phase.PLAY:
            pytest.fail("an early-end candidate disappeared before the round ended")
        if decided is not None and roll < 0.05:
            t = now + rnd.randint(0, 3)
            if deadline is not None:
                t = min(t, deadline)
            state = apply_input(ENGINE, state, EndEarly(t))
            log.append(EndEarly(t))
            stats["early_end"] += 1
        elif deadline is not None and roll < 0.25:
            t = deadline + rnd.choice([0, 0, 0, 1, 7]) if rnd.random() < 0.9 else rnd.randint(now, deadline)
            state = ENGINE.tick(state, t)
            if t < deadline:
                assert state is before
            log.append(Tick(t))
        else:
            seat, action, legal = choose(rnd, state)
            if not legal:
                t = now  # no deadline passes, so the state at hand judges the try
                try:
                    ENGINE.apply(state, Move(seat, action, t))
                except IllegalAction as exc:
                    assert exc.code in REJECTIONS, exc.code
                    assert exc.message
                else:
                    pytest.fail(f"illegal {action} by seat {seat} was accepted in {state.phase}")
                if decided is None and rnd.random() < 0.05:
                    with pytest.raises(IllegalAction) as info:
                        apply_input(ENGINE, state, EndEarly(t))
                    assert info.value.code == "NOT_DECIDED"
                stats["rejected"] += 1
            else:
                top = deadline + 2 if deadline is not None else now + 50
                t = rnd.randint(now, top)
                move = Move(seat, action, t)
                try:
                    state = ENGINE.apply(state, move)
                except IllegalAction as exc:
                    # Only a deadline that passed first can have made a legal action stale.
                    assert deadline is not None and t > deadline, (exc.code, action)
                    assert exc.code in REJECTIONS, exc.code
                    t = now
                else:
                    log.append(move)
                    if action["type"] == "throw_in":
                        stats["throw_in"] += 1
            now = max(now, t)
        # The old state is untouched (the room keeps it on a rejection).
        assert before.rng.state == rng_state
        if state is not before:
            check(state, now)
            # The view checks are sampled: every 61st step and one phase change in six.
            if step % 61 == 0 or (state.phase is not before.phase and step % 6 == 0):
                check_views(state, secrets, full=step % 2 == 0)
    else:
        pytest.fail("the match did not end")

    check_views(state, secrets)
    check_verdict(state)
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.scores == state.scores and outcome.winners
    assert state.verdict is not None and all(state.verdict.places[w] == 1 for w in outcome.winners)
    for record in state.history:
        stats[record.end.value] += 1
    stats["rounds"] += len(state.history)
    stats[f"mode-{mode}"] += 1

    # A full replay of the log from the seed rebuilds the final state exactly.
    assert replay_log(ENGINE, seats, options, seed, start, log) == state


@pytest.mark.parametrize("mode", ["ffa", "teams"])
@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_playouts_keep_the_invariants(mode: str, batch: int) -> None:
    stats: Counter = Counter()
    for index in range(batch * GAMES_PER_BATCH, (batch + 1) * GAMES_PER_BATCH):
        playout(mode, index, stats)
    # Every way a round can end shows up in every batch.
    for kind in ("complete", "rule37", "throw_in"):
        assert stats[kind] > 0, (kind, stats)
    assert stats["rejected"] > 0
