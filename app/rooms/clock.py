"""Room clocks: integer milliseconds, monotonic, and waitable.

Production rooms use :class:`MonotonicClock`. Tests run the server with a
:class:`ManualClock` (``BORDET_TEST_CLOCK=1``) and move time forward
explicitly, so no test ever sleeps to wait for a timer.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    runs_on_its_own: bool
    """True if the clock moves between two reads by itself (it may have moved past the last
    checkpoint before a crash); a manual clock stands still until told to move."""

    def now(self) -> int: ...

    async def wait(self, wake: asyncio.Event, deadline: int | None) -> None:
        """Return when ``wake`` is set or the clock reaches ``deadline``."""


class MonotonicClock:
    """Wall-clock anchored at start, then driven by ``time.monotonic`` (never goes back)."""

    runs_on_its_own = True

    def __init__(self) -> None:
        self._base = int(time.time() * 1000)
        self._mono = time.monotonic()

    def now(self) -> int:
        return self._base + int((time.monotonic() - self._mono) * 1000)

    async def wait(self, wake: asyncio.Event, deadline: int | None) -> None:
        if deadline is None:
            await wake.wait()
            return
        delay = (deadline - self.now()) / 1000
        if delay <= 0:
            return
        try:
            async with asyncio.timeout(delay):
                await wake.wait()
        except TimeoutError:
            pass


class ManualClock:
    """A clock that only moves when told to; every waiter re-checks its deadline then."""

    runs_on_its_own = False

    def __init__(self, start: int = 1_000_000) -> None:
        self._now = start
        self._waiters: set[asyncio.Event] = set()

    def now(self) -> int:
        return self._now

    def advance(self, ms: int) -> int:
        if ms < 0:
            raise ValueError("a clock never goes back")
        self._now += ms
        for wake in self._waiters:
            wake.set()
        return self._now

    async def wait(self, wake: asyncio.Event, deadline: int | None) -> None:
        if deadline is not None and deadline <= self._now:
            return
        self._waiters.add(wake)
        try:
            await wake.wait()
        finally:
            self._waiters.discard(wake)
