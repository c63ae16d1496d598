"""Fixtures for tests against a real server: a temp database on SQLite or PostgreSQL, a uvicorn process."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.integration.client import Api
from tests.integration.server import ServerProcess

PG_ADMIN_DSN = os.environ.get("BORDET_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


async def _pg_exec(sql: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(PG_ADMIN_DSN, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _pg_reachable() -> str | None:
    try:
        asyncio.run(_pg_exec("select 1"))
    except Exception as exc:
        return f"PostgreSQL not reachable at {PG_ADMIN_DSN}: {exc}"
    return None


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a temp SQLite file, or a new PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'bordet.db'}"
        return
    yield from fresh_pg_database()


def fresh_pg_database(prefix: str = "bordet_it") -> Iterator[str]:
    """A new PostgreSQL database, dropped afterwards; the test skips when PostgreSQL is away."""
    problem = _pg_reachable()
    if problem:
        pytest.skip(problem)
    name = f"{prefix}_{secrets.token_hex(4)}"
    asyncio.run(_pg_exec(f'CREATE DATABASE "{name}"'))
    base = PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'bordet.db'}"


def _server(url: str, tmp_path: Path, **env: str) -> Iterator[ServerProcess]:
    server = ServerProcess(database_url=url, log_path=tmp_path / "server.log", env=env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on a temp SQLite database (most protocol tests need nothing more)."""
    yield from _server(sqlite_url, tmp_path)


@pytest.fixture
def strict_server(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with the production rate limits (20 actions/s, bursts of 40)."""
    yield from _server(sqlite_url, tmp_path, BORDET_RATE_PER_S="20", BORDET_RATE_BURST="40")


@pytest.fixture
def any_db_server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """The same server on both backends (persistence-sensitive tests)."""
    yield from _server(database_url, tmp_path)


@pytest.fixture
async def api(server: ServerProcess) -> AsyncIterator[Api]:
    client = Api(server.http)
    yield client
    await client.aclose()
