"""This process's part in a group of processes sharing the rooms through Redis.

It holds the leases of the rooms this process has loaded (renewing them, and dropping a room at
once if its lease was lost), routes every request and socket about a room held elsewhere to its
owner (:mod:`app.cluster.relay`), and takes over the running games of a process that died
(their leases expired) by loading them here, rebuilt from the log like after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.cluster.leases import Lease, Leases, Renewal
from app.cluster.relay import Outbox, Relay
from app.cluster.wire import RELAYED, unpack
from app.db.fences import raise_fence, room_fence
from app.db.store import Store
from app.observability.metrics import ClusterMetrics
from app.rooms.errors import REDIS_AWAY, RoomError
from app.rooms.manager import RoomManager
from app.tasks import cancel_and_wait

log = logging.getLogger(__name__)

_CODE = r"(?P<code>[A-Za-z0-9]{1,16})"
_ROOM_PATHS = (re.compile(rf"/ws/rooms/{_CODE}"), re.compile(rf"/api/(?:_test/)?rooms/{_CODE}(?:/.*)?"))
_BODY_NAMES_ROOM = re.compile(r"/api/_test/(?:seed|clock)")
"""Test-only routes naming their room in the JSON body (``{"room": CODE}``)."""
ADOPT_AT_ONCE = 200
"""Orphaned rooms one sweep takes over (the rest wait for the next sweep)."""
ALIVE_LEASES = 5
"""A process that has not said it is alive for this many lease times is taken for dead."""
MOVED_WAIT_S = 0.2
"""How often an edge looks again at the lease of a room whose owner did not answer."""
LISTEN_RETRY_S = 0.5
"""How long the relay's listener waits before it subscribes again after Redis dropped it."""
UNANSWERED = (RedisError,)
"""What the Redis client raises when Redis cannot answer (down, restarting, unreachable, timed out)."""


def _room_in_body(body: bytes) -> str | None:
    with contextlib.suppress(orjson.JSONDecodeError):
        data = orjson.loads(body)
        room = data.get("room") if isinstance(data, dict) else None
        if isinstance(room, str) and re.fullmatch(r"[A-Za-z0-9]{1,16}", room):
            return room
    return None


