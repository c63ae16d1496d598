"""Several real server processes sharing one PostgreSQL database and one real Redis."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis

from tests.integration.client import TIMEOUT, Api
from tests.integration.conftest import fresh_pg_database, sqlite_url  # noqa: F401
from tests.integration.server import ServerProcess

REDIS_URL = os.environ.get("BORDET_TEST_REDIS", "redis://127.0.0.1:6379/0")
LEASE_S = "2"
"""Short leases, so a killed process's rooms move on quickly (renewed every half second)."""


async def _redis_problem() -> str | None:
    redis = Redis.from_url(REDIS_URL)
    try:
        await redis.ping()
    except Exception as exc:
        return f"Redis not reachable at {REDIS_URL}: {exc}"
    finally:
        await redis.aclose()
    return None


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own (the Redis is shared), its keys deleted afterwards."""
    problem = asyncio.run(_redis_problem())
    if problem:
        pytest.skip(problem)
    prefix = f"bordet-test-{secrets.token_hex(4)}"
    yield prefix

    async def clean() -> None:
        redis = Redis.from_url(REDIS_URL)
        keys = [k async for k in redis.scan_iter(f"{prefix}:*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()

    asyncio.run(clean())


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new PostgreSQL database (several processes need PostgreSQL), dropped afterwards."""
    yield from fresh_pg_database("bordet_cl")


def processes(
    pg_url: str, redis_prefix: str, tmp_path: Path, count: int, **settings: str
) -> Iterator[list[ServerProcess]]:
    """``count`` server processes on free ports, one database, one Redis, with extra ``settings``
    (environment variables)."""
    env = {
        "BORDET_REDIS_URL": REDIS_URL,
        "BORDET_REDIS_PREFIX": redis_prefix,
        "BORDET_LEASE_S": LEASE_S,
        **settings,
    }
    servers = [ServerProcess(pg_url, env=env, log_path=tmp_path / f"server{i}.log") for i in range(count)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def cluster(pg_url: str, redis_prefix: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Three server processes on free ports, one database, one Redis."""
    yield from processes(pg_url, redis_prefix, tmp_path, 3)


@pytest.fixture
async def redis(redis_prefix: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(REDIS_URL)
    yield client
    await client.aclose()


def lobby(server: ServerProcess) -> Api:
    """The HTTP lobby of one process. Its idle connections are dropped before uvicorn's keep-alive
    (5 s) can close them under a request: with tables spread over several processes a connection
    often waits that long between two calls."""
    api = Api(server.http)
    api.http = httpx.AsyncClient(
        base_url=server.http, timeout=TIMEOUT, limits=httpx.Limits(keepalive_expiry=2.0)
    )
    return api
