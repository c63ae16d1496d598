"""A client whose socket is carried to its room's owner on another process and that stops reading
is treated as a slow client connected to the owner: its backlog is emptied and one reset snapshot
takes the place of the frames it lost; once it reads again its view is its seat's view."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.cluster.conftest import lobby, processes
from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess
from tests.integration.test_slow_clients import BACKLOG, FAST_SLAP
from tests.observability.test_metrics import scrape, value


@pytest.fixture
def pair(pg_url: str, redis_prefix: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two processes with small send backlogs, and a write timeout no step of the test reaches."""
    yield from processes(
        pg_url,
        redis_prefix,
        tmp_path,
        2,
        BORDET_SEND_BACKLOG_BYTES=str(BACKLOG),
        BORDET_WRITE_TIMEOUT_S="60",
        BORDET_BOT_THINK_MS="1-2",
    )


async def _client_on_small_buffers(server: ServerProcess, code: str, token: str) -> Client:
    """A client whose reads stop as soon as it stops calling ``recv``: a small receive buffer, and
    the library stops reading from its socket once one frame waits unread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    client = Client(server.ws, code, token)
    client.ws = await connect(client.url, sock=sock, max_queue=1, max_size=2**22)
    await client.send({"type": "hello", "token": token})
    while client.view is None:
        await client.recv()
    return client


async def _overflows(api: Api) -> float:
    return value(await scrape(api), "bordet_send_overflows_total", reason="queue_full")


async def test_a_relayed_client_that_stops_reading_gets_one_reset_snapshot(pair: list[ServerProcess]) -> None:
    owner, edge = pair
    api = lobby(owner)
    hana, stig = await api.player("Hana"), await api.player("Stig")
    code = (await api.create_room(hana["token"], "slap", FAST_SLAP))["code"]  # held by ``owner``
    await api.sit(stig["token"], code)
    for _ in range(2):
        assert (await api.call("POST", f"/api/rooms/{code}/bots", hana["token"], json={})).status_code == 201
    await api.start(hana["token"], code)
    host = await Client(owner.ws, code, hana["token"]).open()
    slow = await _client_on_small_buffers(edge, code, stig["token"])
    try:
        # Stig stops reading while the table plays on, until his backlog on the owner overflows.
        rounds = 0
        while await _overflows(api) == 0:
            rounds += 1
            assert rounds <= 200, "the relayed client never overflowed its backlog on the owner"
            for _ in range(20):
                r = await api.http.post("/api/_test/clock", json={"room": code, "next_deadline": True})
                if r.status_code == 409:  # no timer left: the match is over, another starts
                    await api.start(hana["token"], code)
            await host.check_in_sync()

        # He reads again: what was in flight, then one reset snapshot in place of what he lost.
        reasons: list[str] = []
        while "reset" not in reasons:
            msg = await slow.recv()
            if msg["type"] == "snapshot":
                reasons.append(msg["reason"])
        assert reasons == ["reset"]
        view = await slow.check_in_sync()
        assert view["game"]["you"] == 1  # his seat's view, not the public one
        assert slow.errors == [] and slow.closed is None
        assert await _overflows(api) == 1
    finally:
        for c in (host, slow):
            with contextlib.suppress(Exception):
                await c.close()
        await api.aclose()
