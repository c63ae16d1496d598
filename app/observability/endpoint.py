"""``GET /metrics``: the Prometheus scrape (kept out of the OpenAPI document: it is not the game's API)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.services import Services

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    services: Services = request.app.state.services
    body, content_type = services.metrics.render(request.headers.get("accept", ""))
    return Response(body, headers={"Content-Type": content_type})
