"""``GET /metrics`` of a real server: every named metric is exposed, and each moves with what it counts."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess
from tests.integration.test_bad_input import table

NAMES = {
    "bordet_rooms_loaded",
    "bordet_connections_open",
    "bordet_frames_sent",
    "bordet_sent_bytes",
    "bordet_send_overflows",
    "bordet_connection_aborts",
    "bordet_rejects",
    "bordet_commit_seconds",
    "bordet_event_loop_lag_seconds",
    "bordet_event_loop_lag_samples_seconds",
    "bordet_gc_pause_seconds",
    "bordet_stale_owner_refusals",
    "bordet_cluster_leases_held",
    "bordet_cluster_lease_renewals_failed",
    "bordet_cluster_rooms_taken_over",
    "bordet_cluster_relayed_connections_open",
    "bordet_relay_messages",
    "bordet_relay_bytes",
}

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(api: Api) -> Samples:
    r = await api.http.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_exposes_every_named_metric(api: Api) -> None:
    r = await api.http.get("/metrics")
    families = {f.name for f in text_string_to_metric_families(r.text)}
    assert families >= NAMES


async def test_a_frame_sent_moves_the_frames_and_bytes_counters(server: ServerProcess, api: Api) -> None:
    before = await scrape(api)
    ana = await api.player("Ana")
    room = await api.create_room(ana["token"], "slap")
    client = await Client(server.ws, room["code"], ana["token"]).open()
    after = await scrape(api)
    assert value(after, "bordet_frames_sent_total") >= value(before, "bordet_frames_sent_total") + 2
    sent = sum(len(f.encode()) for f in client.frames)
    assert value(after, "bordet_sent_bytes_total") >= value(before, "bordet_sent_bytes_total") + sent
    assert value(after, "bordet_connections_open") == 1
    assert value(after, "bordet_rooms_loaded") == 1


async def test_a_rejected_action_moves_rejects_by_its_code(server: ServerProcess, api: Api) -> None:
    _, _a, b = await table(api, server)
    before = await scrape(api)
    assert (await b.act({"type": "nu"}))["code"] == "NOT_STARTER"  # refused by the room (the rules)
    await b.send({"type": "action", "id": "x1", "seat": 0, "action": {"type": "nu"}})
    assert (await b.reply("x1"))["code"] == "NOT_YOUR_SEAT"  # refused by the connection's reader
    after = await scrape(api)
    for code in ("NOT_STARTER", "NOT_YOUR_SEAT"):
        assert (
            value(after, "bordet_rejects_total", code=code)
            == value(before, "bordet_rejects_total", code=code) + 1
        )


async def test_commits_are_timed_by_kind(server: ServerProcess, api: Api) -> None:
    before = await scrape(api)
    _, a, _b = await table(api, server)  # lobby writes: seats, the game's start
    assert (await a.act({"type": "nu"}))["type"] == "ack"  # acked after its event-log commit
    after = await scrape(api)
    for kind in ("lobby", "events"):
        count = "bordet_commit_seconds_count"
        assert value(after, count, kind=kind) > value(before, count, kind=kind)
