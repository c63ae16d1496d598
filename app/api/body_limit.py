"""A cap on HTTP request bodies, enforced as the bytes arrive (pure ASGI, nothing buffered here).

A declared ``Content-Length`` over the limit is refused before the app runs. A body without
one (chunked) is counted message by message as the app reads it; the first message past the
limit makes this middleware answer 413 itself and tell the app the client went away, so the
app stops reading and whatever it answers after that is dropped.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import coded_body

DEFAULT_LIMIT = 64 * 1024


def _declared_length(scope: Scope) -> int | None:
    """The Content-Length header as a number; -1 when it is present but not a number."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


class BodyLimit:
    def __init__(self, app: ASGIApp, limit: int = DEFAULT_LIMIT) -> None:
        self.app = app
        self.limit = limit

    def _too_large(self) -> bytes:
        size = f"{self.limit // 1024} KiB" if self.limit % 1024 == 0 else f"{self.limit} bytes"
        return coded_body("TOO_LARGE", f"Request bodies are limited to {size}.")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and (declared < 0 or declared > self.limit):
            await self._answer(send)
            return

        received = 0
        started = False
        refused = False

        async def counted_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not started:
                        await self._answer(send)
                    return {"type": "http.disconnect"}
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 is the answer; the app's reply to the "disconnect" goes nowhere
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counted_receive, tracked_send)

    async def _answer(self, send: Send) -> None:
        body = self._too_large()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    # No "connection: close": a client still sending would get a reset that can
                    # lose this answer. The server discards the rest of the body as it comes.
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
