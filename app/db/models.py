"""SQLAlchemy 2 declarative models: the whole schema, portable between SQLite and PostgreSQL.

Alembic owns every schema change (``migrations/``); these models are the target
that ``alembic revision --autogenerate`` and the schema test compare against, so a
change here needs a matching migration.

Times the room clock produces (``games.started_at``, ``games.clock_at``, ``game_events.at``) are
integer milliseconds (``BigInteger``); wall-clock timestamps are timezone-aware.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Deterministic constraint names, so migrations can refer to (and drop) them by name.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: JSON whose Python ``None`` is stored as SQL NULL (not the JSON literal ``null``).
NullableJSON = JSON(none_as_null=True)


def utcnow() -> datetime:
    """The current wall-clock time, timezone-aware (UTC)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # uuid4 hex
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ServerKey(Base):
    """Server-wide secrets and settings (e.g. the token-signing key when no env var gives one)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Room(Base):
    __tablename__ = "rooms"
    __table_args__ = (
        Index("ix_rooms_status_public", "status", "public"),
        # The paged public list (app.db.room_queries): filter and keyset order from one index.
        Index("ix_rooms_status_public_created_at_code", "status", "public", "created_at", "code"),
        Index("ix_rooms_host_id_status", "host_id", "status"),
        Index("ix_rooms_status_touched_at", "status", "touched_at"),
    )

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16))  # 'lobby' | 'playing' | 'finished' | 'expired'
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Last put away after use (see app.rooms.manager): a lobby untouched for long expires.
    touched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The fencing number of the process that owns the room when several share the rooms through
    # Redis (app.cluster); 0 with one process. Events carrying another number are refused.
    # Deferred: read only where ownership is decided (app.db.fences), never with the room.
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0", deferred=True)


class RoomMember(Base):
    __tablename__ = "room_members"
    __table_args__ = (
        # Spectators have a NULL seat; NULLs never collide in a unique constraint (SQLite and PostgreSQL).
        UniqueConstraint("room_code", "seat"),
        CheckConstraint("role IN ('seat', 'spectator', 'left')", name="role"),
    )

    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(16))  # 'seat' | 'spectator' | 'left'
    seat: Mapped[int | None] = mapped_column(Integer)
    prefs: Mapped[dict[str, Any]] = mapped_column(JSON)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_room_code_id", "room_code", "id"),
        Index("ix_games_status", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"))
    engine: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # per seat: player_id, name, prefs
    seed: Mapped[str] = mapped_column(String(128))
    seed_hash: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16))  # 'running' | 'finished'
    result: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON)
    started_at: Mapped[int] = mapped_column(BigInteger)  # room-clock ms
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The latest room-clock ms known durable for this game: a restart resumes the clock here,
    # not at the last logged input (an idle turn must not get its idle time back). Only raised.
    clock_at: Mapped[int | None] = mapped_column(BigInteger)


class GameEvent(Base):
    """One input of a game, append-only; replaying them in ``seq`` order rebuilds the state."""

    __tablename__ = "game_events"
    __table_args__ = (
        # A retried client action id can never be stored twice (NULL client ids never collide).
        UniqueConstraint("game_id", "seat", "client_id"),
        CheckConstraint("kind IN ('move', 'tick', 'end', 'stop')", name="kind"),
        CheckConstraint("actor IN ('standin')", name="actor"),
    )

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    # 'move' | 'tick' | 'end' (the host ended a decided match) | 'stop' (the host ended it as it stood)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[Any] = mapped_column(NullableJSON, nullable=True)
    at: Mapped[int] = mapped_column(BigInteger)  # room-clock ms
    rtt: Mapped[int | None] = mapped_column(Integer)
    client_id: Mapped[str | None] = mapped_column(String(64))
    # What the server, not the client, recorded about the input: kept out of ``action`` so the
    # action is exactly what the player sent. ``timing``: the race timing of a move (an object);
    # ``rulings``: the race rulings the input produced (a list of objects, audit only).
    timing: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)
    rulings: Mapped[list[dict[str, Any]] | None] = mapped_column(NullableJSON, nullable=True)
    # Who moved for the seat: NULL its own player (a person, or a bot the host seated there),
    # 'standin' a bot playing for a person gone past the seat hold (the seat stays theirs).
    actor: Mapped[str | None] = mapped_column(String(16))

    # The writer's fencing number (migration 0008_redis); NULL with one process, never checked.
    fence: Mapped[int | None] = mapped_column(BigInteger, nullable=True, deferred=True)  # written, never read


class GameSeat(Base):
    """Who held each seat of a game: a player's own matches are listed from here."""

    __tablename__ = "game_seats"
    __table_args__ = (Index("ix_game_seats_player_id_game_id", "player_id", "game_id"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))


__all__ = [
    "NAMING_CONVENTION",
    "Base",
    "Game",
    "GameEvent",
    "GameSeat",
    "Player",
    "Room",
    "RoomMember",
    "ServerKey",
    "utcnow",
]
