"""``GET /api/health`` asks the database a trivial question: 200 when it answers, 503 coded when it cannot."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.api.over_store import app_over, unreachable_store
from tests.integration.client import Api


async def test_health_answers_ok_with_the_database_up(api: Api) -> None:
    r = await api.http.get("/api/health")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert isinstance(body["rooms"], int)


@pytest.fixture
async def unreachable() -> AsyncIterator[httpx.AsyncClient]:
    """The app over a store whose PostgreSQL port nobody listens on (connections are refused)."""
    store = unreachable_store()
    transport = httpx.ASGITransport(app=app_over(store))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://bordet.test") as client:
            yield client
    finally:
        await store.close()


async def test_health_answers_503_coded_with_the_database_unreachable(unreachable: httpx.AsyncClient) -> None:
    r = await unreachable.get("/api/health")
    assert r.status_code == 503
    assert r.json() == {
        "code": "DATABASE_UNREACHABLE",
        "message": "The server cannot reach its database.",
        "status": "degraded",
        "database": "unreachable",
    }
