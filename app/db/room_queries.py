"""Room queries of the lobby that read the database, not the rooms loaded in memory.

Rooms are unloaded from memory when idle, so what the lobby lists or counts comes from the rows:
the public rooms waiting for players (a page at a time), and how many rooms a player hosts.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, func, or_, select

from app.db.models import Room, RoomMember
from app.db.store import Store, _aware

UNFINISHED = ("lobby", "playing")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class OpenRoom:
    code: str
    game: str
    status: str
    players: int
    """Seated members (bots included)."""
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RoomPage:
    rooms: list[OpenRoom]
    next: str | None
    """The cursor of the following page; None on the last one."""


class BadCursor(ValueError):
    """The cursor was not made by :func:`open_rooms`."""


def encode_cursor(created_at: datetime, code: str) -> str:
    """The position after a room, opaque to clients (they only hand it back)."""
    micros = (_aware(created_at) - EPOCH) // MICROSECOND  # integers: a float would lose the last digit
    return base64.urlsafe_b64encode(f"{micros}.{code}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        micros, code = text.split(".", 1)
        when = EPOCH + int(micros) * MICROSECOND
    except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError, OSError):
        raise BadCursor(cursor) from None
    if not code.isalnum() or len(code) > 8:
        raise BadCursor(cursor)
    return when, code


async def open_rooms(store: Store, limit: int, cursor: str | None = None) -> RoomPage:
    """Public rooms in the lobby with their seated count, newest first, ``limit`` a page.

    Keyset paging on (created_at, code), both descending so that one index serves the order:
    a room created or filled between two pages never shifts the next page.
    """
    seated = (
        select(RoomMember.room_code, func.count().label("players"))
        .where(RoomMember.role == "seat")
        .group_by(RoomMember.room_code)
        .subquery()
    )
    query = (
        select(Room.code, Room.game, Room.status, Room.created_at, func.coalesce(seated.c.players, 0))
        .outerjoin(seated, seated.c.room_code == Room.code)
        .where(Room.status == "lobby", Room.public.is_(True))
        .order_by(Room.created_at.desc(), Room.code.desc())
        .limit(limit + 1)  # one more tells whether a next page exists
    )
    if cursor is not None:
        when, code = decode_cursor(cursor)
        query = query.where(or_(Room.created_at < when, and_(Room.created_at == when, Room.code < code)))
    async with store.sessions() as session:
        rows = (await session.execute(query)).all()
    rooms = [
        OpenRoom(code=code, game=game, status=status, players=int(players), created_at=_aware(created))
        for code, game, status, created, players in rows[:limit]
    ]
    more = len(rows) > limit
    return RoomPage(rooms, encode_cursor(rooms[-1].created_at, rooms[-1].code) if more else None)


async def hosted_unfinished(store: Store, host_id: str) -> int:
    """How many rooms ``host_id`` hosts and is still in that are not finished (lobby or playing).

    A host who left a room nobody else was in keeps the title (app.rooms.lobby) but not the room:
    it does not count.
    """
    query = (
        select(func.count())
        .select_from(Room)
        .join(RoomMember, and_(RoomMember.room_code == Room.code, RoomMember.player_id == Room.host_id))
        .where(Room.host_id == host_id, Room.status.in_(UNFINISHED))
    )
    async with store.sessions() as session:
        return int(await session.scalar(query) or 0)
