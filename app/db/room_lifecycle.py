"""The rows behind a room's life in memory: marking it used when it is put away, dropping the
spectators nobody keeps, and expiring lobbies nobody came back to."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, update

from app.db.models import Room, RoomMember, utcnow
from app.db.store import Store, hold_fence

CHUNK = 500
"""Codes per statement (an IN list far longer than this is slow on both databases)."""


async def put_away(store: Store, code: str, host_id: str, fence: int | None = None) -> None:
    """Room ``code`` leaves memory: it was used until now, and its spectators (nobody is connected
    any more) are not kept; the host stays a member whatever they were doing. ``fence``: the
    owner's (refused if another process holds the room now)."""
    async with store.sessions.begin() as session:
        await hold_fence(session, fence, Room.code == code)
        await session.execute(update(Room).where(Room.code == code).values(touched_at=utcnow()))
        await session.execute(
            delete(RoomMember).where(
                RoomMember.room_code == code, RoomMember.role == "spectator", RoomMember.player_id != host_id
            )
        )


async def touch(store: Store, codes: Sequence[str]) -> None:
    """Rooms in use right now (loaded in memory) count as used now."""
    now = utcnow()
    for start in range(0, len(codes), CHUNK):
        chunk = list(codes[start : start + CHUNK])
        async with store.sessions.begin() as session:
            await session.execute(update(Room).where(Room.code.in_(chunk)).values(touched_at=now))


async def expire_lobbies(store: Store, untouched_before: datetime) -> int:
    """Lobby rooms last used before ``untouched_before`` become ``expired``: gone from the list and
    closed to everyone, their rows kept. Returns how many expired."""
    async with store.sessions.begin() as session:
        result = await session.execute(
            update(Room)
            .where(Room.status == "lobby", Room.touched_at < untouched_before)
            .values(status="expired")
        )
    return int(getattr(result, "rowcount", 0) or 0)
