"""Event-loop lag: how late a periodic timer wakes up. A loop busy with one long callback (a slow
view, a synchronous call) delays every room, socket and timer at once; this shows by how much."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from app.tasks import cancel_and_wait

INTERVAL_S = 0.25


class LoopLagProbe:
    def __init__(self, report: Callable[[float], None], interval: float = INTERVAL_S) -> None:
        self._report = report
        self._interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="event-loop-lag")

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asleep = loop.time()
            await asyncio.sleep(self._interval)
            self._report(max(0.0, loop.time() - asleep - self._interval))
