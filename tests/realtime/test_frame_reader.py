"""Client frames taken where uvicorn parses them (app/realtime/frame_reader.py): real server and clients."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import uvicorn
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.uri import parse_uri

from app.realtime import transport
from app.realtime.frame_reader import FrameReader, frame_reader

Handler = Callable[[WebSocket, FrameReader | None], Awaitable[None]]


class Backlog:
    """What the reader asks of a connection: whether the client must wait, and the wait."""

    def __init__(self) -> None:
        self.full = False
        self.emptied = asyncio.Event()

    def backlogged(self) -> bool:
        return self.full

    async def drained(self) -> None:
        await self.emptied.wait()
        self.full = False


class Taken:
    """A ``take`` that records each message's text, and lets a test wait for the n-th."""

    def __init__(self, *, until: str | None = None) -> None:
        self.texts: list[str] = []
        self.disconnects: list[int] = []
        self.until = until
        self._arrived = asyncio.Event()

    def __call__(self, message: Message) -> bool:
        if message["type"] == "websocket.disconnect":
            self.disconnects.append(message.get("code", 1000))
            raise WebSocketDisconnect(message.get("code", 1000))
        self.texts.append(message["text"])
        self._arrived.set()
        return bool(message["text"] != self.until)

    async def count(self, n: int) -> list[str]:
        while len(self.texts) < n:
            self._arrived.clear()
            await self._arrived.wait()
        return self.texts


@contextlib.asynccontextmanager
async def server(
    handler: Handler, ws: str = "websockets-sansio", *, wrap: bool = False, ws_max_size: int = 1 << 20
) -> AsyncIterator[str]:
    """A real uvicorn server running ``handler`` for each socket (``wrap``: with a ``receive`` that is
    not the protocol's own, as a middleware's would be; ``ws_max_size``: its message size limit, as
    the app's is); yields its URL."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        async def wrapped() -> Message:
            return await receive()

        socket_ = WebSocket(scope, wrapped if wrap else receive, send)
        with transport.noted(scope, send):
            await socket_.accept()
            await handler(socket_, frame_reader(socket_))

    listener = socket.create_server(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", ws=ws, lifespan="off", ws_max_size=ws_max_size)
    uvicorn_server = uvicorn.Server(config)
    serving = asyncio.create_task(uvicorn_server.serve(sockets=[listener]))
    try:
        yield f"ws://127.0.0.1:{listener.getsockname()[1]}/"
    finally:
        uvicorn_server.should_exit = True
        await serving
        listener.close()


async def raw_client(url: str) -> tuple[ClientProtocol, asyncio.StreamReader, asyncio.StreamWriter]:
    """A client whose frames the test writes itself: several in one TCP write, if it likes."""
    protocol = ClientProtocol(parse_uri(url))
    uri = parse_uri(url)
    reader, writer = await asyncio.open_connection(uri.host, uri.port)
    protocol.send_request(protocol.connect())
    writer.write(b"".join(protocol.data_to_send()))
    while not any(isinstance(e, Response) for e in protocol.events_received()):
        protocol.receive_data(await reader.read(4096))
    return protocol, reader, writer


def frames(protocol: ClientProtocol, *texts: str) -> bytes:
    for text in texts:
        protocol.send_text(text.encode())
    return b"".join(protocol.data_to_send())


async def test_messages_reach_take_in_order_those_held_before_it_started_first() -> None:
    taken = Taken(until="end")
    result: asyncio.Future[list[str]] = asyncio.get_running_loop().create_future()

    async def handler(ws: WebSocket, reader: FrameReader | None) -> None:
        assert reader is not None
        first = await ws.receive_text()  # as the hello is read, through ASGI
        await reader.run(taken, Backlog())
        result.set_result([first, *taken.texts])

    async with server(handler) as url:
        protocol, _, writer = await raw_client(url)
        # One TCP write: the protocol parses all six at once, and five wait in its queue for the reader.
        writer.write(frames(protocol, "hello", "a", "b", "c", "d", "e"))
        await taken.count(5)
        writer.write(frames(protocol, "f", "end", "after the end"))
        assert await result == ["hello", "a", "b", "c", "d", "e", "f", "end"]
        writer.close()


async def test_a_full_backlog_stops_the_socket_reading_until_it_drains() -> None:
    taken = Taken(until="end")
    backlog = Backlog()
    protocols: list[Any] = []
    done, checked = asyncio.Event(), asyncio.Event()

    async def handler(ws: WebSocket, reader: FrameReader | None) -> None:
        assert reader is not None
        protocols.append(getattr(transport.server_send(ws), "__self__", None))
        await reader.run(taken, backlog)
        done.set()
        await checked.wait()  # the socket stays open while the test looks at it

    def reading() -> bool:
        return bool(protocols[0].transport.is_reading())

    async with server(handler) as url, connect(url) as client:
        try:
            await client.send("one")
            await taken.count(1)
            assert reading()
            backlog.full = True
            await client.send("two")  # taken: the backlog is full after it
            await taken.count(2)
            assert not reading()
            await client.send("three")
            await client.send("end")
            assert taken.texts == ["one", "two"]
            backlog.emptied.set()
            await taken.count(4)
            await done.wait()
            assert taken.texts == ["one", "two", "three", "end"]
            assert reading()  # reads on after the end, so that a close handshake can complete
        finally:
            checked.set()


async def test_what_take_raises_ends_the_reading_and_is_raised_by_run() -> None:
    raised: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()

    def take(message: Message) -> bool:
        raise ValueError(message.get("text"))

    async def handler(ws: WebSocket, reader: FrameReader | None) -> None:
        assert reader is not None
        try:
            await reader.run(take, Backlog())
        except ValueError as exc:
            raised.set_result(exc)
        await ws.close(4000)

    async with server(handler) as url, connect(url) as client:
        await client.send("boom")
        assert str(await raised) == "boom"
        await client.wait_closed()
        assert client.close_code == 4000


async def test_a_client_that_leaves_ends_the_reading_with_its_disconnect() -> None:
    taken = Taken()
    ended: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def handler(ws: WebSocket, reader: FrameReader | None) -> None:
        assert reader is not None
        try:
            await reader.run(taken, Backlog())
        except WebSocketDisconnect as exc:
            ended.set_result(exc.code)

    async with server(handler) as url:
        async with connect(url) as client:
            await client.send("bye")
            await taken.count(1)
        assert await ended == 1000
        assert taken.texts == ["bye"]


@pytest.mark.parametrize(
    ("ws", "wrap"),
    [("websockets-sansio", True), ("websockets", False)],
    ids=["a-wrapped-receive", "uvicorn-websockets-legacy"],
)
async def test_no_reader_where_receive_is_not_the_sansio_protocols_own(ws: str, wrap: bool) -> None:
    readers: list[FrameReader | None] = []

    async def handler(socket_: WebSocket, reader: FrameReader | None) -> None:
        readers.append(reader)
        with contextlib.suppress(WebSocketDisconnect):
            await socket_.receive_text()

    async with server(handler, ws, wrap=wrap) as url, connect(url) as client:
        await client.send("x")
    assert readers == [None]
