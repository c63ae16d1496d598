"""Fixtures for the persistence tests, run against SQLite and PostgreSQL.

* ``db_url``: an empty database, once per backend (a temp SQLite file; a fresh PostgreSQL
  schema, selected through the URL's ``?options=-csearch_path=...``, dropped afterwards).
* ``migrated_url``: the same database after ``await migrate(url)``.
* ``store``: a :class:`Store` on it; ``event_log``: a started :class:`EventLog` on ``store``.
* ``pg_store``: a :class:`Store` on a fresh, migrated PostgreSQL schema (for what only PostgreSQL
  has: the fence trigger, a connection of the log's own to cut).

PostgreSQL: ``$BORDET_TEST_POSTGRES_URL`` or ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``
(then the same as user ``root``). When unreachable, the PostgreSQL cases are skipped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from app.db import EventLog, Store, migrate

PG_URLS = (
    [os.environ["BORDET_TEST_POSTGRES_URL"]]
    if os.environ.get("BORDET_TEST_POSTGRES_URL")
    else [
        "postgresql+asyncpg://postgres@127.0.0.1:5432/test",
        "postgresql+asyncpg://root@127.0.0.1:5432/test",
    ]
)


async def _pg_admin() -> tuple[str, AsyncEngine]:
    """The first PostgreSQL URL that answers, with an engine on it; skips the test if none does."""
    errors = []
    for url in PG_URLS:
        engine = create_async_engine(url, poolclass=NullPool, connect_args={"timeout": 5})
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception as exc:
            await engine.dispose()
            errors.append(f"{make_url(url).render_as_string(hide_password=True)}: {exc!r}")
        else:
            return url, engine
    where = make_url(PG_URLS[0])
    pytest.skip(f"PostgreSQL not reachable at {where.host}:{where.port}: {'; '.join(errors)}")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db_url(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[str]:
    """An empty database: a temp SQLite file, or a fresh schema in the PostgreSQL test database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'data' / 'bordet.db'}"
        return
    base, admin = await _pg_admin()
    schema = f"bordet_test_{uuid.uuid4().hex[:16]}"
    async with admin.begin() as conn:
        await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{base}?options=-csearch_path%3D{schema}"
    finally:
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()


@pytest.fixture
async def migrated_url(db_url: str) -> str:
    await migrate(db_url)
    return db_url


@pytest.fixture
async def store(migrated_url: str) -> AsyncIterator[Store]:
    s = Store(migrated_url)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def event_log(store: Store) -> AsyncIterator[EventLog]:
    log = EventLog(store)
    await log.start()
    try:
        yield log
    finally:
        await log.stop()


@pytest.fixture
async def pg_store() -> AsyncIterator[Store]:
    base, admin = await _pg_admin()
    schema = f"bordet_pg_{uuid.uuid4().hex[:12]}"
    async with admin.begin() as conn:
        await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = f"{base}?options=-csearch_path%3D{schema}"
    await migrate(url)
    store = Store(url)
    try:
        yield store
    finally:
        await store.close()
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()
