"""``GET /api/health`` asks the database a trivial question: 200 when it answers, 503 coded when it cannot."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from app.config import Settings
from app.db.event_log import EventLog
from app.db.store import Store
from app.limits import Limits
from app.main import create_app
from app.observability.metrics import Metrics
from app.rooms.clock import ManualClock
from app.rooms.manager import RoomManager
from app.security import TokenSigner
from app.services import Services
from tests.integration.client import Api
from tests.integration.server import free_port


async def test_health_answers_ok_with_the_database_up(api: Api) -> None:
    r = await api.http.get("/api/health")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert isinstance(body["rooms"], int)


@pytest.fixture
async def unreachable() -> AsyncIterator[httpx.AsyncClient]:
    """The app over a store whose PostgreSQL port nobody listens on (connections are refused)."""
    store = Store(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/test")
    event_log = EventLog(store)
    clock = ManualClock()
    app = create_app(Settings(test_clock=True))
    app.state.services = Services(
        Settings(test_clock=True),
        store,
        event_log,
        clock,
        RoomManager(store, event_log, clock),
        TokenSigner("health-test"),
        Limits.from_settings(Settings(test_clock=True)),
        Metrics(),
    )
    transport = httpx.ASGITransport(app=app)
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
