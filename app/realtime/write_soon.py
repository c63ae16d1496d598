"""Frames queued on connections are handed to their sockets once per event-loop round, by one callback.

A room's turn queues a frame (and often an ack) on each of its connections. Starting a writer task for
each of them cost about 5 µs a frame; instead each connection with something to write joins the
loop's list, and one ``call_soon`` callback writes every listed backlog, each frame its socket takes
without waiting (:meth:`Flushable.flush`). Only a write that has to wait gets a task. The frames
still leave when they did with a task each: in the loop's next round, after the turn that queued
them, so what one turn queues on one connection is in its backlog together (and counts against its
bound together).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Protocol


class Flushable(Protocol):
    def flush(self) -> None:
        """Write what is queued, as far as the socket takes it without waiting."""


class WriteSoon:
    """One event loop's list of connections to flush in its next round."""

    __slots__ = ("__weakref__", "_listed", "_loop")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._listed: list[Flushable] = []

    def add(self, conn: Flushable) -> None:
        """List ``conn`` (the caller lists each connection once until it is flushed)."""
        if not self._listed:
            self._loop.call_soon(self._flush)
        self._listed.append(conn)

    def _flush(self) -> None:
        listed, self._listed = self._listed, []
        for conn in listed:
            conn.flush()


_soon: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, WriteSoon] = weakref.WeakKeyDictionary()


def write_soon() -> WriteSoon:
    """The running event loop's list."""
    loop = asyncio.get_running_loop()
    soon = _soon.get(loop)
    if soon is None:
        soon = _soon[loop] = WriteSoon(loop)
    return soon
