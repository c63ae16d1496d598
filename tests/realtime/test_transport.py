"""The transport helpers (app/realtime/transport.py): the kernel's round trip of a real TCP socket, and
what a served socket leaves behind."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.realtime import transport
from app.realtime.transport import kernel_round_trip


@pytest.fixture
def loopback() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A connected pair of real TCP sockets over loopback: (server side, client side)."""
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname()[:2])
    server, _ = listener.accept()
    try:
        yield server, client
    finally:
        for s in (server, client, listener):
            s.close()


def test_the_kernel_round_trip_of_a_loopback_socket_is_read(
    loopback: tuple[socket.socket, socket.socket],
) -> None:
    server, client = loopback
    for _ in range(20):  # a few exchanges, so that the kernel has ACKs to time
        server.sendall(b"ping")
        assert client.recv(16) == b"ping"
        client.sendall(b"pong")
        assert server.recv(16) == b"pong"
    figures = kernel_round_trip(server)
    assert figures is not None
    # Loopback: well under a millisecond, and the windowed minimum is never above the smoothed one.
    assert 0 < figures.min_rtt_us <= figures.srtt_us < 1000
    assert figures.rttvar_us >= 0


def test_a_socket_that_is_not_tcp_has_no_kernel_round_trip() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        assert kernel_round_trip(udp) is None


def test_a_closed_socket_has_no_kernel_round_trip(loopback: tuple[socket.socket, socket.socket]) -> None:
    server, _ = loopback
    server.close()
    assert kernel_round_trip(server) is None


@pytest.mark.parametrize("ending", ["client closes", "server closes", "client vanishes"])
async def test_a_served_socket_s_protocol_and_parser_are_freed_without_the_collector_once_it_ends(
    ending: str,
) -> None:
    # A real uvicorn server and client. The protocol holds the scope; while the socket is served
    # the scope holds the protocol's `send` and transport; once it is over, reference counting
    # alone must free the protocol and websockets' connection under it (whose parser generator
    # refers back to it), not a rare full pass of the collector, which is off here.
    freed_later: list[weakref.ref[object]] = []
    served = asyncio.Event()
    seen_in_scope: list[bool] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        assert scope["type"] == "websocket"
        ws = WebSocket(scope, receive, send)
        try:
            with transport.noted(scope, send):
                seen_in_scope.append(transport.server_send(ws) is send)
                protocol = send.__self__  # type: ignore[attr-defined]
                freed_later.extend([weakref.ref(protocol), weakref.ref(protocol.conn)])
                del protocol
                await ws.accept()
                await ws.send_text("hello")
                if ending == "server closes":
                    await ws.close()
                else:
                    with contextlib.suppress(WebSocketDisconnect):
                        await ws.receive_text()
            seen_in_scope.append(transport.SEND_KEY in scope or transport.SCOPE_KEY in scope)
        finally:
            served.set()

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", lifespan="off")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    gc.disable()
    try:
        async with connect(f"ws://127.0.0.1:{port}/", compression=None) as client:
            assert await client.recv() == "hello"
            if ending == "client vanishes":
                client.transport.abort()
            elif ending == "server closes":
                with contextlib.suppress(ConnectionClosed):
                    await client.recv()
        await served.wait()
        server.should_exit = True  # serve() returns once every connection is gone
        await serving
        assert seen_in_scope == [True, False]
        assert len(freed_later) == 2
        assert [ref() for ref in freed_later] == [None, None]
    finally:
        gc.enable()
        server.should_exit = True
        await serving
        listener.close()


def test_a_block_inside_another_for_the_same_send_leaves_the_scope_to_the_outer_one() -> None:
    async def send(message: Any) -> None:  # a server's send without a transport
        return None

    scope: dict[str, Any] = {"type": "websocket"}
    with transport.noted(scope, send):
        with transport.noted(scope, send):
            assert scope[transport.SEND_KEY] is send
        assert scope[transport.SEND_KEY] is send, "the inner block took the outer block's entry out"
    assert transport.SEND_KEY not in scope
