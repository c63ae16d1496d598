"""An example table, run through the real engine, the room's views and its diff (no I/O)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel

from app.db.event_log import EventLog
from app.db.store import GameRec, Store
from app.engines import get_engine
from app.engines.base import IllegalAction, Move, seed_hash
from app.realtime.messages import (
    Ack,
    Action,
    Admin,
    Code,
    Error,
    Hello,
    Patch,
    Ping,
    Pong,
    Reject,
    Resync,
    ServerPing,
    ServerPong,
    Snapshot,
    Welcome,
)
from app.rooms.clock import ManualClock
from app.rooms.diff import diff
from app.rooms.lobby import Member, validate_options
from app.rooms.replay import seat_setups
from app.rooms.room import Room
from app.rooms.table import Table
from app.security import TokenSigner

# --- an example table, run through the real engine, room views and diff ------------------------


ANA = "5f0c1b2a9e8d4c3b8a7f6e5d4c3b2a19"
BO = "7a6b5c4d3e2f40a1b2c3d4e5f6a7b8c9"
EVE = "0e1d2c3b4a5948372615f4e3d2c1b0a9"
ROOM_CODE = "K7MPQ2"
START = 1_000_000


@dataclass(frozen=True, slots=True)
class Examples:
    client: dict[type[BaseModel], list[BaseModel]]
    server: dict[type[BaseModel], list[BaseModel]]
    room_view: dict[str, Any]
    game_view: dict[str, Any]
    reveal_ops: list[dict[str, Any]]


def _jsonable(value: Any) -> Any:
    """A deep copy through JSON (the diff's ops share objects with the views)."""
    return json.loads(json.dumps(value))


def build_examples() -> Examples:
    """A two-seat Slap table with a spectator: join, start, Nu!, a refused Nu!, the reveal."""
    engine = get_engine("slap")
    clock = ManualClock(start=START)
    room = Room(
        code=ROOM_CODE,
        game="slap",
        options=validate_options(engine, {"first_starter": 0}),
        public=True,
        host_id=ANA,
        status="lobby",
        # The view builders never touch the store or the log; no I/O happens here.
        store=cast(Store, None),
        event_log=cast(EventLog, None),
        clock=clock,
    )
    room.lobby.members = {
        ANA: Member(ANA, "Ana", "seat", 0, {"colour": "Y"}, connections=1),
        BO: Member(BO, "Bo", "seat", 1, {"colour": "B"}, connections=1),
        EVE: Member(EVE, "Eve", "spectator", None, connections=1),
    }
    lobby = _jsonable(room.view_for(room.key_of(ANA)))
    welcome = Welcome(room=ROOM_CODE, player_id=ANA, name="Ana", role="seat", seat=0, server_time=room.now())
    join = Snapshot(seq=1, reason="join", view=lobby)

    # What start_game does, without the database.
    seats = [{"player_id": m.player_id, "name": m.name, "prefs": m.prefs} for m in room.members.values()]
    seats = [s for s in seats if s["player_id"] != EVE]
    seed = "0123456789abcdef0123456789abcdef"
    state = engine.start(seat_setups(seats), engine.options_model.model_validate(room.options), seed, START)
    rec = GameRec(
        id=1,
        room_code=ROOM_CODE,
        engine="slap",
        options=room.options,
        seats=seats,
        seed=seed,
        seed_hash=seed_hash(seed),
        status="running",
        result=None,
        started_at=START,
    )
    game = Table(rec=rec, engine=engine, state=state, committed=state, next_seq=1)
    room.game, room.lobby.status = game, "playing"
    room.frames.invalidate()
    started = _jsonable(room.view_for(0))

    clock.advance(640)
    game.state = engine.apply(game.state, Move(seat=0, action={"type": "nu"}, at=room.now(), rtt=48))
    called = _jsonable(room.view_for(0))
    nu_patch = Patch(seq=3, ops=_jsonable(diff(started, called)))
    try:
        engine.apply(game.state, Move(seat=1, action={"type": "nu"}, at=room.now() + 25, rtt=61))
        raise AssertionError("the example's second Nu! should have been refused")
    except IllegalAction as exc:
        refused = Reject(id="b1", code=exc.code, message=exc.message)

    reveal_at = engine.next_deadline(game.state)
    assert reveal_at is not None
    clock.advance(reveal_at - room.now())
    game.state = engine.tick(game.state, room.now())
    revealed = _jsonable(room.view_for(0))
    flip = revealed["game"]["flip"]

    token = TokenSigner("example-secret").sign(ANA)
    client: dict[type[BaseModel], list[BaseModel]] = {
        Hello: [Hello(type="hello", token=token)],
        Action: [
            Action(type="action", id="a1", action={"type": "nu"}),
            Action(type="action", id="a2", action={"type": "slap", "flip": flip, "reaction_ms": 312}),
        ],
        Admin: [
            Admin(type="admin", id="h1", command="seat_bot", seat=3),
            Admin(type="admin", id="h2", command="assign_teams", teams=[[ANA, "p3"], ["p2", "p4"]]),
            Admin(type="admin", id="h3", command="end_match"),
        ],
        Resync: [Resync(type="resync")],
        Ping: [Ping(type="ping", id=1, t0=52341.5)],
        Pong: [Pong(type="pong", id=4, t=START + 2140, t2=52360.2, t3=52360.9)],
    }
    server: dict[type[BaseModel], list[BaseModel]] = {
        Welcome: [welcome],
        Snapshot: [join],
        Patch: [nu_patch],
        Ack: [
            Ack(id="a1", seq=3),
            Ack(id="a1", seq=5, duplicate=True, code=Code.DUPLICATE_ACTION),
        ],
        Reject: [refused],
        Error: [Error(code=Code.BAD_JSON, message="That frame is not valid JSON.")],
        ServerPong: [ServerPong(id=1, t0=52341.5, t1=START + 23, t2=START + 23)],
        ServerPing: [
            ServerPing(id=1, t=START + 1),
            ServerPing(id=4, t=START + 2140, offset=START - 52341.5 + 9.3, rtt=48, jitter=5),
        ],
    }
    return Examples(client, server, lobby["room"], revealed["game"], _jsonable(diff(called, revealed)))
