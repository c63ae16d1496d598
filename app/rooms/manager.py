"""Creates rooms, finds them by code, and brings unfinished ones back after a restart."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from app.db.store import CodeTaken, EventLog, Store
from app.engines import get_engine
from app.rooms.bots import BotPace
from app.rooms.clock import Clock
from app.rooms.errors import RoomError
from app.rooms.replay import replay
from app.rooms.room import GameRun, Member, Room, validate_options

log = logging.getLogger(__name__)

# No 0/O, 1/I/L: codes are read aloud and typed on phones.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class RoomManager:
    def __init__(self, store: Store, event_log: EventLog, clock: Clock, pace: BotPace | None = None) -> None:
        self.store = store
        self.event_log = event_log
        self.clock = clock
        self.pace = pace or BotPace()
        self.rooms: dict[str, Room] = {}

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
        await room.join_seat(host_id, host_name, None, {})
        room.start_actor()
        self.rooms[code] = room
        return room

    def _new_room(self, *, clock_offset: int = 0, **fields: Any) -> Room:
        return Room(
            store=self.store,
            event_log=self.event_log,
            clock=self.clock,
            clock_offset=clock_offset,
            pace=self.pace,
            **fields,
        )

    async def recover(self) -> int:
        """Rebuild every room that is not finished; running games are replayed from their logs."""
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
                    run = GameRun(
                        rec=game,
                        engine=room.engine,
                        state=state,
                        committed=state,
                        next_seq=(events[-1].seq + 1) if events else 1,
                    )
                    for ev in events:
                        if ev.seat is not None and ev.client_id is not None:
                            run.applied[(ev.seat, ev.client_id)] = ev.seq
                    room.game = run
                    # The room clock resumes where the log stopped: the downtime is a pause, not lost time.
                    last = events[-1].at if events else game.started_at
                    room.resume_clock_at(last)
                    if rec.status == "playing":
                        room.begin_bots()
                room.start_actor()
                self.rooms[rec.code] = room
                count += 1
        if count:
            log.info("recovered %d rooms", count)
        return count

    async def stop(self) -> None:
        for room in self.rooms.values():
            await room.stop()
