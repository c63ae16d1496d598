"""Fair reaction races through real sockets: a real-clock server, real WebSocket clients, delay relays.

Each racer connects through its own userspace relay (bench/relay.py) adding 20 ms or 150 ms of
round trip; the simulated players (bench/fairness.py) slap pairs after scripted reaction times,
measured from the (simulated) paint as the browser does, and answer clock-sync pings with their
own skewed clocks. The properties are the pure arbiter's (tests/engines/test_arbiter.py) with a
wider tolerance: a loaded machine stalls processes for tens of milliseconds now and then, and a
stall looks exactly like network delay. The contrast with arrival order is what must show.
Nothing here sleeps to synchronise: the waits are for real (relayed) network traffic.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from bench.fairness import Scenario, SimPlayer, TableResult, run_table
from bench.relay import DelayRelay
from tests.integration.server import ServerProcess

RACES = 30
SLOW, FAST = (150.0, 3.0), (20.0, 2.0)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on the real monotonic clock (latency tests cannot run on the manual one)."""
    tmp = tmp_path_factory.mktemp("fair")
    server = ServerProcess(
        database_url=f"sqlite+aiosqlite:///{tmp / 'bordet.db'}",
        log_path=tmp / "server.log",
        env={"BORDET_TEST_CLOCK": "0"},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def ready(p: SimPlayer) -> Callable[[], bool]:
    """Clock sync done and the game's deadline in view."""

    def check() -> bool:
        game = p.view["game"] if p.view else None
        return p.synced and game is not None and game["deadline"] is not None

    return check


def share(result: TableResult, pick: Any) -> float:
    assert len(result.races) >= RACES * 2 // 3, f"{result.scenario.name}: only {len(result.races)} races"
    return result.share(pick)


async def test_the_player_who_reacted_first_wins_through_real_sockets(live_server: ServerProcess) -> None:
    scenarios = [
        Scenario("slow link, faster by 30", (SLOW, FAST), faster_ms=30),
        Scenario("slow link, faster by 60", (SLOW, FAST), faster_ms=60),
        Scenario("equal reflexes", (FAST, SLOW), spread_ms=40),
        Scenario("B lies by 100", (SLOW, FAST), faster_ms=40, lie_ms=(0, 100)),
    ]
    target = ("127.0.0.1", live_server.port)
    by30, by60, equal, liar = await asyncio.gather(
        *(
            run_table(live_server.http, target, sc, RACES, seed=i, timeout_s=80)
            for i, sc in enumerate(scenarios)
        )
    )

    def faster_won(r: Any) -> bool:
        return bool(r.winner == r.truly_faster)

    def faster_arrived_first(r: Any) -> bool:
        return bool(r.arrival_winner == r.truly_faster)

    # The truly faster player on the 150 ms link wins; by arrival order it would (almost) never.
    assert share(by30, faster_won) >= 0.7, by30.misses(faster_won)
    assert share(by60, faster_won) >= 0.8, by60.misses(faster_won)
    assert share(by30, faster_arrived_first) <= 0.2 and share(by60, faster_arrived_first) <= 0.2

    # Equal reflexes: the 20 ms player wins about half (a binomial bound; 30 races: 6 to 24 wins
    # hold with probability 0.9997 for a fair coin), where arrival order hands it nearly every race.
    assert 0.2 <= share(equal, lambda r: r.winner == 0) <= 0.8, equal.races
    assert share(equal, lambda r: r.arrival_winner == 0) >= 0.85

    # A client under-reporting by 100 ms against an honest player faster by 40 ms (more than its
    # jitter plus one frame): it rarely wins, and its claims are flagged.
    assert share(liar, lambda r: r.winner == 1) <= 0.2, liar.races
    assert share(liar, lambda r: r.flagged[1]) >= 0.8
    assert share(liar, lambda r: r.arrival_winner == 1) >= 0.8  # it did arrive first


async def test_countdowns_agree_across_latencies_and_clocks(live_server: ServerProcess) -> None:
    """Two clients, 20 ms and 150 ms round trip, clocks far apart: their countdowns to one deadline agree."""
    async with httpx.AsyncClient(base_url=live_server.http, timeout=30) as http:
        tokens = [(await http.post("/api/players", json={"name": n})).json()["token"] for n in ("Ana", "Bo")]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        options = {"nu_mode": "auto", "auto_nu_ms": 60_000}
        room = (
            await http.post("/api/rooms", json={"game": "slap", "options": options}, headers=auth[0])
        ).json()
        code = room["code"]
        assert (await http.post(f"/api/rooms/{code}/seats", json={}, headers=auth[1])).status_code == 200
        target = ("127.0.0.1", live_server.port)
        async with (
            DelayRelay.symmetric(*target, rtt_ms=FAST[0], jitter_ms=FAST[1], seed=1) as near,
            DelayRelay.symmetric(*target, rtt_ms=SLOW[0], jitter_ms=SLOW[1], seed=2) as far,
        ):
            players = [
                SimPlayer(
                    f"ws://127.0.0.1:{relay.port}/ws/rooms/{code}", token, i, lambda m, f: 0.0, skew_ms=skew
                )
                for i, (relay, token, skew) in enumerate(((near, tokens[0], 4.2e6), (far, tokens[1], -7.7e5)))
            ]
            try:
                for p in players:
                    await p.open()
                assert (await http.post(f"/api/rooms/{code}/start", headers=auth[0])).status_code == 200
                for p in players:
                    await p.until(ready(p), timeout=20)
                rtts = [p.rtt for p in players]
                deadlines = {p.view["game"]["deadline"] for p in players if p.view}
                assert len(deadlines) == 1
                deadline = deadlines.pop()
                # The same instant on both clients (one process), each on its own clock and offset.
                shown = [p.countdown(deadline) for p in players]
                truth = deadline - time.time() * 1000  # the room clock is anchored on the wall clock
                assert abs(shown[0] - shown[1]) <= 50, shown
                assert all(abs(s - truth) <= 50 for s in shown), (shown, truth)
                assert 55_000 <= shown[0] <= 60_000
                # The server's view of the two links.
                assert rtts[0] is not None and rtts[1] is not None
                assert 15 <= rtts[0] <= 45 and 145 <= rtts[1] <= 190, rtts
            finally:
                for p in players:
                    await p.close()


async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """The relays' far end in the tests below: every byte back as it came."""
    while data := await reader.read(4096):
        writer.write(data)
        await writer.drain()
    writer.close()


async def test_the_relay_delays_each_direction_and_keeps_the_stream_in_order() -> None:
    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with DelayRelay("127.0.0.1", port, up_ms=20, down_ms=30, jitter_ms=15, seed=3) as relay:
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            loop = asyncio.get_running_loop()
            sent_at = loop.time()
            payload = b"".join(f"{i:05d};".encode() for i in range(2000))
            for k in range(0, len(payload), 300):  # many small writes, each jittered on its own
                writer.write(payload[k : k + 300])
                await writer.drain()
            received = b""
            async with asyncio.timeout(10):
                while len(received) < len(payload):
                    chunk = await reader.read(65536)
                    if not received:
                        first_back = loop.time()
                    received += chunk
            writer.close()
        assert received == payload  # jitter never reorders a byte stream
        assert (first_back - sent_at) * 1000 >= 50  # at least both base delays
    finally:
        server.close()


async def test_the_relay_notes_a_chunk_it_released_late() -> None:
    """A busy process cannot hold a link's delay: the relay notes how late each such chunk was."""

    def busy(ms: float) -> None:
        until = time.monotonic() + ms / 1000
        while time.monotonic() < until:
            pass

    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with DelayRelay("127.0.0.1", port, up_ms=40) as relay:
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            writer.write(b"a")  # one round trip first: both of the relay's pipes are up
            assert await reader.read(1) == b"a"
            loop = asyncio.get_running_loop()
            sent = loop.time()
            writer.write(b"b")
            loop.call_later(0.010, busy, 100)  # the loop is held from 10 to 110 ms; "b" is due at 40
            assert await reader.read(1) == b"b"
            writer.close()
        assert relay.most_late(sent, sent + 1) >= 20
        assert relay.most_late(sent + 1, sent + 2) == 0.0  # nothing was due then
    finally:
        server.close()
