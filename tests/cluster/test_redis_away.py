"""A process that loses Redis answers what needs it with a coded 503 (close 1011 on a socket's
hello), serves what does not, and relays again once Redis is back; it never answers a 500."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.rooms.errors import REDIS_AWAY
from tests.cluster.conftest import LEASE_S, REDIS_URL, lobby
from tests.cluster.cuttable_link import CuttableLink
from tests.integration.client import Client, frames_until_closed
from tests.integration.server import ServerProcess

AWAY = {"code": "SERVER_ERROR", "message": REDIS_AWAY[1]}


@pytest.fixture
async def pair(
    pg_url: str, redis_prefix: str, tmp_path: Path
) -> AsyncIterator[tuple[ServerProcess, ServerProcess, CuttableLink]]:
    """Two processes sharing the rooms: ``held`` reaches Redis directly, ``cut_off`` through a link
    the test can cut."""
    link = await CuttableLink(REDIS_URL).start()
    env = {"BORDET_REDIS_PREFIX": redis_prefix, "BORDET_LEASE_S": LEASE_S}
    held = ServerProcess(pg_url, env={**env, "BORDET_REDIS_URL": REDIS_URL}, log_path=tmp_path / "held.log")
    cut_off = ServerProcess(pg_url, env={**env, "BORDET_REDIS_URL": link.url}, log_path=tmp_path / "cut.log")
    try:
        for server in (held, cut_off):
            await asyncio.to_thread(server.start)  # the link answers on this loop meanwhile
        yield held, cut_off, link
    finally:
        for server in (held, cut_off):
            await asyncio.to_thread(server.stop)
        await link.close()


async def test_without_redis_a_room_held_elsewhere_is_answered_503_coded_and_again_once_redis_is_back(
    pair: tuple[ServerProcess, ServerProcess, CuttableLink],
) -> None:
    held, cut_off, link = pair
    here, there = lobby(held), lobby(cut_off)
    ana, bo = await here.player("Ana"), await there.player("Bo")
    code = (await here.create_room(ana["token"], "slap", {"rounds": 1}))["code"]
    assert (await there.http.get(f"/api/rooms/{code}")).status_code == 200  # relayed to its owner

    await link.cut()
    for method, path, body in (
        ("GET", f"/api/rooms/{code}", None),  # held elsewhere: by whom, only Redis knows
        ("POST", f"/api/rooms/{code}/seats", {"seat": None, "prefs": {}}),
        ("POST", "/api/rooms", {"game": "slap", "options": {}, "public": True}),  # a new room needs a lease
    ):
        r = await there.call(method, path, bo["token"], json=body)
        assert (r.status_code, r.json()) == (503, AWAY), (method, path)
        assert r.headers["Retry-After"] == "5"
    health = await there.http.get("/api/health")  # out of rotation while it cannot reach Redis
    assert (health.status_code, health.json()["code"], health.json()["redis"]) == (
        503,
        "REDIS_UNREACHABLE",
        "unreachable",
    )
    # What needs no room goes on: a new player is only the database's.
    assert (await there.http.post("/api/players", json={"name": "Cy"})).status_code == 201
    # A socket's hello is answered, coded, and closed 1011.
    hello = await Client(cut_off.ws, code, bo["token"]).open(hello=False)
    await hello.send({"type": "hello", "token": bo["token"]})
    frames, close_code = await frames_until_closed(hello)
    assert [f for f in frames if f.get("type") == "error"] == [{"type": "error", **AWAY}]
    assert close_code == 1011

    await link.mend()
    seated = await there.sit(bo["token"], code)  # relayed to the owner again, through the new link
    assert seated["seat"] is not None
    async with asyncio.timeout(10):
        client = await Client(cut_off.ws, code, bo["token"]).open()
    await client.close()
    health = await there.http.get("/api/health")
    assert (health.status_code, health.json()["redis"]) == (200, "ok")
    for api in (here, there):
        await api.aclose()
