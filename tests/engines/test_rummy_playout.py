"""Random playouts (OpenSpiel style): whole matches of random play, legal and
illegal, and ticks, checking the engine's invariants after every step.

The bot reads its seat's view like a client: it picks among the action kinds
``legal`` lists and fills them in from its hand and the table it sees. Each
turn it follows one plan (play a found meld set, fiddle with the draft, draw,
sit idle until the clock runs out, leave a broken fragment for the timeout's
salvage, or break a table set). Now and then it sends junk, plays out of turn
or for a stale turn; those must be rejected with the state unchanged.

The driver has its own ``random.Random``; the engine only ever sees the seed
string and the inputs, which are logged and replayed at the end.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.bots.rummy import plan
from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.rummy import ENGINE, Phase, RoundEnd, RummyOptions, RummyState, check_meld
from app.engines.rummy.deck import DECK, hand_value
from app.engines.step import Input, Tick
from tests.engines.helpers import replay_log
from tests.engines.test_rummy import CARD_RE, VIEW_KEYS

DECK_SET = frozenset(DECK)
FAMILIES: dict[str, dict[str, Any]] = {
    "default": {},
    "official": {"opening_min": 30, "joker_hand_value": 30, "timeout_draw": 3},
    "timed": {"match_minutes": 3, "afk_after": 1, "away_turn_ms": 1_000, "turn_ms": 30_000},
    "quick": {
        "turn_ms": 30_000,
        "commit_grace_ms": 0,
        "between_turns_ms": 0,
        "round_end_pause_ms": 0,
        "afk_after": 0,
        "opening_min": 0,
    },
}
GAMES = 84  # per family and player count: 4 x 3 x 84 = 1008 matches
LEAK_CHECK_EVERY = 75  # views of every seat and the spectator, every so many steps (and at the end)
JUNK: list[Any] = [
    "draw",
    {},
    {"type": "dance", "turn_id": 1},
    {"type": "draw"},
    {"type": "commit", "turn_id": "1"},
    {"type": "move", "turn_id": 1, "card": 7, "to": "new"},
    {"type": "draft", "turn_id": 1, "table": [{"cards": "R01a"}]},
]
REJECTED = {
    "UNKNOWN_ACTION",
    "BAD_ACTION",
    "NOT_YOUR_TURN",
    "STALE_TURN",
    "TURN_OVER",
    "WRONG_PHASE",
    "GAME_OVER",
    "NOTHING_TO_UNDO",
    "NO_SUCH_SET",
    "NO_SUCH_PLACE",
    "UNKNOWN_CARD",
    "DUPLICATE_CARD",
    "NOT_IN_HAND",
    "TABLE_CARD_MISSING",
    "EMPTY_SET",
    "NO_HAND_CARD_PLAYED",
    "SET_TOO_SHORT",
    "NO_NATURAL_CARD",
    "KIND_REQUIRED",
    "GROUP_TOO_LONG",
    "GROUP_NUMBER_MISMATCH",
    "GROUP_DUPLICATE_COLOUR",
    "RUN_COLOUR_MISMATCH",
    "RUN_NOT_CONSECUTIVE",
    "RUN_OUT_OF_RANGE",
    "JOKER_NUMBER_CHANGED",
    "OPENING_TABLE_CHANGED",
    "OPENING_BELOW_MIN",
}


# -- a bot that finds simple plays (the meld finder and planner are the Rummy bot's) ---------------


def random_edit(rnd: random.Random, view: dict) -> dict:
    turn_id = view["turn_id"]
    draft = view["draft"]["table"]
    kinds = [a["type"] for a in view["legal"]]
    kind = rnd.choice([k for k in kinds if k not in ("commit", "draw")])
    if kind in ("undo", "reset"):
        return {"type": kind, "turn_id": turn_id}
    if kind == "declare":
        target = rnd.randrange(len(draft) + 1)  # sometimes one too far
        return {
            "type": "declare",
            "turn_id": turn_id,
            "set": target,
            "kind": rnd.choice(["group", "run", None]),
        }
    if kind == "draft":
        sets = [dict(s) for s in draft]
        if view["hand"]:
            sets.append({"cards": rnd.sample(view["hand"], min(len(view["hand"]), rnd.randint(1, 3)))})
        if sets and rnd.random() < 0.2:
            sets.pop(rnd.randrange(len(sets)))  # drops table cards: rejected
        return {"type": "draft", "turn_id": turn_id, "table": sets}
    cards = [*view["hand"], *(c for s in draft for c in s["cards"])]
    card = rnd.choice(cards) if cards else "R01a"
    r = rnd.random()
    if r < 0.3:
        to: object = "new"
    elif r < 0.45:
        to = "hand"
    else:
        target = rnd.randrange(len(draft) + 1)
        size = len(draft[target]["cards"]) if target < len(draft) else 0
        to = {"set": target, "index": rnd.randint(0, size + 1)} if rnd.random() < 0.5 else {"set": target}
    return {"type": "move", "turn_id": turn_id, "card": card, "to": to}


class Bot:
    """Keeps one plan per turn."""

    MODES = ("play",) * 6 + ("play_slowly", "fiddle", "draw", "idle", "salvage", "break")

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.turn_id = -1
        self.mode = "draw"
        self.steps = 0

    def refused(self) -> None:
        """The last action was rejected: give up this turn's plan and draw."""
        self.mode = "draw"

    def act(self, view: dict) -> dict | None:
        """The next action of the active seat, or None to let the clock run."""
        rnd = self.rnd
        turn_id = view["turn_id"]
        if turn_id != self.turn_id:
            self.turn_id, self.mode, self.steps = turn_id, rnd.choice(self.MODES), 0
        self.steps += 1
        mode = self.mode
        if mode == "draw" or (mode == "fiddle" and self.steps > rnd.randint(2, 8)):
            return {"type": rnd.choice(["draw", "draw", "commit"]), "turn_id": turn_id}
        if mode == "fiddle" or (mode == "idle" and self.steps == 1 and rnd.random() < 0.3):
            return random_edit(rnd, view)
        if mode == "idle" or (mode != "play" and self.steps > 1):
            return None  # let the clock run: the timeout commits, salvages or restores
        if mode == "play" and self.steps > 1:
            return {"type": "commit", "turn_id": turn_id}
        final = plan(view)
        if final is None:
            if mode == "break" and view["seats"][view["you"]]["opened"] and view["table"] and self.steps == 1:
                sets = [dict(s) for s in view["table"]]
                victim = sets.pop(rnd.randrange(len(sets)))
                broken = [
                    {"cards": victim["cards"][:1]},
                    {"cards": [*victim["cards"][1:], *view["hand"][:1]]},
                ]
                return {"type": "draft", "turn_id": turn_id, "table": [*sets, *broken]}
            return None if mode in ("break", "salvage") else {"type": "draw", "turn_id": turn_id}
        if mode == "play" and rnd.random() < 0.6:
            return {"type": "commit", "turn_id": turn_id, "table": final}
        if mode == "salvage":
            placed = {c for s in final for c in s["cards"]}
            rest = [c for c in view["hand"] if c not in placed]
            if rest:
                final = [*final, {"cards": rest[:2]}]
        return {"type": "draft", "turn_id": turn_id, "table": final}


