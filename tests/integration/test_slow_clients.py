"""Slow and stuck clients: a client that stops reading is cut off within the write timeout, holding
no more than its byte bound, and the table plays on."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.integration.client import TIMEOUT, Api, Client
from tests.integration.server import ServerProcess

BACKLOG = 16 * 1024
FAST_SLAP = {
    "nu_mode": "auto",
    "auto_nu_ms": 1,
    "nu_lead_ms": 1,
    "no_pair_window_ms": 1,
    "pair_timeout_ms": 5,
    "trick_pause_ms": 1,
    "nopair_pause_ms": 1,
    "round_end_pause_ms": 1,
    "rounds": 10,
}
CUT_OFF = re.compile(r"cut off: .* \((\d+) bytes waiting, bound (\d+)\)")


@pytest.fixture
def slow_server(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(
        database_url=sqlite_url,
        log_path=tmp_path / "server.log",
        env={
            "BORDET_WRITE_TIMEOUT_S": "1",
            "BORDET_SEND_BACKLOG_BYTES": str(BACKLOG),
            "BORDET_BOT_THINK_MS": "1-2",
        },
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _member(view: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next(m for m in view["room"]["seats"] if m is not None and m["player_id"] == player_id)


async def _stuck_client(server: ServerProcess, code: str, token: str) -> Any:
    """A client that says hello and then never reads: a small receive buffer, and the library
    stops reading from its socket once one frame waits unread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    ws = await connect(f"{server.ws}/ws/rooms/{code}", sock=sock, max_queue=1, max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def test_a_client_that_stops_reading_is_cut_off_and_the_table_plays_on(
    slow_server: ServerProcess,
) -> None:
    api = Api(slow_server.http)
    try:
        hana = await api.player("Hana")
        stig = await api.player("Stig")
        room = await api.create_room(hana["token"], "slap", FAST_SLAP)
        code = room["code"]
        await api.sit(stig["token"], code)
        for _ in range(2):
            r = await api.call("POST", f"/api/rooms/{code}/bots", hana["token"], json={})
            assert r.status_code == 201, r.text
        await api.start(hana["token"], code)
        host = await Client(slow_server.ws, code, hana["token"]).open()
        stuck = await _stuck_client(slow_server, code, stig["token"])

        async def step(timers: int = 1) -> None:
            """Move the table's clock through its next ``timers`` timers (bots slap, flips turn; a
            finished match is started again), then resync the host: its snapshot comes after every
            frame before it."""
            for _ in range(timers):
                r = await api.http.post("/api/_test/clock", json={"room": code, "next_deadline": True})
                if r.status_code == 409:  # no timer left: the match is over
                    await api.start(hana["token"], code)
            await host.send({"type": "resync"})
            before = host.snapshots
            while host.snapshots == before:
                await host.recv()

        async with asyncio.timeout(max(60.0, 6 * TIMEOUT)):
            assert host.view is not None
            while not _member(host.view, stig["id"])["connected"]:
                await step()
            while _member(host.view, stig["id"])["connected"]:
                await step(20)

        # The table goes on without him: its next timers still reach the host.
        flip = host.view["game"]["flip"]
        async with asyncio.timeout(TIMEOUT):
            while host.view["game"]["flip"] == flip:
                await step()
        # Stig's socket was dropped: reading what is left ends in a closed connection.
        with pytest.raises(ConnectionClosed):
            async with asyncio.timeout(TIMEOUT):
                while True:
                    await stuck.recv()
        await host.close()
    finally:
        await api.aclose()

    log = (slow_server.log_path or Path()).read_text()
    cut = CUT_OFF.search(log)
    assert cut is not None, log[-2000:]
    waiting, bound = int(cut.group(1)), int(cut.group(2))
    assert bound == BACKLOG and waiting <= BACKLOG
    assert "Traceback" not in log
