"""Ownership fences: the database refuses event-log appends and lobby writes from a process that
lost its room."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from app.db import EventLog, EventRec, Store, migrate
from app.db.fences import is_stale_owner, raise_fence, room_fence
from app.db.lobby_writes import PutMember, PutRoom
from app.db.room_lifecycle import put_away
from app.db.store import StaleOwner
from tests.db.conftest import _pg_admin

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pg_store() -> AsyncIterator[Store]:
    """The fence trigger is PostgreSQL's (several processes need PostgreSQL): a fresh schema."""
    base, admin = await _pg_admin()
    schema = f"bordet_fence_{uuid.uuid4().hex[:12]}"
    async with admin.begin() as conn:
        await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = f"{base}?options=-csearch_path%3D{schema}"
    await migrate(url)
    store = Store(url)
    try:
        yield store
    finally:
        await store.close()
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()


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
