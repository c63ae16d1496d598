"""Clients reach whichever process; requests and sockets about a room are carried to its owner."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.cluster.conftest import REDIS_URL, lobby
from tests.integration.client import Client
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import step, sync_all


async def test_a_table_plays_the_same_through_any_process(cluster: list[ServerProcess]) -> None:
    apis = [lobby(s) for s in cluster]
    people = [await apis[i % 3].player(n) for i, n in enumerate(["Ana", "Bo", "Cy", "Di"])]
    room = await apis[0].create_room(people[0]["token"], "slap", {"rounds": 1, "first_starter": 1})
    code = room["code"]
    for i, p in enumerate(people[1:], start=1):
        await apis[i % 3].sit(p["token"], code)
    players = [await Client(cluster[i % 3].ws, code, p["token"]).open() for i, p in enumerate(people)]
    try:
        listed = [[r["code"] for r in (await api.http.get("/api/rooms")).json()["rooms"]] for api in apis]
        assert listed == [[code]] * 3, "every process lists the same public rooms"
        seen = [(await api.http.get(f"/api/rooms/{code}")).json() for api in apis]
        assert [len([s for s in room["seats"] if s]) for room in seen] == [4, 4, 4]
        assert seen[0]["seats"] == seen[1]["seats"] == seen[2]["seats"]
        await apis[2].start(people[0]["token"], code)
        await sync_all(players)
        rng = random.Random(5)
        steps = 0
        while players[0].game["phase"] != "MATCH_OVER":
            steps += 1
            assert steps < 3000
            await step(apis[steps % 3], code, players, rng)
            await sync_all(players)
        assert sum(s["pile"] for s in players[0].game["seats"]) == 40
    finally:
        for c in players:
            await c.close()
        for api in apis:
            await api.aclose()


def test_sharing_rooms_needs_postgresql(sqlite_url: str, redis_prefix: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(sqlite_url, env={"BORDET_REDIS_URL": REDIS_URL}, log_path=log)
    with pytest.raises(RuntimeError, match="exited"):
        server.start()
    assert "BORDET_REDIS_URL (several processes sharing the rooms) needs PostgreSQL" in log.read_text()
