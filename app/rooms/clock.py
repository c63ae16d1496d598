"""Room clocks: integer milliseconds, monotonic, and waitable.

Production rooms use :class:`MonotonicClock`. Tests run the server with a
:class:`ManualClock` (``BORDET_TEST_CLOCK=1``) and move time forward
explicitly, so no test ever sleeps to wait for a timer.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Protocol


class Clock(Protocol):
    runs_on_its_own: bool
    """True if the clock moves between two reads by itself (it may have moved past the last
    checkpoint before a crash); a manual clock stands still until told to move."""

    def now(self) -> int: ...

    async def wait(self, wake: asyncio.Event, deadline: int | None) -> None:
        """Return when ``wake`` is set or the clock reaches ``deadline``."""


class MonotonicClock:
    """Wall-clock anchored at start, then driven by ``time.monotonic`` (never goes back).

    A deadline is an alarm that sets the waiter's ``wake`` event; it stays armed between waits
    while the deadline stays the same (a turn's timer over all the moves of that turn), instead
    of a timer made and cancelled around every wait.
    """

    runs_on_its_own = True

    def __init__(self) -> None:
        self._base = int(time.time() * 1000)
        self._mono = time.monotonic()
        self._alarms: weakref.WeakKeyDictionary[asyncio.Event, tuple[int, asyncio.TimerHandle]] = (
            weakref.WeakKeyDictionary()
        )

    def now(self) -> int:
        return self._base + int((time.monotonic() - self._mono) * 1000)

    async def wait(self, wake: asyncio.Event, deadline: int | None) -> None:
        armed = self._alarms.get(wake)
        if armed is not None and armed[0] != deadline:
            armed[1].cancel()
            del self._alarms[wake]
            armed = None
        if deadline is not None and armed is None:
            delay = (deadline - self.now()) / 1000
            if delay <= 0:
                return
            loop = asyncio.get_running_loop()
            self._alarms[wake] = (deadline, loop.call_at(loop.time() + delay, self._ring, wake))
        await wake.wait()

    def _ring(self, wake: asyncio.Event) -> None:
        self._alarms.pop(wake, None)  # rung: the next wait for this deadline finds it due
        wake.set()


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
