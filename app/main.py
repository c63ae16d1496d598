"""The ASGI application: HTTP lobby, the WebSocket channel and the static client."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from app import heap
from app.api import games, health, matches, players, rooms, testing
from app.api.body_limit import BodyLimit
from app.api.client_address import trusted_networks
from app.api.errors import RateLimited
from app.cluster.wire import RELAYED
from app.config import Settings
from app.db.event_log import EventLog
from app.db.store import UNANSWERED, Store, database_url, migrate, normalize_url
from app.limits import Limits
from app.observability import endpoint as metrics_endpoint
from app.observability.gc_pauses import GcPauseProbe
from app.observability.logs import configure_logging
from app.observability.loop_lag import LoopLagProbe
from app.observability.metrics import Metrics
from app.realtime import endpoint, transport
from app.rooms.bots import BotPace
from app.rooms.clock import Clock, ManualClock, MonotonicClock
from app.rooms.errors import DATABASE_AWAY, RoomError
from app.rooms.manager import Lifecycle, RoomManager
from app.security import TokenSigner
from app.services import Services
from app.static_assets import Assets
from app.tasks import cancel_and_wait
from app.validation import forbidden_char

if TYPE_CHECKING:
    from app.cluster.node import Node

log = logging.getLogger("bordet")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    trusted_networks(settings.trusted_proxies)  # a mistyped BORDET_TRUSTED_PROXIES stops the start

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging(settings.log_level)
        url = database_url() if settings.database_url is None else settings.database_url
        if settings.redis_url is not None and not normalize_url(url).startswith("postgresql"):
            raise RuntimeError(
                "BORDET_REDIS_URL (several processes sharing the rooms) needs PostgreSQL as DATABASE_URL;"
                " SQLite is for one process: unset BORDET_REDIS_URL or point DATABASE_URL at PostgreSQL."
            )
        await migrate(url)
        metrics = Metrics()
        store = Store(url)
        store.observe_commit = metrics.committed
        event_log = EventLog(store)
        await event_log.start()
        secret = settings.secret or await store.get_or_create_key(
            "token_secret", lambda: secrets.token_hex(32)
        )
        clock: Clock = ManualClock() if settings.test_clock else MonotonicClock()
        pace = BotPace(think_ms=settings.bot_think_ms, seat_hold_ms=settings.seat_hold_s * 1000)
        lifecycle = Lifecycle(
            idle_ms=int(settings.room_idle_s * 1000),
            max_loaded=settings.max_loaded_rooms,
            lobby_expiry_s=settings.lobby_expiry_h * 3600,
            max_spectators=settings.spectators_per_room,
        )
        manager = RoomManager(store, event_log, clock, pace, metrics.room, lifecycle)
        metrics.count_rooms(lambda: len(manager.rooms))
        limits = Limits.from_settings(settings)
        app.state.services = Services(
            settings, store, event_log, clock, manager, TokenSigner(secret), limits, metrics
        )
        if settings.redis_url is not None:
            from app.cluster.node import Node

            node = Node(
                settings.redis_url,
                prefix=settings.redis_prefix,
                lease_ms=int(settings.lease_s * 1000),
                fence_ttl_ms=int(settings.fence_ttl_h * 3600 * 1000),
                write_timeout_s=settings.write_timeout_s,
                metrics=metrics.cluster,
            )
            await node.start(app, manager, store)
            manager.owner = app.state.services.node = node
        await manager.recover()
        heap.settle(settings.gc_thresholds)
        manager.start_housekeeping()
        lag = LoopLagProbe(metrics.lagged)
        lag.start()
        collector = GcPauseProbe(metrics.collected)
        collector.start()
        trimming = asyncio.create_task(heap.keep_trimmed(), name="heap-trim") if heap.MALLOC_TRIM else None
        try:
            yield
        finally:
            await cancel_and_wait(trimming)
            await lag.stop()
            collector.stop()
            node = app.state.services.node
            if node is not None:
                await node.halt()
            await manager.stop()
            if node is not None:  # the leases go once the rooms stood still: another may take them
                await node.stop()
            await event_log.stop()
            await store.close()

    app = BordetApp(
        title="Bordet",
        summary="Real-time multiplayer card games; the server is the referee.",
        version="0.1.0",
        lifespan=lifespan,
    )

    @app.exception_handler(RoomError)
    async def room_error(_: Request, exc: RoomError) -> JSONResponse:
        headers = exc.headers if isinstance(exc, RateLimited) else None
        if exc.status == 503:  # nothing changed and it may work in a moment (BUSY, TRY_AGAIN, SERVER_ERROR)
            headers = {"Retry-After": str(RETRY_AFTER_503_S)}
        return JSONResponse(
            {"code": exc.code, "message": exc.message}, status_code=exc.status, headers=headers
        )

    async def database_away(request: Request, exc: Exception) -> JSONResponse:
        # A read or a single write that raised changed nothing in memory: the request may simply
        # be tried again (the pool was exhausted by a burst, or the database is restarting).
        log.warning("%s %s: database error: %r", request.method, request.url.path, exc)
        return await room_error(request, RoomError(*DATABASE_AWAY, 503))

    for error in UNANSWERED:
        app.add_exception_handler(error, database_away)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        detail = validation_detail(exc.errors())
        first = detail[0] if detail else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        return JSONResponse(
            {"code": "BAD_REQUEST", "message": f"{where}: {first['msg']}", "detail": detail},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # FastAPI answers a body it cannot decode (not UTF-8, numbers beyond Python's limits)
        # with a bare 400; give it the API's coded shape. Other statuses (404 for an unknown
        # path, 405...) keep FastAPI's default answer.
        if exc.status_code == 400:
            return JSONResponse(
                {"code": "BAD_REQUEST", "message": "The request body could not be read as UTF-8 JSON."},
                status_code=400,
            )
        return await http_exception_handler(request, exc)

    app.include_router(players.router)
    app.include_router(games.router)
    app.include_router(rooms.router)
    app.include_router(matches.router)
    app.include_router(health.router)
    app.include_router(endpoint.router)
    app.include_router(metrics_endpoint.router)
    if settings.test_clock:
        app.include_router(testing.router)

    assets = Assets(settings.static_dir)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def home(request: Request) -> Response:
        return assets.page(request)

    @app.api_route("/r/{code}", methods=["GET", "HEAD"], include_in_schema=False)
    async def room_page(code: str, request: Request) -> Response:
        return assets.page(request)

    @app.api_route("/m/{match_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_page(match_id: str, request: Request) -> Response:
        return assets.page(request)

    @app.api_route("/static/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
    async def static_file(path: str, request: Request) -> Response:
        return assets.response(request, path)

    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    return app


ROOM_SOCKET = re.compile(r"/ws/rooms/(?P<code>[^/]{1,16})")


class BordetApp(FastAPI):
    """FastAPI, with room sockets taken straight to their handler.

    A room socket lives for hours, and every middleware and router layer it passes through keeps
    a frame alive for all that time (about a tenth of an idle connection's memory). None of them
    has anything to do for a WebSocket: the HTTP body limit, error pages and routing are HTTP's.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        node = self.node
        if node is not None and scope["type"] in ("http", "websocket") and not scope.get(RELAYED):
            if scope["type"] == "websocket" and ROOM_SOCKET.fullmatch(scope["path"]):
                # Counted here, where the client connected, whichever process serves its room.
                ws = WebSocket(scope, receive, send)
                # A relayed socket's client is this process's to bound.
                with transport.noted(scope, send):
                    transport.cap_send_buffer(ws)
                    await endpoint.counted(
                        ws, self.state.services, lambda: node.route(scope, receive, send, self._here)
                    )
                return
            await node.route(scope, receive, send, self._here)
            return
        await self._here(scope, receive, send)

    @property
    def node(self) -> Node | None:
        services = getattr(self.state, "services", None)
        return None if services is None else services.node

    async def _here(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and (match := ROOM_SOCKET.fullmatch(scope["path"])):
            scope["app"] = self
            scope["path_params"] = {"code": match["code"]}
            with transport.noted(scope, send):
                await endpoint.room_socket(WebSocket(scope, receive, send))
            return
        await super().__call__(scope, receive, send)


RETRY_AFTER_503_S = 5
"""What a 503 tells a client to wait before trying again."""
MAX_ERRORS = 10
"""Validation errors listed in a 422 (a body can hold any number of mistakes)."""
MAX_MESSAGE = 200
_SAFE_LOC = re.compile(r"[A-Za-z0-9_]{1,40}")


def _safe_text(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to ``limit`` characters, without characters that cannot be encoded or shown."""
    text = text[:limit]
    if forbidden_char(text) is None:
        return text
    return "".join("?" if forbidden_char(ch) else ch for ch in text)


def validation_detail(errors: Sequence[Any]) -> list[dict[str, Any]]:
    """pydantic's errors without what the client sent: no ``input``, no ``ctx`` (which can quote it),
    locations reduced to field names and indexes (a dict key from the body shows as ``?``), at most
    :data:`MAX_ERRORS` of them, each message cut to :data:`MAX_MESSAGE` characters. The result can
    always be encoded, whatever the body held (a lone surrogate makes ``exc.errors()`` unencodable)."""
    out = []
    for error in errors[:MAX_ERRORS]:
        loc = [
            p if isinstance(p, int) or (isinstance(p, str) and _SAFE_LOC.fullmatch(p)) else "?"
            for p in error.get("loc", ())
        ]
        out.append(
            {"loc": loc, "msg": _safe_text(str(error.get("msg", ""))), "type": str(error.get("type", ""))}
        )
    return out


app = create_app()
