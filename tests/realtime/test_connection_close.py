"""A connection's end: a close it was asked for goes out whole before the connection finishes.

The room of a socket can leave the process (its lease lost) while the socket's reader is busy;
the reader then finishes the connection at once. The client must still get the frames queued
before the close, the error frame and the close code (1012: reconnect), not a cut-off socket.
"""

from __future__ import annotations

import asyncio

import orjson

from app.realtime.connection import Connection
from app.rooms.errors import MOVED


class Socket:
    """Records what the connection writes; every write lets the event loop run first, as a real
    socket's write can."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []
        self.closed_with: tuple[int, str | None] | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        self.sent.append(orjson.loads(text))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await asyncio.sleep(0)
        self.closed_with = (code, reason)


def connection(socket: Socket) -> Connection:
    conn = Connection(
        socket,  # type: ignore[arg-type]
        "p1",
        lambda: 0,
        room_code="ROOM",
        backlog_bytes=64 * 1024,
        write_timeout_s=5.0,
    )
    conn.start()
    return conn


async def test_a_close_asked_for_goes_out_after_the_queued_frames_before_the_connection_finishes() -> None:
    socket = Socket()
    conn = connection(socket)
    conn.send('{"type": "patch", "seq": 1}', seq=1)
    conn.close(*MOVED)
    await conn.stop()
    assert [f["type"] for f in socket.sent] == ["patch", "error"]
    assert socket.sent[1]["code"] == MOVED[1]
    assert socket.closed_with == (MOVED[0], MOVED[2])
    assert conn.closed.is_set()


async def test_a_connection_with_no_close_asked_for_finishes_at_once() -> None:
    socket = Socket()
    conn = connection(socket)
    await conn.stop()
    assert conn.closed.is_set()
    assert socket.closed_with is None
