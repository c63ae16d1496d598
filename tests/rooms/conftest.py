"""A real room manager on a temp SQLite database with a manual clock, and a way to let rooms settle."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.db.store import EventLog, Store, migrate
from app.rooms.clock import ManualClock
from app.rooms.manager import RoomManager
from app.rooms.room import Room


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[RoomManager]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'rooms.db'}"
    await migrate(url)
    store = Store(url)
    log = EventLog(store)
    await log.start()
    manager = RoomManager(store, log, ManualClock())
    yield manager
    await manager.stop()
    await log.stop()
    await store.close()


async def _noop() -> None:
    return None


async def settle(room: Room) -> None:
    """Let the room finish its turns: each call completes inside a later turn than the last."""
    for _ in range(3):
        await room.call(_noop)
