"""Ownership fences: the database refuses event-log appends and lobby writes from a process that
lost its room."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg  # type: ignore[import-untyped]
import pytest

from app.db import EventLog, EventRec, Store
from app.db.fences import is_stale_owner, raise_fence, room_fence
from app.db.lobby_writes import PutMember, PutRoom
from app.db.room_lifecycle import put_away
from app.db.store import StaleOwner, pg_connect_kwargs

pytestmark = pytest.mark.postgres


@pytest.fixture
async def two_logs(pg_store: Store) -> AsyncIterator[tuple[EventLog, EventLog]]:
    """Two writers on the same database, as two processes would have."""
    logs = (EventLog(pg_store), EventLog(pg_store))
    for log in logs:
        await log.start()
    try:
        yield logs
    finally:
        for log in logs:
            await log.stop()


async def _game(store: Store, code: str) -> int:
    host = await store.create_player("Host")
    await store.create_room(code, "slap", {}, True, host.id)
    seats = [{"player_id": host.id, "name": "Host", "prefs": {}}]
    return (await store.create_game(code, "slap", {}, seats, "seed", "hash", 0)).id


def _move(seq: int) -> EventRec:
    return EventRec(
        seq=seq, kind="move", seat=0, action={"type": "flip"}, at=seq, rtt=None, client_id=f"c{seq}"
    )


async def test_a_process_whose_room_was_taken_over_cannot_append(
    pg_store: Store, two_logs: tuple[EventLog, EventLog]
) -> None:
    old, new = two_logs
    game = await _game(pg_store, "FENCE1")
    assert await raise_fence(pg_store, "FENCE1", 1) == 0
    await old.append(game, [_move(1)], fence=1)
    assert await raise_fence(pg_store, "FENCE1", 2) == 1  # the takeover
    with pytest.raises(Exception) as refused:
        await old.append(game, [_move(2)], fence=1)
    assert is_stale_owner(refused.value)
    await new.append(game, [_move(2)], fence=2)
    assert [e.client_id for e in await pg_store.load_events(game)] == ["c1", "c2"]


async def test_a_stale_append_fails_alone_in_its_batch(
    pg_store: Store, two_logs: tuple[EventLog, EventLog]
) -> None:
    log, _ = two_logs
    kept, lost = await _game(pg_store, "FENCE2"), await _game(pg_store, "FENCE3")
    await raise_fence(pg_store, "FENCE2", 1)
    await raise_fence(pg_store, "FENCE3", 5)
    results = await asyncio.gather(
        log.append(kept, [_move(1)], fence=1), log.append(lost, [_move(1)], fence=4), return_exceptions=True
    )
    assert results[0] is None
    assert isinstance(results[1], Exception) and is_stale_owner(results[1])
    assert len(await pg_store.load_events(kept)) == 1
    assert await pg_store.load_events(lost) == []


async def test_a_fence_is_never_lowered_nor_reused(pg_store: Store) -> None:
    await _game(pg_store, "FENCE4")
    assert await raise_fence(pg_store, "FENCE4", 3) == 0
    assert await raise_fence(pg_store, "FENCE4", 3) is None
    assert await raise_fence(pg_store, "FENCE4", 2) is None
    assert await room_fence(pg_store, "FENCE4") == 3


async def test_one_process_without_fences_appends_unchecked(
    pg_store: Store, two_logs: tuple[EventLog, EventLog]
) -> None:
    log, _ = two_logs
    game = await _game(pg_store, "FENCE5")
    await log.append(game, [_move(1)])
    assert await room_fence(pg_store, "FENCE5") == 0
    assert len(await pg_store.load_events(game)) == 1


async def test_a_stale_owners_clock_note_does_not_raise_the_checkpoint(
    pg_store: Store, two_logs: tuple[EventLog, EventLog]
) -> None:
    old, new = two_logs
    game = await _game(pg_store, "FENCE6")
    await raise_fence(pg_store, "FENCE6", 1)
    assert await _note_and_read(pg_store, old, game, 1000, fence=1) == 1000
    await raise_fence(pg_store, "FENCE6", 2)  # the takeover
    # The old owner's room clock ran on: its note is not written, and that is no error.
    assert await _note_and_read(pg_store, old, game, 9000, fence=1) == 1000
    assert old.dropped_clock_notes == 0
    assert await _note_and_read(pg_store, new, game, 2000, fence=2) == 2000


async def test_one_process_notes_its_clock_unchecked(
    pg_store: Store, two_logs: tuple[EventLog, EventLog]
) -> None:
    log, _ = two_logs
    game = await _game(pg_store, "FENCE7")
    await raise_fence(pg_store, "FENCE7", 3)
    assert await _note_and_read(pg_store, log, game, 500, fence=None) == 500


async def _note_and_read(store: Store, log: EventLog, game: int, at: int, fence: int | None) -> int | None:
    """Note the game's clock, have the log write it (stop() does), and read ``clock_at`` back."""
    await log.start()
    log.note_clock(game, at, fence)
    await log.stop()
    rec = await store.get_game(game)
    assert rec is not None
    return rec.clock_at


