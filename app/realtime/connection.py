"""One WebSocket connection: a bounded send queue drained by its own writer task.

The room never awaits a socket: it only puts frames on the queue. A queue that
fills up (a slow or stalled client) is emptied and the room sends one snapshot
instead; a client that keeps overflowing is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import orjson
from starlette.websockets import WebSocket

from app.realtime.clocksync import RoundTrip

log = logging.getLogger(__name__)

_CLOSE = object()


class Connection:
    def __init__(self, ws: WebSocket, player_id: str, queue_size: int) -> None:
        self.ws = ws
        self.player_id = player_id
        self.seq = 0
        self.view_key: int | str | None = "none"
        self.needs_snapshot = True
        self.snapshot_reason = "join"
        self.overflows = 0
        self.on_overflow: Callable[[], None] | None = None
        self.round_trip = RoundTrip()
        self._queue: asyncio.Queue[object] = asyncio.Queue(maxsize=queue_size)
        self._writer: asyncio.Task[None] | None = None
        self._close: tuple[int, str] | None = None
        self.closed = asyncio.Event()

    @property
    def rtt(self) -> int | None:
        return self.round_trip.estimate

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop())

    def send(self, text: str) -> None:
        if self._close is not None:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflows += 1
            while not self._queue.empty():
                self._queue.get_nowait()
            if self.on_overflow is not None:
                self.on_overflow()

    def send_json(self, obj: object) -> None:
        self.send(orjson.dumps(obj).decode())

    def close(self, code: int, error: str, message: str) -> None:
        """Send an error frame, then close; frames queued before it still go out."""
        if self._close is not None:
            return
        text = orjson.dumps({"type": "error", "code": error, "message": message}).decode()
        while True:
            try:
                self._queue.put_nowait(text)
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
                if item is _CLOSE:
                    break
                assert isinstance(item, str)
                await self.ws.send_text(item)
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

    async def stop(self) -> None:
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        self.closed.set()
