"""Text frames written straight to the transport of uvicorn's WebSocket protocol, several in one write.

Through ASGI, every frame is its own ``send``: a coroutine, a check of the protocol's state, a
``Frame`` object serialized by websockets, and one ``transport.write`` (a system call) per frame;
that was most of what a frame cost a connection. What a room's turn queued on one connection (often
an ack and a state frame) is written here as one run of frames in one write instead.

Only where it is plainly safe: uvicorn's ``websockets-sansio`` protocol (its default), the socket
open, nothing negotiated that changes frames (no compression), and the protocol not paused by flow
control. Anything else (another server or protocol, a closing socket, a full buffer) gets no writer
or a ``ready()`` of False, and the caller goes the ASGI way, which waits and closes as before.
A server's frame is never masked (RFC 6455, 5.1), so framing one is a header and the payload.
"""

from __future__ import annotations

import struct
from typing import Any

from starlette.types import Send
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

_TEXT = 0x81
"""FIN and the text opcode: each frame a whole message."""
_HEAD_16 = struct.Struct("!BBH")
_HEAD_64 = struct.Struct("!BBQ")


def text_frame(payload: bytes) -> bytes:
    """The header of an unmasked text frame carrying ``payload``.

    >>> text_frame(b"hi")
    b'\\x81\\x02'
    >>> text_frame(b"x" * 300)
    b'\\x81~\\x01,'
    """
    size = len(payload)
    if size < 126:
        return bytes((_TEXT, size))
    if size < 65536:
        return _HEAD_16.pack(_TEXT, 126, size)
    return _HEAD_64.pack(_TEXT, 127, size)


class FrameWriter:
    """Writes runs of text frames to one uvicorn WebSocket's transport (see the module docstring)."""

    __slots__ = ("_conn", "_transport", "_writable")

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        # Held rather than looked up through the protocol on each flush: the protocol never
        # replaces them (its transport is set before the app runs).
        self._conn = protocol.conn
        self._transport = protocol.transport
        self._writable = protocol.writable

    def ready(self) -> bool:
        """Whether frames written now go out as they would through ASGI: the handshake done and no
        close sent or received (the websockets connection is OPEN only in between: uvicorn sends its
        close through it, and a lost connection's transport is closing), nothing negotiated that
        changes frames, and the transport taking more."""
        conn = self._conn
        return (
            conn.state is State.OPEN
            and not conn.extensions
            and self._writable.is_set()
            and not self._transport.is_closing()
        )

    def write(self, texts: list[str]) -> None:
        """Write ``texts`` as text frames, in order, in one write (call only when :meth:`ready`)."""
        parts: list[bytes] = []
        for text in texts:
            payload = text.encode()
            parts.append(text_frame(payload))
            parts.append(payload)
        self._transport.write(b"".join(parts))


def frame_writer(send: Send | None) -> FrameWriter | None:
    """A writer for the socket under the server's own ``send``; None unless that is uvicorn's
    ``websockets-sansio`` protocol (any other server or protocol goes through ASGI)."""
    protocol: Any = getattr(send, "__self__", None)
    if isinstance(protocol, WebSocketsSansIOProtocol):
        return FrameWriter(protocol)
    return None
