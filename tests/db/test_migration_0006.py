"""Migration 0006: who played each existing game comes from its ``seats``; a stand-in column for the log."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa

from app.db import Store
from app.db.match_queries import played_by
from app.db.store import create_engine, downgrade_sync, migrate_sync
from tests.db.test_migration_0003 import games, players, rooms


async def _to(url: str, revision: str) -> None:
    await asyncio.to_thread(migrate_sync, url, revision)


async def _seed_0005(url: str) -> None:
    """Two players and two games as a 0005 server wrote them (no game_seats yet)."""
    engine = create_engine(url)
    now = sa.func.current_timestamp()
    try:
        async with engine.begin() as conn:
            for pid, name in (("a" * 32, "Ana"), ("b" * 32, "Bo")):
                await conn.execute(sa.insert(players).values(id=pid, name=name, created_at=now, bot=False))
            await conn.execute(
                sa.insert(rooms).values(
                    code="OLD6",
                    game="slap",
                    options={},
                    public=True,
                    host_id="a" * 32,
                    status="finished",
                    created_at=now,
                )
            )
            for game_id, seated in ((1, ["a" * 32, "b" * 32]), (2, ["b" * 32, "a" * 32])):
                seats = [{"player_id": pid, "name": "x", "prefs": {}} for pid in seated]
                await conn.execute(
                    sa.insert(games).values(
                        id=game_id,
                        room_code="OLD6",
                        engine="slap",
                        options={},
                        seats=seats,
                        seed="s",
                        seed_hash="h",
                        status="finished",
                        started_at=0,
                        created_at=now,
                    )
                )
    finally:
        await engine.dispose()


async def test_upgrade_lists_each_existing_game_for_its_players(db_url: str) -> None:
    await _to(db_url, "0005")
    await _seed_0005(db_url)
    await _to(db_url, "0006_audit")
    store = Store(db_url)
    try:
        ana = await played_by(store, "a" * 32, 10)
        bo = await played_by(store, "b" * 32, 10)
    finally:
        await store.close()
    assert [(m.id, m.seat) for m in ana] == [(2, 1), (1, 0)]
    assert [(m.id, m.seat) for m in bo] == [(2, 0), (1, 1)]


async def test_downgrade_then_upgrade_again(db_url: str) -> None:
    await _to(db_url, "0005")
    await _seed_0005(db_url)
    await _to(db_url, "0006_audit")
    await asyncio.to_thread(downgrade_sync, db_url, "0005")
    await _to(db_url, "0006_audit")
    store = Store(db_url)
    try:
        assert [m.id for m in await played_by(store, "a" * 32, 1)] == [2]
    finally:
        await store.close()
