"""Repositories over the models: plain frozen records in and out, never ORM objects.

* :func:`database_url` / :func:`normalize_url` pick and normalise the database URL.
* :func:`migrate` runs Alembic ``upgrade head`` programmatically.
* :class:`Store` is the async repository the API and the rooms use (the group-committed game
  log, :class:`app.db.event_log.EventLog`, writes through its own connection).

>>> normalize_url("postgres://u@h/db")
'postgresql+asyncpg://u@h/db'
>>> normalize_url("sqlite:///x.db")
'sqlite+aiosqlite:///x.db'
>>> normalize_url("sqlite+aiosqlite:///x.db")
'sqlite+aiosqlite:///x.db'
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlencode

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import CursorResult, delete, event, func, select, text, update
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.sql.elements import ColumnElement

from .lobby_writes import DropMember, LobbyWrite, PutMember
from .models import Game, GameEvent, GameSeat, Player, Room, RoomMember, ServerKey, utcnow

log = logging.getLogger(__name__)

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/bordet.db"

#: Where Alembic's scripts live (the repository root's ``migrations/``).
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


# --------------------------------------------------------------------------- URLs


def normalize_url(url: str) -> str:
    """Map plain driver-less URLs onto the async drivers this app uses."""
    for plain in ("postgres://", "postgresql://"):
        if url.startswith(plain):
            return "postgresql+asyncpg://" + url[len(plain) :]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    return url


def sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite URL; None for any other database, and for in-memory or ``file:`` URIs."""
    if not url.drivername.startswith("sqlite"):
        return None
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def ensure_sqlite_dir(url: str) -> None:
    """Create the parent directory of a SQLite file URL when it is missing."""
    path = sqlite_file(make_url(url))
    if path is not None and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)


def database_url() -> str:
    """``$DATABASE_URL`` (normalised to an async driver), else the SQLite file ``./data/bordet.db``."""
    url = normalize_url(os.environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL)
    ensure_sqlite_dir(url)
    return url


def _pg_server_settings(url: URL) -> tuple[URL, dict[str, str]]:
    """Honour libpq's ``?options=-c name=value ...`` (e.g. a ``search_path``) for asyncpg.

    asyncpg has no ``options`` parameter; it takes ``server_settings`` instead.
    """
    raw = url.query.get("options")
    if raw is None:
        return url, {}
    text = raw if isinstance(raw, str) else " ".join(raw)
    settings: dict[str, str] = {}
    words = iter(shlex.split(text))
    for word in words:
        if word == "-c":
            setting = next(words, "")
        elif word.startswith("-c"):
            setting = word[2:]
        else:
            setting = ""
        name, sep, value = setting.partition("=")
        if not (name and sep):
            raise ValueError(f"unsupported PostgreSQL options in database URL: {text!r} (use -c name=value)")
        settings[name] = value
    return url.difference_update_query(["options"]), settings


LIBPQ_CONNECTION_PARAMS = (
    "sslmode",
    "sslrootcert",
    "sslcert",
    "sslkey",
    "sslcrl",
    "sslpassword",
    "sslnegotiation",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
    "target_session_attrs",
    "krbsrvname",
    "gsslib",
    "passfile",
    "service",
    "application_name",
)
"""libpq URL parameters that asyncpg understands only inside a DSN, not as ``connect()`` keywords
(``application_name`` becomes a server setting there)."""


def _pg_libpq_params(url: URL) -> tuple[URL, str | None]:
    """Move libpq connection parameters (``?sslmode=require&sslrootcert=...``) into an asyncpg DSN.

    Managed PostgreSQL hands out URLs with these; SQLAlchemy would pass each as a keyword that
    asyncpg's ``connect()`` refuses, while asyncpg's own DSN parser knows them all (the explicit
    host, user and database SQLAlchemy also passes agree with the DSN's).

    >>> url, dsn = _pg_libpq_params(make_url("postgresql+asyncpg://u@h/db?sslmode=require&x=1"))
    >>> url.render_as_string(), dsn
    ('postgresql+asyncpg://u@h/db?x=1', 'postgresql://?sslmode=require')
    """
    found = {k: url.query[k] for k in LIBPQ_CONNECTION_PARAMS if k in url.query}
    if not found:
        return url, None
    pairs = [(k, v if isinstance(v, str) else v[-1]) for k, v in found.items()]
    return url.difference_update_query(list(found)), "postgresql://?" + urlencode(pairs)


