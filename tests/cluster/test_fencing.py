"""A process that was paused while another took its room over can never write to the room again:
neither its event log nor its lobby rows; and a fence counter Redis lost never hands out an old number."""

from __future__ import annotations

import contextlib
import os
import signal
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from redis.asyncio import Redis
from websockets.exceptions import ConnectionClosed

from tests.cluster.conftest import lobby
from tests.cluster.test_failover import _lease_owner
from tests.integration.client import Client, frames_until_closed
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import sync_all
from tests.observability.test_metrics import scrape, value


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


async def _room_rows(pg_url: str, code: str) -> tuple[Any, list[tuple[str, str, int | None]]]:
    """The room's row and its members' rows as stored."""
    conn = await asyncpg.connect(pg_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        room = await conn.fetchrow(
            "SELECT status, host_id, public, options, fence FROM rooms WHERE code = $1", code
        )
        members = await conn.fetch(
            "SELECT player_id, role, seat FROM room_members WHERE room_code = $1 ORDER BY player_id", code
        )
    finally:
        await conn.close()
    return tuple(room), [(m["player_id"], m["role"], m["seat"]) for m in members]


async def test_a_lobby_command_of_a_paused_owner_whose_lease_was_taken_changes_nothing(
    cluster: list[ServerProcess], redis: Redis, redis_prefix: str, pg_url: str
) -> None:
    paused, other = cluster[0], cluster[1]
    api, host_api = lobby(other), lobby(paused)
    host, guest = await api.player("Ana"), await api.player("Bo")
    room = await host_api.create_room(host["token"], "slap", {"rounds": 1})  # held by ``paused``
    code = room["code"]
    on_paused = await Client(paused.ws, code, host["token"]).open()
    clients = [on_paused]
    assert paused.proc is not None
    try:
        first_owner = await _lease_owner(redis, redis_prefix, code)
        os.kill(paused.proc.pid, signal.SIGSTOP)
        try:
            # Through another process: it waits out the silent owner's lease and takes the room over.
            clients.append(await Client(other.ws, code, guest["token"]).open())
            assert await _lease_owner(redis, redis_prefix, code) not in (None, first_owner)
            before = await _room_rows(pg_url, code)
            # The host's seat_bot, sent to the paused process, which still believes it holds the room.
            await on_paused.send({"type": "admin", "id": "stale-bot", "command": "seat_bot"})
        finally:
            os.kill(paused.proc.pid, signal.SIGCONT)
        # Refused (SERVER_ERROR), or the room left the paused process first: either way its socket
        # is closed so that its client reconnects to the new owner.
        closed = await frames_until_closed(on_paused)
        answers = [(f["type"], f.get("code")) for f in closed[0] if f.get("id") == "stale-bot"]
        assert answers in ([], [("reject", "SERVER_ERROR")]), closed
        assert closed[1] == 1012, closed
        assert await _room_rows(pg_url, code) == before

        taker = await scrape(lobby(other))
        assert value(taker, "bordet_cluster_rooms_taken_over_total") >= 1
        assert value(taker, "bordet_cluster_leases_held") == 1
        old = await scrape(host_api)
        assert value(old, "bordet_cluster_leases_held") == 0
        # It learnt it lost the room from its lease, or from the database refusing the write.
        assert (
            value(old, "bordet_cluster_lease_renewals_failed_total", reason="lost")
            + value(old, "bordet_stale_owner_refusals_total")
            >= 1
        )
        again = await Client(paused.ws, code, host["token"]).open()  # now relayed to the new owner
        clients.append(again)
        assert (await again.admin("seat_bot"))["type"] == "ack"
        assert len((await _room_rows(pg_url, code))[1]) == len(before[1]) + 1
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()
        await api.aclose()
        await host_api.aclose()


async def test_a_lost_fence_counter_still_gives_the_next_owner_a_larger_fence(
    cluster: list[ServerProcess], redis: Redis, redis_prefix: str, pg_url: str
) -> None:
    first, second = cluster[0], cluster[1]
    api, host_api = lobby(second), lobby(first)
    host, guest = await api.player("Ana"), await api.player("Bo")
    code = (await host_api.create_room(host["token"], "slap", {"rounds": 1}))["code"]
    held = (await _room_rows(pg_url, code))[0][-1]
    assert held >= 1
    # Redis lost the room's keys (its counter expired, or Redis lost its data): the first process
    # learns at its next renewal that the lease is no longer its own.
    await redis.delete(f"{redis_prefix}:fence:{code}", f"{redis_prefix}:lease:{code}")
    try:
        await api.sit(guest["token"], code)  # through the second process, which takes the room
        owner = await _lease_owner(redis, redis_prefix, code)
        assert owner is not None
        fence = (await _room_rows(pg_url, code))[0][-1]
        assert fence > held
        assert await redis.get(f"{redis_prefix}:fence:{code}") == str(fence).encode()
        assert any(m[0] == guest["id"] and m[1] == "seat" for m in (await _room_rows(pg_url, code))[1])
    finally:
        await api.aclose()
        await host_api.aclose()
