"""A process that was paused while another took its room over can never write to the room again."""

from __future__ import annotations

import contextlib
import os
import signal

import asyncpg  # type: ignore[import-untyped]
from redis.asyncio import Redis
from websockets.exceptions import ConnectionClosed

from tests.cluster.conftest import lobby
from tests.cluster.test_failover import _lease_owner
from tests.integration.client import Client
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import sync_all


async def _log_of(pg_url: str, code: str) -> list[tuple[int, str, str | None, int | None]]:
    """The room's event log as stored: (seq, kind, client id, fence) of each row."""
    conn = await asyncpg.connect(pg_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        rows = await conn.fetch(
            "SELECT e.seq, e.kind, e.client_id, e.fence FROM game_events e JOIN games g ON g.id = e.game_id"
            " WHERE g.room_code = $1 ORDER BY e.game_id, e.seq",
            code,
        )
    finally:
        await conn.close()
    return [(r["seq"], r["kind"], r["client_id"], r["fence"]) for r in rows]


async def _logged_ids(pg_url: str, code: str) -> list[str | None]:
    return [client_id for _, _, client_id, _ in await _log_of(pg_url, code)]


async def test_a_paused_owner_whose_lease_was_taken_cannot_append(
    cluster: list[ServerProcess], redis: Redis, redis_prefix: str, pg_url: str
) -> None:
    paused, other = cluster[0], cluster[1]
    api = lobby(other)
    people = [await api.player(n) for n in ("Ana", "Bo")]
    tokens = [p["token"] for p in people]
    host_api = lobby(paused)  # the room is created on, so held by, the process to be paused
    room = await host_api.create_room(tokens[0], "slap", {"rounds": 1, "first_starter": 1})
    await host_api.aclose()
    code = room["code"]
    await api.sit(tokens[1], code)
    on_paused = [await Client(paused.ws, code, t).open() for t in tokens]
    clients = list(on_paused)
    assert paused.proc is not None
    try:
        await api.start(tokens[0], code)
        await sync_all(on_paused)
        first_owner = await _lease_owner(redis, redis_prefix, code)
        actor = next(c for c in on_paused if c.game["legal"])
        seat = on_paused.index(actor)
        action = actor.game["legal"][0]

        os.kill(paused.proc.pid, signal.SIGSTOP)
        try:
            # Reaching the room through another process waits out the silent owner's lease,
            # then that process takes the room over (a new fence) and serves it.
            taker = await Client(other.ws, code, tokens[1 - seat]).open()
            clients.append(taker)
            assert await _lease_owner(redis, redis_prefix, code) not in (None, first_owner)
            # Sent to the paused process, which still believes it holds the room.
            await actor.send({"type": "action", "id": "stale-1", "action": action})
        finally:
            os.kill(paused.proc.pid, signal.SIGCONT)
        with contextlib.suppress(ConnectionClosed):
            reply = await actor.reply("stale-1")
            assert reply["type"] == "reject" and reply["code"] == "SERVER_ERROR", reply
        stored = await _log_of(pg_url, code)
        assert "stale-1" not in [client_id for _, _, client_id, _ in stored], stored

        # The room lives on at its new owner without that action: the same id is new there.
        again = await Client(other.ws, code, tokens[seat]).open()
        clients.append(again)
        await sync_all([again, taker])
        reply = await again.act(action, action_id="stale-1")
        assert reply["type"] == "ack" and not reply.get("duplicate"), (reply, await _log_of(pg_url, code))
        assert "stale-1" in await _logged_ids(pg_url, code)
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()
        await api.aclose()
