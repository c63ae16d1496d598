"""Creates rooms, finds them by code, and brings unfinished ones back after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from app.db.store import CodeTaken, EventLog, EventRec, GameRec, Store
from app.engines import get_engine
from app.observability.metrics import IGNORED, RoomMetrics
from app.rooms.bots import BotPace
from app.rooms.clock import Clock
from app.rooms.errors import RoomError
from app.rooms.lobby import Member, validate_options
from app.rooms.replay import replay
from app.rooms.room import Room
from app.rooms.table import Table

log = logging.getLogger(__name__)

# No 0/O, 1/I/L: codes are read aloud and typed on phones.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


CHECKPOINT_MS = 500
"""How often each running game's room clock is made durable (see :func:`resume_time`)."""


def resume_time(game: GameRec, events: list[EventRec]) -> int:
    """Where a recovered game's room clock resumes: where it stood when the server stopped.

    The room clock of every running game is made durable every ``CHECKPOINT_MS`` (and the log
    holds each input's time), so the stop came at most one interval after the later of the two.
    Resuming at that upper bound keeps the clock from ever running backwards for a client that
    saw it just before a crash, at the cost of at most one interval of a turn. The downtime
    itself is a pause: nobody loses turn time to a crash.
    """
    last = events[-1].at if events else game.started_at
    durable = last if game.clock_at is None else max(last, game.clock_at)
    return durable + CHECKPOINT_MS


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class RoomManager:
    def __init__(
        self,
        store: Store,
        event_log: EventLog,
        clock: Clock,
        pace: BotPace | None = None,
        metrics: RoomMetrics = IGNORED,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.event_log = event_log
        self.clock = clock
        self.pace = pace or BotPace()
        self.rooms: dict[str, Room] = {}
        self._checkpoints: asyncio.Task[None] | None = None

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code.upper())

    def require(self, code: str) -> Room:
        room = self.get(code)
        if room is None:
            raise RoomError("UNKNOWN_ROOM", f"There is no room with code {code!r}.", 404)
        return room

    async def create(
        self, *, game: str, options: dict[str, Any], public: bool, host_id: str, host_name: str
    ) -> Room:
        try:
            engine = get_engine(game)
        except KeyError as exc:
            raise RoomError("UNKNOWN_GAME", f"There is no game called {game!r}.", 422) from exc
        clean = validate_options(engine, options)
        for _ in range(20):
            code = new_code()
            if code in self.rooms:
                continue
            try:
                await self.store.create_room(code, game, clean, public, host_id)
            except CodeTaken:
                continue
            break
        else:  # pragma: no cover - 31^6 codes
            raise RoomError("NO_CODE", "Could not allocate a room code; try again.", 503)
        room = self._new_room(
            code=code, game=game, options=clean, public=public, host_id=host_id, status="lobby"
        )
        room.start_actor()
        self.rooms[code] = room
        # The host takes the first seat through the room's inbox, like any other lobby command.
        await room.call(lambda: room.desk.join_seat(host_id, host_name, None, {}))
        return room

    def _new_room(self, *, clock_offset: int = 0, **fields: Any) -> Room:
        return Room(
            store=self.store,
            event_log=self.event_log,
            clock=self.clock,
            clock_offset=clock_offset,
            pace=self.pace,
            metrics=self.metrics,
            **fields,
        )

    async def recover(self) -> int:
        """Rebuild every room; running games are replayed from their logs through the one ``step``."""
        count = 0
        for status in ("lobby", "playing", "finished"):
            for rec in await self.store.rooms_in_status(status):
                if rec.code in self.rooms:
                    continue
                room = self._new_room(
                    code=rec.code,
                    game=rec.game,
                    options=rec.options,
                    public=rec.public,
                    host_id=rec.host_id,
                    status=rec.status,
                )
                for m in await self.store.list_members(rec.code):
                    room.members[m.player_id] = Member(
                        m.player_id, m.name, m.role, m.seat, dict(m.prefs or {}), bot=m.bot
                    )
                game = await self.store.latest_game(rec.code)
                if game is not None:
                    events = await self.store.load_events(game.id)
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
                            table.applied[(ev.seat, ev.client_id)] = ev.seq
                    room.game = table
                    room.resume_clock_at(resume_time(game, events))
                    if rec.status == "playing":
                        room.desk.begin_bots()
                room.start_actor()
                self.rooms[rec.code] = room
                count += 1
        if count:
            log.info("recovered %d rooms", count)
        return count

    def start_checkpoints(self) -> None:
        """Note every running game's room clock in the log, so a restart resumes it where it stood."""
        self._checkpoints = asyncio.create_task(self._checkpoint_loop(), name="room-clock-checkpoints")

    async def _checkpoint_loop(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_MS / 1000)
            self.checkpoint()

    def checkpoint(self) -> None:
        for room in self.rooms.values():
            if room.game is not None and room.status == "playing":
                self.event_log.note_clock(room.game.rec.id, room.now())

    async def stop(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpoints
            self._checkpoints = None
        for room in self.rooms.values():
            await room.stop()
        self.checkpoint()  # a clean stop resumes exactly where it stopped
