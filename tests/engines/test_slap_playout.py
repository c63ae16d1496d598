"""Random playouts (OpenSpiel style): random legal and illegal inputs and ticks
until the match ends, checking the engine's invariants after every step.

The driver has its own ``random.Random``; the engine only ever sees the seed
string and the inputs, which are logged and replayed.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.cards import build_deck, number_of
from app.engines.slap import NUMBERS, EndKind, FlipKind, Phase, SlapEngine, SlapOptions, SlapState
from app.engines.step import Input, Tick
from tests.engines.helpers import assert_json_ready, replay_log
from tests.engines.test_slap import VIEW_KEYS

ENGINE = SlapEngine()
CARD_RE = re.compile(r"\b[YGPB]\d\d\b")
SHORT = {
    "nu_auto_ms": 4,
    "auto_nu_ms": 3,
    "nu_lead_ms": 2,
    "no_pair_window_ms": 5,
    "pair_timeout_ms": 12,
    "race_window_ms": 4,
    "max_credit_ms": 3,
    "tie_margin_ms": 1,
    "trick_pause_ms": 2,
    "nopair_pause_ms": 1,
    "round_end_pause_ms": 5,
}
JUNK: list[Any] = [
    {"type": "dance"},
    {"type": "slap"},
    {"type": "slap", "flip": "x"},
    {},
    {"type": "nu", "x": 1},
]


def check(state: SlapState, seed: str, deck: Counter, now: int) -> None:
    # Card conservation: every card of the match exactly once, in a pile or on the table.
    assert Counter(c for pile in state.piles for c in pile) + Counter(state.table) == deck
    assert state.table == () or len(state.table) == state.players
    # Nothing is overdue once a step is done.
    assert state.deadline is None or state.deadline >= now
    assert (state.deadline is None) == (state.phase is Phase.MATCH_OVER)  # pair_timeout_ms > 0
    face_down = {c for pile in state.piles for c in pile}
    secrets = (seed, str(state.rng.state), f"{state.rng.state:x}")
    for seat in (None, *range(state.players)):
        view = ENGINE.view(state, seat)
        assert set(view) == VIEW_KEYS and len(view["seats"]) == state.players
        assert_json_ready(view)
        text = json.dumps(view)
        assert not set(CARD_RE.findall(text)) & face_down
        assert not any(s in text for s in secrets)


def choose_input(rnd: random.Random, state: SlapState) -> tuple[int, Any]:
    seat = rnd.randrange(state.players)
    legal = ENGINE.view(state, seat)["legal"]
    if not legal or rnd.random() < 0.1:
        return seat, rnd.choice([*JUNK, {"type": "nu"}, {"type": "slap", "flip": state.flip - 1}])
    action = dict(rnd.choice(legal))
    if action["type"] == "slap":
        # A bot sees the table like a player: slap pairs eagerly, bluff rarely.
        numbers = [number_of(c) for c in state.table]
        if len(set(numbers)) == len(numbers) and rnd.random() < 0.85:
            return seat, {"type": "slap", "flip": state.flip - 1}  # a late packet instead
        if rnd.random() < 0.7:
            action["reaction_ms"] = rnd.randint(0, 8)
    return seat, action


def playout(players: int, index: int) -> None:
    rnd = random.Random(f"{players}-{index}")
    seed = f"playout-seed-{players}-{index}-qz"
    options = SlapOptions(
        **SHORT,
        rounds=rnd.randint(1, 2),
        nu_mode=rnd.choice(["starter", "starter", "auto"]),
        round_time_limit_s=rnd.choice([0, 0, 1]),
        latency_compensation=rnd.random() < 0.8,
    )
    seats = [SeatSetup({"colour": rnd.choice("YGPB")}) for _ in range(players)]
    start = rnd.randint(0, 10**6)
    state = ENGINE.start(seats, options, seed, start)
    replayed = ENGINE.start(seats, options, seed, start)
    deck = Counter(c for colour in state.colours for c in build_deck(colour, NUMBERS))
    log: list[Input] = []
    now = start
    tricks: Counter = Counter()
    closed: set[tuple[int, int]] = set()
    check(state, seed, deck, now)
    for _step in range(200_000):
        if state.phase is Phase.MATCH_OVER:
            break
        deadline = state.deadline
        assert deadline is not None
        before, before_hash = state, hash(state)
        numbers = [number_of(c) for c in state.table]
        pair_visible = len(set(numbers)) < len(numbers)
        if rnd.random() < (0.9 if pair_visible else 0.4):
            t = rnd.randint(now, deadline + 2)  # past the deadline sometimes: apply must catch up
            seat, action = choose_input(rnd, state)
            move = Move(seat, action, t, rnd.choice([None, 0, 1, 3, 40]))
            try:
                state = ENGINE.apply(state, move)
            except IllegalAction as exc:
                assert exc.code in {
                    "UNKNOWN_ACTION",
                    "BAD_ACTION",
                    "STALE_SLAP",
                    "ALREADY_SLAPPED",
                    "WRONG_PHASE",
                    "NOT_STARTER",
                    "NU_MODE_AUTO",
                    "GAME_OVER",
                }, exc.code
                t = now  # a rejected input never reached the state, nor its clock
            else:
                log.append(move)
                replayed = ENGINE.apply(replayed, move)
        else:
            # Late ticks pass several deadlines, but never two flip closes (every
            # flip cycle takes longer than 2 ms), so the trick tally below sees them all.
            t = deadline + rnd.choice([0, 0, 0, 1, 2]) if rnd.random() < 0.9 else rnd.randint(now, deadline)
            state = ENGINE.tick(state, t)
            if t < deadline:
                assert state is before
            log.append(Tick(t))
            replayed = ENGINE.tick(replayed, t)
        now = max(now, t)
        # The old state is untouched (the room keeps it on a rejection) and the
        # replay of the log so far, computed separately, is the same state.
        assert hash(before) == before_hash
        assert replayed == state
        check(state, seed, deck, now)
        last = state.last
        if last is not None and (state.round, last.flip) not in closed:
            closed.add((state.round, last.flip))
            if last.kind is FlipKind.TRICK:
                tricks[(state.round, last.winner)] += 1
    else:
        pytest.fail("the match did not end")

    # A full replay from the seed rebuilds the final state exactly.
    assert replay_log(ENGINE, seats, options, seed, start, log) == state

    outcome = ENGINE.result(state)
    assert outcome.finished and len(state.history) == options.rounds
    assert outcome.scores == tuple(map(sum, zip(*(r.scores for r in state.history), strict=True)))
    assert outcome.winners and all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    for record in state.history:
        assert sum(record.counts) == 10 * players
        if players == 2 and record.end is not EndKind.TIME:
            # Rules 3.8: a two-player round is exactly ten tricks, two cards per trick won.
            won = [tricks[(record.round, seat)] for seat in range(2)]
            assert sum(won) == 10 and list(record.counts) == [2 * w for w in won]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("index", range(8))
def test_random_playout_keeps_the_invariants(players: int, index: int) -> None:
    playout(players, index)
