"""A request or WebSocket that reached a process other than its room's owner, carried to the owner.

The edge (the process the client reached) forwards the ASGI events it receives from its server
over Redis pub/sub to the owner's channel; the owner runs its own application on them, exactly
as if the client had connected to it, and its ASGI sends come back the same way and are handed
to the client. So a relayed client sees the owner's frames, ``seq`` and acks byte for byte: one
extra hop, nothing translated. Pub/sub keeps the order of one publisher's messages on a channel,
and each process publishes through one task (:class:`Outbox`).

A client that reads slowly is the owner's to handle, as if it were connected there: the edge
acknowledges the owner's events as its client takes them (``ack``, every :data:`ACK_EVERY`), and
the owner sends at most :data:`WINDOW` events ahead of those acknowledgements. So a client that
stops reading stops the owner's writes to it, its connection's backlog fills on the owner, and the
room does what it does for any slow client (the backlog emptied, one reset snapshot in place of the
lost frames, ``TOO_SLOW`` if it keeps overflowing, cut off past the write timeout).

Messages (``wire.pack``), by kind ``k`` on stream ``s``: ``open`` (edge to owner, with the
scope and the edge's channel ``r``), ``hi`` (the owner took it), ``in`` / ``out`` (an ASGI
event each way), ``ack`` (edge to owner: ``n`` more ``out`` events handed to the client),
``end`` (that side is done).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.cluster.leases import Lease
from app.cluster.wire import pack, scope_in, scope_out
from app.observability.metrics import RelayTotals
from app.realtime import transport
from app.rooms.errors import MOVED

log = logging.getLogger(__name__)

OPEN_TIMEOUT_S = 1.0
"""How long an edge waits for the owner's ``hi``; past it the owner is taken for dead (or paused)."""
MAX_WAITING = 512
"""Events waiting on either side of one stream; past it the stream is cut (a client sending far
faster than its room takes; an owner sending past its window)."""
WINDOW = 64
"""Events the owner sends ahead of the edge's acknowledgements (then its writes wait, as a local
socket's do when its client stops reading)."""
ACK_EVERY = 16
"""Events the edge hands to its client between two acknowledgements (well within the window, so a
client that keeps reading never holds the owner up)."""


MAX_OUTBOX = 10_000
"""Messages waiting to be published; past it, the streams' frames and client events wait for room
(a slow Redis then holds back the relayed sockets, whose write deadlines cut them off, instead of
growing this process's memory)."""