# -- invariants -----------------------------------------------------------------------------


def check_state(state: RummyState, now: int, last_table: object) -> None:
    held = [*state.hands, *(m.cards for m in state.table), state.pool]
    assert sum(map(len, held)) == len(DECK) and DECK_SET.union(*held) == DECK_SET  # every card exactly once
    n = state.players
    due = ENGINE.next_deadline(state)
    assert (due is None) == (state.phase is Phase.MATCH_OVER)
    assert due is None or due >= now  # nothing overdue once a step is done
    assert 0 <= state.passes < n or state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
    assert len(state.opened) == len(state.timeouts) == len(state.totals) == n and 0 <= state.seat < n
    if state.table is not last_table:
        for meld in state.table:
            check = check_meld(meld.cards, meld.kind)
            assert check.ok and meld.kind is not None, meld
    if state.phase is Phase.TURN:
        if state.draft is not state.table:  # a partition of the table and some hand cards
            draft = [c for m in state.draft for c in m.cards]
            placed = set(draft)
            assert len(draft) == len(placed) and all(m.cards for m in state.draft)
            on_table = {c for m in state.table for c in m.cards}
            assert on_table <= placed and placed - on_table <= set(state.hands[state.seat])
        assert state.deadline is not None and state.deadline > state.turn_started_at
    else:
        assert state.draft == state.table and state.undo == ()
    records = state.history
    playing = state.phase in (Phase.TURN, Phase.TURN_RESULT)
    assert len(records) == state.round - playing
    assert tuple(map(sum, zip(*(r.scores for r in records), strict=True))) == state.totals or not records
    assert records or state.totals == (0,) * n


