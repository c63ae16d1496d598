"""Text frames read straight off the socket, every other frame through websockets' parser
(app/realtime/text_frames.py): a real uvicorn server, and a client that writes its own bytes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode

from app.realtime import transport
from app.realtime.frame_reader import FrameReader
from app.realtime.text_frames import TextFrames
from tests.realtime.test_frame_reader import Backlog, frames, raw_client, server


class Received:
    """Every message the reader takes, in order: ("text", str), ("bytes", b), ("disconnect", code)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, Any]] = []
        self.protocol: Any = None
        self._arrived = asyncio.Event()

    def __call__(self, message: Message) -> bool:
        if message["type"] == "websocket.disconnect":
            self.note("disconnect", message.get("code", 1000))
            raise WebSocketDisconnect(message.get("code", 1000))
        if message.get("text") is not None:
            self.note("text", message["text"])
        else:
            self.note("bytes", message["bytes"])
        return True

    def note(self, kind: str, value: Any) -> None:
        self.messages.append((kind, value))
        self._arrived.set()

    async def count(self, n: int) -> list[tuple[str, Any]]:
        while len(self.messages) < n:
            self._arrived.clear()
            await self._arrived.wait()
        return self.messages

    def texts(self) -> list[str]:
        return [value for kind, value in self.messages if kind == "text"]

    @property
    def splitter(self) -> TextFrames | None:
        """The protocol's splitter, if the reader put one in."""
        reads = vars(self.protocol).get("data_received")
        owner = getattr(reads, "__self__", None)
        return owner if isinstance(owner, TextFrames) else None


@contextlib.asynccontextmanager
async def reading(*, ws_max_size: int = 1 << 20) -> AsyncIterator[tuple[str, Received]]:
    """A server whose sockets take their first message through ASGI (as the hello is), then read on
    with a :class:`FrameReader`; yields its URL and what the reader took."""
    received = Received()

    async def handler(ws: WebSocket, reader: FrameReader | None) -> None:
        assert reader is not None
        received.protocol = transport.server_send(ws).__self__  # type: ignore[union-attr]
        received.note("hello", await ws.receive_text())
        with contextlib.suppress(WebSocketDisconnect):
            await reader.run(received, Backlog())

    async with server(handler, ws_max_size=ws_max_size) as url:
        yield url, received


