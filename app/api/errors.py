"""The API's error answers: always ``{"code": STABLE_CODE, "message": human text}``."""

from __future__ import annotations

import math

import orjson

from app.rooms.errors import RoomError


def coded_body(code: str, message: str) -> bytes:
    """The JSON error body, for answers made below FastAPI (pure ASGI middleware)."""
    return orjson.dumps({"code": code, "message": message})


class RateLimited(RoomError):
    """A rate limit was hit: 429, and ``Retry-After`` says in how many whole seconds to try again."""

    def __init__(self, code: str, reason: str, retry_after_s: float) -> None:
        # Rounded up, and at least 1: a client that waits exactly this long is let in.
        self.retry_after = max(1, math.ceil(retry_after_s))
        super().__init__(code, f"{reason}; try again in {self.retry_after} s.", 429)

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}
