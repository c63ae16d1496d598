"""Creates rooms, finds them by code, and keeps in memory only the rooms in use.

A room lives in memory while it has connections, a live deadline or a bot to move. Once it has
been idle for a while it is put away (unloaded) and rebuilt from the database the next time
someone uses it (:mod:`app.rooms.loader`). At start only the games still running are brought
back; lobbies and finished games wait in the database until someone asks for them. Lobbies
nobody comes back to expire.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any, Protocol

from app.db import room_lifecycle
from app.db.event_log import EventLog
from app.db.models import utcnow
from app.db.store import CodeTaken, Store
from app.engines import get_engine
from app.observability.metrics import IGNORED, RoomMetrics
from app.rooms.bots import BotPace
from app.rooms.clock import Clock
from app.rooms.errors import MOVED, RoomError
from app.rooms.loader import CHECKPOINT_MS, rebuild, resume_time
from app.rooms.lobby import validate_options
from app.rooms.room import Room
from app.tasks import cancel_and_wait

__all__ = ["CHECKPOINT_MS", "Lifecycle", "RoomManager", "resume_time"]

log = logging.getLogger(__name__)

# No 0/O, 1/I/L: codes are read aloud and typed on phones.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

SWEEP_S = 5.0
"""How often loaded rooms are checked for idleness (real seconds)."""
EXPIRY_EVERY_S = 600.0
"""How often old lobbies are expired (real seconds)."""


@dataclass(frozen=True)
class Lifecycle:
    """How long rooms stay in memory and in the lobby (settings in :mod:`app.config`)."""

    idle_ms: int = 60_000
    """A room idle this long (room-manager clock) is put away."""
    max_loaded: int = 5_000
    """Rooms one process holds in memory at most; past it, new ones are refused (503 ``BUSY``)."""
    lobby_expiry_s: float = 24 * 3600
    """A lobby room unused this long (wall clock) expires."""
    max_spectators: int | None = 50
    """People watching one room at once."""


class Owner(Protocol):
    """Who may load which room when several processes share them (:class:`app.cluster.node.Node`);
    with one process there is none and every room is this process's."""

    async def take(self, code: str) -> int:
        """Hold ``code`` here; returns the fence its event-log rows carry. RoomError if another holds it."""
        ...

    async def give_up(self, code: str) -> None: ...


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
        lifecycle: Lifecycle | None = None,
    ) -> None:
        self.owner: Owner | None = None
        """Set when several processes share the rooms (BORDET_REDIS_URL)."""
        self.store = store
        self.metrics = metrics
        self.event_log = event_log
        self.clock = clock
        self.pace = pace or BotPace()
        self.lifecycle = lifecycle or Lifecycle()
        self.rooms: dict[str, Room] = {}
        """The rooms loaded in this process, by code."""
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._idle_since: dict[str, int] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._letting_go: dict[str, asyncio.Task[None]] = {}

    # --- finding and creating rooms ------------------------------------------

    async def get(self, code: str) -> Room | None:
        """The room ``code``, loaded from the database if it is not in memory; None if none."""
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None:
            self._idle_since.pop(code, None)  # used just now: its idle time starts again
            return room
        loading = self._loading.get(code)
        if loading is not None:  # someone else is loading it: wait for the same room
            return await asyncio.shield(loading)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            room = await self._load(code)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it, nobody else needs to
            raise
        else:
            future.set_result(room)
            return room
        finally:
            del self._loading[code]

    async def require(self, code: str) -> Room:
        room = await self.get(code)
        if room is None:
            raise RoomError("UNKNOWN_ROOM", f"There is no room with code {code!r}.", 404)
        return room

    async def _load(self, code: str) -> Room | None:
        rec = await self.store.get_room(code)
        if rec is None:
            return None
        if rec.status == "expired":
            raise RoomError("ROOM_EXPIRED", "That room was left unused and has closed.", 410)
        await self._make_space()
        if self.owner is None:
            room = await rebuild(rec, self.store, self._new_room, self.clock)
        else:  # held before it is read: every event of an earlier owner is in the log by then
            fence = await self.owner.take(code)
            try:
                room = await rebuild(rec, self.store, partial(self._new_room, fence=fence), self.clock)
            except BaseException:
                await self.owner.give_up(code)
                raise
        self._adopt(room)
        return room

    async def create(
        self, *, game: str, options: dict[str, Any], public: bool, host_id: str, host_name: str
    ) -> Room:
        try:
            engine = get_engine(game)
        except KeyError as exc:
            raise RoomError("UNKNOWN_GAME", f"There is no game called {game!r}.", 422) from exc
        clean = validate_options(engine, options)
        await self._make_space()
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
        fence = None if self.owner is None else await self.owner.take(code)
        room = self._new_room(
            code=code, game=game, options=clean, public=public, host_id=host_id, status="lobby", fence=fence
        )
        self._adopt(room)
        # The host takes the first seat through the room's inbox, like any other lobby command.
        await room.call(lambda: room.desk.join_seat(host_id, host_name, None, {}))
        return room

    def _new_room(self, *, clock_offset: int = 0, fence: int | None = None, **fields: Any) -> Room:
        return Room(
            fence=fence,
            store=self.store,
            event_log=self.event_log,
            clock=self.clock,
            clock_offset=clock_offset,
            pace=self.pace,
            metrics=self.metrics,
            max_spectators=self.lifecycle.max_spectators,
            lost=None if self.owner is None else self.let_go,
            **fields,
        )

    def _adopt(self, room: Room) -> None:
        room.start_actor()
        self.rooms[room.code] = room

    async def _make_space(self) -> None:
        """Room for one more loaded room: idle rooms are put away at once if the process is full."""
        if len(self.rooms) < self.lifecycle.max_loaded:
            return
        await self.unload_idle(min_idle_ms=0)
        if len(self.rooms) >= self.lifecycle.max_loaded:
            raise RoomError("BUSY", "This server is holding as many tables as it can; try again later.", 503)

    # --- start, idle rooms, expiry --------------------------------------------

    async def recover(self) -> int:
        """Bring back every game still running (its log replayed through the one ``step``); the
        rest (lobbies, finished games) is loaded when someone asks for it."""
        count = 0
        for rec in await self.store.rooms_in_status("playing"):
            if self.owner is not None:
                count += await self._take_over(rec.code)
            elif rec.code not in self.rooms:
                self._adopt(await rebuild(rec, self.store, self._new_room, self.clock))
                count += 1
        if count:
            log.info("recovered %d running games", count)
        return count

    async def _take_over(self, code: str) -> int:
        """1 if the room ``code`` is now loaded here, 0 if another process holds it."""
        if code in self.rooms:
            return 0
        try:
            return int(await self.get(code) is not None)
        except RoomError:
            return 0

    def let_go(self, code: str) -> None:
        """Another process holds room ``code`` now (its lease was lost, or the database refused a
        write under its fence): the room leaves this process soon, outside its own actor (which
        may be the caller, and is stopped on the way)."""
        if code in self._letting_go:
            return
        task = asyncio.create_task(self._let_go(code), name=f"room-{code}-let-go")
        self._letting_go[code] = task
        task.add_done_callback(lambda _: self._letting_go.pop(code, None))

    async def let_go_done(self) -> None:
        """Until every room being let go has left this process."""
        while self._letting_go:
            await asyncio.wait(list(self._letting_go.values()))

    async def _let_go(self, code: str) -> None:
        if self.owner is not None:  # before the room leaves, so nothing takes it again meanwhile
            await self.owner.give_up(code)  # the lease is released only if it is still ours
        await self.lose(code)

    async def lose(self, code: str) -> None:
        """Another process holds room ``code`` now: it leaves this one at once, without writing
        anything (the database would refuse it), and its clients reconnect to the new owner."""
        room = self.rooms.pop(code, None)
        self._idle_since.pop(code, None)
        if room is None:
            return
        room.put_away = True
        await room.stop()
        for peer in list(room.viewers):
            peer.close(*MOVED)

    async def unload_idle(self, min_idle_ms: int | None = None) -> int:
        """Put away every room idle (no connection, nothing queued, no deadline or bot) for at
        least ``min_idle_ms`` (the lifecycle's idle time by default); returns how many."""
        wait = self.lifecycle.idle_ms if min_idle_ms is None else min_idle_ms
        now = self.clock.now()
        unloaded = 0
        for code, room in list(self.rooms.items()):
            if room.viewers or room.next_deadline() is not None:
                self._idle_since.pop(code, None)
                continue
            since = self._idle_since.setdefault(code, now)
            if now - since >= wait and await self._put_away(room):
                unloaded += 1
        return unloaded

    async def _put_away(self, room: Room) -> bool:
        async def idle() -> bool:
            return room.put_away_if_idle()

        try:
            if not await room.call(idle):
                return False
        except RoomError:  # put away already
            return False
        self.rooms.pop(room.code, None)
        self._idle_since.pop(room.code, None)
        await room.stop()
        if room.game is not None and room.status == "playing":
            self.event_log.note_clock(room.game.rec.id, room.now(), room.fence)
        try:  # while the room is still held here, so no later owner's rows are touched
            await room.write(
                lambda fence: room_lifecycle.put_away(self.store, room.code, room.host_id, fence)
            )
        except Exception:  # only the touch and the spectators' rows: the next put-away retries
            log.warning("room=%s could not note its put-away", room.code, exc_info=True)
        if self.owner is not None:
            await self.owner.give_up(room.code)
        return True

    async def expire_lobbies(self) -> int:
        """Lobbies not used for the lifecycle's expiry time expire (the loaded ones are in use)."""
        cutoff = utcnow() - timedelta(seconds=self.lifecycle.lobby_expiry_s)
        loaded = [code for code, room in self.rooms.items() if room.status == "lobby"]
        await room_lifecycle.touch(self.store, loaded)
        expired = await room_lifecycle.expire_lobbies(self.store, cutoff)
        if expired:
            log.info("expired %d lobby rooms nobody used", expired)
        return expired

    def start_housekeeping(self) -> None:
        """Clock checkpoints of running games, idle rooms put away, old lobbies expired."""
        self._tasks = [
            asyncio.create_task(self._checkpoint_loop(), name="room-clock-checkpoints"),
            asyncio.create_task(self._sweep_loop(), name="room-sweeper"),
        ]

    async def _checkpoint_loop(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_MS / 1000)
            self.checkpoint()

    async def _sweep_loop(self) -> None:
        next_expiry = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_S)
            try:
                await self.unload_idle()
                if time.monotonic() >= next_expiry:
                    next_expiry = time.monotonic() + EXPIRY_EVERY_S
                    await self.expire_lobbies()
            except Exception:  # the database may be away for a while; the next sweep tries again
                log.exception("room sweep failed")

    def checkpoint(self) -> None:
        """Note every running game's room clock in the log, so a restart resumes it where it stood."""
        for room in self.rooms.values():
            if room.game is not None and room.status == "playing":
                self.event_log.note_clock(room.game.rec.id, room.now(), room.fence)

    async def stop(self) -> None:
        for task in self._tasks:
            await cancel_and_wait(task)
        self._tasks = []
        await self.let_go_done()
        for room in list(self.rooms.values()):
            await room.stop()
        self.checkpoint()  # a clean stop resumes exactly where it stopped
