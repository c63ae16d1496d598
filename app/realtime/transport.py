"""Reaching the TCP transport under a WebSocket, so that a stuck client can be cut off.

A client that stops reading fills its receive window; from then on every write waits
(uvicorn pauses the protocol once its own buffer is past the high-water mark) and a
close frame cannot be written either. The only way to free the connection is to abort
the transport, which ASGI does not expose: :func:`noted` finds it on the server's
``send`` callable (uvicorn's WebSocket protocols carry it as ``.transport``) and keeps
it in the connection's scope while the socket is served. Under a server without one,
:func:`abort` reports False and the caller falls back to closing through ASGI.

The same transport gives the socket, and with it the kernel's own estimate of the
connection's round trip (:func:`kernel_round_trip`, Linux ``TCP_INFO``): it comes from
the client kernel's ACKs, which a client program cannot hold back.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from starlette.types import Scope, Send
from starlette.websockets import WebSocket

SCOPE_KEY = "bordet.transport"
SEND_KEY = "bordet.send"


@contextlib.contextmanager
def noted(scope: Scope, send: Send) -> Iterator[None]:
    """Keep the transport under the server's ``send`` in ``scope`` (see the module docstring), and
    that ``send`` itself (:func:`server_send`), for as long as the block runs; enter it with the
    ``send`` the server gave, before any middleware wraps it.

    Both are taken out again when the block ends: the server's protocol holds the scope, so either
    left in it would make the protocol a reference cycle, which only a full pass of the collector
    frees. A socket lives long enough to be in the oldest generation by then, and full passes are
    rare (:mod:`app.heap`): every closed socket's protocol, parser and buffers would wait there.

    A block inside another for the same ``send`` (the routing layer, then the room's own handler)
    leaves the scope to the outer one, which alone takes the entries out and frees the parser.
    """
    if scope.get(SEND_KEY) is send:
        yield
        return
    scope[SEND_KEY] = send
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    # Duck-typed: uvloop's transports are not asyncio.BaseTransport subclasses.
    if hasattr(transport, "abort") and hasattr(transport, "get_extra_info"):
        scope[SCOPE_KEY] = transport
    try:
        yield
    finally:
        scope.pop(SEND_KEY, None)
        scope.pop(SCOPE_KEY, None)
        _free_parser_with(getattr(send, "__self__", None))


def _free_parser_with(protocol: object) -> None:
    """Close the websockets parser of a uvicorn protocol once that protocol is freed.

    websockets' sans-I/O connection keeps its parser as a suspended generator whose frame refers
    back to the connection: a reference cycle that ends only when the parser reads EOF, which
    uvicorn never feeds it. So every served socket's connection, reader and buffers would wait for
    a rare full pass of the collector. The parser cannot be closed while a close handshake may
    still be in flight, but once the server's protocol is gone no byte can arrive any more.
    """
    parser = getattr(getattr(protocol, "conn", None), "parser", None)
    if parser is not None and hasattr(parser, "close"):
        with contextlib.suppress(TypeError):  # a protocol that cannot be weakly referenced
            weakref.finalize(protocol, _close_parser_of, protocol.conn).atexit = False  # type: ignore[attr-defined]


def _close_parser_of(conn: Any) -> None:
    conn.parser.close()


def server_send(ws: WebSocket) -> Send | None:
    """The server's own ASGI ``send`` under ``ws``, where :func:`noted` kept it: a frame written through
    it skips Starlette's per-message checks, which a socket past its accept has no use for."""
    scope = getattr(ws, "scope", None)  # (a test's stand-in socket has none)
    send: Send | None = None if scope is None else scope.get(SEND_KEY)
    return send


def abort(ws: WebSocket) -> bool:
    """Drop the connection at once, discarding whatever is still buffered; False if impossible."""
    transport: Any = ws.scope.get(SCOPE_KEY)
    if transport is None or not hasattr(transport, "abort"):
        return False
    transport.abort()
    return True


SEND_BUFFER_BYTES = 64 * 1024
"""The kernel's send buffer of a WebSocket: enough for a card table at any sane round trip, and it
caps what a client that stopped reading holds in the kernel (autotuning would grow it to MiBs)."""


def cap_send_buffer(ws: WebSocket, size: int = SEND_BUFFER_BYTES) -> None:
    sock = socket_of(ws)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


@dataclass(frozen=True, slots=True)
class KernelRoundTrip:
    """The kernel's estimates for one TCP connection, in microseconds."""

    srtt_us: int
    """Smoothed round trip."""
    rttvar_us: int
    """Its mean deviation."""
    min_rtt_us: int
    """The smallest round trip seen lately (Linux keeps a windowed minimum)."""


_TCP_INFO = getattr(socket, "TCP_INFO", 11)
# struct tcp_info (linux/tcp.h): tcpi_rtt and tcpi_rttvar are the u32s at bytes 68 and 72,
# tcpi_min_rtt the u32 at byte 148 (Linux 4.6 and later).
_RTT_AT, _MIN_RTT_AT, _INFO_BYTES = 68, 148, 152


def kernel_round_trip(sock: socket.socket) -> KernelRoundTrip | None:
    """The kernel's round-trip estimates of a connected TCP socket; None where the platform, the
    socket or the kernel has none (not Linux, not TCP, a kernel without ``tcpi_min_rtt``, or no
    round trip measured yet)."""
    try:
        raw = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, _INFO_BYTES)
    except (OSError, ValueError):
        return None
    if len(raw) < _INFO_BYTES:
        return None
    srtt, rttvar = struct.unpack_from("=II", raw, _RTT_AT)
    (min_rtt,) = struct.unpack_from("=I", raw, _MIN_RTT_AT)
    if srtt == 0 or min_rtt in (0, 0xFFFFFFFF):  # nothing measured yet (the kernel's "no sample")
        return None
    return KernelRoundTrip(srtt, rttvar, min_rtt)


def socket_of(ws: WebSocket) -> socket.socket | None:
    """The TCP socket under a WebSocket, where the server exposes its transport (see :func:`noted`)."""
    transport: Any = ws.scope.get(SCOPE_KEY)
    sock = transport.get_extra_info("socket") if transport is not None else None
    return sock if isinstance(sock, socket.socket) or hasattr(sock, "getsockopt") else None