class Outbox:
    """Every message this process publishes, in order, pipelined in batches by one task."""

    def __init__(self, redis: Redis, totals: RelayTotals) -> None:
        self.redis = redis
        self.totals = totals
        self._queue: deque[tuple[str, bytes]] = deque()
        self._wake = asyncio.Event()
        self._room = asyncio.Event()
        self._room.set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="cluster-outbox")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._room.set()  # nothing waits on a stopped outbox

    def put(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a stream's control message (open, hello, end, cut: a few per stream) at once."""
        data = pack(message)
        self.totals.published(len(data))
        self._queue.append((channel, data))
        self._wake.set()

    async def put_when_room(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a frame or a client event, once the outbox is under :data:`MAX_OUTBOX`."""
        while len(self._queue) >= MAX_OUTBOX and self._task is not None and not self._task.done():
            self._room.clear()
            await self._room.wait()
        self.put(channel, message)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch = [self._queue.popleft() for _ in range(min(len(self._queue), 500))]
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, data in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                except Exception:  # Redis away: those frames are lost, the streams' watchdogs end them
                    log.warning("could not publish %d relay messages", len(batch), exc_info=True)
                if len(self._queue) < MAX_OUTBOX:
                    self._room.set()


@dataclass(eq=False)
class _Served:
    """A stream this process runs for an edge: the client's events wait here for the application."""

    reply: str
    edge: str
    kind: str
    events: deque[Message] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    ended: bool = False
    unacked: int = 0
    """Events sent to the edge that it has not yet handed to its client."""
    credit: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the edge acknowledged events (or is gone): a send waiting for the window looks again."""


@dataclass(eq=False)
class _Edge:
    """A stream this process forwards: the owner's messages wait here for the client."""

    code: str
    lease: Lease
    kind: str
    messages: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    cut: bool = False
    """Too much waits for the client (it stopped reading): the stream ends, the rest is dropped."""
    unheld_checks: int = 0
    """Checks in a row that found the room's lease gone (its owner renews late, or died)."""
    handed: int = 0
    """Events handed to the client since the last acknowledgement."""


class _StreamEnd:
    """A relayed socket's transport, as the owner's connection sees it (:mod:`app.realtime.transport`):
    no socket of its own, and aborting it (a client that took no frame within the write timeout)
    ends the stream, whose edge then closes the client's socket."""

    def __init__(self, relay: Relay, served: _Served) -> None:
        self._relay, self._served = relay, served

    def abort(self) -> None:
        self._relay._client_gone(self._served)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


class Relay:
    def __init__(
        self, outbox: Outbox, process: str, channel: Callable[[str], str], write_timeout_s: float
    ) -> None:
        self.outbox = outbox
        self.process = process
        self.channel = channel
        """A process's channel, by process id."""
        self.write_timeout_s = write_timeout_s
        self.app: ASGIApp | None = None
        self.served: dict[str, _Served] = {}
        self.edges: dict[str, _Edge] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()

    def edge_sockets(self) -> int:
        """Relayed WebSockets whose client is connected here."""
        return sum(1 for edge in self.edges.values() if edge.kind == "websocket")

    def owner_sockets(self) -> int:
        """Relayed WebSockets whose room is served here."""
        return sum(1 for served in self.served.values() if served.kind == "websocket")

    # --- messages from the channel ------------------------------------------------

    def deliver(self, message: dict[str, Any]) -> None:
        kind, sid = message.get("k"), message.get("s")
        if not isinstance(sid, str):
            return
        if kind == "open":
            self._spawn(self._serve(sid, message))
        elif kind == "in":
            self._to_owner(sid, message.get("e"))
        elif kind == "ack":
            self._acked(sid, message.get("n"))
        elif kind == "end" and sid in self.served:
            self._client_gone(self.served[sid])
        elif (edge := self.edges.get(sid)) is not None and not edge.cut:
            if edge.messages.qsize() >= MAX_WAITING:  # the client stopped reading
                edge.cut = True
                message = {"k": "cut"}
            edge.messages.put_nowait(message)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    # --- the owner's side -------------------------------------------------------------

    async def _serve(self, sid: str, message: dict[str, Any]) -> None:
        reply, edge = message.get("r"), message.get("p")
        if not isinstance(reply, str) or not isinstance(edge, str) or self.app is None:
            return
        scope = scope_in(message["scope"])
        served = _Served(reply, edge, scope["type"])
        self.served[sid] = served
        scope[transport.SCOPE_KEY] = _StreamEnd(self, served)
        self.outbox.put(reply, {"k": "hi", "s": sid})
        disconnect = "websocket.disconnect" if scope["type"] == "websocket" else "http.disconnect"

        async def receive() -> Message:
            while not served.events:
                if served.ended:
                    return {"type": disconnect, "code": 1006}
                served.ready.clear()
                await served.ready.wait()
            return served.events.popleft()

        async def send(event: Message) -> None:
            while served.unacked >= WINDOW and not served.ended:  # the client is not reading
                served.credit.clear()
                await served.credit.wait()
            served.unacked += 1
            await self.outbox.put_when_room(reply, {"k": "out", "s": sid, "e": event})

        try:
            await self.app(scope, receive, send)
        except Exception:
            log.exception("relayed %s %s failed", scope["type"], scope.get("path"))
        finally:
            self.served.pop(sid, None)
            self.outbox.put(reply, {"k": "end", "s": sid})

    def _to_owner(self, sid: str, event: Any) -> None:
        served = self.served.get(sid)
        if served is None or served.ended or not isinstance(event, dict):
            return
        if len(served.events) >= MAX_WAITING:
            self._client_gone(served)  # far more than a room takes: the stream is cut
            return
        served.events.append(event)
        served.ready.set()

    def _acked(self, sid: str, count: Any) -> None:
        served = self.served.get(sid)
        if served is not None and isinstance(count, int) and count > 0:
            served.unacked = max(0, served.unacked - count)
            served.credit.set()

    def _client_gone(self, served: _Served) -> None:
        served.ended = True
        served.ready.set()
        served.credit.set()

    def edges_gone(self, processes: set[str]) -> None:
        """Those processes died: the streams run for them end (their clients are gone with them)."""
        for served in list(self.served.values()):
            if served.edge in processes:
                self._client_gone(served)

    # --- the edge's side --------------------------------------------------------------

    async def forward(self, scope: Scope, receive: Receive, send: Send, lease: Lease, code: str) -> bool:
        """Carry the request to ``lease``'s owner; False (nothing sent to the client yet) if the
        owner never answered, i.e. it is dead or paused and its lease will run out."""
        sid = f"{self.process}-{next(self._ids)}"
        edge = _Edge(code, lease, scope["type"])
        self.edges[sid] = edge
        owner = self.channel(lease.owner)
        self.outbox.put(
            owner,
            {
                "k": "open",
                "s": sid,
                "r": self.channel(self.process),
                "p": self.process,
                "scope": scope_out(scope),
            },
        )
        try:
            try:
                async with asyncio.timeout(OPEN_TIMEOUT_S):
                    first = await edge.messages.get()
            except TimeoutError:
                return False
            if first.get("k") != "hi":
                return False
            pump = asyncio.create_task(self._pump_in(sid, owner, receive))
            try:
                await self._pump_out(edge, send, sid, owner)
            finally:
                if not pump.done():
                    # The owner is done; a client still connected has nothing more to say to it.
                    pump.cancel()
                with contextlib.suppress(BaseException):
                    await pump
            return True
        finally:
            self.edges.pop(sid, None)
            self.outbox.put(owner, {"k": "end", "s": sid})

    async def _pump_in(self, sid: str, owner: str, receive: Receive) -> None:
        while True:
            event = await receive()
            await self.outbox.put_when_room(owner, {"k": "in", "s": sid, "e": event})
            if event["type"] in ("websocket.disconnect", "http.disconnect"):
                return
            if event["type"] == "http.request" and not event.get("more_body"):
                return  # the whole body is across; the owner answers

    async def _pump_out(self, edge: _Edge, send: Send, sid: str, owner: str) -> None:
        started = False
        while True:
            message = await edge.messages.get()
            kind = "cut" if edge.cut else message.get("k")
            if kind == "out":
                event = message["e"]
                started = started or event["type"] in ("http.response.start", "websocket.accept")
                try:
                    async with asyncio.timeout(self.write_timeout_s):
                        await send(event)
                except Exception:  # the client went away or stopped reading
                    return
                edge.handed += 1
                if edge.handed >= ACK_EVERY:
                    self.outbox.put(owner, {"k": "ack", "s": sid, "n": edge.handed})
                    edge.handed = 0
            elif kind == "end":
                return
            else:  # "moved" (the owner lost the room) or "cut" (the client stopped reading)
                await _give_up(edge, send, started)
                return

    def moved(self, leases: dict[str, Lease | None]) -> None:
        """The rooms' leases as they stand: streams to an owner that lost its room are ended."""
        for edge in self.edges.values():
            if edge.code not in leases:
                continue
            lease = leases[edge.code]
            # Gone once may be an owner renewing late that takes it back; gone twice, it is dead.
            edge.unheld_checks = edge.unheld_checks + 1 if lease is None else 0
            if (lease is not None and lease != edge.lease) or edge.unheld_checks >= 2:
                edge.messages.put_nowait({"k": "moved"})


async def _give_up(edge: _Edge, send: Send, started: bool) -> None:
    """End a stream whose owner is gone: a socket is closed as a restart (the client reconnects and
    finds the room's new owner), a request not yet answered gets a 503 it may retry."""
    with contextlib.suppress(Exception):
        if edge.kind == "websocket":
            if started:
                await send({"type": "websocket.close", "code": MOVED[0], "reason": MOVED[2]})
            else:
                await send({"type": "websocket.close", "code": 1013})
        elif not started:
            body = b'{"code":"TRY_AGAIN","message":"The server holding this room went away; try again."}'
            await send(
                {
                    "type": "http.response.start",
                    "status": 503,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
                }
            )
            await send({"type": "http.response.body", "body": body})