async def test_the_drivers_own_stale_owner_error_is_recognised(pg_store: Store) -> None:
    game = await _game(pg_store, "FENCE8")
    await raise_fence(pg_store, "FENCE8", 2)
    conn = await asyncpg.connect(**pg_connect_kwargs(pg_store.url))
    try:
        with pytest.raises(asyncpg.PostgresError) as refused:
            await conn.execute(
                "INSERT INTO game_events (game_id, seq, kind, at, fence) VALUES ($1, 1, 'tick', 0, 1)", game
            )
    finally:
        await conn.close()
    assert is_stale_owner(refused.value)
    assert not is_stale_owner(RuntimeError("BF001"))


async def _members(store: Store, code: str) -> list[tuple[str, str, int | None]]:
    return [(m.player_id, m.role, m.seat) for m in await store.list_members(code)]


async def test_lobby_writes_under_an_old_fence_are_refused_and_change_nothing(pg_store: Store) -> None:
    game = await _game(pg_store, "FENCE6")
    guest = await pg_store.create_player("Guest")
    await raise_fence(pg_store, "FENCE6", 1)
    await pg_store.write_lobby("FENCE6", [PutMember(guest.id, "spectator", None, {})], fence=1)
    assert await raise_fence(pg_store, "FENCE6", 2) == 1  # the takeover
    room, members = await pg_store.get_room("FENCE6"), await _members(pg_store, "FENCE6")
    seats = [{"player_id": guest.id, "name": "Guest", "prefs": {}}]

    refused = [
        pg_store.write_lobby("FENCE6", [PutMember(guest.id, "seat", 1, {}), PutRoom(status="playing")], 1),
        pg_store.start_game("FENCE6", [PutRoom(status="playing")], "slap", {}, seats, "s", "h", 0, fence=1),
        pg_store.finish_game(game, {"winner": 0}, fence=1),
        pg_store.update_room("FENCE6", public=False, fence=1),
        put_away(pg_store, "FENCE6", guest.id, fence=1),
    ]
    for write in refused:
        with pytest.raises(StaleOwner) as error:
            await write
        assert is_stale_owner(error.value)

    assert await pg_store.get_room("FENCE6") == room
    assert await _members(pg_store, "FENCE6") == members
    latest = await pg_store.latest_game("FENCE6")
    assert latest is not None and (latest.id, latest.status) == (game, "running")


async def test_lobby_writes_under_the_room_fence_go_through(pg_store: Store) -> None:
    game = await _game(pg_store, "FENCE7")
    guest = await pg_store.create_player("Guest")
    await raise_fence(pg_store, "FENCE7", 4)
    await pg_store.write_lobby("FENCE7", [PutMember(guest.id, "seat", 1, {})], fence=4)
    finished = await pg_store.finish_game(game, {"winner": 0}, fence=4)
    assert finished.status == "finished"
    assert (guest.id, "seat", 1) in await _members(pg_store, "FENCE7")
