"""``GET /api/health``: for load balancers and container health checks.

It asks the database one trivial question with a short timeout, so a server that runs but cannot
store anything is reported (503) and taken out of rotation instead of failing every move.
"""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep
from app.api.schemas import Health, HealthDegraded

router = APIRouter(tags=["health"])

log = logging.getLogger(__name__)

DATABASE_TIMEOUT_S = 2.0
"""Below the container health check's own timeout (4 s in the Dockerfile), so it gets a coded answer."""


@router.get("/api/health", response_model=Health, responses={503: {"model": HealthDegraded}})
async def health(services: ServicesDep) -> Health | JSONResponse:
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT_S):
            await services.store.ping()
    except Exception as exc:
        log.warning("health: database unreachable: %r", exc)
        degraded = HealthDegraded(
            code="DATABASE_UNREACHABLE",
            message="The server cannot reach its database.",
            status="degraded",
            database="unreachable",
        )
        return JSONResponse(degraded.model_dump(), status_code=503)
    process = None if services.node is None else services.node.process
    return Health(status="ok", database="ok", rooms=len(services.rooms.rooms), process=process)
