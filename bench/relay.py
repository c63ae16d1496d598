"""A userspace delay relay: an asyncio TCP proxy that delays each direction of each connection.

This kernel has no ``tc netem``, so latency is added in userspace. Each client connection
accepted on the relay's port gets its own connection to the target, and each direction is
delayed by ``base + uniform(0, jitter)`` ms per chunk read. A byte stream must stay in
order (TCP does not reorder), so a chunk is released at ``max(previous release, now +
delay)``: jitter then behaves like queueing, never like reordering.

A relay terminates the client's TCP connection itself, so the server's kernel sees only the
relay's loopback hop. With ``forward_rtt`` it plays the trusted reverse proxy of the README: it
writes the round trip it imposes into the HTTP request that opens the connection
(``X-Client-RTT`` and ``X-Client-RTTVar``, microseconds, as nginx's ``$tcpinfo_rtt`` and
``$tcpinfo_rttvar``), dropping any such header the client sent.

>>> import asyncio
>>> async def demo() -> tuple[bytes, float]:
...     async def echo(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
...         w.write(await r.read(100)); await w.drain(); w.close()
...     server = await asyncio.start_server(echo, "127.0.0.1", 0)
...     relay = DelayRelay("127.0.0.1", server.sockets[0].getsockname()[1], up_ms=15, down_ms=15)
...     await relay.start()
...     reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
...     start = asyncio.get_running_loop().time()
...     writer.write(b"ping"); data = await reader.read(100)
...     took = (asyncio.get_running_loop().time() - start) * 1000
...     writer.close(); await relay.close(); server.close()
...     return data, took
>>> data, took = asyncio.run(demo())
>>> data, took >= 30
(b'ping', True)
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

CHUNK = 65536
RTT_HEADER, RTTVAR_HEADER = "X-Client-RTT", "X-Client-RTTVar"
MAX_HEAD = 16384
"""The opening request's headers the relay reads before giving up on adding its own."""
LATE_NOTE_MS = 2.0
"""A chunk released later than its release time by more than this is noted in ``late`` (the
process running the relay was busy: the link's delay was not the one asked for)."""
LATE_KEPT = 10_000
"""Late chunks a relay remembers (the latest), so a long run holds a bounded record."""


@dataclass
class DelayRelay:
    """Forward ``127.0.0.1:port`` to ``target_host:target_port`` with delays in ms.

    ``up_ms`` delays client→server bytes, ``down_ms`` server→client; each chunk also gets
    ``uniform(0, jitter_ms)`` more (independently per direction). ``seed`` makes the jitter
    reproducible. The round trip a client sees is about ``up_ms + down_ms`` plus up to twice
    the jitter.
    """

    target_host: str
    target_port: int
    up_ms: float = 0.0
    down_ms: float = 0.0
    jitter_ms: float = 0.0
    seed: int | None = None
    forward_rtt: bool = False
    """Write the imposed round trip into the opening HTTP request (see the module doc)."""
    host: str = "127.0.0.1"
    port: int = 0
    late: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=LATE_KEPT), init=False)
    """(release time, ms late) of each chunk released more than :data:`LATE_NOTE_MS` after its
    release time (``loop.time()`` seconds), the latest :data:`LATE_KEPT`."""
    _server: asyncio.Server | None = field(default=None, init=False, repr=False)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False, repr=False)
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @classmethod
    def symmetric(
        cls,
        target_host: str,
        target_port: int,
        rtt_ms: float,
        jitter_ms: float = 0.0,
        seed: int | None = None,
        forward_rtt: bool = False,
    ) -> DelayRelay:
        """A relay adding ``rtt_ms`` of round trip, half each way."""
        return cls(target_host, target_port, rtt_ms / 2, rtt_ms / 2, jitter_ms, seed, forward_rtt)

    def most_late(self, start: float, end: float) -> float:
        """The most (ms) a chunk due between ``start`` and ``end`` (``loop.time()``) was released late,
        of those noted; 0.0 if none was."""
        return max((ms for when, ms in self.late if start <= when <= end), default=0.0)

    def rtt_headers(self) -> bytes:
        """The headers a proxy measuring this link would forward: the base round trip, and the
        per-direction jitter as its variation (the server allows twice that above the round trip,
        the most this relay's jitter adds to one)."""
        rtt_us = round((self.up_ms + self.down_ms) * 1000)
        var_us = round(self.jitter_ms * 1000)
        return f"{RTT_HEADER}: {rtt_us}\r\n{RTTVAR_HEADER}: {var_us}\r\n".encode()

    async def start(self) -> DelayRelay:
        self._server = await asyncio.start_server(self._accept, self.host, self.port)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> DelayRelay:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(self.target_host, self.target_port)
        except OSError:
            client_w.close()
            return
        self._spawn(
            self._pipe(client_r, server_w, self.up_ms, self.rtt_headers() if self.forward_rtt else None)
        )
        self._spawn(self._pipe(server_r, client_w, self.down_ms))

    def _delay(self, base_ms: float) -> float:
        return (base_ms + (self._rng.uniform(0, self.jitter_ms) if self.jitter_ms > 0 else 0.0)) / 1000

    async def _pipe(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        base_ms: float,
        headers: bytes | None = None,
    ) -> None:
        """Read chunks as they come; a second task writes each one at its release time, in order.
        ``headers`` go into the first request's head (read whole first)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def release() -> None:
            while True:
                when, data = await queue.get()
                delay = when - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                if (late_ms := (loop.time() - when) * 1000) > LATE_NOTE_MS:
                    self.late.append((when, late_ms))
                if not data:
                    with contextlib.suppress(OSError):
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(release())
        last = 0.0
        try:
            head = await _with_headers(reader, headers) if headers is not None else None
            while True:
                data, head = (head, None) if head is not None else (await reader.read(CHUNK), None)
                last = max(last, loop.time() + self._delay(base_ms))
                queue.put_nowait((last, data))
                if not data:
                    break
            await sender
        except (ConnectionError, OSError):
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            writer.close()


async def _with_headers(reader: asyncio.StreamReader, headers: bytes) -> bytes:
    """The request head with ``headers`` after its request line and any client copy of them dropped
    (what ``proxy_set_header`` does); a head past MAX_HEAD goes on unchanged."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < MAX_HEAD:
        chunk = await reader.read(CHUNK)
        if not chunk:
            return data
        data += chunk
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return data
    first, _, rest = data[:end].partition(b"\r\n")
    names = (RTT_HEADER.lower().encode() + b":", RTTVAR_HEADER.lower().encode() + b":")
    kept = [line for line in rest.split(b"\r\n") if line and not line.lower().startswith(names)]
    return first + b"\r\n" + headers + b"".join(line + b"\r\n" for line in kept) + data[end + 2 :]
