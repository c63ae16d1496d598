"""Persistence: SQLAlchemy models, the async :class:`Store` and the group-committed :class:`EventLog`.

Alembic (``migrations/``) owns the schema; :func:`migrate` runs ``upgrade head`` from code.
"""

from .event_log import EventLog
from .store import (
    DEFAULT_DATABASE_URL,
    CodeTaken,
    EventRec,
    GameRec,
    MemberRec,
    NotFound,
    PlayerRec,
    RoomRec,
    SeatTaken,
    Store,
    StoreError,
    create_engine,
    database_url,
    downgrade,
    migrate,
    normalize_url,
)

__all__ = [
    "DEFAULT_DATABASE_URL",
    "CodeTaken",
    "EventLog",
    "EventRec",
    "GameRec",
    "MemberRec",
    "NotFound",
    "PlayerRec",
    "RoomRec",
    "SeatTaken",
    "Store",
    "StoreError",
    "create_engine",
    "database_url",
    "downgrade",
    "migrate",
    "normalize_url",
]
