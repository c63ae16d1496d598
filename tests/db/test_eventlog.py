"""The group-committed, append-only game event log."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from app.db import EventLog, EventRec, Store


async def _games(store: Store, n: int) -> list[int]:
    host = await store.create_player("Host")
    await store.create_room("EVTS", "slap", {}, True, host.id)
    seats = [{"player_id": host.id, "name": "Host", "prefs": {}}]
    return [(await store.create_game("EVTS", "slap", {}, seats, "seed", "hash", 0)).id for _ in range(n)]


def _move(seq: int, seat: int = 0, client_id: str | None = None, **action: Any) -> EventRec:
    return EventRec(
        seq=seq,
        kind="move",
        seat=seat,
        action=action or {"type": "play", "n": seq},
        at=1000 + seq,
        rtt=40,
        client_id=client_id if client_id is not None else f"c{seq}",
    )


def _tick(seq: int) -> EventRec:
    return EventRec(seq=seq, kind="tick", seat=None, action=None, at=5000 + seq)


async def test_round_trip(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    events = [_move(1, seat=2, card="7H"), _tick(2), _move(3, seat=0, client_id=None)]
    await event_log.append(game, events)
    loaded = await store.load_events(game)
    assert loaded == [
        EventRec(1, "move", 2, {"card": "7H"}, 1001, 40, "c1"),
        EventRec(2, "tick", None, None, 5002, None, None),
        EventRec(3, "move", 0, {"type": "play", "n": 3}, 1003, 40, "c3"),
    ]
    assert await store.load_events(game + 1000) == []


async def test_concurrent_appends_are_group_committed(store: Store, event_log: EventLog) -> None:
    games = await _games(store, 5)
    # 50 appends (10 per game, 2 events each), all queued before the writer gets to run.
    appends = [
        event_log.append(game, [_move(2 * i + 1, seat=i % 4), _tick(2 * i + 2)])
        for i in range(10)
        for game in games
    ]
    await asyncio.gather(*appends)

    assert event_log.appends == 50
    assert event_log.rows == 100
    assert event_log.failed_appends == 0
    assert 1 <= event_log.batches <= 3  # a handful of transactions, not 50
    assert event_log.writer.transactions == event_log.batches  # one transaction (one executemany) each
    for game in games:
        assert [e.seq for e in await store.load_events(game)] == list(range(1, 21))


async def test_sequential_rooms_share_commits(store: Store, event_log: EventLog) -> None:
    """20 rooms, each awaiting every append before sending the next: commits are still shared."""
    games = await _games(store, 20)

    async def room(game: int) -> None:
        for seq in range(1, 11):
            await event_log.append(game, [_move(seq)])

    await asyncio.gather(*(room(g) for g in games))
    assert event_log.appends == 200
    assert event_log.batches <= 20  # ~one commit per "round" across all rooms, not 200
    for game in games:
        assert [e.seq for e in await store.load_events(game)] == list(range(1, 11))


async def test_duplicate_client_id_fails_only_that_append(store: Store, event_log: EventLog) -> None:
    g1, g2, g3 = await _games(store, 3)
    await event_log.append(g1, [_move(1, seat=1, client_id="act-1")])

    # A retried client action id (same game, seat, client id) shares a batch with other games' appends.
    results = await asyncio.gather(
        event_log.append(g2, [_move(1)]),
        event_log.append(g1, [_move(2, seat=1, client_id="act-1")]),
        event_log.append(g3, [_move(1)]),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], IntegrityError)
    assert event_log.failed_appends == 1

    # The log keeps working, and the same client id from another seat is a different action.
    await event_log.append(g1, [_move(2, seat=1, client_id="act-2"), _move(3, seat=2, client_id="act-1")])
    assert [(e.seq, e.client_id) for e in await store.load_events(g1)] == [
        (1, "act-1"),
        (2, "act-2"),
        (3, "act-1"),
    ]
    assert [e.seq for e in await store.load_events(g2)] == [1]
    assert [e.seq for e in await store.load_events(g3)] == [1]


async def test_failed_append_fails_later_appends_of_that_game_in_the_batch(
    store: Store, event_log: EventLog
) -> None:
    g1, g2 = await _games(store, 2)
    await event_log.append(g1, [_move(1)])
    results = await asyncio.gather(
        event_log.append(g1, [_move(2)]),
        event_log.append(g1, [_move(2, client_id="again")]),  # seq 2 twice: primary key clash
        event_log.append(g1, [_move(3)]),  # would leave a gap after the failure: refused too
        event_log.append(g2, [_move(1)]),
        return_exceptions=True,
    )
    assert results[0] is None
    assert isinstance(results[1], IntegrityError)
    assert isinstance(results[2], IntegrityError)
    assert results[3] is None
    assert [e.seq for e in await store.load_events(g1)] == [1, 2]
    assert [e.client_id for e in await store.load_events(g1)] == ["c1", "c2"]


async def test_database_error_fails_the_batch_and_the_log_keeps_running(
    store: Store, event_log: EventLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    g1, g2 = await _games(store, 2)
    real_insert = event_log._insert
    failures = [OperationalError("INSERT", {}, Exception("database went away"))]

    async def flaky_insert(appends: Any, clocks: Any = None) -> None:
        if failures:
            raise failures.pop()
        await real_insert(appends, clocks)

    monkeypatch.setattr(event_log, "_insert", flaky_insert)
    results = await asyncio.gather(
        event_log.append(g1, [_move(1)]), event_log.append(g2, [_move(1)]), return_exceptions=True
    )
    assert all(isinstance(r, OperationalError) for r in results)
    assert event_log.failed_appends == 2

    await event_log.append(g1, [_move(1)])
    assert [e.seq for e in await store.load_events(g1)] == [1]
    assert await store.load_events(g2) == []


async def test_an_append_to_an_idle_log_is_written_without_waiting_out_the_commit_gap(store: Store) -> None:
    (game,) = await _games(store, 1)
    log = EventLog(store, commit_gap=600.0)
    await log.start()
    await asyncio.wait_for(log.append(game, [_move(1)]), timeout=30)  # not after 600 s
    await log.stop()
    assert log.batches == 1


async def test_appends_within_the_commit_gap_share_the_next_transaction(store: Store) -> None:
    (game,) = await _games(store, 1)
    log = EventLog(store, commit_gap=1.0)
    await log.start()
    await log.append(game, [_move(1)])
    second = asyncio.ensure_future(log.append(game, [_move(2)]))
    for _ in range(5):  # loop turns, no time: an idle writer would have taken the second by now
        await asyncio.sleep(0)
    third = asyncio.ensure_future(log.append(game, [_move(3)]))
    await asyncio.gather(second, third)
    await log.stop()
    assert (log.batches, log.appends) == (2, 3)
    assert [e.seq for e in await store.load_events(game)] == [1, 2, 3]


async def test_unknown_game_is_rejected(store: Store, event_log: EventLog) -> None:
    with pytest.raises(IntegrityError):
        await event_log.append(999_999, [_move(1)])


async def test_lifecycle(store: Store) -> None:
    (game,) = await _games(store, 1)
    log = EventLog(store)
    with pytest.raises(RuntimeError):
        await log.append(game, [_move(1)])
    await log.start()
    await log.start()  # idempotent
    await log.append(game, [])  # nothing to write: returns at once
    assert log.batches == 0

    # stop() flushes what is already queued: gather starts the appends (which enqueue) before stop()
    await asyncio.gather(*(log.append(game, [_move(seq)]) for seq in range(1, 6)), log.stop())
    assert not log.running
    assert [e.seq for e in await store.load_events(game)] == [1, 2, 3, 4, 5]
    with pytest.raises(RuntimeError):
        await log.append(game, [_move(6)])

    await log.start()  # restartable
    await log.append(game, [_move(6)])
    await log.stop()
    assert len(await store.load_events(game)) == 6


async def test_cancelled_writer_never_leaves_callers_hanging(store: Store) -> None:
    (game,) = await _games(store, 1)
    log = EventLog(store)
    await log.start()
    writer = log._task
    assert writer is not None
    pending = asyncio.ensure_future(log.append(game, [_move(1)]))
    writer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writer
    with pytest.raises(RuntimeError):
        await pending
    assert not log.running
    with pytest.raises(RuntimeError):
        await log.append(game, [_move(1)])
    await log.stop()  # harmless after the writer died
    await log.start()  # and the log can be started again
    await log.append(game, [_move(1)])
    await log.stop()
    assert [e.seq for e in await store.load_events(game)] == [1]


async def test_writer_cancelled_while_running(store: Store) -> None:
    (game,) = await _games(store, 1)
    log = EventLog(store)
    await log.start()
    await log.append(game, [_move(1)])  # the writer is now running, parked waiting for work
    writer = log._task
    assert writer is not None
    # The append wakes the writer, which is cancelled before it gets to write: the caller is told.
    results = await asyncio.gather(log.append(game, [_move(2)]), _cancel(writer), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    await log.stop()
    assert [e.seq for e in await store.load_events(game)] == [1]


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()


async def test_events_survive_reopening_the_store(migrated_url: str) -> None:
    store = Store(migrated_url)
    (game,) = await _games(store, 1)
    log = EventLog(store)
    await log.start()
    events = [_move(1, seat=1, card="QS"), _tick(2), _move(3, seat=3, client_id="x" * 64)]
    await log.append(game, events)
    await log.stop()
    await store.close()

    reopened = Store(migrated_url)
    try:
        assert await reopened.load_events(game) == events
        recovered = await reopened.unfinished_games()
        assert [g.id for g in recovered] == [game]
    finally:
        await reopened.close()


async def test_the_hosts_early_end_is_an_event_kind(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    await event_log.append(game, [_tick(1), EventRec(2, "end", None, None, 6000, None, None)])
    assert [e.kind for e in await store.load_events(game)] == ["tick", "end"]


async def test_unknown_event_kinds_are_refused_by_the_database(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    with pytest.raises(Exception, match=r"(?i)check"):
        await event_log.append(game, [EventRec(1, "undo", None, None, 6000, None, None)])
    assert await store.load_events(game) == []


async def test_timing_and_rulings_round_trip_in_their_own_fields(store: Store, event_log: EventLog) -> None:
    (game,) = await _games(store, 1)
    timing = {"links": [None, {"rtt": 40, "jitter": 3, "sent": {"flip:3": 1010}}]}
    rulings = [{"race": "flip:3", "winner": 1, "margin": 12}]
    events = [
        EventRec(1, "move", 1, {"type": "slap", "flip": 3}, 1200, 40, "c1", timing=timing),
        EventRec(2, "move", 0, {"type": "slap", "flip": 3}, 1210, 30, "c2", timing=timing, rulings=rulings),
        EventRec(3, "tick", None, None, 1500, rulings=[{"race": "flip:3", "expired": True}]),
        _move(4),
    ]
    await event_log.append(game, events)
    loaded = await store.load_events(game)
    assert loaded == events
    assert (loaded[3].timing, loaded[3].rulings) == (None, None)  # SQL NULL, not JSON null