async def client(
    url: str, received: Received
) -> tuple[ClientProtocol, asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw client that has sent its hello and seen the server's reader start."""
    protocol, reader, writer = await raw_client(url)
    writer.write(frames(protocol, "hello"))
    await received.count(1)
    return protocol, reader, writer


Connected = tuple[ClientProtocol, asyncio.StreamReader, asyncio.StreamWriter, Received]


@contextlib.asynccontextmanager
async def connected(*, ws_max_size: int = 1 << 20) -> AsyncIterator[Connected]:
    """A :func:`reading` server and a :func:`client` past its hello; the client's socket is closed
    at the end."""
    async with reading(ws_max_size=ws_max_size) as (url, received):
        protocol, reader, writer = await client(url, received)
        try:
            yield protocol, reader, writer, received
        finally:
            writer.close()


def send(protocol: ClientProtocol, writer: asyncio.StreamWriter) -> None:
    """Write what the client's protocol has framed so far, in one write."""
    writer.write(b"".join(protocol.data_to_send()))


async def close_code(protocol: ClientProtocol, reader: asyncio.StreamReader) -> int | None:
    """Read until the server's close frame; its code."""
    while True:
        data = await reader.read(65536)
        if not data:
            return None
        protocol.receive_data(data)
        for event in protocol.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                assert protocol.close_rcvd is not None
                return protocol.close_rcvd.code


async def written_in_pieces(writer: asyncio.StreamWriter, data: bytes, sizes: list[int]) -> None:
    """``data`` in writes of the given sizes, in turn, letting the server read between them."""
    at = 0
    turn = 0
    while at < len(data):
        size = sizes[turn % len(sizes)]
        writer.write(data[at : at + size])
        await writer.drain()
        await asyncio.sleep(0)  # one round of the loop: the server reads what has arrived
        at += size
        turn += 1


async def test_text_frames_cut_anywhere_arrive_whole_and_in_order() -> None:
    long_texts = ["é" * 150, "x" * 70_000]  # 16-bit and 64-bit payload lengths
    async with connected() as (protocol, _, writer, received):
        data = frames(protocol, "ä", "kort", *long_texts, "slut")
        await written_in_pieces(writer, data[:400], [1, 2, 3, 5, 7])
        await written_in_pieces(writer, data[400:], [1, 9000, 13, 4096])
        await received.count(6)
        assert received.texts() == ["ä", "kort", *long_texts, "slut"]
        assert received.splitter is not None


async def test_a_ping_is_answered_by_the_parser_and_text_after_it_still_comes_straight() -> None:
    async with connected() as (protocol, reader, writer, received):
        protocol.send_text(b"before")
        protocol.send_ping(b"are you there")
        protocol.send_text(b"after")
        send(protocol, writer)
        await received.count(3)
        pongs: list[bytes] = []
        while not pongs:
            protocol.receive_data(await reader.read(4096))
            events = protocol.events_received()
            pongs += [bytes(e.data) for e in events if isinstance(e, Frame) and e.opcode is Opcode.PONG]
        assert pongs == [b"are you there"]
        assert received.texts() == ["before", "after"]
        splitter = received.splitter
        assert splitter is not None and splitter.reading


async def test_a_fragmented_message_is_put_together_by_the_parser_and_reading_goes_on() -> None:
    async with connected() as (protocol, _, writer, received):
        protocol.send_text(b"frag", fin=False)
        protocol.send_ping(b"between the parts")
        protocol.send_continuation(b"ment", fin=True)
        protocol.send_text(b"next")
        send(protocol, writer)
        await received.count(3)
        assert received.texts() == ["fragment", "next"]
        splitter = received.splitter
        assert splitter is not None and splitter.reading


async def test_a_binary_frame_reaches_the_reader_as_bytes() -> None:
    async with connected() as (protocol, _, writer, received):
        protocol.send_binary(b"\x00\x01")
        protocol.send_text(b"then text")
        send(protocol, writer)
        assert await received.count(3) == [("hello", "hello"), ("bytes", b"\x00\x01"), ("text", "then text")]


async def test_text_that_is_not_utf8_closes_the_connection_with_1007() -> None:
    async with connected() as (protocol, reader, writer, received):
        protocol.send_text(b"fine")
        protocol.send_text(b"\xff\xfe not text")
        protocol.send_text(b"never read")
        send(protocol, writer)
        assert await close_code(protocol, reader) == 1007
        assert received.texts() == ["fine"]


async def test_a_frame_above_the_size_limit_closes_the_connection_with_1009() -> None:
    async with connected(ws_max_size=1024) as (protocol, reader, writer, received):
        protocol.send_text(b"small")
        protocol.send_text(b"y" * 1025)
        writer.write(b"".join(protocol.data_to_send())[:-500])  # refused on its header alone
        assert await close_code(protocol, reader) == 1009
        assert received.texts() == ["small"]


async def test_an_unmasked_frame_closes_the_connection_with_1002() -> None:
    async with connected() as (protocol, reader, writer, received):
        writer.write(frames(protocol, "masked"))
        writer.write(bytes([0x81, 0x02]) + b"hi")
        assert await close_code(protocol, reader) == 1002
        assert received.texts() == ["masked"]


async def test_the_clients_close_ends_the_reading_with_its_code() -> None:
    async with connected() as (protocol, reader, writer, received):
        writer.write(frames(protocol, "last words"))
        protocol.send_close(4001, "bye")
        send(protocol, writer)
        assert await received.count(3) == [("hello", "hello"), ("text", "last words"), ("disconnect", 4001)]
        assert await close_code(protocol, reader) == 4001


async def test_a_frame_half_read_before_the_reader_starts_keeps_the_splitter_out() -> None:
    async with reading() as (url, received):
        protocol, _, writer = await raw_client(url)
        hello = frames(protocol, "hello")
        cut = frames(protocol, "read by the parser")
        writer.write(hello + cut[:8])  # one write: the parser holds the half frame as the reader starts
        await received.count(1)
        writer.write(cut[8:] + frames(protocol, "and on"))
        await received.count(3)
        assert received.texts() == ["read by the parser", "and on"]
        assert received.splitter is None
        writer.close()
