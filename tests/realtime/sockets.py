"""Stand-in sockets for a :class:`~app.realtime.connection.Connection` under test."""

from __future__ import annotations

import asyncio

import orjson

from app.realtime.connection import Connection


class QuickSocket:
    """Takes every frame without waiting (a client that reads)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []
        self.closed_with: tuple[int, str | None] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(orjson.loads(text))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = (code, reason)


class Socket(QuickSocket):
    """Records what the connection writes; every write lets the event loop run first, as a real
    socket's write can."""

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        await super().send_text(text)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await asyncio.sleep(0)
        await super().close(code, reason)


def connection(socket: QuickSocket) -> Connection:
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
