"""Races a cheat cannot buy, through real sockets: a real-clock server, WebSocket clients, delay relays.

The machine has no kernel delay emulation, and a userspace relay terminates TCP itself, so here the
relay plays the trusted reverse proxy (the server trusts 127.0.0.1): it forwards the round trip it
imposes on the upgrade request, as nginx's ``$tcpinfo_rtt`` would (bench/relay.py). Reading the
kernel's own figure is tested on a real loopback socket (tests/realtime/test_transport.py).

Player A is honest, truly faster and on a 150 ms link; B is on 20 ms and cheats: it holds its
clock-sync pongs back (stamping them as answered at once) so its link looks slow, and under-reports
its reactions to match, or under-reports plainly. The bounds are the issue's; the win shares have
the wider tolerance of tests/integration/test_fair_races.py (a loaded machine stalls processes, and
a stall looks exactly like network delay). Nothing sleeps to synchronise: the waits are for real
(relayed) network traffic.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import orjson
import pytest
from websockets.asyncio.client import connect

from app.engines.race import UNVERIFIED
from app.rooms.patch import apply_patch
from bench.fairness import LIARS, TABLE_CHOICES, RaceRecord, Scenario, TableResult, run_table
from bench.relay import DelayRelay
from tests.integration.client import TIMEOUT, Api
from tests.integration.server import ServerProcess

RACES = 30


def liar(words: str) -> Scenario:
    """The bench's cheat row (bench/fairness.py LIARS) whose name has ``words``, at a 30 ms lead."""
    return next(sc for sc in LIARS if words in sc.name and "faster by 30" in sc.name)


