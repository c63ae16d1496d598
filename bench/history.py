"""A database with a long history, fast: many finished games plus a few games still running.

Used by ``python -m bench.lifecycle startup``. The finished rooms are written as rows (SQLAlchemy
core ``executemany``, a chunk of games per transaction) rather than through the app, which would
take hours for 100,000 games; the few running games go through the app's own :class:`RoomManager`,
so they are exactly what a real start of a game stores.

Every finished game is the same real kuuduk game of two seats: one random playout, its seed, its
options and its result, and the first :data:`EVENTS_PER_GAME` inputs of its log as that game's
events (they replay: a finished room opened later rebuilds without error). Rooms, players and
members are all distinct rows, as a server that hosted that many games would hold.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Table, text
from sqlalchemy.ext.asyncio import AsyncConnection

from app.bots.playout import playout
from app.db.event_log import EventLog
from app.db.models import Game, GameEvent, Player, Room, RoomMember
from app.db.store import Store
from app.engines import get_engine
from app.engines.base import seed_hash
from app.rooms.clock import MonotonicClock
from app.rooms.lobby import validate_options
from app.rooms.manager import CODE_ALPHABET, CODE_LENGTH, RoomManager
from app.rooms.table import event_of

GAME = "kuuduk"
SEATS = 2
EVENTS_PER_GAME = 4
CHUNK = 2000
"""Games per transaction (a chunk is ~5 rows per game across the five tables)."""
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Template:
    """The one finished game every bulk room repeats (with its own room, players and ids)."""

    options: dict[str, Any]
    seed: str
    result: dict[str, Any]
    events: list[dict[str, Any]]


def template(seed: str = "bench-history") -> Template:
    engine = get_engine(GAME)
    options = validate_options(engine, {})
    played = playout(engine, SEATS, engine.options_model.model_validate(options), seed, random.Random(seed))
    events = []
    for seq, inp in enumerate(played.log[:EVENTS_PER_GAME], start=1):
        ev = event_of(seq, inp, None)
        events.append({"seq": ev.seq, "kind": ev.kind, "seat": ev.seat, "action": ev.action, "at": ev.at})
    result = played.outcome.to_json()
    assert isinstance(result, dict)
    return Template(options=options, seed=seed, result=result, events=events)


def room_code(index: int) -> str:
    """A distinct code per index (base 31 in the app's alphabet); the app's random codes retry on a clash."""
    digits = []
    for _ in range(CODE_LENGTH):
        index, d = divmod(index, len(CODE_ALPHABET))
        digits.append(CODE_ALPHABET[d])
    return "".join(reversed(digits))


@dataclass
class Chunk:
    players: list[dict[str, Any]]
    rooms: list[dict[str, Any]]
    members: list[dict[str, Any]]
    games: list[dict[str, Any]]
    events: list[dict[str, Any]]


def chunk_rows(t: Template, first: int, count: int) -> Chunk:
    """Rows of games ``first`` .. ``first + count - 1`` (game ids are ``index + 1``)."""
    c = Chunk([], [], [], [], [])
    for i in range(first, first + count):
        code = room_code(i)
        created = EPOCH + timedelta(seconds=30 * i)  # one game every 30 s, oldest first
        finished = created + timedelta(minutes=10)
        ids = [f"{i:024x}{seat:08x}" for seat in range(SEATS)]  # 32 hex characters, like uuid4().hex
        seats = []
        for seat, pid in enumerate(ids):
            name = f"p{i}-{seat}"
            c.players.append({"id": pid, "name": name, "bot": False, "created_at": created})
            c.members.append({"room_code": code, "player_id": pid, "role": "seat", "seat": seat, "prefs": {}})
            seats.append({"player_id": pid, "name": name, "prefs": {}, "bot": False})
        c.rooms.append(
            {
                "code": code,
                "game": GAME,
                "options": t.options,
                "public": i % 2 == 0,
                "host_id": ids[0],
                "status": "finished",
                "created_at": created,
                "touched_at": finished,
            }
        )
        c.games.append(
            {
                "id": i + 1,
                "room_code": code,
                "engine": GAME,
                "options": t.options,
                "seats": seats,
                "seed": t.seed,
                "seed_hash": seed_hash(t.seed),
                "status": "finished",
                "result": t.result,
                "started_at": 0,
                "created_at": created,
                "finished_at": finished,
                "clock_at": None,
            }
        )
        c.events.extend({"game_id": i + 1, **ev} for ev in t.events)
    return c


def chunks(games: int) -> Iterator[tuple[int, int]]:
    for first in range(0, games, CHUNK):
        yield first, min(CHUNK, games - first)


async def insert_finished(store: Store, games: int) -> None:
    """``games`` finished rooms, each with two seated players, one finished game and its events."""
    t = template()
    tables: list[tuple[Table, str]] = [
        (Player.__table__, "players"),  # type: ignore[list-item]  # declarative __table__ is a FromClause
        (Room.__table__, "rooms"),  # type: ignore[list-item]
        (RoomMember.__table__, "members"),  # type: ignore[list-item]
        (Game.__table__, "games"),  # type: ignore[list-item]
        (GameEvent.__table__, "events"),  # type: ignore[list-item]
    ]
    for first, count in chunks(games):
        rows = chunk_rows(t, first, count)
        async with store.engine.begin() as conn:
            for table, field in tables:  # in foreign-key order
                await conn.execute(table.insert(), getattr(rows, field))
    async with store.engine.begin() as conn:
        await _after_explicit_ids(conn)


async def _after_explicit_ids(conn: AsyncConnection) -> None:
    """The games were given explicit ids: PostgreSQL's sequence must move past them (SQLite's
    rowid already does), or the next game the app starts would collide."""
    if conn.dialect.name == "postgresql":
        await conn.execute(
            text("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT max(id) FROM games))")
        )


async def analyze(store: Store) -> None:
    """Planner statistics, as autovacuum would gather after such a load (PostgreSQL only: SQLite
    deployments rarely run ANALYZE, so it is left as it stands)."""
    if store.dialect == "postgresql":
        async with store.engine.connect() as conn:
            await conn.execute(text("ANALYZE"))
            await conn.commit()


async def start_running_games(store: Store, count: int) -> None:
    """``count`` rooms with a game started through the app (host and one more person seated)."""
    event_log = EventLog(store)
    await event_log.start()
    manager = RoomManager(store, event_log, MonotonicClock())
    try:
        for i in range(count):
            await start_one(manager, i)
    finally:
        await manager.stop()
        await event_log.stop()


async def start_one(manager: RoomManager, index: int) -> None:
    store = manager.store
    host = await store.create_player(f"host{index}")
    guest = await store.create_player(f"guest{index}")
    room = await manager.create(game=GAME, options={}, public=False, host_id=host.id, host_name=host.name)

    async def seat_guest() -> object:
        return await room.desk.join_seat(guest.id, guest.name, None, {})

    async def start() -> object:
        return await room.desk.start_game(host.id)

    await room.call(seat_guest)
    await room.call(start)