def _pg_connect_args(url: URL) -> tuple[URL, dict[str, Any]]:
    """The URL asyncpg is given and the ``connect()`` keywords it needs besides (server settings,
    a DSN carrying the libpq parameters), as every connection to PostgreSQL is opened."""
    url, settings = _pg_server_settings(url)
    url, dsn = _pg_libpq_params(url)
    connect_args: dict[str, Any] = {}
    if settings:
        connect_args["server_settings"] = settings
    if dsn:
        connect_args["dsn"] = dsn
    return url, connect_args


#: URL query options SQLAlchemy's asyncpg dialect takes for itself (its own statement cache).
_SQLALCHEMY_ASYNCPG_OPTIONS = frozenset({"prepared_statement_cache_size", "prepared_statement_name_func"})


def pg_connect_kwargs(url: str) -> dict[str, Any]:
    """``asyncpg.connect()`` keywords for a PostgreSQL URL: what an engine of :func:`create_engine`
    connects with (for a connection of its own, outside SQLAlchemy).

    >>> pg_connect_kwargs("postgresql://u:pw@h:5433/db?options=-csearch_path%3Ds&sslmode=require")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'host': 'h', 'database': 'db', 'user': 'u', 'password': 'pw', 'port': 5433,
     'server_settings': {'search_path': 's'}, 'dsn': 'postgresql://?sslmode=require'}
    """
    parsed, connect_args = _pg_connect_args(make_url(normalize_url(url)))
    kwargs: dict[str, Any] = parsed.translate_connect_args(username="user")
    # The rest of the query goes to asyncpg as the engine's dialect passes it, less its own options.
    query = {k: v if isinstance(v, str) else v[-1] for k, v in parsed.query.items()}
    kwargs.update({k: v for k, v in query.items() if k not in _SQLALCHEMY_ASYNCPG_OPTIONS})
    kwargs.update(connect_args)
    return kwargs


def create_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An :class:`AsyncEngine` for ``url`` (default :func:`database_url`), set up for this app.

    SQLite connections get :data:`SQLITE_PRAGMAS` (WAL journaling, ``synchronous=NORMAL``,
    foreign keys ON). JSON columns go through orjson (every logged input is one, on the hot path).
    """
    url = normalize_url(url) if url else database_url()
    kwargs.setdefault("json_serializer", json_text)
    kwargs.setdefault("json_deserializer", orjson.loads)
    ensure_sqlite_dir(url)
    parsed = make_url(url)
    if parsed.drivername.startswith("postgresql"):
        parsed, derived = _pg_connect_args(parsed)
        connect_args = dict(kwargs.pop("connect_args", {}))
        if "server_settings" in derived:
            connect_args["server_settings"] = {
                **connect_args.get("server_settings", {}),
                **derived["server_settings"],
            }
        if "dsn" in derived:
            connect_args.setdefault("dsn", derived["dsn"])
        if connect_args:
            kwargs["connect_args"] = connect_args
    elif sqlite_file(parsed) is not None and "poolclass" not in kwargs:
        # Each pooled aiosqlite connection is a thread with its own page cache and malloc arena;
        # SQLite writes one at a time anyway, so SQLAlchemy's default of up to 15 only held memory.
        kwargs.setdefault("pool_size", SQLITE_POOL_SIZE)
        kwargs.setdefault("max_overflow", SQLITE_POOL_OVERFLOW)
    engine = create_async_engine(parsed, **kwargs)
    if parsed.drivername.startswith("sqlite"):
        event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
    return engine


def json_text(value: Any) -> str:
    """A JSON column's text, as stored on both databases (orjson's compact form)."""
    return orjson.dumps(value).decode()


#: Every SQLite connection of the app, the engine's and the event log's own, starts with these.
#: The page cache is per connection and only grows (2 MiB each by default) as the log grows; the
#: operating system caches the file for all of them, so 1 MiB each costs reads nothing measurable.
SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=30000",
    "PRAGMA cache_size=-1024",
)

#: Connections a SQLite file's engine keeps, and how many more it opens under a burst.
SQLITE_POOL_SIZE = 4
SQLITE_POOL_OVERFLOW = 4


def _sqlite_on_connect(dbapi_connection: Any, connection_record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


# --------------------------------------------------------------------------- migrations


def alembic_config(url: str | None = None) -> Config:
    """An Alembic ``Config`` pointing at ``migrations/`` and ``url`` (default :func:`database_url`)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    # ConfigParser interpolation: a literal '%' (e.g. an escaped password) must be doubled.
    cfg.set_main_option("sqlalchemy.url", (normalize_url(url) if url else database_url()).replace("%", "%%"))
    return cfg


