"""Every log line about a room names it: ``room=<code>``, so one grep follows a table through the log."""

from __future__ import annotations

import logging

import pytest

from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager


async def _broken() -> None:
    raise ValueError("a command's bug")


async def test_a_room_log_line_carries_the_room_code(
    manager: RoomManager, caplog: pytest.LogCaptureFixture
) -> None:
    host = await manager.store.create_player("Ana")
    room = await manager.create(game="slap", options={}, public=False, host_id=host.id, host_name="Ana")
    with caplog.at_level(logging.ERROR, logger="app.rooms.room"), pytest.raises(RoomError):
        await room.call(_broken)
    (line,) = [r.getMessage() for r in caplog.records if r.name == "app.rooms.room"]
    assert line.startswith(f"room={room.code} ")
