"""A real room manager on a temp SQLite database with a manual clock, and a way to let rooms settle."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.db.event_log import EventLog
from app.db.store import Store, migrate
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


class FakePeer:
    """A connection as a room sees it, with the link and write delays a test chooses.

    Its send queue holds ``capacity`` frames (the client reads them with ``drain``);
    a full queue is emptied and ``send`` answers False, as the real transport does.
    Every frame also lands in ``frames`` at once. Numbered frames count as written
    ``write_ms`` after queueing on ``clock`` (never, without a clock).
    """

    def __init__(
        self,
        player_id: str,
        capacity: int = 10_000,
        *,
        clock: ManualClock | None = None,
        rtt: int | None = None,
        jitter: int | None = None,
        write_ms: int = 0,
        verified: tuple[int, int] | None = None,
        unverifiable: bool = False,
    ) -> None:
        self.player_id = player_id
        self.verified, self.unverifiable = verified, unverifiable
        self.capacity = capacity
        self.queue: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.overflows = 0
        self.closed_with: tuple[int, str] | None = None
        self.racing: bool | None = None
        """What the room last told it: may a race be judged with its link (None: nothing yet)."""
        self._clock, self._rtt, self._jitter, self._write_ms = clock, rtt, jitter, write_ms
        self._written: list[tuple[int, int]] = []

    @property
    def rtt(self) -> int | None:
        return self._rtt

    @property
    def jitter(self) -> int | None:
        return self._jitter

    def written_at(self, seq: int) -> int | None:
        return next((at for s, at in self._written if s >= seq), None)

    def send(self, text: str, seq: int | None = None) -> bool:
        if len(self.queue) >= self.capacity:
            self.overflows += 1
            self.queue.clear()
            return False
        if seq is not None and self._clock is not None:
            self._written.append((seq, self._clock.now() + self._write_ms))
        self.queue.append(text)
        self.frames.append(json.loads(text))
        return True

    def set_racing(self, racing: bool) -> None:
        self.racing = racing

    def close(self, code: int, error: str, message: str) -> None:
        self.closed_with = (code, error)

    def drain(self) -> list[dict[str, Any]]:
        """The frames still queued (what a client reading now gets), oldest first."""
        frames = [json.loads(t) for t in self.queue]
        self.queue.clear()
        return frames

    def reply(self, action_id: str) -> dict[str, Any]:
        """The answer (ack or reject) to ``action_id``."""
        return next(f for f in self.frames if f.get("id") == action_id)
