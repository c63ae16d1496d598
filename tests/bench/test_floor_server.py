"""The floor of ``bench.fanout`` on a real uvicorn: one message per seat for each step, coded errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.slap_load import ServerProcess


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp: Path = tmp_path_factory.mktemp("floor")
    server = ServerProcess(database_url="sqlite://", log_path=tmp / "floor.log", app="bench.floor_server:app")
    server.start(None)
    try:
        yield "ws" + server.base[len("http") :]
    finally:
        server.stop()


async def test_a_step_reaches_every_seat_of_its_table(floor: str) -> None:
    seats = [await connect(f"{floor}/ws/floor/7/{s}") for s in range(4)]
    other = await connect(f"{floor}/ws/floor/8/0")
    try:
        await seats[2].send('{"k": 5}')
        for ws in seats:
            msg = json.loads(await ws.recv())
            assert (msg["type"], msg["table"], msg["seat"], msg["k"]) == ("effect", 7, 2, 5)
            assert 120 <= len(json.dumps(msg)) <= 200
        await other.send('{"k": 1}')
        assert json.loads(await other.recv())["table"] == 8  # its own table's step, not table 7's
    finally:
        for ws in [*seats, other]:
            await ws.close()


async def test_a_bad_frame_gets_a_coded_error(floor: str) -> None:
    async with connect(f"{floor}/ws/floor/1/0") as ws:
        for bad in ("not json", '{"k": "x"}', "[]", '{"k": 1' + " " * 1000 + "}"):
            await ws.send(bad)
            msg = json.loads(await ws.recv())
            assert (msg["type"], msg["code"]) == ("error", "BAD_MESSAGE")


async def test_a_seat_outside_the_table_is_refused(floor: str) -> None:
    async with connect(f"{floor}/ws/floor/1/4") as ws:
        with pytest.raises(ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4400
        assert (ws.close_reason or "").startswith("BAD_SEAT")