def check_record(state: RummyState) -> None:
    """The round just scored: hand values as the rules count them, scores as the rules share them."""
    record = state.history[-1]
    if state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):  # not yet dealt again
        joker = state.options.joker_hand_value
        assert record.values == tuple(hand_value(h, joker) for h in state.hands)
        assert record.cards == tuple(map(len, state.hands))
    losers = [v for seat, v in enumerate(record.values) if seat not in record.winners]
    assert all(record.scores[s] == -v for s, v in enumerate(record.values) if s not in record.winners)
    if record.end is RoundEnd.OUT:
        (winner,) = record.winners
        assert record.cards[winner] == 0 and record.values[winner] == 0
        assert record.scores[winner] == sum(losers) and sum(record.scores) == 0
    else:
        low = min(record.values)
        assert record.winners == tuple(s for s, v in enumerate(record.values) if v == low)
        assert all(record.scores[w] == sum(losers) // len(record.winners) for w in record.winners)
        assert -len(record.winners) < sum(record.scores) <= 0


def check_views(state: RummyState, secrets: tuple[str, ...]) -> None:
    hidden_by_seat = [set(state.working_hand(s)) for s in range(state.players)]
    pool = set(state.pool)
    for seat in (None, *range(state.players)):
        view = ENGINE.view(state, seat)
        text = json.dumps(view)
        seen = set(CARD_RE.findall(text))
        assert not seen & pool
        for other, hidden in enumerate(hidden_by_seat):
            if other != seat:
                assert not seen & hidden, (seat, other, seen & hidden)
        assert not any(s in text for s in secrets)
        assert set(view) == VIEW_KEYS and len(view["seats"]) == state.players
        assert json.loads(text) == view  # JSON-ready: no tuples, no non-str keys, nothing lost
        if seat is not None:
            assert sorted(view["hand"]) == sorted(state.working_hand(seat))


# -- the driver --------------------------------------------------------------------------------


def playout(players: int, family: str, index: int, stats: Counter) -> None:
    rnd = random.Random(f"{family}-{players}-{index}")
    seed = f"rummy-playout-{family}-{players}-{index}-qz"
    extra = FAMILIES[family]
    options = RummyOptions(**extra, rounds=2 if rnd.random() < 0.1 else 1)
    seats = [SeatSetup()] * players
    start = rnd.randint(0, 10**6)
    state = ENGINE.start(seats, options, seed, start)
    secrets = (seed, str(state.rng.state), f"{state.rng.state:x}")
    bot = Bot(rnd)
    log: list[Input] = []
    now = start
    last_table: object = None
    last_turn: object = None
    rounds_seen = 0
    check_state(state, now, last_table)
    for step in range(20_000):
        if state.phase is Phase.MATCH_OVER:
            break
        due = ENGINE.next_deadline(state)
        assert due is not None
        rng_before = state.rng.state
        action = None
        if state.phase is Phase.TURN and rnd.random() < 0.93:
            view = ENGINE.view(state, state.seat)
            action = bot.act(view)
        seat = state.seat
        trying = rnd.random() < 0.04
        if trying:
            # An illegal try: junk, out of turn, a stale turn, or a move after the match clock.
            action = rnd.choice([*JUNK, {"type": "draw", "turn_id": state.turn_id - 1}])
            seat = rnd.choice([seat, (seat + 1) % players])
            if action == {"type": "draw", "turn_id": state.turn_id - 1} or rnd.random() < 0.5:
                action = {"type": "draw", "turn_id": state.turn_id} if seat != state.seat else action
        if action is not None:
            late = rnd.random() < 0.03
            t = rnd.randint(due, due + 2_000) if late else rnd.randint(now, min(due, now + 20_000))
            move = Move(seat, action, t)
            before_hash = hash(state) if trying else None
            try:
                new = ENGINE.apply(state, move)
            except IllegalAction as exc:
                assert exc.code in REJECTED, exc.code
                assert state.rng.state == rng_before and before_hash in (None, hash(state))
                stats[f"rejected {exc.code}"] += 1
                if seat == state.seat:
                    bot.refused()
                t = now  # a rejected input never reached the state, nor its clock
            else:
                log.append(move)
                stats[f"accepted {action['type']}"] += 1
                state = new
        else:
            t = due + rnd.choice([0, 0, 0, 0, 1, 500])
            state = ENGINE.tick(state, t)
            log.append(Tick(t))
        now = max(now, t)
        if len(state.history) > rounds_seen:
            rounds_seen = len(state.history)
            check_record(state)
            stats[f"round {state.history[-1].end.value}"] += 1
        if state.last is not None and state.last is not last_turn:
            last_turn = state.last
            stats[f"turn {last_turn.end.value}"] += 1
            stats["away turns"] += state.away(last_turn.seat)
            stats["jokers exchanged"] += last_turn.jokers_exchanged
        check_state(state, now, last_table)
        last_table = state.table
        if step % LEAK_CHECK_EVERY == 0:
            check_views(state, secrets)
    else:
        pytest.fail("the match did not end")
    check_views(state, secrets)

    # A full replay from the seed rebuilds the final state exactly.
    assert replay_log(ENGINE, seats, options, seed, start, log) == state

    outcome = ENGINE.result(state)
    assert (
        outcome.finished and outcome.scores == state.totals and len(outcome.detail["rounds"]) == rounds_seen
    )
    assert outcome.winners and all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    if not options.match_minutes:
        assert len(state.history) == options.rounds
    stats["games"] += 1
    stats["inputs"] += len(log)


@pytest.mark.parametrize("family", list(FAMILIES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_the_invariants(players: int, family: str) -> None:
    stats: Counter[str] = Counter()
    for index in range(GAMES):
        playout(players, family, index, stats)
    assert stats["games"] == GAMES
    # The bot reaches every way a turn and a round can end, and every draft step.
    for seen in ("round out", "round blocked", "turn pass", "turn draw", "turn commit", "jokers exchanged"):
        assert stats[seen], seen
    for end in ("timeout_commit", "timeout_salvage", "timeout_restore"):
        assert stats[f"turn {end}"], end
    for kind in ("move", "declare", "draft", "undo", "reset", "commit", "draw"):
        assert stats[f"accepted {kind}"], kind
