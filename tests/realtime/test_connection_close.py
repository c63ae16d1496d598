"""A connection's end: a close it was asked for goes out whole before the connection finishes.

The room of a socket can leave the process (its lease lost) while the socket's reader is busy;
the reader then finishes the connection at once. The client must still get the frames queued
before the close, the error frame and the close code (1012: reconnect), not a cut-off socket.
"""

from __future__ import annotations

from app.rooms.errors import MOVED
from tests.realtime.sockets import Socket, connection


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
