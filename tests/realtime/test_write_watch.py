"""The write watch cuts off exactly the writes that overran their deadline."""

from __future__ import annotations

import asyncio

from app.realtime.write_watch import WriteWatch, write_watch


class _Writer:
    def __init__(self) -> None:
        self.overran = asyncio.Event()

    def write_overran(self) -> None:
        self.overran.set()


async def _looked(watch: WriteWatch) -> None:
    """Let the watch task take one look (it runs at the next turns of the loop)."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_write_past_its_deadline_is_cut_off() -> None:
    watch = WriteWatch(asyncio.get_running_loop())
    stuck = _Writer()
    watch.join(5.0)
    watch.begin(stuck, watch.now() - 0.001)
    await asyncio.wait_for(stuck.overran.wait(), 5)
    watch.leave(stuck)


async def test_a_write_that_completes_in_time_is_left_alone() -> None:
    watch = WriteWatch(asyncio.get_running_loop())
    quick, stuck = _Writer(), _Writer()
    watch.join(5.0)
    watch.join(5.0)
    watch.begin(quick, watch.now() - 0.001)
    watch.end(quick)  # done before the watch looked
    watch.begin(stuck, watch.now() - 0.001)
    await asyncio.wait_for(stuck.overran.wait(), 5)
    assert not quick.overran.is_set()
    watch.leave(quick)
    watch.leave(stuck)


async def test_a_write_is_cut_off_once() -> None:
    watch = WriteWatch(asyncio.get_running_loop())
    stuck = _Writer()
    calls = 0

    def overran() -> None:
        nonlocal calls
        calls += 1
        stuck.overran.set()

    stuck.write_overran = overran  # type: ignore[method-assign]
    watch.join(0.01)
    watch.begin(stuck, watch.now() - 0.001)
    await asyncio.wait_for(stuck.overran.wait(), 5)
    await _looked(watch)
    assert calls == 1
    watch.leave(stuck)


async def test_the_watch_task_ends_with_the_last_connection() -> None:
    watch = write_watch()
    writer = _Writer()
    watch.join(0.01)
    task = watch._task
    assert task is not None and not task.done()
    watch.leave(writer)
    await asyncio.wait_for(task, 5)
    assert task.done()