def migrate_sync(url: str | None = None, revision: str = "head") -> None:
    """Run Alembic ``upgrade`` to ``revision``; call from a thread with no running event loop."""
    command.upgrade(alembic_config(url), revision)


def downgrade_sync(url: str | None = None, revision: str = "base") -> None:
    """Run Alembic ``downgrade`` to ``revision``; call from a thread with no running event loop."""
    command.downgrade(alembic_config(url), revision)


async def migrate(url: str | None = None) -> None:
    """Upgrade the database at ``url`` (default :func:`database_url`) to the newest schema.

    Alembic's async ``env.py`` drives its own event loop (``asyncio.run``), so the upgrade
    runs in a worker thread; the caller's loop stays free meanwhile.
    """
    await asyncio.to_thread(migrate_sync, url)


async def downgrade(url: str | None = None, revision: str = "base") -> None:
    """Downgrade the database at ``url`` to ``revision`` (default: drop everything)."""
    await asyncio.to_thread(downgrade_sync, url, revision)


# --------------------------------------------------------------------------- records and errors


def _unobserved(kind: str, seconds: float) -> None:
    pass


UNANSWERED: tuple[type[Exception], ...] = (SQLAlchemyError, OSError)
"""What a store call raises when the database could not serve it: SQLAlchemy's errors (a pool
exhausted past its timeout by a burst, a refused statement) and the driver's own socket errors,
which asyncpg raises unwrapped when it cannot connect at all."""


class StoreError(Exception):
    """Base of the errors :class:`Store` raises on purpose."""


class CodeTaken(StoreError):
    """A room with that code already exists."""


class SeatTaken(StoreError):
    """Another member already holds that seat in the room."""


class NotFound(StoreError, LookupError):
    """The row to update does not exist."""


class StaleOwner(StoreError):
    """The room's fence moved past the writer's: another process holds the room now
    (:func:`is_stale_owner`)."""


@dataclass(frozen=True, slots=True)
class PlayerRec:
    id: str
    name: str
    bot: bool = False


@dataclass(frozen=True, slots=True)
class RoomRec:
    code: str
    game: str
    options: dict[str, Any]
    public: bool
    host_id: str
    status: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MemberRec:
    player_id: str
    name: str
    role: str  # 'seat' | 'spectator' | 'left' (left a running game; a stand-in plays the seat)
    seat: int | None
    prefs: dict[str, Any]
    bot: bool = False


@dataclass(frozen=True, slots=True)
class GameRec:
    id: int
    room_code: str
    engine: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: str
    seed_hash: str
    status: str  # 'running' | 'finished'
    result: dict[str, Any] | None
    started_at: int
    #: The latest room-clock ms known durable (see :meth:`EventLog.note_clock`); None before any.
    clock_at: int | None = None


@dataclass(frozen=True, slots=True)
class EventRec:
    """One logged input: ``kind`` 'move' (seat + action), 'tick', 'end' (the host ended a decided
    match) or 'stop' (the host ended the game as it stood).

    ``at`` is room-clock ms. ``action`` is only what the client sent; what the server recorded
    about the input has its own fields: ``timing`` (a move's race timing, an object) and
    ``rulings`` (the race rulings the input produced, a list of objects; audit only). ``actor``
    says who moved for the seat: None its own player, ``"standin"`` a bot standing in for a
    person gone past the seat hold.
    """

    seq: int
    kind: str
    seat: int | None
    action: Any
    at: int
    rtt: int | None = None
    client_id: str | None = None
    timing: dict[str, Any] | None = None
    rulings: list[dict[str, Any]] | None = None
    actor: str | None = None


