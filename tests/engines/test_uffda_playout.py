"""Random playouts (OpenSpiel style): random legal and illegal inputs and ticks
until the game ends, checking the engine's invariants after every step.

The driver has its own ``random.Random``; the engine only ever sees the seed
string and the inputs, which are logged and replayed at the end of each game.
Half the games are timed the way a room times them: every seat has a link, the
driver notes when each live mistake (``stimuli``) was "written" to each seat,
and a move made while one is live carries every seat's link (``Move.timing``),
through the logged form, so the arbiter's rulings replay too.
Players shout (call, or say UFF-DA! late) on the mistakes they notice from
their own view (:func:`app.bots.uffda.offences_seen`, public information
only), and now and then blindly on a listed call: the view lists every call
whether or not a mistake is open (rules 8.36), and such a shout is refused
with no effect. Every other listed action must be accepted.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.bots.uffda import offences_seen
from app.engines.base import IllegalAction, Link, Move, SeatSetup, Timing
from app.engines.step import Input, Tick
from app.engines.uffda import ENGINE, Phase, Step, UffdaOptions, UffdaState
from app.engines.uffda.board import board_cards
from app.engines.uffda.dominoes import hand_points
from app.engines.uffda.invariants import problems
from tests.engines.helpers import assert_json_ready, replay_log
from tests.engines.test_uffda import CARD_RE

VIEW_KEYS = {
    "shapes",
    "game",
    "phase",
    "round",
    "rounds",
    "center",
    "dealer",
    "first_draw",
    "turn",
    "deadline",
    "piles",
    "branches",
    "community_open",
    "double",
    "seats",
    "hand",
    "drawn",
    "totals",
    "scores",
    "last",
    "penalties",
    "offences",
    "winners",
    "you",
    "legal",
    "recent",
    "previous",
}
JUNK: list[Any] = [
    {"type": "dance"},
    {},
    "next",
    {"type": "play"},
    {"type": "play", "card": "3-7", "branch": 0, "on": -1},
    {"type": "play", "card": "7-3", "branch": 0, "on": -1},
    {"type": "draw", "pile": 2},
    {"type": "next", "now": True},
    {"type": "call", "kind": "SLAP", "target": 0},
    {"type": "call", "kind": "COIN", "target": 9},
    {"type": "declare_uffda"},
    {"type": "place_coin"},
    {"type": "remove_coin"},
    {"type": "next"},
    {"type": "draw", "pile": 0},
]
CODES = {
    "UNKNOWN_ACTION",
    "BAD_ACTION",
    "NOT_YOUR_TURN",
    "WRONG_PHASE",
    "CARD_NOT_IN_HAND",
    "NOT_DRAWN_CARD",
    "NO_END",
    "NO_MATCH",
    "BRANCH_PROTECTED",
    "COMMUNITY_NOT_READY",
    "DOUBLE_ACTIVE_FILL_ONLY",
    "PILE_EMPTY",
    "MUST_PLAY_OR_DRAW",
    "MUST_FOLLOW_UP",
    "NO_COIN_DUTY",
    "COIN_NOT_REMOVABLE",
    "UFFDA_PENDING",
    "NO_OFFENCE",
    "CALLER_TOO_FEW_CARDS",
    "SELF_CALL",
    "ALREADY_CALLED",
    "PENALTIES_OFF",
}
# Codes a listed call sent blindly may meet: calls are offered without a target (the view never
# flags a mistake), so one on nothing, or on a mistake already called, is refused (rules 8.30).
BLIND_CODES = {"NO_OFFENCE", "ALREADY_CALLED"}
BLIND = 0.05
"""How often a shouting player calls blindly instead of on a mistake it noticed."""


def _no_float(text: str) -> None:
    raise AssertionError(f"a float in a view: {text}")


def check_views(state: UffdaState, seed: str) -> None:
    board = set(board_cards(state.branches))
    secrets = (seed, str(state.rng.state), f"{state.rng.state:x}")
    for seat in (None, *range(state.players)):
        view = ENGINE.view(state, seat)
        assert set(view) == VIEW_KEYS and len(view["seats"]) == state.players
        assert len(view["branches"]) == state.players + 1
        assert all(type(c) is str or c is None for row in view["first_draw"] for c in row)
        shown = dict(view, first_draw=None)  # the face-up dealer draw is public
        text = json.dumps(shown)
        # JSON-ready: a round trip gives back the same lists, str keys, str, int, bool and None.
        assert json.loads(text, parse_float=_no_float) == shown
        mine = set(state.hands[seat]) if seat is not None else set()
        told = {e.secret for e in state.last if seat is not None and seat in e.secret_to}
        assert set(CARD_RE.findall(text)) <= board | mine | told, (seat, text)
        assert not any(s in text for s in secrets)
        for i, s in enumerate(view["seats"]):
            assert s["cards"] == len(state.hands[i])


def check_round_record(state: UffdaState) -> None:
    record = state.history[-1]
    for seat, score in enumerate(record.scores):
        assert score == (-5 * record.round if seat == record.winner else record.hand_points[seat])
    if state.phase is Phase.PLAY:
        return  # with no pause the next round was dealt in the same step
    assert list(record.hand_points) == [hand_points(h) for h in state.hands]
    if record.winner is not None:
        assert not state.hands[record.winner]
    else:
        # A terminated round: no draw cards and no play left, even with every coin on.
        assert state.piles == ((), ())


def flavour(rnd: random.Random, state: UffdaState, seat: int, action: dict) -> dict:
    """The optional fields a player may add to a listed action; none makes it illegal."""
    action = dict(action)
    kind = action["type"]
    if kind in ("play", "draw", "call") and rnd.random() < 0.75:
        action["uffda"] = True  # most players remember; the flag is ignored where not a trigger
    if kind in ("call", "declare_uffda") and rnd.random() < 0.5:
        action["reaction_ms"] = rnd.randint(0, 40)
    if kind == "call" and rnd.random() < 0.3:
        action["give_card"] = rnd.choice(state.hands[seat])
    return action


def choose(rnd: random.Random, state: UffdaState, blind: float = 0.0) -> tuple[int, dict, bool] | None:
    """A seat, one of the actions its view lists and whether it is a blind shout: usually the
    player to move, sometimes someone shouting on a mistake they noticed, now and then
    (``blind``) a listed call on a seat nobody has seen err."""
    if rnd.random() < 0.2:
        seat = rnd.randrange(state.players)
        view = ENGINE.view(state, seat)
        seen = offences_seen(view)
        shouts = [
            a
            for a in view["legal"]
            if (a["type"] == "call" and (a["kind"], a["target"]) in seen)
            or (a["type"] == "declare_uffda" and ("UFFDA", seat) in seen)
        ]
        calls = [a for a in view["legal"] if a["type"] == "call"]
        if calls and rnd.random() < blind:
            return seat, flavour(rnd, state, seat, rnd.choice(calls)), True
        if shouts:
            return seat, flavour(rnd, state, seat, rnd.choice(shouts)), False
    seat = state.turn.seat
    view = ENGINE.view(state, seat)
    listed = view["legal"]
    legal = [a for a in listed if a["type"] not in ("call", "declare_uffda")]
    if not legal:
        # Waiting to go out (rules 8.25): say UFF-DA! late, or let the calls be settled.
        return (seat, {"type": "declare_uffda"}, False) if ("UFFDA", seat) in offences_seen(view) else None
    plays = [a for a in legal if a["type"] == "play"]
    # Players prefer playing to drawing, and mostly remember to place an owed coin.
    if plays and rnd.random() < 0.8:
        action = rnd.choice(plays)
    elif {"type": "place_coin"} in legal and rnd.random() < 0.7:
        action = {"type": "place_coin"}
    else:
        action = rnd.choice(legal)
    return seat, flavour(rnd, state, seat, action), False


def illegal_try(rnd: random.Random, state: UffdaState) -> tuple[int, Any]:
    """Junk, or a real action sent by the wrong seat."""
    seat = rnd.randrange(state.players)
    active = ENGINE.view(state, state.turn.seat)["legal"]
    turn_actions = [a for a in active if a["type"] not in ("call", "declare_uffda")]
    if seat != state.turn.seat and turn_actions and rnd.random() < 0.4:
        return seat, rnd.choice(turn_actions)
    return seat, rnd.choice(JUNK)


def options_for(rnd: random.Random, family: str) -> UffdaOptions:
    race = rnd.choice([(8, 5, 2), (8, 5, 2), (160, 150, 10), (30, 0, 30)])  # window, credit, margin
    base = {
        "rounds": rnd.choice([1, 1, 2]),
        "round_end_pause_ms": rnd.choice([0, 5]),
        "race_window_ms": race[0],
        "max_credit_ms": race[1],
        "tie_margin_ms": race[2],
        "turn_seconds": 0,
    }
    if family == "timer":
        base["turn_seconds"] = 1
    elif family == "no_penalties":
        base["penalties"] = False
    elif family == "assist":
        base["assist"] = True
        base["latency_compensation"] = False
    elif family == "long":
        base["rounds"] = 10
        base["turn_seconds"] = 1
    return UffdaOptions(**base)


Seen = dict[str, list[int | None]]
"""Per live stimulus, when the frame first showing it was written to each seat (None: not connected)."""


class Room:
    """The room's side of the races for one playout: links, stimulus notes and move timing."""

    def __init__(self, rnd: random.Random, players: int) -> None:
        self.links = [
            rnd.choice([None, (8, 1), (40, 3), (90, 6), (160, 10), (320, 30)]) for _ in range(players)
        ]
        self.write = [rnd.choice([0, 1, 2, 15]) for _ in range(players)]
        self.seen: Seen = {}

    def note(self, state: UffdaState, now: int) -> None:
        live = ENGINE.stimuli(state)
        self.seen = {k: v for k, v in self.seen.items() if k in live}
        for key in live:
            if key not in self.seen:
                self.seen[key] = [
                    None if link is None else now + w for link, w in zip(self.links, self.write, strict=True)
                ]

    def move(self, state: UffdaState, seat: int, action: object, at: int) -> Move:
        own = self.links[seat]
        rtt = None if own is None else own[0]
        keys = ENGINE.stimuli(state)
        if not keys:
            return Move(seat, action, at, rtt)  # type: ignore[arg-type]
        links: list[Link | None] = []
        for other, link in enumerate(self.links):
            if link is None and other != seat:
                links.append(None)  # not connected: shown nothing
                continue
            sent = {
                k: t for k in keys if (t := self.seen.get(k, [None] * len(self.links))[other]) is not None
            }
            rtt, jitter = link or (None, None)
            links.append(Link(rtt, jitter, sent))
        return Move(seat, action, at, rtt, Timing(tuple(links)))  # type: ignore[arg-type]


