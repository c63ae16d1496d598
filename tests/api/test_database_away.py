"""A database that cannot answer (unreachable, or every pooled connection held past the pool's
timeout by a burst) gives a coded 503 with ``Retry-After`` over HTTP, and a coded error then close
1011 for a socket's hello: never a 500 or a dropped socket, and the server goes on once it answers."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import httpx
import orjson
import pytest
import uvicorn
from fastapi import FastAPI
from websockets.asyncio.client import connect

from app.db.store import Store, migrate
from app.security import TokenSigner
from tests.api.over_store import SIGNING_KEY, app_over, unreachable_store

DATABASE_AWAY = {
    "code": "SERVER_ERROR",
    "message": "The server's database did not answer just now; nothing changed. Please try again.",
}


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bordet.test")


@pytest.fixture
async def tight_pool(tmp_path: object) -> AsyncIterator[Store]:
    """A migrated SQLite store with one pooled connection and a pool timeout of a tenth of a second."""
    url = f"sqlite+aiosqlite:///{tmp_path}/bordet.db"
    await migrate(url)
    store = Store(url, pool_size=1, max_overflow=0, pool_timeout=0.1)
    try:
        yield store
    finally:
        await store.close()


async def test_a_lobby_request_answers_503_coded_when_the_database_is_unreachable() -> None:
    store = unreachable_store()
    try:
        async with client(app_over(store)) as http:
            r = await http.post("/api/players", json={"name": "Astrid"})
    finally:
        await store.close()
    assert r.status_code == 503
    assert r.json() == DATABASE_AWAY
    assert int(r.headers["Retry-After"]) > 0


async def test_a_lobby_request_answers_503_coded_while_every_pooled_connection_is_busy(
    tight_pool: Store,
) -> None:
    async with client(app_over(tight_pool)) as http:
        async with tight_pool.engine.connect():  # the pool's one connection, held by a long query
            r = await http.post("/api/players", json={"name": "Astrid"})
        assert r.status_code == 503
        assert r.json() == DATABASE_AWAY
        # Once the burst is over the same request goes through.
        again = await http.post("/api/players", json={"name": "Astrid"})
    assert again.status_code == 201, again.text


async def test_a_socket_hello_is_refused_coded_with_close_1011_while_the_database_cannot_answer(
    tight_pool: Store,
) -> None:
    player = await tight_pool.create_player("Astrid")
    token = TokenSigner(SIGNING_KEY).sign(player.id)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    config = uvicorn.Config(app_over(tight_pool), log_level="warning", ws="websockets-sansio", lifespan="off")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        async with tight_pool.engine.connect(), connect(f"ws://127.0.0.1:{port}/ws/rooms/ABCDEF") as ws:
            await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
            error = orjson.loads(await ws.recv())
            await ws.wait_closed()
        assert error == {"type": "error", **DATABASE_AWAY}
        assert ws.close_code == 1011
        # With the database answering again, the same hello is answered by the room lookup.
        async with connect(f"ws://127.0.0.1:{port}/ws/rooms/ABCDEF") as ws:
            await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
            unknown = orjson.loads(await ws.recv())
            await ws.wait_closed()
        assert unknown["code"] == "UNKNOWN_ROOM" and ws.close_code == 4004
    finally:
        server.should_exit = True
        await serving
        listener.close()
