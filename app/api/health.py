"""``GET /api/health``: for load balancers and container health checks.

It asks the database one trivial question with a short timeout, so a server that runs but cannot
store anything is reported (503) and taken out of rotation instead of failing every move; with
several processes sharing the rooms, one that cannot reach Redis too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep
from app.api.schemas import Health, HealthDegraded

router = APIRouter(tags=["health"])

log = logging.getLogger(__name__)

DATABASE_TIMEOUT_S = 2.0
"""Below the container health check's own timeout (4 s in the Dockerfile), so it gets a coded answer."""
REDIS_TIMEOUT_S = 1.0
"""With the database's 2 s, still below the health check's 4 s."""


@router.get("/api/health", response_model=Health, responses={503: {"model": HealthDegraded}})
async def health(services: ServicesDep) -> Health | JSONResponse:
    if not await _answers("database", services.store.ping(), DATABASE_TIMEOUT_S):
        return _degraded(
            HealthDegraded(
                code="DATABASE_UNREACHABLE",
                message="The server cannot reach its database.",
                status="degraded",
                database="unreachable",
            )
        )
    node = services.node
    # Without Redis this process can neither take a room nor reach one held elsewhere.
    if node is not None and not await _answers("Redis", node.redis.ping(), REDIS_TIMEOUT_S):
        return _degraded(
            HealthDegraded(
                code="REDIS_UNREACHABLE",
                message="The server cannot reach Redis, which the servers sharing the rooms need.",
                status="degraded",
                database="ok",
                redis="unreachable",
            )
        )
    return Health(
        status="ok",
        database="ok",
        rooms=len(services.rooms.rooms),
        process=None if node is None else node.process,
        redis=None if node is None else "ok",
    )


async def _answers(service: str, ping: Awaitable[object], timeout_s: float) -> bool:
    try:
        async with asyncio.timeout(timeout_s):
            await ping
    except Exception as exc:
        log.warning("health: %s unreachable: %r", service, exc)
        return False
    return True


def _degraded(body: HealthDegraded) -> JSONResponse:
    return JSONResponse(body.model_dump(exclude_none=True), status_code=503)