def logged(move: Move) -> Move:
    """The move as the event log stores and gives it back."""
    if move.timing is None:
        return move
    stored = json.loads(json.dumps(move.timing.to_json()))  # the timing's own database column
    again = Move(move.seat, move.action, move.at, move.rtt, Timing.from_json(stored))
    assert again == move
    return again


def playout(players: int, family: str, index: int) -> int:
    rnd = random.Random(f"{players}-{family}-{index}")
    seed = f"uffda-playout-{players}-{family}-{index}-qz"
    options = options_for(rnd, family)
    seats = [SeatSetup() for _ in range(players)]
    start = rnd.randint(0, 10**6)
    state = ENGINE.start(seats, options, seed, start)
    log: list[Input] = []
    now = start
    room = Room(rnd, players) if index % 2 else None
    check_views(state, seed)
    rounds_seen = 0
    for step in range(20_000):
        if state.phase is Phase.GAME_OVER:
            break
        before = state
        deadline = ENGINE.next_deadline(state)
        choice = None
        junk = blind = False
        if state.phase is Phase.PLAY:
            if rnd.random() < 0.06:
                (seat, action), junk = illegal_try(rnd, state), True
                choice = seat, action, False
            elif rnd.random() < 0.93 or deadline is None:
                choice = choose(rnd, state, BLIND)
        if choice is not None:
            seat, action, blind = choice
            t = now + rnd.choice([0, 1, 2, 3, 5, 9, 20])
            if deadline is not None and t > deadline and not junk:
                t = deadline  # a listed action is sent before the state changes under it
            if room is None:
                move = Move(seat, action, t, rnd.choice([None, 0, 2, 4, 40]))
            else:
                move = room.move(state, seat, action, t)
            try:
                state = ENGINE.apply(state, move)
            except IllegalAction as exc:
                # A listed action is always accepted, but for a blind call (rules 8.30).
                assert junk or (blind and exc.code in BLIND_CODES), (exc.code, exc.message, action)
                assert exc.code in CODES, (exc.code, action)
                assert exc.message and exc.message[0].isupper()
                assert state is before
                if step % 16 == 0:
                    assert state == before
            else:
                log.append(move if room is None else logged(move))
                now = t
        elif deadline is not None:
            t = deadline + rnd.choice([0, 0, 0, 1, 3]) if rnd.random() < 0.9 else rnd.randint(now, deadline)
            t = max(t, now)
            state = ENGINE.tick(state, t)
            if t < deadline:
                assert state is before
            log.append(Tick(t))
            now = t
        else:
            pytest.fail("nobody can act and nothing is due")
        assert not problems(state), problems(state)
        if room is not None and state is not before:
            room.note(state, now)
        for ruling in ENGINE.rulings(state):
            assert_json_ready(ruling)
            assert ruling["outcome"] == "void" or ruling["winner"] == ruling["claims"][0]["seat"]
        if state.phase is Phase.PLAY:
            assert state.turn.deadline is None or state.turn.deadline >= now or state.offences
        if len(state.history) != rounds_seen:
            rounds_seen = len(state.history)
            check_round_record(state)
            check_views(state, seed)
        elif step % 60 == 0 or state.phase is not before.phase:
            check_views(state, seed)
    else:
        pytest.fail("the game did not end")

    check_views(state, seed)
    outcome = ENGINE.result(state)
    assert outcome.finished and len(state.history) == options.rounds
    assert outcome.scores == tuple(map(sum, zip(*(r.scores for r in state.history), strict=True)))
    low = min(outcome.scores)
    assert outcome.winners == tuple(s for s in range(players) if outcome.scores[s] == low)
    assert ENGINE.next_deadline(state) is None and ENGINE.tick(state, now + 10**9) is state

    # A full replay from the seed rebuilds the final state exactly.
    assert replay_log(ENGINE, seats, options, seed, start, log) == state
    return len(log)


