"""Abuse limits, each with its coded answer: new players per address, new rooms per player and per
address (429 RATE_LIMITED with Retry-After), unfinished rooms per host (409 TOO_MANY_ROOMS), and
WebSocket connections open per address (error TOO_MANY_CONNECTIONS, close 4029).

One real server with low limits for the module. It trusts 127.0.0.1 as a proxy, so each test
speaks from addresses of its own (X-Forwarded-For) and the tests do not share buckets. Time moves
on the server's manual clock (``/api/_test/clock``), never by sleeping.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.integration.client import TIMEOUT, Api
from tests.integration.server import ServerProcess

Json = dict[str, Any]
LIMITS = {
    "BORDET_PLAYERS_PER_MIN": "3",
    "BORDET_ROOMS_PER_MIN": "2",
    "BORDET_ROOMS_PER_HOST": "3",
    "BORDET_SOCKETS_PER_ADDRESS": "2",
    "BORDET_TRUSTED_PROXIES": "127.0.0.1",
    # uvicorn's own --proxy-headers (on by default, trusting 127.0.0.1) must not do the app's job.
    "FORWARDED_ALLOW_IPS": "192.0.2.255",
}
_addresses = (f"198.51.100.{i}" for i in itertools.count(1))


def new_address() -> str:
    return next(_addresses)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Overrides the package's server (and so the ``api`` on it): this one has the low limits."""
    tmp = tmp_path_factory.mktemp("limits")
    proc = ServerProcess(
        database_url=f"sqlite+aiosqlite:///{tmp / 'bordet.db'}", log_path=tmp / "server.log", env=LIMITS
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def assert_rate_limited(r: httpx.Response, retry_after: int) -> None:
    assert r.status_code == 429, r.text
    assert r.headers["Retry-After"] == str(retry_after)
    body: Json = r.json()
    assert set(body) == {"code", "message"} and body["code"] == "RATE_LIMITED", body
    assert f"try again in {retry_after} s" in body["message"], body


async def new_player(api: Api, address: str) -> httpx.Response:
    return await api.call("POST", "/api/players", json={"name": "Ana"}, headers={"X-Forwarded-For": address})


async def new_room(api: Api, token: str, address: str) -> httpx.Response:
    return await api.call(
        "POST", "/api/rooms", token, json={"game": "slap"}, headers={"X-Forwarded-For": address}
    )


async def player_token(api: Api) -> str:
    r = await new_player(api, new_address())
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


async def advance(api: Api, seconds: int) -> None:
    r = await api.http.post("/api/_test/clock", json={"ms": seconds * 1000})
    r.raise_for_status()


async def test_players_per_address_per_minute(api: Api) -> None:
    address = new_address()
    for _ in range(3):
        assert (await new_player(api, address)).status_code == 201
    assert_rate_limited(await new_player(api, address), retry_after=20)  # 3 a minute: one per 20 s
    assert (await new_player(api, new_address())).status_code == 201  # another address is not held up
    await advance(api, 20)
    assert (await new_player(api, address)).status_code == 201


async def test_rooms_per_player_per_minute(api: Api) -> None:
    token = await player_token(api)
    # Each room from another address: only the player's own budget is spent twice.
    for _ in range(2):
        assert (await new_room(api, token, new_address())).status_code == 201
    assert_rate_limited(await new_room(api, token, new_address()), retry_after=30)
    await advance(api, 30)
    assert (await new_room(api, token, new_address())).status_code == 201


async def test_rooms_per_address_per_minute(api: Api) -> None:
    address = new_address()
    for _ in range(2):
        assert (await new_room(api, await player_token(api), address)).status_code == 201
    assert_rate_limited(await new_room(api, await player_token(api), address), retry_after=30)
    await advance(api, 30)
    assert (await new_room(api, await player_token(api), address)).status_code == 201


async def test_unfinished_rooms_per_host(api: Api) -> None:
    token = await player_token(api)
    codes = []
    for _ in range(3):
        r = await new_room(api, token, new_address())
        assert r.status_code == 201, r.text
        codes.append(r.json()["code"])
        await advance(api, 30)  # the rate limit is not what this test is about
    r = await new_room(api, token, new_address())
    assert r.status_code == 409, r.text
    assert r.json() == {
        "code": "TOO_MANY_ROOMS",
        "message": "You already host 3 unfinished rooms; finish or leave one first.",
    }
    assert (await api.call("POST", f"/api/rooms/{codes[0]}/leave", token)).status_code == 204
    assert (await new_room(api, token, new_address())).status_code == 201


# --- WebSocket connections per address (app/realtime/endpoint.py, same server and limits) ---


async def socket(server: ServerProcess, code: str, address: str) -> ClientConnection:
    return await connect(f"{server.ws}/ws/rooms/{code}", additional_headers={"X-Forwarded-For": address})


async def test_websocket_connections_per_address(server: ServerProcess, api: Api) -> None:
    token = await player_token(api)
    code = (await new_room(api, token, new_address())).json()["code"]
    address = new_address()
    # Two sockets that never say hello hold their places all the same.
    first, second = await socket(server, code, address), await socket(server, code, address)
    refused = await socket(server, code, address)
    async with asyncio.timeout(TIMEOUT):
        frame = json.loads(await refused.recv())
        with pytest.raises(ConnectionClosed):
            await refused.recv()
    assert frame == {
        "type": "error",
        "code": "TOO_MANY_CONNECTIONS",
        "message": "At most 2 connections at once from one address.",
    }
    assert refused.close_code == 4029
    other = await socket(server, code, new_address())  # another address is not held up
    await other.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(await other.recv())["type"] == "welcome"

    # The server ends the first socket (a bad hello); its place is free again.
    await first.send(json.dumps({"type": "hello", "token": "forged"}))
    async with asyncio.timeout(TIMEOUT):
        with pytest.raises(ConnectionClosed):
            while True:
                await first.recv()
    again = await socket(server, code, address)
    await again.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(await again.recv())["type"] == "welcome"
    for ws in (second, other, again):
        await ws.close()
