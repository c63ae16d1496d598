"""Reaching the TCP transport under a WebSocket, so that a stuck client can be cut off.

A client that stops reading fills its receive window; from then on every write waits
(uvicorn pauses the protocol once its own buffer is past the high-water mark) and a
close frame cannot be written either. The only way to free the connection is to abort
the transport, which ASGI does not expose: :func:`note` finds it on the server's
``send`` callable (uvicorn's WebSocket protocols carry it as ``.transport``) and keeps
it in the connection's scope. Under a server without one, :func:`abort` reports False
and the caller falls back to closing through ASGI.
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any

from starlette.types import Scope, Send
from starlette.websockets import WebSocket

SCOPE_KEY = "bordet.transport"


def note(scope: Scope, send: Send) -> None:
    """Keep the transport under the server's ``send`` in ``scope`` (see the module docstring);
    call it with the ``send`` the server gave, before any middleware wraps it."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    # Duck-typed: uvloop's transports are not asyncio.BaseTransport subclasses.
    if hasattr(transport, "abort") and hasattr(transport, "get_extra_info"):
        scope[SCOPE_KEY] = transport


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
    transport: Any = ws.scope.get(SCOPE_KEY)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
