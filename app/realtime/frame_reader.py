"""Client frames handed to the connection's reader where uvicorn's WebSocket protocol parses them.

Through ASGI, every frame a client sends goes on the protocol's queue and wakes the reading task:
a future, an event-loop round, a chain of coroutines resumed (ours, Starlette's, uvicorn's, the
queue's) and a new chain made for the next read, and the socket stopped and started again around
each message (uvicorn stops reading until its queue is empty). A busy server paid that for every
action, and the collector walked those young coroutines on every pass. Here the protocol's queue
is a stand-in that hands each message to the reader's ``take`` at once, in the protocol's own
callback; the reading task sleeps for the socket's whole life, waking only to hold the client
back.

Holding back is the reader's :meth:`Backlogged.drained`, as before: while the connection's send
backlog is too full, the socket stops reading, messages it had already parsed wait here in order,
and the task waits for the backlog to drain before taking them and reading on.

Only under uvicorn's ``websockets-sansio`` protocol (its default) and with the app's ``receive``
the protocol's own (nothing in between): anything else reads through ASGI, with the same ``take``.
Once it runs, the client's whole text frames do not go through websockets' parser either: they are
read off the socket by :mod:`app.realtime.text_frames`, which hands this reader the same message.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from starlette.types import Message
from starlette.websockets import WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from app.realtime import transport
from app.realtime.text_frames import TextFrames

Take = Callable[[Message], bool]
"""Handles one ASGI receive message; False once the connection reads no more. An exception it
raises ends the reading, and the reader raises it (a disconnect is ``WebSocketDisconnect``)."""


class Backlogged(Protocol):
    def backlogged(self) -> bool:
        """Whether the client must wait before its next message is taken."""

    async def drained(self) -> None:
        """Return once the client may send again."""


class FrameReader:
    """Stands in for one uvicorn WebSocket protocol's receive queue (see the module docstring).

    uvicorn only ever calls ``put_nowait`` on it (and ``get`` and ``empty`` from its ``receive``,
    which nothing calls once this reader runs).
    """

    __slots__ = ("_conn", "_done", "_failure", "_paused", "_pending", "_protocol", "_take", "_wake")

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol
        self._take: Take | None = None
        self._conn: Backlogged | None = None
        self._pending: deque[Message] | None = None
        """Messages parsed while the socket was being stopped, in order (at most one read's worth);
        made the first time (thousands of sockets never need one: an empty deque is 760 bytes)."""
        self._paused = False
        self._done = False
        self._failure: Exception | None = None
        self._wake: asyncio.Future[None] | None = None

    async def run(self, take: Take, conn: Backlogged) -> None:
        """Hand every message, from those the protocol already holds on, to ``take`` until it returns
        False (then return) or raises (then raise it)."""
        protocol = self._protocol
        self._take, self._conn = take, conn
        held: Any = protocol.queue
        protocol.queue = self  # type: ignore[assignment]
        stopped = protocol.read_paused
        # From now on uvicorn never stops the socket itself: it does so only while this flag is
        # down, and this reader stops and starts it.
        protocol.read_paused = True
        while not held.empty():
            self.put_nowait(held.get_nowait())
        del held  # not kept for the socket's life by this frame
        TextFrames.install(protocol, self)
        if stopped and not self._paused:  # (a message that filled the backlog stopped it already)
            protocol.transport.resume_reading()
        loop = asyncio.get_running_loop()
        try:
            while not self._done:
                if not self._paused:
                    self._wake = loop.create_future()
                    await self._wake
                    continue
                await conn.drained()
                self._paused = False
                while self._pending and not self._paused and not self._done:
                    self._hand(self._pending.popleft())
                if not self._paused:  # also when done: a close handshake still has to be read
                    protocol.transport.resume_reading()
            if self._failure is not None:
                raise self._failure
        finally:
            self._wake = None
            self._failure = None  # raised already: no reference cycle through its traceback
            self._finish()

    def put_nowait(self, message: Message) -> None:
        if self._done:
            return
        if self._paused:
            if self._pending is None:
                self._pending = deque()
            self._pending.append(message)
            return
        self._hand(message)

    def empty(self) -> bool:
        return True

    async def get(self) -> Message:
        raise RuntimeError("this socket's messages go to its FrameReader")

    def _hand(self, message: Message) -> None:
        assert self._take is not None and self._conn is not None
        try:
            reading = self._take(message)
        except Exception as exc:  # never into uvicorn's callback: the reader raises it
            self._failure = exc
            self._finish()
            return
        if not reading:
            self._finish()
        elif self._conn.backlogged():
            self._paused = True
            self._protocol.transport.pause_reading()
            self._wake_reader()

    def _finish(self) -> None:
        """Read no more; the socket reads on, so that a close handshake can complete."""
        if self._done:
            return
        self._done = True
        self._pending = None
        if self._paused:
            self._paused = False
            self._protocol.transport.resume_reading()
        self._wake_reader()

    def _wake_reader(self) -> None:
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)


def frame_reader(ws: WebSocket) -> FrameReader | None:
    """A reader for ``ws`` if it reads straight from uvicorn's ``websockets-sansio`` protocol (see the
    module docstring); None otherwise."""
    send = transport.server_send(ws)
    protocol: Any = getattr(send, "__self__", None)
    receive: Any = getattr(ws, "_receive", None)
    # Not where a middleware's or the cluster relay's receive stands between.
    direct = getattr(receive, "__self__", None) is protocol
    if isinstance(protocol, WebSocketsSansIOProtocol) and direct:
        return FrameReader(protocol)
    return None