@pytest.fixture(scope="module")
def proxied_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on the real clock that trusts proxies on 127.0.0.1 (the relays)."""
    tmp = tmp_path_factory.mktemp("verified")
    server = ServerProcess(
        database_url=f"sqlite+aiosqlite:///{tmp / 'bordet.db'}",
        log_path=tmp / "server.log",
        env={"BORDET_TEST_CLOCK": "0", "BORDET_TRUSTED_PROXIES": "127.0.0.1"},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def tables(server: ServerProcess, scenarios: list[Scenario]) -> list[TableResult]:
    target = ("127.0.0.1", server.port)
    results = await asyncio.gather(
        *(
            run_table(server.http, target, sc, RACES, seed=40 + i, timeout_s=90)
            for i, sc in enumerate(scenarios)
        )
    )
    for result in results:
        assert len(result.races) >= RACES * 2 // 3, (
            f"{result.scenario.title()}: only {len(result.races)} races"
        )
    return list(results)


def gains(result: TableResult, racer: int) -> list[float]:
    return [g for r in result.races if (g := r.gains[racer]) is not None]


def share(result: TableResult, pick: Any) -> float:
    return result.share(pick)


def a_won(race: RaceRecord) -> bool:
    return race.winner == 0


async def test_with_the_proxys_round_trip_a_cheat_gains_at_most_its_jitter_and_a_frame(
    proxied_server: ServerProcess,
) -> None:
    cheats = [
        replace(liar(name), proxy_rtt=True) for name in ("holds pongs 130", "0-150", "instant", "by 15 ms")
    ]
    held, jittered, instant, fifteen = await tables(proxied_server, cheats)
    for result in (held, jittered, instant, fifteen):
        b = gains(result, 1)
        # What B's claims bought it, per race: never more than its jitter plus one frame.
        assert max(b) <= 20, (result.scenario.name, sorted(b)[-5:])
        # A, honest and truly faster, is taken at its word and wins.
        assert abs(statistics.median(gains(result, 0))) <= 2, result.scenario.name
        assert share(result, a_won) >= 0.8, (result.scenario.name, result.misses(a_won))
    for result in (held, jittered, instant):
        assert statistics.median(gains(result, 1)) <= 5, result.scenario.name
    # A link whose pongs claim more than its TCP connection shows is marked on every claim.
    for result in (held, jittered):
        assert share(result, lambda r: r.unverified[1]) == 1.0, result.scenario.name


async def test_without_a_forwarded_round_trip_claims_are_marked_and_the_table_chooses(
    proxied_server: ServerProcess,
) -> None:
    rows = [liar("holds pongs 130"), liar("0-150"), *TABLE_CHOICES]
    held, jittered, arrival, capped = await tables(proxied_server, rows)
    # The relays forward no round trip: every claim rests on the player's own pongs, and says so.
    for result in (held, jittered):
        claims = [c for r in result.races for c in r.claims]
        assert claims and all(UNVERIFIED in c["flags"] for c in claims), result.scenario.name
    # Arrival order: the earlier arrival wins every race, whatever the pongs said.
    assert share(arrival, lambda r: r.winner == r.arrival_winner) == 1.0
    assert all(c["credit"] == 0 for r in arrival.races for c in r.claims)
    # A lower cap: nobody is forgiven more than 60 ms, so the pongs buy B at most 60 - 20 ms.
    assert all(c["credit"] <= 60 for r in capped.races for c in r.claims)
    assert max(gains(capped, 1)) <= 60 - 20 + 2


async def test_the_room_tells_which_seats_race_on_their_own_reported_link(
    proxied_server: ServerProcess,
) -> None:
    """One player behind a relay that forwards the round trip, one behind a relay that does not."""
    api = Api(proxied_server.http)
    try:
        ana, bo = await api.player("Ana"), await api.player("Bo")
        room = await api.create_room(ana["token"], game="slap")
        await api.sit(bo["token"], room["code"], 1)
        target = ("127.0.0.1", proxied_server.port)
        async with (
            DelayRelay.symmetric(*target, rtt_ms=20, forward_rtt=True) as told,
            DelayRelay.symmetric(*target, rtt_ms=20) as silent,
        ):
            sockets = []
            for relay, player in ((told, ana), (silent, bo)):
                ws = await connect(f"ws://127.0.0.1:{relay.port}/ws/rooms/{room['code']}")
                await ws.send(orjson.dumps({"type": "hello", "token": player["token"]}).decode())
                sockets.append(ws)
            view: dict[str, Any] = {"room": {}}
            async with asyncio.timeout(TIMEOUT):
                while view["room"].get("reported_links") != [1]:  # Bo's join reaches Ana as a patch
                    msg = orjson.loads(await sockets[0].recv())
                    if msg["type"] == "snapshot":
                        view = msg["view"]
                    elif msg["type"] == "patch":
                        view = apply_patch(view, msg["ops"])
            assert view["room"]["reported_links"] == [1]
            for ws in sockets:
                await ws.close()
    finally:
        await api.aclose()


async def test_a_pong_without_its_client_times_does_not_count(proxied_server: ServerProcess) -> None:
    """Held back, such a pong would make the link look slow; the server waits for timed ones."""
    api = Api(proxied_server.http)
    try:
        ana = await api.player("Ana")
        room = await api.create_room(ana["token"], game="slap")
        async with connect(f"{proxied_server.ws}/ws/rooms/{room['code']}") as ws:
            await ws.send(orjson.dumps({"type": "hello", "token": ana["token"]}).decode())
            pings: list[dict[str, Any]] = []
            async with asyncio.timeout(TIMEOUT):
                while len(pings) < 4:
                    msg = orjson.loads(await ws.recv())
                    if msg["type"] == "ping":
                        pings.append(msg)
                        await ws.send(orjson.dumps({"type": "pong", "id": msg["id"], "t": msg["t"]}).decode())
                # Untimed pongs gave no round trip; the next ping's timed pong does.
                assert all("rtt" not in p for p in pings), pings
                while True:
                    msg = orjson.loads(await ws.recv())
                    if msg["type"] == "ping":
                        if "rtt" in msg:
                            break
                        pong = {"type": "pong", "id": msg["id"], "t": msg["t"], "t2": 5.0, "t3": 5.5}
                        await ws.send(orjson.dumps(pong).decode())
            assert msg["rtt"] >= 0
    finally:
        await api.aclose()
