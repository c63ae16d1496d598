"""A real room manager on a temp SQLite database with a manual clock, and a way to let rooms settle."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

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


class MemoryPeer:
    """A connection whose send queue holds ``capacity`` frames; ``drain`` is the client reading them."""

    def __init__(self, player_id: str, capacity: int) -> None:
        self.player_id = player_id
        self.capacity = capacity
        self.seq = 0
        self.view_key: int | str | None = "none"
        self.needs_snapshot = True
        self.snapshot_reason = "join"
        self.overflows = 0
        self.on_overflow: Callable[[], None] | None = None
        self.queue: list[str] = []
        self.received: list[dict[str, Any]] = []
        self.closed_with: tuple[int, str] | None = None
        self.stimuli: dict[str, tuple[int, int]] = {}

    @property
    def rtt(self) -> int | None:
        return None

    @property
    def jitter(self) -> int | None:
        return None

    def written_at(self, seq: int) -> int | None:
        return None

    def send(self, text: str, seq: int | None = None) -> None:
        if len(self.queue) >= self.capacity:
            self.overflows += 1
            self.queue.clear()
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queue.append(text)

    def close(self, code: int, error: str, message: str) -> None:
        self.closed_with = (code, error)

    def drain(self) -> list[dict[str, Any]]:
        frames = [json.loads(t) for t in self.queue]
        self.queue.clear()
        self.received.extend(frames)
        return frames