def _aware(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything stored is UTC.
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _player_rec(row: Player) -> PlayerRec:
    return PlayerRec(id=row.id, name=row.name, bot=row.bot)


def _room_rec(row: Room) -> RoomRec:
    return RoomRec(
        code=row.code,
        game=row.game,
        options=row.options,
        public=row.public,
        host_id=row.host_id,
        status=row.status,
        created_at=_aware(row.created_at),
    )


def _game_rec(row: Game) -> GameRec:
    return GameRec(
        id=row.id,
        room_code=row.room_code,
        engine=row.engine,
        options=row.options,
        seats=row.seats,
        seed=row.seed,
        seed_hash=row.seed_hash,
        status=row.status,
        result=row.result,
        started_at=row.started_at,
        clock_at=row.clock_at,
    )


def _event_rec(row: GameEvent) -> EventRec:
    return EventRec(
        seq=row.seq,
        kind=row.kind,
        seat=row.seat,
        action=row.action,
        at=row.at,
        rtt=row.rtt,
        client_id=row.client_id,
        timing=row.timing,
        rulings=row.rulings,
        actor=row.actor,
    )


# --------------------------------------------------------------------------- the store


class Store:
    """Async repository over one database. Every method runs in its own short transaction."""

    def __init__(self, url: str | None = None, **engine_kwargs: Any) -> None:
        self.url = normalize_url(url) if url else database_url()
        self.engine: AsyncEngine = create_engine(self.url, **engine_kwargs)
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
            self.engine, expire_on_commit=False
        )
        self.observe_commit: Callable[[str, float], None] = _unobserved
        """Told how long each durable write of the game path took: "events" (a group commit of the
        event log) or "lobby" (a lobby command's transaction). The app points it at its metrics."""

    @property
    def dialect(self) -> str:
        """'sqlite' or 'postgresql'."""
        return self.engine.dialect.name

    async def close(self) -> None:
        await self.engine.dispose()

    async def ping(self) -> None:
        """One trivial query; raises whatever keeps the database from answering it."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    # players ---------------------------------------------------------------

    async def create_player(self, name: str, *, bot: bool = False) -> PlayerRec:
        player = Player(id=uuid.uuid4().hex, name=name, bot=bot, created_at=utcnow())
        async with self.sessions.begin() as session:
            session.add(player)
        return _player_rec(player)

    async def get_player(self, player_id: str) -> PlayerRec | None:
        async with self.sessions() as session:
            row = await session.get(Player, player_id)
            return _player_rec(row) if row is not None else None

    # server keys -------------------------------------------------------------

    async def get_key(self, name: str) -> str | None:
        async with self.sessions() as session:
            value: str | None = await session.scalar(select(ServerKey.value).where(ServerKey.name == name))
            return value

    async def get_or_create_key(self, name: str, factory: Callable[[], str]) -> str:
        """The stored value of ``name``; on first use store ``factory()`` (the first writer wins)."""
        existing = await self.get_key(name)
        if existing is not None:
            return existing
        value = factory()
        try:
            async with self.sessions.begin() as session:
                session.add(ServerKey(name=name, value=value))
        except IntegrityError:
            pass  # somebody else stored it first: theirs wins
        stored = await self.get_key(name)
        if stored is None:  # pragma: no cover - the row cannot vanish between the two statements
            raise StoreError(f"server key {name!r} could not be stored")
        return stored

    # rooms -------------------------------------------------------------------

    async def create_room(
        self, code: str, game: str, options: dict[str, Any], public: bool, host_id: str
    ) -> RoomRec:
        """Insert a lobby room; raises :class:`CodeTaken` when ``code`` is in use."""
        room = Room(
            code=code,
            game=game,
            options=options,
            public=public,
            host_id=host_id,
            status="lobby",
            created_at=utcnow(),
        )
        try:
            async with self.sessions.begin() as session:
                session.add(room)
        except IntegrityError as exc:
            if await self.get_room(code) is not None:
                raise CodeTaken(code) from exc
            raise
        return _room_rec(room)

    async def get_room(self, code: str) -> RoomRec | None:
        async with self.sessions() as session:
            row = await session.get(Room, code)
            return _room_rec(row) if row is not None else None

    async def update_room(
        self,
        code: str,
        *,
        options: dict[str, Any] | None = None,
        public: bool | None = None,
        status: str | None = None,
        host_id: str | None = None,
        fence: int | None = None,
    ) -> RoomRec:
        """Change only the fields given (not None); returns the updated room, :class:`NotFound` if none.
        ``fence``: the writing owner's, when several processes share the rooms (see :func:`hold_fence`)."""
        values: dict[str, Any] = {}
        if host_id is not None:
            values["host_id"] = host_id
        if options is not None:
            values["options"] = options
        if public is not None:
            values["public"] = public
        if status is not None:
            values["status"] = status
        async with self.sessions.begin() as session:
            await hold_fence(session, fence, Room.code == code)
            if values:
                await session.execute(update(Room).where(Room.code == code).values(**values))
            row = await session.get(Room, code)
            if row is None:
                raise NotFound(f"room {code!r}")
            return _room_rec(row)

    async def list_public_rooms(self, status: str = "lobby", limit: int = 50) -> list[RoomRec]:
        """Public rooms in ``status``, newest first."""
        query = (
            select(Room)
            .where(Room.public.is_(True), Room.status == status)
            .order_by(Room.created_at.desc(), Room.code)
            .limit(limit)
        )
        async with self.sessions() as session:
            return [_room_rec(row) for row in await session.scalars(query)]

    async def rooms_in_status(self, status: str) -> list[RoomRec]:
        """Every room in ``status`` (public or not), oldest first: for recovery at start."""
        query = select(Room).where(Room.status == status).order_by(Room.created_at, Room.code)
        async with self.sessions() as session:
            return [_room_rec(row) for row in await session.scalars(query)]

    # members -----------------------------------------------------------------

    async def put_member(
        self, code: str, player_id: str, role: str, seat: int | None, prefs: dict[str, Any]
    ) -> None:
        """Insert or update one member; :class:`SeatTaken` if another member holds ``seat``."""
        try:
            async with self.sessions.begin() as session:
                updated = await session.execute(
                    update(RoomMember)
                    .where(RoomMember.room_code == code, RoomMember.player_id == player_id)
                    .values(role=role, seat=seat, prefs=prefs)
                )
                if cast("CursorResult[Any]", updated).rowcount == 0:
                    session.add(
                        RoomMember(room_code=code, player_id=player_id, role=role, seat=seat, prefs=prefs)
                    )
        except IntegrityError as exc:
            if seat is not None and await self._seat_holder(code, seat) not in (None, player_id):
                raise SeatTaken(f"seat {seat} of room {code!r}") from exc
            raise

    async def _seat_holder(self, code: str, seat: int) -> str | None:
        async with self.sessions() as session:
            holder: str | None = await session.scalar(
                select(RoomMember.player_id).where(RoomMember.room_code == code, RoomMember.seat == seat)
            )
            return holder

    async def remove_member(self, code: str, player_id: str) -> None:
        async with self.sessions.begin() as session:
            await session.execute(
                delete(RoomMember).where(RoomMember.room_code == code, RoomMember.player_id == player_id)
            )

    async def list_members(self, code: str) -> list[MemberRec]:
        """Members with their player names: seated members by seat, then spectators by name."""
        query = (
            select(RoomMember, Player.name, Player.bot)
            .join(Player, Player.id == RoomMember.player_id)
            .where(RoomMember.room_code == code)
            .order_by(RoomMember.seat.is_(None), RoomMember.seat, Player.name, Player.id)
        )
        async with self.sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            MemberRec(player_id=m.player_id, name=name, role=m.role, seat=m.seat, prefs=m.prefs, bot=bot)
            for m, name, bot in rows
        ]

    async def write_lobby(self, code: str, writes: Sequence[LobbyWrite], fence: int | None = None) -> None:
        """Store one lobby command's changes in one transaction, in order (all or none); refused
        (:class:`StaleOwner`) if ``fence`` is not the room's any more."""
        started = time.perf_counter()
        async with self.sessions.begin() as session:
            await hold_fence(session, fence, Room.code == code)
            await _write_lobby(session, code, writes)
        self.observe_commit("lobby", time.perf_counter() - started)

    async def start_game(
        self,
        code: str,
        writes: Sequence[LobbyWrite],
        engine: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: str,
        seed_hash: str,
        started_at: int,
        *,
        fence: int | None = None,
    ) -> GameRec:
        """A new game and the lobby changes that start it (seats renumbered, status), in one transaction."""
        game = _new_game(code, engine, options, seats, seed, seed_hash, started_at)
        started = time.perf_counter()
        async with self.sessions.begin() as session:
            await hold_fence(session, fence, Room.code == code)
            await _write_lobby(session, code, writes)
            session.add(game)
            await session.flush()
            session.add_all(
                GameSeat(game_id=game.id, seat=i, player_id=seat["player_id"]) for i, seat in enumerate(seats)
            )
        self.observe_commit("lobby", time.perf_counter() - started)
        return _game_rec(game)

    # games -------------------------------------------------------------------

    async def create_game(
        self,
        room_code: str,
        engine: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: str,
        seed_hash: str,
        started_at: int,
    ) -> GameRec:
        return await self.start_game(room_code, (), engine, options, seats, seed, seed_hash, started_at)

    async def finish_game(self, game_id: int, result: dict[str, Any], fence: int | None = None) -> GameRec:
        """Mark a game finished with its ``result``; returns it, :class:`NotFound` if missing."""
        async with self.sessions.begin() as session:
            room_of_game = select(Game.room_code).where(Game.id == game_id).scalar_subquery()
            await hold_fence(session, fence, Room.code == room_of_game)
            await session.execute(
                update(Game)
                .where(Game.id == game_id)
                .values(status="finished", result=result, finished_at=utcnow())
            )
            row = await session.get(Game, game_id)
            if row is None:
                raise NotFound(f"game {game_id}")
            return _game_rec(row)

    async def get_game(self, game_id: int) -> GameRec | None:
        async with self.sessions() as session:
            row = await session.get(Game, game_id)
            return _game_rec(row) if row is not None else None

    async def latest_game(self, room_code: str) -> GameRec | None:
        query = select(Game).where(Game.room_code == room_code).order_by(Game.id.desc()).limit(1)
        async with self.sessions() as session:
            row = await session.scalar(query)
            return _game_rec(row) if row is not None else None

    async def unfinished_games(self) -> list[GameRec]:
        """Games still 'running' (oldest first): each is rebuilt by replaying its events at start."""
        query = select(Game).where(Game.status == "running").order_by(Game.id)
        async with self.sessions() as session:
            return [_game_rec(row) for row in await session.scalars(query)]

    # events ------------------------------------------------------------------

    async def load_events(self, game_id: int) -> list[EventRec]:
        """Every logged event of a game, in ``seq`` order."""
        query = select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)
        async with self.sessions() as session:
            return [_event_rec(row) for row in await session.scalars(query)]

    async def count_events(self, game_id: int) -> int:
        query = select(func.count()).select_from(GameEvent).where(GameEvent.game_id == game_id)
        async with self.sessions() as session:
            return int(await session.scalar(query) or 0)


