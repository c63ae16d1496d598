"""The write watch: cuts off a connection whose frame write has not completed in time.

A timeout around every frame write costs a timer per frame (measured: about 6 % of a busy
server's time), although a write almost never hangs. So each writer only notes the deadline of
the write it is in, and one task per event loop looks at the oldest write in progress and cuts
off whichever has overrun; between writes nothing is scheduled.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Protocol


class Writer(Protocol):
    def write_overran(self) -> None:
        """Called once when the write in progress has not completed by its deadline."""


class WriteWatch:
    """The writes in progress on one event loop, oldest first, and the task that watches them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        # Insertion order is start order, and every connection of a process has the same write
        # timeout: the first entry is the next write to overrun.
        self._writing: dict[Writer, float] = {}
        self._writers = 0
        self._idle_s = 1.0
        self._task: asyncio.Task[None] | None = None

    def join(self, timeout_s: float) -> None:
        """A connection with writes of at most ``timeout_s`` starts: watched while any is open."""
        self._writers += 1
        # Idle looks at most one timeout apart, so a write is cut off within its own deadline
        # plus nothing: the look after its start sleeps exactly until that deadline.
        self._idle_s = min(self._idle_s, timeout_s)
        if self._task is None or self._task.done():
            self._task = self._loop.create_task(self._watch(), name="bordet-write-watch")

    def leave(self, writer: Writer) -> None:
        self._writing.pop(writer, None)
        self._writers -= 1

    def begin(self, writer: Writer, deadline: float) -> None:
        self._writing[writer] = deadline

    def end(self, writer: Writer) -> None:
        self._writing.pop(writer, None)

    def now(self) -> float:
        return self._loop.time()

    async def _watch(self) -> None:
        while self._writers > 0:
            now = self._loop.time()
            wake = now + self._idle_s
            while self._writing:
                writer, deadline = next(iter(self._writing.items()))
                if deadline > now:
                    wake = min(wake, deadline)
                    break
                del self._writing[writer]
                writer.write_overran()
            await asyncio.sleep(wake - now)


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, WriteWatch] = weakref.WeakKeyDictionary()


def write_watch() -> WriteWatch:
    """The running event loop's write watch."""
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = WriteWatch(loop)
    return watch
