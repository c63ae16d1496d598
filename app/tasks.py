"""Background tasks: the one way this server stops one, and a coroutine started without one."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Coroutine, Generator
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


def run_eagerly(coro: Awaitable[None]) -> Awaitable[None] | None:
    """Run ``coro`` now, up to its first real wait: None if it finished without one, else the
    rest of it, to be awaited (by a task) exactly as the whole coroutine would have been (an
    awaitable that is not a coroutine cannot be stepped by hand: it is all rest).

    What Python 3.12's eager tasks do, without a task: a socket write that does not have to wait
    (nearly every one) then costs no task and no event-loop round (measured: about 5 µs a frame).
    Its first step runs in the caller's task (or in none, from a callback), so ``coro`` must not
    lean on the task it runs in (``asyncio.timeout``, ``current_task``): an ASGI server's ``send``
    (uvicorn's, the cluster relay's) only waits on events.

    >>> async def quick() -> None:
    ...     pass
    >>> run_eagerly(quick()) is None
    True
    """
    if not isinstance(coro, Coroutine):
        return coro
    try:
        waiting = coro.send(None)
    except StopIteration:
        return None
    return _Rest(coro, waiting)


class _Rest:
    """The rest of a coroutine that was started by hand and is waiting on ``waiting``."""

    __slots__ = ("_coro", "_waiting")

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        self._coro, self._waiting = coro, waiting

    def __await__(self) -> Generator[Any, Any, None]:
        coro, waiting = self._coro, self._waiting
        while True:
            # What ``yield from`` does, picked up after the coroutine's first step.
            try:
                sent = yield waiting
            except BaseException as exc:  # a cancellation (or close) goes to the coroutine
                try:
                    waiting = coro.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration:
                    return
