"""A TCP link to the real Redis that a test can cut (every connection dropped, new ones refused) and mend.

One process's ``BORDET_REDIS_URL`` points here, so that process alone loses Redis while the
machine's Redis and the other processes go on.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class CuttableLink:
    def __init__(self, target_url: str) -> None:
        parts = urlsplit(target_url)
        self._target = parts
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 6379
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    @property
    def url(self) -> str:
        """The Redis URL through this link (same database number as the target's)."""
        return urlunsplit(self._target._replace(netloc=f"127.0.0.1:{self.port}"))

    async def start(self) -> CuttableLink:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def cut(self) -> None:
        """Stop listening (a new connection is refused) and drop every connection through the link."""
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        await self._server.wait_closed()
        self._server = None

    async def mend(self) -> None:
        """Listen again on the same port."""
        await self.start()

    async def close(self) -> None:
        if self._server is not None:
            await self.cut()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            redis_reader, redis_writer = await asyncio.open_connection(self._host, self._port)
        except OSError:
            client_writer.transport.abort()
            return
        self._writers |= {client_writer, redis_writer}
        try:
            await asyncio.gather(
                self._pipe(client_reader, redis_writer), self._pipe(redis_reader, client_writer)
            )
        finally:
            for writer in (client_writer, redis_writer):
                self._writers.discard(writer)
                writer.transport.abort()

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.transport.abort()  # one side gone: the other goes too
