"""A client's text frames read straight off the socket; every other frame goes to websockets' parser.

uvicorn's ``websockets-sansio`` protocol feeds each read to websockets' generator-based parser,
which yields a ``Frame`` object per frame, then builds the ASGI message from it: for a busy
server, most of what reading an action cost outside the app. Nearly everything a client sends is
one text frame holding one message, so :class:`TextFrames` reads those itself: the header, the
mask (unmasked by websockets' own C routine) and the UTF-8 text, handed to the protocol's receive
queue as the same ``websocket.receive`` message.

Anything else goes to the parser as it was, in whole frames, so the parser is always between
frames when the next one comes here: control frames (ping, pong), the parts of a fragmented
message, binary frames. From the first frame the parser must refuse or that ends the reading (a
close, reserved bits, no mask, a frame above the size limit, text that is not UTF-8), and from
anywhere the connection is not open, everything goes to the parser, as if this were not here.
A frame is held here until it is whole only while it is within the size limit, as the parser
would hold it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State
from websockets.speedups import apply_mask
from websockets.streams import StreamReader

_TEXT_WHOLE = 0x81
"""FIN, no reserved bits, the text opcode: a whole message in one frame."""
_OPCODE = 0x0F
_FIN = 0x80
_RESERVED = 0x70
_MASKED = 0x80
_DATA = frozenset({0x0, 0x1, 0x2})
"""Continuation, text, binary: the parts of a message the parser puts together."""
_KEEPS_READING = _DATA | {0x9, 0xA}
"""The data opcodes, ping and pong (the parser answers or notes them): frames after these can
come here again."""
_AT_BOUNDARY = StreamReader.at_eof.__code__
"""Where websockets' parser waits between frames (mid-frame it waits in ``read_exact``)."""
_LIMIT_WITHOUT_MAX = 1 << 20
"""The most held here for one frame when the server sets no message size limit."""


def _header(data: bytes | bytearray, at: int, end: int) -> tuple[int, int] | None:
    """The payload's start and end of the frame at ``at`` (mask key included in the header), or
    None while its header is not all there.

    >>> _header(bytes([0x81, 0x85, 1, 2, 3, 4]) + b"hello", 0, 11)
    (6, 11)
    >>> _header(bytes([0x81, 0xFE, 0x01]), 0, 3) is None
    True
    """
    if end - at < 2:
        return None
    second = data[at + 1]
    size = second & 0x7F
    start = at + 2
    if size == 126:
        if end - start < 2:
            return None
        size = int.from_bytes(data[start : start + 2], "big")
        start += 2
    elif size == 127:
        if end - start < 8:
            return None
        size = int.from_bytes(data[start : start + 8], "big")
        start += 8
    if second & _MASKED:
        start += 4
    if start > end:
        return None
    return start, start + size


class TextFrames:
    """Splits one connection's incoming bytes into frames (see the module docstring)."""

    __slots__ = ("_held", "_limit", "_on", "_parse", "_protocol", "_queue")

    def __init__(self, protocol: WebSocketsSansIOProtocol, queue: Any) -> None:
        self._protocol = protocol
        self._parse: Callable[[bytes | bytearray], None] = type(protocol).data_received.__get__(protocol)
        self._queue = queue
        limit = protocol.conn.max_message_size
        self._limit = _LIMIT_WITHOUT_MAX if limit is None else limit
        self._held = bytearray()
        """A frame not all read yet: grown in place, read after read, so that a big frame sent in
        tiny pieces costs each read its own bytes, not a copy of all before it."""
        self._on = True

    @classmethod
    def install(cls, protocol: WebSocketsSansIOProtocol, queue: Any) -> TextFrames | None:
        """Read ``protocol``'s socket through a new splitter that hands text messages to ``queue``
        (``put_nowait``); None, and nothing changed, unless the parser is between frames."""
        conn = protocol.conn
        waiting: Any = conn.parser  # the server's handshake parser, which yields from the frames' parser
        while (inner := getattr(waiting, "gi_yieldfrom", None)) is not None:
            waiting = inner
        waiting_in = getattr(waiting, "gi_code", None)
        if conn.state is not State.OPEN or conn.reader.buffer or waiting_in is not _AT_BOUNDARY:
            return None
        frames = cls(protocol, queue)
        protocol.data_received = frames.data_received  # type: ignore[method-assign]
        # The event loop may hold the protocol's data_received (uvloop does): have it look again.
        protocol.transport.set_protocol(protocol)
        return frames

    @property
    def reading(self) -> bool:
        """Whether text frames still come here (False once everything goes to the parser)."""
        return self._on

    def data_received(self, data: bytes) -> None:
        if not self._on:
            self._parse(data)
            return
        buffer: bytes | bytearray = data
        if self._held:
            self._held += data
            buffer, self._held = self._held, bytearray()
        end = len(buffer)
        at = 0
        parsed = 0  # bytes before it have gone to the parser or the queue
        while at < end:
            bounds = _header(buffer, at, end)
            if bounds is None:
                break
            start, stop = bounds
            first = buffer[at]
            opcode = first & _OPCODE
            if (
                stop - start > self._limit
                or not buffer[at + 1] & _MASKED
                or first & _RESERVED
                or opcode not in _KEEPS_READING
                or (opcode not in _DATA and not first & _FIN)
            ):
                self._off(buffer, parsed)  # the parser refuses it, or it ends the reading
                return
            if stop > end:
                break
            if first == _TEXT_WHOLE:
                if parsed < at:  # the parser first, so that it has seen every frame before this one
                    self._parse(buffer[parsed:at])
                    parsed = at
                conn = self._protocol.conn
                if conn.state is not State.OPEN or conn.current_size is not None:
                    self._off(buffer, parsed)  # a frame the parser refuses, or a closing connection
                    return
                try:
                    text = apply_mask(buffer[start:stop], buffer[start - 4 : start]).decode()
                except UnicodeDecodeError:
                    self._off(buffer, parsed)  # the protocol closes the connection for it
                    return
                parsed = stop
                self._deliver(text)
            at = stop
        if parsed < at:
            self._parse(buffer[parsed:at])
        if at == 0 and isinstance(buffer, bytearray):
            self._held = buffer  # still the one frame begun earlier: kept as it is, not copied
        elif at < end:
            self._held = bytearray(buffer[at:])

    def _deliver(self, text: str) -> None:
        protocol = self._protocol
        if protocol.close_sent:
            return  # as the protocol does: the app is past its close
        self._queue.put_nowait({"type": "websocket.receive", "text": text})

    def _off(self, data: bytes | bytearray, parsed: int) -> None:
        """From here on, every byte goes to the parser."""
        self._on = False
        self._held = bytearray()
        self._parse(data[parsed:])
