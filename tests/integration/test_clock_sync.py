"""Clock sync runs on every connection, both ways."""

from __future__ import annotations

import asyncio

from tests.integration.client import TIMEOUT, Api, Client
from tests.integration.server import ServerProcess


async def test_a_client_ping_is_answered_with_the_server_times(server: ServerProcess, api: Api) -> None:
    ana = await api.player("Ana")
    room = await api.create_room(ana["token"])
    client = await Client(server.ws, room["code"], ana["token"]).open()
    assert client.welcome is not None
    await client.send({"type": "ping", "id": 7, "t0": 1234.5})
    async with asyncio.timeout(TIMEOUT):
        while True:
            msg = await client.recv()
            if msg["type"] == "pong" and msg["id"] == 7:
                break
    assert msg["t0"] == 1234.5
    assert client.welcome["server_time"] <= msg["t1"] <= msg["t2"]
    await client.close()


async def test_the_server_pings_each_new_connection_and_reads_the_pong(
    server: ServerProcess, api: Api
) -> None:
    ana = await api.player("Ana")
    room = await api.create_room(ana["token"])
    client = await Client(server.ws, room["code"], ana["token"]).open()
    pings = 0
    async with asyncio.timeout(TIMEOUT):
        while pings < 2:  # the join burst; the client answers each with a pong
            if (await client.recv())["type"] == "ping":
                pings += 1
    # The connection is still in step after answering pings.
    await client.check_in_sync()
    await client.close()
