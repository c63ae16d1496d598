"""One WebSocket connection: a bounded send queue drained by its own writer task.

The room never awaits a socket: it only puts frames on the queue. A queue that
fills up (a slow or stalled client) is emptied and ``send`` says so; the room
then sends one snapshot instead, and closes a client that keeps overflowing.

The writer notes the room-clock time each numbered state frame was handed to the
socket, so a reaction race knows when this player was actually sent its stimulus
(:meth:`Connection.written_at`). The connection also keeps its clock sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable

import orjson
from starlette.websockets import WebSocket

from app.observability.metrics import IGNORED, ConnectionMetrics
from app.rooms.clocksync import ClockSync

log = logging.getLogger(__name__)

_CLOSE = object()


class _Ping:
    """A server ping: stamped with the room time when the writer actually sends it."""

    __slots__ = ("fields", "id")

    def __init__(self, ping_id: int, fields: dict[str, object]) -> None:
        self.id, self.fields = ping_id, fields


_WRITTEN = 32
"""How many recent state frames' write times a connection remembers."""
MAX_PINGS = 16
"""Pings awaiting a pong that a connection remembers."""


class Connection:
    def __init__(
        self,
        ws: WebSocket,
        player_id: str,
        queue_size: int,
        now: Callable[[], int],
        metrics: ConnectionMetrics = IGNORED,
    ) -> None:
        self.ws = ws
        self._metrics = metrics
        self.player_id = player_id
        self.sync = ClockSync()
        self.pings: dict[int, int] = {}
        """Server pings awaiting their pong: id -> room time sent (the pong's echo is not trusted)."""
        self._now = now
        self._written: deque[tuple[int, int]] = deque(maxlen=_WRITTEN)
        self._queue: asyncio.Queue[object] = asyncio.Queue(maxsize=queue_size)
        self._half = max(1, queue_size // 2)
        self._high = max(1, queue_size * 3 // 4)
        self._below_half = asyncio.Event()
        """Set while the queue is less than half full (or the connection is gone): see drained()."""
        self._below_half.set()
        self._writer: asyncio.Task[None] | None = None
        self._close: tuple[int, str] | None = None
        self.closed = asyncio.Event()

    @property
    def rtt(self) -> int | None:
        return self.sync.rtt

    @property
    def jitter(self) -> int | None:
        return self.sync.jitter

    def written_at(self, seq: int) -> int | None:
        """Room time the first state frame numbered ``seq`` or later was written to the socket.

        (Later, because frame ``seq`` may have been dropped by an overflow and its
        content reached the client in the reset snapshot that replaced it.)
        """
        for written_seq, at in self._written:
            if written_seq >= seq:
                return at
        return None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop())

    async def drained(self) -> None:
        """Return at once while the send queue is under three quarters full; past that, once it is
        back under half full (or the connection has closed).

        The reader awaits this between frames: answers it queues itself (rejects, pongs) then
        never crowd out the room's frames, and a client that sends faster than it reads is slowed
        down instead of losing answers to an overflow. A reader that waited earlier (at half)
        would hold back a busy table's moves and cost the room its batching.
        """
        if self._queue.qsize() < self._high or self.closed.is_set():
            return
        self._below_half.clear()
        await self._below_half.wait()

    def _note_room(self) -> None:
        if self._queue.qsize() < self._half:
            self._below_half.set()

    def send(self, text: str, seq: int | None = None) -> bool:
        """Queue a frame; False when the queue was full and has been emptied (this frame included)."""
        if self._close is not None:
            return True
        try:
            self._queue.put_nowait((text, seq))
        except asyncio.QueueFull:
            self._metrics.overflowed()
            while not self._queue.empty():
                self._queue.get_nowait()
            self._below_half.set()
            return False
        return True

    def send_json(self, obj: object) -> bool:
        return self.send(orjson.dumps(obj).decode())

    def send_ping(self, ping_id: int, **fields: object) -> None:
        """Queue a clock-sync ping; its ``t`` is the room time the writer hands it to the socket
        (so time spent in the queue behind other frames is not mistaken for network delay)."""
        if self._close is not None:
            return
        # A full queue is about to be reset; this sample is simply skipped.
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(_Ping(ping_id, fields))

    def close(self, code: int, error: str, message: str) -> None:
        """Send an error frame, then close; frames queued before it still go out."""
        if self._close is not None:
            return
        if code != 1000:  # 1000: the player left; anything else cuts a client off
            self._metrics.aborted(error)
        text = orjson.dumps({"type": "error", "code": error, "message": message}).decode()
        while True:
            try:
                self._queue.put_nowait((text, None))
                break
            except asyncio.QueueFull:
                self._queue.get_nowait()
        self._close = (code, message[:120])
        # Without room for the marker the writer still stops once the queue is empty.
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(_CLOSE)

    async def _write_loop(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                self._note_room()
                if item is _CLOSE:
                    break
                if isinstance(item, _Ping):
                    t1 = self._now()
                    self.pings[item.id] = t1
                    while len(self.pings) > MAX_PINGS:  # never answered: forget the oldest
                        del self.pings[min(self.pings)]
                    text = orjson.dumps({"type": "ping", "id": item.id, "t": t1, **item.fields}).decode()
                    seq = None
                else:
                    assert isinstance(item, tuple)
                    text, seq = item
                self._metrics.sent(text)  # before the write, so a client that has it sees it counted
                await self.ws.send_text(text)
                if seq is not None:
                    self._written.append((seq, self._now()))
                if self._close is not None and self._queue.empty():
                    break
        except Exception:  # the peer went away; the reader notices too
            pass
        finally:
            if self._close is not None:
                code, reason = self._close
                with contextlib.suppress(Exception):
                    await self.ws.close(code=code, reason=reason)
            self.closed.set()
            self._below_half.set()

    async def stop(self) -> None:
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        self.closed.set()
        self._below_half.set()
