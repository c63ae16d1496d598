"""The WebSockets one client address holds open count where the client connected, once: a socket
carried to its room's owner on another process does not count there as well."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.conftest import lobby, processes
from tests.integration.client import Client, frames_until_closed
from tests.integration.server import ServerProcess
from tests.observability.test_metrics import scrape, value

LIMIT = 2


@pytest.fixture
def pair(pg_url: str, redis_prefix: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two processes allowing two sockets per address."""
    yield from processes(pg_url, redis_prefix, tmp_path, 2, BORDET_SOCKETS_PER_ADDRESS=str(LIMIT))


async def test_a_relayed_socket_counts_once_against_its_address_where_it_connected(
    pair: list[ServerProcess],
) -> None:
    owner, edge = pair
    api = lobby(owner)
    people = [await api.player(n) for n in ("Ana", "Bo", "Cy", "Di", "Ed")]
    code = (await api.create_room(people[0]["token"], "slap", {}))["code"]  # held by ``owner``
    clients: list[Client] = []
    try:
        for person in people[:LIMIT]:  # carried to the owner
            clients.append(await Client(edge.ws, code, person["token"]).open())
        relayed = await scrape(lobby(edge))
        assert value(relayed, "bordet_cluster_relayed_connections_open", side="edge") == LIMIT
        assert value(await scrape(api), "bordet_cluster_relayed_connections_open", side="owner") == LIMIT
        for direction in ("in", "out"):  # the client's hello one way, its frames the other
            assert value(relayed, "bordet_relay_messages_total", direction=direction) >= LIMIT
            assert value(relayed, "bordet_relay_bytes_total", direction=direction) > 0

        refused = Client(edge.ws, code, people[LIMIT]["token"])
        await refused.open(hello=False)
        frames, close_code = await frames_until_closed(refused)
        assert [f["code"] for f in frames] == ["TOO_MANY_CONNECTIONS"] and close_code == 4029

        # The owner counts only the sockets connected to it: the same address has its places there.
        for person in people[LIMIT : 2 * LIMIT]:
            clients.append(await Client(owner.ws, code, person["token"]).open())
        await asyncio.gather(*(c.check_in_sync() for c in clients))
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()
        await api.aclose()
