"""Room-clock checkpoints: ``EventLog.note_clock`` and the ``clock_at`` every append raises."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.db import EventLog, EventRec, Store

#: A note delay no test waits out: only an append or stop() can write the notes.
NEVER = 3600.0


async def _games(store: Store, n: int) -> list[int]:
    host = await store.create_player("Host")
    await store.create_room("CLKS", "slap", {}, True, host.id)
    seats = [{"player_id": host.id, "name": "Host", "prefs": {}}]
    return [(await store.create_game("CLKS", "slap", {}, seats, "seed", "hash", 0)).id for _ in range(n)]


def _move(seq: int, at: int) -> EventRec:
    return EventRec(seq=seq, kind="move", seat=0, action={"n": seq}, at=at, rtt=40, client_id=f"c{seq}")


async def _clock(store: Store, game: int) -> int | None:
    rec = await store.get_game(game)
    assert rec is not None
    return rec.clock_at


async def _until_written(log: EventLog, writes: int, timeout: float = 5.0) -> float:
    """Seconds until ``log.clock_writes`` reaches ``writes`` (fails after ``timeout``)."""
    start = time.monotonic()
    while log.clock_writes < writes:
        assert time.monotonic() - start < timeout, "clock note never written"
        await asyncio.sleep(0.005)
    return time.monotonic() - start


@pytest.fixture
async def slow_log(store: Store) -> AsyncIterator[EventLog]:
    """A started log whose notes wait for an append or stop()."""
    log = EventLog(store, clock_note_delay=NEVER)
    await log.start()
    try:
        yield log
    finally:
        await log.stop()


async def test_a_new_game_has_no_checkpoint(store: Store) -> None:
    (game,) = await _games(store, 1)
    assert await _clock(store, game) is None
    latest = await store.latest_game("CLKS")
    assert latest is not None and latest.clock_at is None


async def test_a_note_is_written_on_its_own_promptly(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    event_log.note_clock(game, 4200)
    elapsed = await _until_written(event_log, 1)
    assert elapsed < 1.0  # the writer waits CLOCK_NOTE_DELAY_S (50 ms) for an append, no longer
    assert await _clock(store, game) == 4200
    latest = await store.latest_game("CLKS")
    assert latest is not None and latest.clock_at == 4200
    assert event_log.batches == 0  # no events were written


async def test_notes_coalesce_per_game(store: Store, event_log: EventLog) -> None:
    g1, g2 = await _games(store, 2)
    for at in (100, 900, 300):
        event_log.note_clock(g1, at)
    event_log.note_clock(g2, 50)
    await _until_written(event_log, 1)
    assert (await _clock(store, g1), await _clock(store, g2)) == (900, 50)
    assert event_log.writer.transactions == 1  # every note of both games in one transaction
    await asyncio.sleep(0.2)
    assert event_log.clock_writes == 1  # and nothing more: the idle writer does not poll


async def test_notes_never_lower_the_checkpoint(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    event_log.note_clock(game, 5000)
    await _until_written(event_log, 1)
    event_log.note_clock(game, 3000)  # an older note, e.g. from before a restart
    await _until_written(event_log, 2)
    assert await _clock(store, game) == 5000
    await event_log.append(game, [_move(1, 4000)])  # an append behind the checkpoint neither
    assert await _clock(store, game) == 5000


async def test_stop_flushes_pending_notes(store: Store, slow_log: EventLog) -> None:
    g1, g2 = await _games(store, 2)
    slow_log.note_clock(g1, 700)
    slow_log.note_clock(g2, 800)
    await asyncio.sleep(0.05)
    assert await _clock(store, g1) is None  # still waiting for an append
    await slow_log.stop()
    assert (await _clock(store, g1), await _clock(store, g2)) == (700, 800)
    assert slow_log.clock_writes == 1


async def test_notes_ride_along_with_an_append(store: Store, slow_log: EventLog) -> None:
    g1, g2 = await _games(store, 2)
    slow_log.note_clock(g1, 9000)
    slow_log.note_clock(g2, 2500)
    await slow_log.append(g1, [_move(1, 1000), _move(2, 1500)])
    # Committed with the append: the append's caller sees them without waiting any longer.
    assert (await _clock(store, g1), await _clock(store, g2)) == (9000, 2500)
    assert slow_log.writer.transactions == 1
    assert (slow_log.batches, slow_log.clock_writes) == (1, 1)


async def test_an_append_leaves_the_checkpoint_alone(store: Store, slow_log: EventLog) -> None:
    (g1,) = await _games(store, 1)
    await slow_log.append(g1, [_move(1, 1000), EventRec(2, "tick", None, None, 1800)])
    assert await _clock(store, g1) is None, "readers take the later of the checkpoint and the log"
    assert slow_log.clock_writes == 0


async def test_a_failed_note_is_dropped_and_never_fails_an_append(
    store: Store, slow_log: EventLog, caplog: pytest.LogCaptureFixture
) -> None:
    g1, g2 = await _games(store, 2)
    slow_log.note_clock(g2, 2**63)  # beyond BIGINT: the database refuses the UPDATE
    await slow_log.append(g1, [_move(1, 1000)])
    assert [e.seq for e in await store.load_events(g1)] == [1]
    assert await _clock(store, g2) is None
    assert (slow_log.failed_appends, slow_log.dropped_clock_notes) == (0, 1)
    assert "checkpoint" in caplog.text

    slow_log.note_clock(g2, 3000)  # a later note replaces it
    await slow_log.stop()
    assert await _clock(store, g2) == 3000


async def test_notes_made_while_stopped_wait_for_the_next_start(store: Store) -> None:
    (game,) = await _games(store, 1)
    log = EventLog(store)
    log.note_clock(game, 1234)
    await asyncio.sleep(0.1)
    assert await _clock(store, game) is None
    await log.start()
    try:
        await _until_written(log, 1)
    finally:
        await log.stop()
    assert await _clock(store, game) == 1234


async def test_a_failing_database_drops_notes_and_the_writer_keeps_running(
    store: Store, event_log: EventLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    (game,) = await _games(store, 1)
    real_insert = event_log._insert
    failures = [RuntimeError("database went away")]

    async def flaky_insert(appends: Any, clocks: Any = None) -> None:
        if failures:
            raise failures.pop()
        await real_insert(appends, clocks)

    monkeypatch.setattr(event_log, "_insert", flaky_insert)
    event_log.note_clock(game, 100)
    start = time.monotonic()
    while event_log.dropped_clock_notes < 1:
        assert time.monotonic() - start < 5
        await asyncio.sleep(0.005)
    assert event_log.running
    event_log.note_clock(game, 200)
    await _until_written(event_log, 1)
    assert await _clock(store, game) == 200
