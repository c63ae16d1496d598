"""The event-loop lag probe reports how late its timer woke up."""

from __future__ import annotations

import asyncio
import time

from app.observability.loop_lag import LoopLagProbe


async def test_loop_lag_probe_reports_a_blocked_loop() -> None:
    reports: asyncio.Queue[float] = asyncio.Queue()
    probe = LoopLagProbe(reports.put_nowait, interval=0.01)
    probe.start()
    try:
        await asyncio.sleep(0)  # the probe's timer is armed
        time.sleep(0.2)  # the loop blocked, as by a long synchronous callback (not a wait for the probe)
        lag = await reports.get()
    finally:
        await probe.stop()
    assert lag >= 0.15
