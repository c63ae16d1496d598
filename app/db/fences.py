"""The database's half of room ownership: the fence a new owner raises before it loads a room.

An owner raises ``rooms.fence`` to its lease's number before it reads the room (so it reads
every event the previous owner managed to commit); from then on the trigger of migration
``0008_redis`` refuses any event carrying an older number (:func:`is_stale_owner`).
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, select, update

from app.db.event_log import is_stale_owner
from app.db.models import Room
from app.db.store import Store

__all__ = ["is_stale_owner", "raise_fence", "room_fence"]


async def raise_fence(store: Store, code: str, fence: int) -> int | None:
    """Make ``fence`` the room's fence; None if it holds that number or a larger one already (a
    later owner came first, or the number was used), else the number it held before."""
    async with store.sessions.begin() as session:
        before = await session.scalar(select(Room.fence).where(Room.code == code).with_for_update())
        if before is None or before >= fence:
            return None
        done = await session.execute(update(Room).where(Room.code == code).values(fence=fence))
        return int(before) if cast("CursorResult[Any]", done).rowcount else None


async def room_fence(store: Store, code: str) -> int | None:
    async with store.sessions() as session:
        value = await session.scalar(select(Room.fence).where(Room.code == code))
        return None if value is None else int(value)
