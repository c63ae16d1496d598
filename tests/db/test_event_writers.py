"""The event log's raw writers: their own connection, the rows the models read, the driver's errors."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
from collections.abc import AsyncIterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy import insert, text
from sqlalchemy.exc import IntegrityError, OperationalError

from app.db import EventLog, EventRec, Store, migrate
from app.db.models import GameEvent
from app.db.pg_writer import PgWriter
from app.db.sqlite_writer import SqliteWriter


async def _games(store: Store, n: int) -> list[int]:
    host = await store.create_player("Host")
    await store.create_room("RAWW", "slap", {}, True, host.id)
    seats = [{"player_id": host.id, "name": "Host", "prefs": {}}]
    return [(await store.create_game("RAWW", "slap", {}, seats, "seed", "hash", 0)).id for _ in range(n)]


def _move(seq: int, client_id: str | None = None) -> EventRec:
    return EventRec(seq, "move", 0, {"type": "play", "n": seq}, 1000 + seq, 40, client_id or f"c{seq}")


def _count_elsewhere(url: str, game: int) -> int:
    """The game's stored rows, read through a connection of another store, on another thread
    (blocking the caller, so nothing of this loop runs meanwhile)."""

    async def count() -> int:
        other = Store(url)
        try:
            return await other.count_events(game)
        finally:
            await other.close()

    counted: list[int] = []
    reader = threading.Thread(target=lambda: counted.append(asyncio.run(count())))
    reader.start()
    reader.join()
    return counted[0]


async def test_rows_are_committed_before_the_append_returns(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    seen_when_done: list[int] = []
    appended = asyncio.ensure_future(event_log.append(game, [_move(1), _move(2)]))
    appended.add_done_callback(lambda _: seen_when_done.append(_count_elsewhere(store.url, game)))
    await appended
    assert seen_when_done == [2]


async def test_json_columns_hold_what_the_engine_stores(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    action = {"type": "slap", "cards": ["7H", "QS"], "ok": True, "x": 1.5, "name": "Åsa ✓"}
    timing = {"links": [None, {"rtt": 40, "sent": {"flip:3": 1010}}]}
    rulings = [{"race": "flip:3", "winner": 1}]
    through_engine = EventRec(1, "move", 1, action, 1200, 40, "c1", timing=timing, rulings=rulings)
    through_log = EventRec(2, "move", 1, action, 1200, 40, "c2", timing=timing, rulings=rulings)
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(GameEvent),
            [{**asdict(through_engine), "game_id": game}],
        )
    await event_log.append(game, [through_log, EventRec(3, "tick", None, None, 1300)])

    async with store.engine.connect() as conn:
        stored = (
            await conn.execute(
                text(
                    "SELECT CAST(action AS TEXT), CAST(timing AS TEXT), CAST(rulings AS TEXT)"
                    " FROM game_events WHERE game_id = :game ORDER BY seq"
                ),
                {"game": game},
            )
        ).all()
    assert stored[0] == stored[1]  # byte for byte
    assert tuple(stored[2]) == (None, None, None)  # SQL NULL, not JSON null
    assert [e.action for e in await store.load_events(game)] == [action, action, None]


async def test_a_constraint_error_carries_the_drivers_own_error(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    await event_log.append(game, [_move(1, client_id="act-1")])
    with pytest.raises(IntegrityError) as refused:
        await event_log.append(game, [_move(2, client_id="act-1")])
    assert isinstance(refused.value.orig, sqlite3.IntegrityError | asyncpg.UniqueViolationError)


@contextlib.asynccontextmanager
async def _sqlite_log(path: Path) -> AsyncIterator[tuple[Store, EventLog, SqliteWriter]]:
    """A migrated SQLite file, its store and a started event log with its SQLite writer."""
    url = f"sqlite+aiosqlite:///{path}"
    await migrate(url)
    store = Store(url)
    log = EventLog(store)
    await log.start()
    try:
        assert isinstance(log.writer, SqliteWriter)
        yield store, log, log.writer
    finally:
        await log.stop()
        await store.close()


async def test_a_batch_is_one_hand_off_to_the_sqlite_thread(tmp_path: Path) -> None:
    async with _sqlite_log(tmp_path / "handoff.db") as (store, log, writer):
        games = await _games(store, 5)
        await asyncio.gather(*(log.append(g, [_move(seq)]) for seq in range(1, 11) for g in games))
        assert log.appends == 50
        assert log.batches <= 3  # all queued before the writer ran: a handful of batches
        # One job to the thread and one wake-up of the loop per batch, not per append.
        assert writer.handoffs == writer.wakeups == writer.transactions == log.batches


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="SCHED_BATCH is Linux's")
async def test_the_sqlite_thread_does_not_preempt_the_event_loop(tmp_path: Path) -> None:
    async with _sqlite_log(tmp_path / "batch.db") as (store, log, writer):
        (game,) = await _games(store, 1)
        await log.append(game, [_move(1)])
        assert writer.thread is not None and writer.thread.native_id is not None
        assert os.sched_getscheduler(writer.thread.native_id) == os.SCHED_BATCH
        assert os.sched_getscheduler(threading.get_native_id()) == os.SCHED_OTHER  # the loop's own


def _missing_sqlite(tmp_path: Path) -> str:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    return f"sqlite+aiosqlite:///{blocker / 'bordet.db'}"


def _refused_postgres(tmp_path: Path) -> str:
    return "postgresql+asyncpg://postgres@127.0.0.1:1/test"  # nothing listens on port 1


@pytest.mark.parametrize("gone", [_missing_sqlite, _refused_postgres], ids=["sqlite", "postgres"])
async def test_a_writer_without_its_database_fails_its_callers(tmp_path: Path, gone: Any) -> None:
    store = Store(gone(tmp_path))
    log = EventLog(store)
    await log.start()
    try:
        results = await asyncio.gather(
            log.append(1, [_move(1)]), log.append(2, [_move(1)]), return_exceptions=True
        )
        assert all(isinstance(r, OperationalError) for r in results), results
        assert log.failed_appends == 2 and log.running  # and the next append tries again
    finally:
        await log.stop()
        await store.close()


@pytest.mark.postgres
async def test_a_cut_connection_costs_at_most_one_batch_and_is_opened_again(pg_store: Store) -> None:
    (game,) = await _games(pg_store, 1)
    log = EventLog(pg_store)
    await log.start()
    try:
        await log.append(game, [_move(1)])
        writer = log.writer
        assert isinstance(writer, PgWriter) and writer.server_pid is not None
        async with pg_store.engine.connect() as conn:  # as a server restart or an admin would
            await conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": writer.server_pid})
        try:
            await log.append(game, [_move(2)])
        except OperationalError:  # the cut was not noticed before this batch: it failed, unwritten
            await log.append(game, [_move(2)])
        await log.append(game, [_move(3)])
        assert writer.connects == 2
        assert [e.seq for e in await pg_store.load_events(game)] == [1, 2, 3]
    finally:
        await log.stop()


def test_an_in_memory_sqlite_database_is_refused() -> None:
    # The log's connection of its own would open another, empty, in-memory database.
    with pytest.raises(ValueError, match="SQLite file"):
        EventLog(Store("sqlite://"))