__all__ = [
    "DEFAULT_DATABASE_URL",
    "MIGRATIONS_DIR",
    "SQLITE_PRAGMAS",
    "CodeTaken",
    "EventRec",
    "GameRec",
    "MemberRec",
    "NotFound",
    "PlayerRec",
    "RoomRec",
    "SeatTaken",
    "StaleOwner",
    "Store",
    "StoreError",
    "alembic_config",
    "create_engine",
    "database_url",
    "downgrade",
    "downgrade_sync",
    "ensure_sqlite_dir",
    "hold_fence",
    "json_text",
    "migrate",
    "migrate_sync",
    "normalize_url",
    "pg_connect_kwargs",
    "sqlite_file",
]


async def hold_fence(session: AsyncSession, fence: int | None, room: ColumnElement[bool]) -> None:
    """Refuse the transaction (:class:`StaleOwner`) unless the room still has ``fence``: the same
    rule the event log's trigger applies (migration ``0008_redis``). The room row is read ``FOR
    SHARE`` (PostgreSQL), so a takeover raising the fence waits for this transaction, and one
    that came first is seen. No fence (one process): nothing is checked, nothing read."""
    if fence is None:
        return
    held = await session.scalar(select(Room.fence).where(room).with_for_update(read=True))
    if held != fence:
        raise StaleOwner(f"room fence is {held}, this writer holds {fence}")


