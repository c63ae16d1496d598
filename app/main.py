"""The ASGI application: HTTP lobby, the WebSocket channel and the static client."""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from app.api import games, health, players, rooms, testing
from app.config import Settings
from app.db.store import EventLog, Store, database_url, migrate
from app.realtime import endpoint
from app.rooms.bots import BotPace
from app.rooms.clock import Clock, ManualClock, MonotonicClock
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.security import TokenSigner
from app.services import Services

log = logging.getLogger("bordet")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = database_url() if settings.database_url is None else settings.database_url
        await migrate(url)
        store = Store(url)
        event_log = EventLog(store)
        await event_log.start()
        secret = settings.secret or await store.get_or_create_key(
            "token_secret", lambda: secrets.token_hex(32)
        )
        clock: Clock = ManualClock() if settings.test_clock else MonotonicClock()
        pace = BotPace(think_ms=settings.bot_think_ms, seat_hold_ms=settings.seat_hold_s * 1000)
        manager = RoomManager(store, event_log, clock, pace)
        app.state.services = Services(settings, store, event_log, clock, manager, TokenSigner(secret))
        await manager.recover()
        manager.start_checkpoints()
        try:
            yield
        finally:
            await manager.stop()
            await event_log.stop()
            await store.close()

    app = FastAPI(
        title="Bordet",
        summary="Real-time multiplayer card games; the server is the referee.",
        version="0.1.0",
        lifespan=lifespan,
    )

    @app.exception_handler(RoomError)
    async def room_error(_: Request, exc: RoomError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        return JSONResponse(
            {"code": "BAD_REQUEST", "message": f"{where}: {first['msg']}", "detail": exc.errors()},
            status_code=422,
        )

    app.include_router(players.router)
    app.include_router(games.router)
    app.include_router(rooms.router)
    app.include_router(health.router)
    app.include_router(endpoint.router)
    if settings.test_clock:
        app.include_router(testing.router)

    index = settings.static_dir / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str) -> FileResponse:
        return FileResponse(index)

    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), name="static")
    return app


app = create_app()
