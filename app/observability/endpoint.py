"""``GET /metrics``: the Prometheus scrape (kept out of the OpenAPI document: it is not the game's API).

With ``BORDET_METRICS_TOKEN`` set only a scrape that sends it is answered: the figures (rooms,
connections, rejects by code) are for whoever runs the server, not for every visitor of a port
published without a proxy in front.
"""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Request, Response

from app.api.deps import bearer_token
from app.rooms.errors import RoomError
from app.services import Services

router = APIRouter()

METRICS_TOKEN = (
    "METRICS_TOKEN",
    "This server's metrics need its scrape token: send 'Authorization: Bearer <BORDET_METRICS_TOKEN>'.",
)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    services: Services = request.app.state.services
    token = services.settings.metrics_token
    if token is not None and not _bears(request.headers.get("authorization"), token):
        raise RoomError(*METRICS_TOKEN, 401)
    body, content_type = services.metrics.render(request.headers.get("accept", ""))
    return Response(body, headers={"Content-Type": content_type})


def _bears(authorization: str | None, token: str) -> bool:
    """Whether the header is ``Bearer <token>`` (compared in constant time: no timing hints).

    >>> _bears("Bearer s3cret", "s3cret"), _bears("Bearer s3cre", "s3cret"), _bears("s3cret", "s3cret")
    (True, False, False)
    """
    sent = bearer_token(authorization)
    return sent is not None and hmac.compare_digest(sent.encode(), token.encode())
