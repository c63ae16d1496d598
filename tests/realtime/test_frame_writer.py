"""Frames written straight to uvicorn's transport (app/realtime/frame_writer.py), read by a real client."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
import pytest
import uvicorn
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect

from app.realtime import transport
from app.realtime.connection import Connection
from app.realtime.frame_writer import FrameWriter, frame_writer

Handler = Callable[[WebSocket, FrameWriter], Awaitable[None]]


@contextlib.asynccontextmanager
async def served(
    handler: Handler, ws: str = "websockets-sansio", *, note: bool = False
) -> AsyncIterator[ClientConnection]:
    """A real uvicorn server running ``handler`` for one socket, and a real client connected to it;
    ``note``: with the server's ``send`` and transport noted in the scope, as the app does."""
    done = asyncio.Event()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        socket_ = WebSocket(scope, receive, send)
        try:
            with transport.noted(scope, send) if note else contextlib.nullcontext():
                writer = frame_writer(send)
                await socket_.accept()
                if writer is None:
                    await socket_.send_text("no writer")
                else:
                    await handler(socket_, writer)
                with contextlib.suppress(WebSocketDisconnect):
                    await socket_.receive_text()
        finally:
            done.set()

    listener = socket.create_server(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", ws=ws, lifespan="off")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        async with connect(
            f"ws://127.0.0.1:{listener.getsockname()[1]}/", compression=None, max_size=None
        ) as client:
            yield client
        await done.wait()
    finally:
        server.should_exit = True
        await serving
        listener.close()


async def test_a_run_of_frames_arrives_as_the_same_messages_in_order() -> None:
    # Sizes on both sides of the header's 7-bit and 16-bit length forms, and non-ASCII text.
    texts = ["x" * 125, "y" * 126, "z" * 65535, "w" * 65536, "", "smørrebrød ja päivää"]

    async def handler(ws: WebSocket, writer: FrameWriter) -> None:
        assert writer.ready()
        writer.write(texts)

    async with served(handler) as client:
        assert [await client.recv() for _ in texts] == texts


async def test_frames_written_directly_and_through_asgi_keep_their_order() -> None:
    async def handler(ws: WebSocket, writer: FrameWriter) -> None:
        writer.write(["one", "two"])
        await ws.send_text("three")
        writer.write(["four"])

    async with served(handler) as client:
        assert [await client.recv() for _ in range(4)] == ["one", "two", "three", "four"]


async def test_a_socket_whose_close_was_sent_is_not_ready() -> None:
    readiness: list[bool] = []

    async def handler(ws: WebSocket, writer: FrameWriter) -> None:
        readiness.append(writer.ready())
        await ws.close(code=1000)
        readiness.append(writer.ready())

    async with served(handler) as client:
        with contextlib.suppress(Exception):
            await client.recv()
    assert readiness == [True, False]


async def test_a_paused_socket_is_not_ready_until_it_drains() -> None:
    # A client that does not read: the server's writes fill its buffer and flow control pauses the
    # protocol; from then on frames must wait their turn through ASGI.
    readiness: list[bool] = []
    paused = asyncio.Event()
    read = asyncio.Event()

    async def handler(ws: WebSocket, writer: FrameWriter) -> None:
        while writer.ready():
            writer.write(["x" * 65536])
        readiness.append(writer.ready())
        paused.set()
        await read.wait()
        await ws.send_text("end")  # waits, through ASGI, for the buffer to drain
        readiness.append(writer.ready())

    async with served(handler) as client:
        await paused.wait()
        read.set()
        while await client.recv() != "end":
            pass
    assert readiness == [False, True]


@pytest.mark.filterwarnings("ignore")
async def test_another_protocol_gets_no_writer() -> None:
    async def handler(ws: WebSocket, writer: FrameWriter) -> None:
        raise AssertionError("a writer for a protocol it does not know")

    async with served(handler, "websockets") as client:  # uvicorn's older websockets protocol
        assert await client.recv() == "no writer"


class _CountedWrites:
    """The real transport, with its writes counted."""

    def __init__(self, real: Any) -> None:
        self.real, self.writes = real, 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.real.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


async def test_what_a_turn_queues_on_a_connection_leaves_in_one_write() -> None:
    counted: list[_CountedWrites] = []
    conns: list[Connection] = []

    async def handler(ws: WebSocket, writer: FrameWriter) -> None:
        protocol = ws.scope[transport.SEND_KEY].__self__
        counted.append(_CountedWrites(protocol.transport))
        protocol.transport = counted[0]
        conn = Connection(ws, "p1", lambda: 7, room_code="ROOM", backlog_bytes=64 * 1024, write_timeout_s=5.0)
        conn.start()
        conn.set_racing(True)  # (its write times are kept)
        conns.append(conn)
        # One turn: an ack and two state frames.
        conn.send_json({"type": "ack", "id": "a1", "seq": 1})
        conn.send('{"type":"patch","seq":1}', 1)
        conn.send('{"type":"patch","seq":2}', 2)

    async with served(handler, note=True) as client:
        got = [orjson.loads(await client.recv()) for _ in range(3)]
        writes = counted[0].writes  # (before the close handshake writes its own)
    assert [m["type"] for m in got] == ["ack", "patch", "patch"]
    assert writes == 1
    assert conns[0].written_at(2) == 7
