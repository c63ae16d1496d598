"""Migration 0007: members who left a running game and the host's end in the log, and back."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from app.db import EventLog, EventRec, Store, downgrade


async def _room_with_a_leaver_and_a_stopped_game(url: str) -> int:
    store = Store(url)
    log = EventLog(store)
    await log.start()
    try:
        host = await store.create_player("Ana")
        bo = await store.create_player("Bo")
        await store.create_room("MIG6", "slap", {}, True, host.id)
        await store.put_member("MIG6", bo.id, "left", 1, {})
        game = await store.create_game("MIG6", "slap", {}, [], "s", "h", 0)
        await log.append(game.id, [EventRec(1, "tick", None, None, 10), EventRec(2, "stop", None, None, 20)])
        return game.id
    finally:
        await log.stop()
        await store.close()


async def test_a_leaver_and_the_hosts_end_are_stored_and_read_back(migrated_url: str) -> None:
    game_id = await _room_with_a_leaver_and_a_stopped_game(migrated_url)
    store = Store(migrated_url)
    try:
        assert [(m.name, m.role, m.seat) for m in await store.list_members("MIG6")] == [("Bo", "left", 1)]
        assert [e.kind for e in await store.load_events(game_id)] == ["tick", "stop"]
        with pytest.raises(IntegrityError):
            await store.put_member("MIG6", (await store.create_player("Cy")).id, "gone", None, {})
    finally:
        await store.close()


async def test_downgrading_makes_a_leaver_a_spectator_and_drops_the_hosts_end(migrated_url: str) -> None:
    game_id = await _room_with_a_leaver_and_a_stopped_game(migrated_url)
    await downgrade(migrated_url, "0006_audit")
    store = Store(migrated_url)
    try:
        assert [(m.role, m.seat) for m in await store.list_members("MIG6")] == [("spectator", None)]
        assert [e.kind for e in await store.load_events(game_id)] == ["tick"]
        with pytest.raises(IntegrityError):
            await store.put_member("MIG6", (await store.create_player("Cy")).id, "left", 2, {})
    finally:
        await store.close()
