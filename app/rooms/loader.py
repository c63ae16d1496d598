"""Rebuilding a room from the database: its lobby, and its latest game replayed from the log.

The same rebuild serves a restart (every game still running is brought back) and load on demand
(a room unloaded while idle is rebuilt when someone uses it again).
"""

from __future__ import annotations

from collections.abc import Callable

from app.db.store import EventRec, GameRec, RoomRec, Store
from app.rooms.clock import Clock
from app.rooms.lobby import Member
from app.rooms.replay import replay
from app.rooms.room import Room
from app.rooms.table import Table

CHECKPOINT_MS = 500
"""How often each running game's room clock is made durable (see :func:`resume_time`)."""


def resume_time(game: GameRec, events: list[EventRec], margin_ms: int = CHECKPOINT_MS) -> int:
    """Where a rebuilt game's room clock resumes: where it stood when the server stopped.

    The room clock of every running game is made durable every ``CHECKPOINT_MS`` (and the log
    holds each input's time), so the stop came at most one interval after the later of the two.
    Resuming at that upper bound keeps the clock from ever running backwards for a client that
    saw it just before a crash, at the cost of at most one interval of a turn. The downtime
    itself is a pause: nobody loses turn time to a crash. A clock that does not run on its own
    (the tests' manual clock) stood exactly at its last durable point: ``margin_ms`` 0.
    """
    last = events[-1].at if events else game.started_at
    durable = last if game.clock_at is None else max(last, game.clock_at)
    return durable + margin_ms


async def rebuild(rec: RoomRec, store: Store, new_room: Callable[..., Room], clock: Clock) -> Room:
    """The room ``rec`` as it stands in the database (its actor not started yet)."""
    room = new_room(
        code=rec.code,
        game=rec.game,
        options=rec.options,
        public=rec.public,
        host_id=rec.host_id,
        status=rec.status,
    )
    for m in await store.list_members(rec.code):
        prefs = dict(m.prefs or {})
        room.members[m.player_id] = Member(m.player_id, m.name, m.role, m.seat, prefs, bot=m.bot)
    game = await store.latest_game(rec.code)
    if game is not None:
        events = await store.load_events(game.id)
        state = replay(game, events)
        table = Table(
            rec=game,
            engine=room.engine,
            state=state,
            committed=state,
            next_seq=(events[-1].seq + 1) if events else 1,
        )
        for ev in events:
            if ev.seat is not None and ev.client_id is not None:
                table.note_applied(ev.seat, ev.client_id, ev.seq)
        room.game = table
        room.resume_clock_at(resume_time(game, events, CHECKPOINT_MS if clock.runs_on_its_own else 0))
        if rec.status == "playing":
            room.desk.begin_bots()
    return room
