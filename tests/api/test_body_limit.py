"""Request bodies are capped (64 KiB by default) whether or not they declare their length,
with a coded 413 that never echoes the body, and the server keeps serving afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx

from tests.integration.client import Api

LIMIT = 64 * 1024
JSON_HEADERS = {"Content-Type": "application/json"}


def assert_too_large(r: httpx.Response) -> None:
    assert r.status_code == 413, r.text
    body = r.json()
    assert body == {"code": "TOO_LARGE", "message": "Request bodies are limited to 64 KiB."}


async def still_serving(api: Api) -> None:
    assert (await api.player("Ana"))["name"] == "Ana"


async def test_a_body_declared_over_the_limit_is_refused_with_a_coded_413(api: Api) -> None:
    body = b'{"name": "' + b"y" * LIMIT + b'"}'
    r = await api.http.post("/api/players", content=body, headers=JSON_HEADERS)
    assert_too_large(r)
    assert b"yyyy" not in r.content
    await still_serving(api)


async def test_a_chunked_body_growing_past_the_limit_is_refused_with_a_coded_413(api: Api) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"name": "'
        for _ in range(40):  # 160 KiB in all, without a Content-Length
            yield b"y" * 4096
        yield b'"}'

    r = await api.http.post("/api/players", content=chunks(), headers=JSON_HEADERS)
    assert "content-length" not in r.request.headers
    assert_too_large(r)
    assert b"yyyy" not in r.content
    await still_serving(api)


async def test_a_chunked_body_under_the_limit_is_served(api: Api) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"name": '
        yield b'"Ana"}'

    r = await api.http.post("/api/players", content=chunks(), headers=JSON_HEADERS)
    assert r.status_code == 201, r.text
