"""Background tasks: the one way this server stops one."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def cancel_and_wait(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (if any and still running) and wait until it has wound down.

    Whatever it raises while winding down is its own business: the caller is stopping it.
    """
    if task is None or task.done():
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


class Signal:
    """An :class:`asyncio.Event` that holds no waiter list until someone waits.

    A server with thousands of idle connections keeps a few flags per connection; an Event
    allocates its waiter deque up front (about 0.7 KB each), this does not.
    """

    __slots__ = ("_flag", "_waiters")

    def __init__(self, flag: bool = False) -> None:
        self._flag = flag
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._flag

    def set(self) -> None:
        self._flag = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._flag = False

    async def wait(self, timeout: float | None = None) -> bool:
        """Wait until set (True) or for ``timeout`` seconds (False)."""
        if self._flag:
            return True
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            if timeout is None:  # no timer to arm (the common case: a writer waiting for work)
                await waiter
                return True
            async with asyncio.timeout(timeout):
                await waiter
            return True
        except TimeoutError:
            return False
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
                if not self._waiters:
                    self._waiters = None