FAMILIES = ["plain", "timer", "no_penalties", "assist"]
GAMES = {2: 44, 3: 40, 4: 36, 5: 34, 6: 34, 7: 32, 8: 32}  # per family: 1008 games, plus 14 long ones


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_playouts_keep_the_invariants(players: int, family: str) -> None:
    for index in range(GAMES[players]):
        playout(players, family, index)


@pytest.mark.parametrize("players", range(2, 9))
def test_random_full_length_games_keep_the_invariants(players: int) -> None:
    for index in range(2):
        playout(players, "long", index)


def test_playouts_reach_the_interesting_corners() -> None:
    """The random games above really exercise catches, doubles, passes and both round ends."""
    seen: Counter = Counter()
    for index in range(60):
        players = 2 + index % 7
        rnd = random.Random(f"corners-{index}")
        state = ENGINE.start([SeatSetup()] * players, options_for(rnd, "plain"), f"c{index}", 0)
        now = 0
        while state.phase is not Phase.GAME_OVER:
            choice = choose(rnd, state)
            deadline = ENGINE.next_deadline(state)
            if choice is None or (deadline is not None and deadline <= now + 3):
                now = max(now, deadline or now)
                state = ENGINE.tick(state, now)
            else:
                now += 3
                state = ENGINE.apply(state, Move(choice[0], choice[1], now))
            seen.update(e.kind for e in state.last)
            if state.double is not None:
                seen["double"] += 1
            turn_seat = state.turn.seat
            if state.turn.step is Step.FOLLOW_UP and turn_seat is not None and not state.hands[turn_seat]:
                seen["last_card_double"] += 1
            if any(
                e.kind == "caught"
                and dict(e.info)["uffda"] is False
                and e.seat is not None
                and len(state.hands[e.seat]) == 1
                for e in state.last
            ):
                seen["double_uffda_chance"] += 1
            if state.history and state.history[-1].winner is None:
                seen["terminated"] += 1
    wanted = ("caught", "saved", "play", "draw", "coin", "next", "double", "last_card_double", "terminated")
    for kind in (*wanted, "round_over", "double_uffda_chance"):
        assert seen[kind], (kind, seen)