class Node:
    def __init__(
        self,
        url: str,
        *,
        prefix: str,
        lease_ms: int,
        fence_ttl_ms: int,
        write_timeout_s: float,
        metrics: ClusterMetrics,
    ) -> None:
        self.process = secrets.token_hex(6)
        self.metrics = metrics
        self.prefix = prefix
        self.lease_ms = lease_ms
        self.redis = Redis.from_url(url)
        self.leases = Leases(self.redis, prefix, self.process, lease_ms, fence_ttl_ms)
        self.renewal = Renewal(url, prefix, lease_ms, fence_ttl_ms)
        self._halted = threading.Event()
        self._renewer: threading.Thread | None = None
        self.outbox = Outbox(self.redis, metrics.relay)
        self.relay = Relay(self.outbox, self.process, self.channel, write_timeout_s)
        self.held: dict[str, Lease] = {}
        """The leases of the rooms loaded here."""
        metrics.count(lambda: len(self.held), self.relay.edge_sockets, self.relay.owner_sockets)
        self.manager: RoomManager | None = None
        self.store: Store | None = None
        self._tasks: list[asyncio.Task[None]] = []

    def channel(self, process: str) -> str:
        return f"{self.prefix}:proc:{process}"

    def _alive_key(self, process: str) -> str:
        return f"{self.prefix}:alive:{process}"

    # --- start and stop --------------------------------------------------------------

    async def start(self, app: ASGIApp, manager: RoomManager, store: Store) -> None:
        self.relay.app, self.manager, self.store = app, manager, store
        await self.redis.ping()  # a wrong BORDET_REDIS_URL stops the start here
        self.renewal.beat(self._alive_key(self.process), self.lease_ms * ALIVE_LEASES)
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.channel(self.process))
        self.outbox.start()
        loops: list[tuple[str, Callable[[], Coroutine[Any, Any, None]]]] = [
            ("cluster-listen", lambda: self._listen(pubsub)),
            ("cluster-streams", self._stream_loop),
            ("cluster-takeover", self._takeover_loop),
        ]
        self._tasks = [asyncio.create_task(fn(), name=name) for name, fn in loops]
        loop = asyncio.get_running_loop()
        self._renewer = threading.Thread(
            target=self._renew_forever, args=(loop,), name="cluster-renewal", daemon=True
        )
        self._renewer.start()
        log.info("cluster: process %s on %s, leases of %d ms", self.process, self.prefix, self.lease_ms)

    async def halt(self) -> None:
        """No more takeovers, renewals or relayed streams (before the rooms stop)."""
        for task in self._tasks:
            await cancel_and_wait(task)
        self._tasks = []
        self._halted.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join)
            self._renewer = None
        await self.relay.stop()

    async def stop(self) -> None:
        await self.halt()
        for code, lease in list(self.held.items()):  # a clean stop hands the rooms over at once
            with contextlib.suppress(Exception):
                await self.leases.release(code, lease)
        with contextlib.suppress(Exception):
            await self.redis.delete(self._alive_key(self.process))
        await self.outbox.stop()
        await self.redis.aclose()
        self.renewal.close()

    # --- ownership (the room manager's Owner) ------------------------------------------

    async def take(self, code: str) -> int:
        """Hold room ``code`` here (its lease, then its fence in the database); its fence.
        RoomError TRY_AGAIN (503) if another process holds it, ``REDIS_AWAY`` (503) if Redis
        cannot tell."""
        try:
            return await self._take(code)
        except UNANSWERED as exc:  # a lease it may have got expires on its own
            log.warning("room=%s not taken: Redis did not answer: %r", code, exc)
            raise RoomError(*REDIS_AWAY, 503) from None

    async def _take(self, code: str) -> int:
        assert self.store is not None
        for _ in range(2):
            lease = await self.leases.claim(code)
            if lease.owner != self.process:
                raise RoomError("TRY_AGAIN", "Another server holds this room just now; try again.", 503)
            if self.held.get(code) == lease or await raise_fence(self.store, code, lease.fence) is not None:
                self.held[code] = lease
                return lease.fence
            # The database holds this number or a later one (the counter expired, or Redis lost
            # it): the counter starts past it, and the next claim gets a number of its own.
            await self.leases.raise_fence(code, (await room_fence(self.store, code) or 0) + 1)
            await self.leases.release(code, lease)
        raise RoomError("TRY_AGAIN", "This room is changing servers; try again.", 503)

    async def give_up(self, code: str) -> None:
        lease = self.held.pop(code, None)
        if lease is not None:
            with contextlib.suppress(Exception):  # it expires on its own
                await self.leases.release(code, lease)

    # --- routing -------------------------------------------------------------------------

    async def route(self, scope: Scope, receive: Receive, send: Send, local: ASGIApp) -> None:
        """Serve the request here (``local``) or relay it to the process that holds its room."""
        code, receive = await self._room_of(scope, receive)
        if code is None or scope.get(RELAYED):
            await local(scope, receive, send)
            return
        code = code.upper()
        deadline = time.monotonic() + self.lease_ms / 1000 + 2.0
        silent_owner = False
        while True:
            lease = await self._owner(code)
            if lease is None:
                if silent_owner:  # its lease ran out: the room is this process's now
                    self.metrics.taken_over.inc()
                await local(scope, receive, send)
                return
            if await self.relay.forward(scope, receive, send, lease, code):
                return
            silent_owner = True
            # Its owner did not answer: dead or paused. Its lease runs out; then one of us takes it.
            if time.monotonic() > deadline:
                await local(scope, receive, send)  # answers 503 TRY_AGAIN: the room is held elsewhere
                return
            await asyncio.sleep(MOVED_WAIT_S)

    async def _owner(self, code: str) -> Lease | None:
        """None when the room is (or may now be) served here, else the lease of its owner."""
        assert self.manager is not None
        if code in self.manager.rooms:
            return None
        try:
            lease = await self.leases.claim(code)
        except UNANSWERED:  # served here, where taking the room answers REDIS_AWAY while Redis is away
            return None
        return None if lease.owner == self.process else lease

    async def _room_of(self, scope: Scope, receive: Receive) -> tuple[str | None, Receive]:
        path = scope.get("path", "")
        for pattern in _ROOM_PATHS:
            if match := pattern.fullmatch(path):
                return match["code"], receive
        if scope["type"] != "http" or not _BODY_NAMES_ROOM.fullmatch(path):
            return None, receive
        body, events = b"", []
        while True:  # test-only routes with small bodies: read it all, then hand it on again
            event = await receive()
            events.append(event)
            body += event.get("body", b"")
            if not event.get("more_body") or len(body) > 65536:
                break

        async def replay() -> Message:
            return events.pop(0) if events else await receive()

        return _room_in_body(body), replay

    # --- loops -----------------------------------------------------------------------------

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except UNANSWERED:
                # The next read connects again and subscribes anew; until then no relayed
                # answer reaches this process (its edges' requests wait, then answer TRY_AGAIN).
                log.warning("cluster: Redis dropped the relay's subscription", exc_info=True)
                await asyncio.sleep(LISTEN_RETRY_S)
                continue
            if message is None or message.get("type") != "message":
                continue
            data = message["data"]
            self.metrics.relay.received(len(data))
            try:
                self.relay.deliver(unpack(data))
            except Exception:
                log.warning("cluster: unreadable relay message dropped", exc_info=True)

    def _renew_forever(self, loop: asyncio.AbstractEventLoop) -> None:
        """The renewal thread: every quarter lease, say this process is alive and renew the
        leases of its rooms; rooms whose lease is gone leave the process (in its event loop)."""
        last_ok = time.monotonic()
        while not self._halted.wait(self.lease_ms / 4000):
            held = dict(self.held)
            try:
                # Only frees what owners hold for this process's relayed clients: a long margin.
                self.renewal.beat(self._alive_key(self.process), self.lease_ms * ALIVE_LEASES)
                lost = self.renewal.renew(held)
                last_ok = time.monotonic()
            except Exception:
                log.warning("cluster: Redis unreachable", exc_info=True)
                self.metrics.renewals_failed.labels("unreachable").inc()
                if time.monotonic() - last_ok < self.lease_ms / 1000:
                    continue
                lost = list(held)  # our leases ran out: others may hold our rooms now
            if lost:
                self.metrics.renewals_failed.labels("lost").inc(len(lost))
                loop.call_soon_threadsafe(self._lose, lost, held)

    def _lose(self, codes: list[str], renewed: dict[str, Lease]) -> None:
        for code in codes:
            if self.held.get(code) != renewed.get(code):
                continue  # taken again since that renewal: a newer lease, renewed next time
            log.warning("room=%s lease lost; the room leaves this process", code)
            del self.held[code]
            if self.manager is not None:
                self.manager.let_go(code)

    async def _stream_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 4000)
            try:
                async with asyncio.timeout(self.lease_ms / 1000):
                    await self._check_streams()
            except Exception:
                log.warning("cluster: relayed streams not checked", exc_info=True)

    async def _check_streams(self) -> None:
        """Relayed streams whose room changed owner end (their clients reconnect to the new one);
        streams served for a process that died end too."""
        edges = {edge.code for edge in self.relay.edges.values()}
        if edges:
            self.relay.moved(await self.leases.holder(edges))
        processes = sorted({served.edge for served in self.relay.served.values()})
        if processes:
            alive = await self.redis.exists(*[self._alive_key(p) for p in processes])
            if alive < len(processes):
                gone = set()
                for process in processes:
                    if not await self.redis.exists(self._alive_key(process)):
                        gone.add(process)
                self.relay.edges_gone(gone)

    async def _takeover_loop(self) -> None:
        """Running games nobody holds (their process died) are loaded here, if no one is faster."""
        while True:
            await asyncio.sleep(self.lease_ms / 2000)
            try:
                await self.adopt_orphans()
            except Exception:
                log.warning("cluster: takeover sweep failed", exc_info=True)

    async def adopt_orphans(self) -> int:
        assert self.manager is not None and self.store is not None
        loaded = self.manager.rooms
        codes = [r.code for r in await self.store.rooms_in_status("playing") if r.code not in loaded]
        orphans = [code for code, lease in (await self.leases.holder(codes)).items() if lease is None]
        # All at once: each is claimed first, then rebuilt; a dead process's tables all wait on this.
        taken = await asyncio.gather(*(self._adopt(code) for code in orphans[:ADOPT_AT_ONCE]))
        return sum(taken)

    async def _adopt(self, code: str) -> bool:
        assert self.manager is not None
        try:
            if await self.manager.get(code) is None:
                return False
        except RoomError:  # another process was faster
            return False
        log.info("room=%s taken over from a process that is gone", code)
        self.metrics.taken_over.inc()
        return True
