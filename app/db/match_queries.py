"""Reads of finished games for their audit: one match, its events a page at a time, a player's matches.

The rooms never call these: they read rows the event log has committed, so a page is
exactly what was stored, whatever the room holds in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from app.db.models import Game, GameEvent, GameSeat
from app.db.store import EventRec, GameRec, Store, _aware, _event_rec, _game_rec


@dataclass(frozen=True, slots=True)
class MatchRec:
    game: GameRec
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """One match in a player's list: the game, where they sat, and when."""

    id: int
    room_code: str
    engine: str
    status: str
    seat: int
    created_at: datetime
    finished_at: datetime | None


async def get_match(store: Store, game_id: int) -> MatchRec | None:
    async with store.sessions() as session:
        row = await session.get(Game, game_id)
        if row is None:
            return None
        finished = _aware(row.finished_at) if row.finished_at is not None else None
        return MatchRec(_game_rec(row), _aware(row.created_at), finished)


async def events_after(store: Store, game_id: int, after: int, limit: int) -> list[EventRec]:
    """At most ``limit`` events of a game with ``seq > after``, in order (keyset on the primary key)."""
    query = (
        select(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.seq > after)
        .order_by(GameEvent.seq)
        .limit(limit)
    )
    async with store.sessions() as session:
        return [_event_rec(row) for row in await session.scalars(query)]


async def played_by(store: Store, player_id: str, limit: int, before: int | None = None) -> list[PlayedMatch]:
    """The matches ``player_id`` held a seat in, newest first, at most ``limit``, ids below ``before``."""
    query = (
        select(Game, GameSeat.seat)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .where(GameSeat.player_id == player_id)
        .order_by(Game.id.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(Game.id < before)
    async with store.sessions() as session:
        rows = (await session.execute(query)).all()
    return [
        PlayedMatch(
            id=game.id,
            room_code=game.room_code,
            engine=game.engine,
            status=game.status,
            seat=seat,
            created_at=_aware(game.created_at),
            finished_at=_aware(game.finished_at) if game.finished_at is not None else None,
        )
        for game, seat in rows
    ]