async def _write_lobby(session: AsyncSession, code: str, writes: Sequence[LobbyWrite]) -> None:
    for w in writes:
        if isinstance(w, PutMember):
            updated = await session.execute(
                update(RoomMember)
                .where(RoomMember.room_code == code, RoomMember.player_id == w.player_id)
                .values(role=w.role, seat=w.seat, prefs=w.prefs)
            )
            if cast("CursorResult[Any]", updated).rowcount == 0:
                session.add(
                    RoomMember(room_code=code, player_id=w.player_id, role=w.role, seat=w.seat, prefs=w.prefs)
                )
                await session.flush()
        elif isinstance(w, DropMember):
            await session.execute(
                delete(RoomMember).where(RoomMember.room_code == code, RoomMember.player_id == w.player_id)
            )
        else:
            values = {
                k: v
                for k, v in (
                    ("options", w.options),
                    ("public", w.public),
                    ("status", w.status),
                    ("host_id", w.host_id),
                )
                if v is not None
            }
            if values:
                await session.execute(update(Room).where(Room.code == code).values(**values))


def _new_game(
    room_code: str,
    engine: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    seed: str,
    seed_hash: str,
    started_at: int,
) -> Game:
    return Game(
        room_code=room_code,
        engine=engine,
        options=options,
        seats=seats,
        seed=seed,
        seed_hash=seed_hash,
        status="running",
        result=None,
        started_at=started_at,
        created_at=utcnow(),
        finished_at=None,
    )
