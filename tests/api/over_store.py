"""The app in this process over a store a test chooses (one that fails, or a tight pool)."""

from __future__ import annotations

from fastapi import FastAPI

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
from tests.integration.server import free_port

SIGNING_KEY = "api-test"
"""The token key of :func:`app_over`'s app."""


def app_over(store: Store) -> FastAPI:
    """The app serving over ``store`` (no lifespan: nothing is migrated or recovered)."""
    settings = Settings(test_clock=True)
    event_log = EventLog(store)
    clock = ManualClock()
    app = create_app(settings)
    app.state.services = Services(
        settings,
        store,
        event_log,
        clock,
        RoomManager(store, event_log, clock),
        TokenSigner(SIGNING_KEY),
        Limits.from_settings(settings),
        Metrics(),
    )
    return app


def unreachable_store() -> Store:
    """A store over a PostgreSQL port nobody listens on: every connection is refused."""
    return Store(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/test")
