"""The production room clock: a room's wait ends when it is woken or when its deadline comes.

Real time, short deadlines; each wait is bounded by a generous ``wait_for`` so a clock that never
rings fails the test instead of hanging it (nothing here asserts how long anything took).
"""

from __future__ import annotations

import asyncio

from app.rooms.clock import MonotonicClock

NEVER_S = 30.0
"""Far longer than any deadline below: reaching it means the clock did not ring."""
HOUR_MS = 3_600_000


async def woken_before(clock: MonotonicClock, wake: asyncio.Event, deadline: int | None) -> None:
    """One wait that an input ends before ``deadline``; the room then clears its wake event."""
    waiting = asyncio.create_task(clock.wait(wake, deadline))
    await asyncio.sleep(0)
    wake.set()
    await asyncio.wait_for(waiting, NEVER_S)
    wake.clear()


async def test_a_wait_ends_at_its_deadline() -> None:
    clock, wake = MonotonicClock(), asyncio.Event()
    await asyncio.wait_for(clock.wait(wake, clock.now() + 20), NEVER_S)
    assert wake.is_set()  # rung by the deadline's alarm


async def test_a_wait_ends_when_woken_before_its_deadline() -> None:
    clock, wake = MonotonicClock(), asyncio.Event()
    await woken_before(clock, wake, clock.now() + HOUR_MS)


async def test_a_deadline_past_already_does_not_wait() -> None:
    clock, wake = MonotonicClock(), asyncio.Event()
    await asyncio.wait_for(clock.wait(wake, clock.now() - 1), NEVER_S)


async def test_an_earlier_deadline_replaces_the_alarm_of_a_later_one() -> None:
    # The room waits again after each turn; an alarm kept from the wait before must not stand in
    # for a deadline that moved closer.
    clock, wake = MonotonicClock(), asyncio.Event()
    await woken_before(clock, wake, clock.now() + HOUR_MS)
    await asyncio.wait_for(clock.wait(wake, clock.now() + 20), NEVER_S)
    assert wake.is_set()


async def test_the_alarm_of_a_deadline_kept_between_waits_still_rings() -> None:
    clock, wake = MonotonicClock(), asyncio.Event()
    deadline = clock.now() + 50
    for _ in range(3):  # moves before the deadline, each followed by a wait for the same one
        await woken_before(clock, wake, deadline)
    await asyncio.wait_for(clock.wait(wake, deadline), NEVER_S)
    assert wake.is_set()


async def test_a_wait_without_deadline_drops_the_alarm_of_the_last_one() -> None:
    clock, wake = MonotonicClock(), asyncio.Event()
    await woken_before(clock, wake, clock.now() + 10)
    waiting = asyncio.create_task(clock.wait(wake, None))
    done, _ = await asyncio.wait({waiting}, timeout=0.2)
    assert not done  # the old deadline's alarm did not wake a room that has none any more
    waiting.cancel()
