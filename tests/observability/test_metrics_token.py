"""``GET /metrics`` behind ``BORDET_METRICS_TOKEN``: only a scrape sending the token is answered."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from app.observability.endpoint import METRICS_TOKEN
from tests.integration.conftest import _server
from tests.integration.server import ServerProcess

TOKEN = "scrape-token-for-tests"
REFUSED = {"code": METRICS_TOKEN[0], "message": METRICS_TOKEN[1]}


@pytest.fixture
def guarded(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(sqlite_url, tmp_path, BORDET_METRICS_TOKEN=TOKEN)


@pytest.fixture
async def http(guarded: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=guarded.http) as client:
        yield client


async def test_a_scrape_sending_the_token_gets_the_metrics(http: httpx.AsyncClient) -> None:
    r = await http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200
    assert "bordet_connections_open" in r.text


@pytest.mark.parametrize(
    "authorization",
    [None, f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}", TOKEN, f"Basic {TOKEN}", "Bearer"],
    ids=["none", "longer", "shorter", "no-scheme", "basic", "empty"],
)
async def test_a_scrape_without_the_token_is_refused_401_coded(
    http: httpx.AsyncClient, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    r = await http.get("/metrics", headers=headers)
    assert (r.status_code, r.json()) == (401, REFUSED)
    assert "bordet_" not in r.text


async def test_the_game_api_does_not_need_the_metrics_token(http: httpx.AsyncClient) -> None:
    assert (await http.get("/api/health")).status_code == 200
