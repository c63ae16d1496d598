"""A match played to its end over the wire, for the tests that audit, replay and verify finished matches."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from tests.integration.client import Api
from tests.integration.server import ServerProcess
from tests.integration.test_every_game import MAX_STEPS, open_table, play_to_the_end


@dataclass(frozen=True)
class Finished:
    id: int
    """The match id (``room.match.id``)."""
    code: str
    tokens: list[str]
    """The seated players' tokens, by seat."""


async def play_a_match(server: ServerProcess, api: Api, game: str) -> Finished:
    """Real players (the game's bot deciding from each seat's view) play a short match of ``game``."""
    code, clients, spectator = await open_table(server, api, game)
    try:
        await play_to_the_end(api, code, clients, game)
        await spectator.until(lambda v: v["room"]["status"] == "finished")
        assert spectator.view is not None
        match_id = spectator.view["room"]["match"]["id"]
    finally:
        for c in [*clients, spectator]:
            await c.close()
    return Finished(match_id, code, [c.token for c in clients])


async def start_a_match(server: ServerProcess, api: Api, game: str) -> Finished:
    """A match that has begun and is still being played (its clients closed; the seats are held)."""
    code, clients, spectator = await open_table(server, api, game)
    await spectator.until(lambda v: v["room"]["match"] is not None)
    assert spectator.view is not None
    match_id = spectator.view["room"]["match"]["id"]
    for c in [*clients, spectator]:
        await c.close()
    return Finished(match_id, code, [c.token for c in clients])


async def leave_a_match(server: ServerProcess, api: Api, game: str) -> Finished:
    """Everyone goes once the match has begun: turn timers move for them until the seat hold runs
    out, then stand-in bots play their seats to the end (the clock jumps from deadline to deadline)."""
    started = await start_a_match(server, api, game)
    for _ in range(MAX_STEPS):
        room = (await api.call("GET", f"/api/rooms/{started.code}")).json()
        if room["status"] == "finished":
            return started
        r = await api.http.post("/api/_test/clock", json={"room": started.code, "next_deadline": True})
        assert r.status_code in (200, 409), r.text  # 409: the room is between two inputs
    raise AssertionError(f"{game}: not finished after {MAX_STEPS} steps")


def played(server: ServerProcess, game: str, left: bool = False) -> Finished:
    """:func:`play_a_match` (or :func:`leave_a_match`) from synchronous code (a fixture shared by a
    module's tests).

    It runs on a loop of its own in a worker thread: a fixture may be set up while a test's
    loop is running in this thread.
    """

    async def play() -> Finished:
        api = Api(server.http)
        try:
            return await (leave_a_match if left else play_a_match)(server, api, game)
        finally:
            await api.aclose()

    with ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, play()).result()
