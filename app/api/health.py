from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import ServicesDep
from app.api.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/api/health", response_model=Health)
async def health(services: ServicesDep) -> Health:
    return Health(status="ok", rooms=len(services.rooms.rooms))
