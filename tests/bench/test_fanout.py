"""``bench.fanout`` against real servers: a short sweep at a low rate, and its idle mode."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import orjson
import pytest
from websockets.asyncio.server import ServerConnection, serve

from bench.fanout import GRAY_CARDS, Table, gray, gray_step, hello, merged_rates, pace
from tests.bench.runs import bench_json


def run_tool(*args: str) -> dict[str, Any]:
    return bench_json("bench.fanout", *args)


def test_each_step_names_itself_by_the_cards_in_the_draft() -> None:
    masks = [gray(k) for k in range(2**GRAY_CARDS)]
    assert len(set(masks)) == len(masks)
    assert all(gray_step(m) == k for k, m in enumerate(masks))
    # One step moves one card: consecutive states differ in exactly that card.
    assert all(bin(masks[k] ^ masks[k - 1]).count("1") == 1 for k in range(1, len(masks)))


def test_steps_fallen_behind_all_leave_before_the_readers_run_again() -> None:
    """Open loop: however long the readers' turns of the loop took, every step already due is
    sent at once (a few per turn would fall further behind with every turn)."""
    events: list[str] = []

    async def readers() -> None:
        for _ in range(50):
            events.append("read")
            await asyncio.sleep(0)

    async def send(j: int, due: int) -> None:
        events.append(f"send {j} at {due}")

    async def run() -> None:
        # 20 steps due 1 ns apart, all already past on the clock, which then stands still.
        await asyncio.gather(readers(), pace(itertools.count(0), 20, send, clock=lambda: 1_000))

    asyncio.run(run())
    sends = [i for i, event in enumerate(events) if event.startswith("send")]
    assert [events[i] for i in sends] == [f"send {j} at {j}" for j in range(20)]
    assert sends == list(range(sends[0], sends[0] + 20))  # no reader turn in between


def test_steps_leave_at_their_times_and_none_at_or_after_the_end() -> None:
    sent: list[int] = []
    now = iter(range(0, 10_000, 10))  # the clock moves 10 ns a reading

    async def send(j: int, due: int) -> None:
        sent.append(due)

    asyncio.run(pace(iter([0, 5, 5, 40, 99, 100, 120]), 100, send, clock=lambda: next(now)))
    assert sent == [0, 5, 5, 40, 99]


def test_a_refused_hello_is_sent_again_as_the_browser_does() -> None:
    """A server too busy for a hello answers SERVER_ERROR and closes with 1011; the seat backs off
    and says hello again, and the setup counts the refusal."""
    hellos: list[str] = []

    async def handler(ws: ServerConnection) -> None:
        hellos.append(orjson.loads(await ws.recv())["token"])
        if len(hellos) == 1:
            await ws.send('{"type":"error","code":"SERVER_ERROR","message":"busy"}')
            await ws.close(1011, "busy")
        else:
            await ws.send('{"type":"welcome"}')
            await ws.wait_closed()

    async def run() -> int:
        table = Table(0)
        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            ws = await hello(f"ws://127.0.0.1:{port}/ws/rooms/ABCD", "seat-token", table)
            await ws.close()
        return table.refused_hellos

    assert asyncio.run(run()) == 1
    assert hellos == ["seat-token", "seat-token"]


@pytest.fixture(scope="module")
def sweep() -> dict[str, Any]:
    return run_tool(
        "--connections", "8", "--rates", "20", "--warmup", "0.5", "--seconds", "2", "--grace", "8"
    )


@pytest.mark.parametrize("name", ["bordet", "floor"])
def test_every_step_reaches_all_four_seats(sweep: dict[str, Any], name: str) -> None:
    target = sweep["targets"][name]
    (rate,) = target["rates"]
    sent = round(rate["sent_per_s"] * rate["measured_s"])
    assert sent > 0
    assert rate["latency_ms"]["n"] == sent  # every measured step completed at all four seats
    assert rate["unresolved"] == 0 and rate["skipped"] == 0
    assert rate["rejects"] == {} and rate["errors"] == {}
    assert target["seq_gaps"] == 0 and target["connections_closed_early"] == 0


@pytest.mark.parametrize("name", ["bordet", "floor"])
def test_figures_are_present_and_sane(sweep: dict[str, Any], name: str) -> None:
    (rate,) = sweep["targets"][name]["rates"]
    lat = rate["latency_ms"]
    assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    assert rate["accepted_per_s"] > 0
    # At most one frame per step and seat (Bordet folds the steps of one room turn into one frame).
    assert 0 < rate["frames_per_s"] <= 4 * rate["sent_per_s"] * 1.5 + 8
    assert rate["server_cpu_pct"] > 0 and rate["server_cpu_pct_per_1000_frames_per_s"] > 0
    assert rate["server_rss_mb"] > 10 and rate["client_cpu_pct"] >= 0


def test_the_floor_answers_each_step_with_one_message_per_seat(sweep: dict[str, Any]) -> None:
    (rate,) = sweep["targets"]["floor"]["rates"]
    assert rate["frames_per_s"] == pytest.approx(4 * rate["sent_per_s"], rel=0.5)
    assert 100 <= rate["frame_bytes_avg"] <= 200


def test_bordet_acks_the_steps(sweep: dict[str, Any]) -> None:
    (rate,) = sweep["targets"]["bordet"]["rates"]
    assert rate["acked_per_s"] == pytest.approx(rate["sent_per_s"], rel=0.5)


def test_bordet_reports_its_collector_passes_and_the_floor_has_none(sweep: dict[str, Any]) -> None:
    (bordet,) = sweep["targets"]["bordet"]["rates"]
    (floor,) = sweep["targets"]["floor"]["rates"]
    assert isinstance(bordet["server_gc_passes"], int) and bordet["server_gc_passes"] >= 0
    assert bordet["server_gc_pause_ms"] >= 0
    assert (bordet["server_gc_passes"] == 0) == (bordet["server_gc_pause_ms"] == 0)
    assert floor["server_gc_passes"] is None and floor["server_gc_pause_ms"] is None


def test_the_ratio_compares_the_two_servers(sweep: dict[str, Any]) -> None:
    (ratio,) = sweep["ratio_bordet_to_floor"]
    assert ratio["target_per_s"] == 20
    assert ratio["cpu_per_1000_frames_per_s"] > 0 and ratio["p99"] > 0


def test_repeated_runs_give_medians_and_keep_every_run_and_every_problem() -> None:
    def run(p99: float, cpu: float, rejects: dict[str, int], unresolved: int) -> dict[str, Any]:
        return {
            "target_per_s": 20,
            "latency_ms": {"n": 40, "p99": p99},
            "server_cpu_pct": cpu,
            "server_gc_passes": None,
            "rejects": rejects,
            "errors": {},
            "unresolved": unresolved,
            "skipped": 0,
        }

    (rate,) = merged_rates(
        [[run(9.0, 30.0, {}, 0)], [run(100.0, 20.0, {"STALE_TURN": 1}, 2)], [run(12.0, 25.0, {}, 1)]]
    )
    assert rate["latency_ms"] == {"n": 40, "p99": 12.0} and rate["server_cpu_pct"] == 25.0
    assert rate["server_gc_passes"] is None and rate["target_per_s"] == 20
    assert rate["rejects"] == {"STALE_TURN": 1} and rate["unresolved"] == 3


def test_a_repeated_sweep_alternates_the_servers_and_reports_each_run() -> None:
    f = run_tool(
        "--connections",
        "8",
        "--rates",
        "20",
        "--warmup",
        "0.5",
        "--seconds",
        "1",
        "--grace",
        "8",
        "--repeat",
        "2",
    )
    assert f["repeat"] == 2
    for name in ("bordet", "floor"):
        target = f["targets"][name]
        assert len(target["runs"]) == 2
        assert len({run["server_pid"] for run in target["runs"]}) == 2  # a fresh server per run
        (rate,) = target["rates"]
        p99s = sorted(run["rates"][0]["latency_ms"]["p99"] for run in target["runs"])
        assert rate["latency_ms"]["p99"] == pytest.approx(sum(p99s) / 2)
    (ratio,) = f["ratio_bordet_to_floor"]
    assert ratio["cpu_per_1000_frames_per_s"] > 0


def test_idle_connections_answer_clock_sync() -> None:
    f = run_tool("--idle", "--connections", "8", "--seconds", "3", "--settle", "1")
    assert f["connections"] == 8 and f["rooms"] == 2
    assert f["pings_per_s"] > 0  # every link answers the server's pings, nothing else happens
    assert f["connections_closed_early"] == 0 and f["connections_closed_early_codes"] == {}
    assert f["rss_end_mb"] >= f["rss_start_mb"] > 10
    assert f["server_cpu_pct"] >= 0 and f["rss_mb_per_1000_connections"] > 0
