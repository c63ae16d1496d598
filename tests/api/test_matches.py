"""The audit API over a real server: finished matches are open to anyone, running ones to nobody."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from tests.integration.client import Api
from tests.integration.finished import Finished, played, start_a_match
from tests.integration.server import ServerProcess


@pytest.fixture(scope="module")
def slap(server: ServerProcess) -> Finished:
    return played(server, "slap")


@pytest.fixture(scope="module")
def leekha(server: ServerProcess) -> Finished:
    return played(server, "leekha")


async def get_json(api: Api, path: str, status: int = 200, token: str | None = None) -> Any:
    r = await api.call("GET", path, token)
    assert r.status_code == status, r.text
    return r.json()


async def all_events(api: Api, match_id: int, limit: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = await get_json(api, f"/api/matches/{match_id}/events?after={after}&limit={limit}")
        events.extend(page["events"])
        assert len(page["events"]) <= limit
        if page["next"] is None:
            return events
        after = page["next"]


async def whole_replay(api: Api, match_id: int, seat: int | None, limit: int) -> dict[str, Any]:
    frames: list[dict[str, Any]] = []
    start: int | None = 0
    query = "" if seat is None else f"&seat={seat}"
    while start is not None:
        page = await get_json(api, f"/api/matches/{match_id}/replay?start={start}&limit={limit}{query}")
        frames.extend(page["frames"])
        start = page["next"]
    return {**page, "frames": frames}


async def test_a_running_match_is_refused_everywhere(server: ServerProcess, api: Api) -> None:
    match = await start_a_match(server, api, "slap")
    for path in ("", "/events", "/replay", "/replay?seat=0"):
        body = await get_json(api, f"/api/matches/{match.id}{path}", 409)
        assert body["code"] == "MATCH_RUNNING" and "seed" not in body
    mine = await get_json(api, "/api/players/me/matches", token=match.tokens[0])
    assert [(m["id"], m["status"], m["seat"]) for m in mine["matches"]] == [(match.id, "running", 0)]


@pytest.mark.parametrize("game", ["slap", "leekha"])
async def test_a_finished_matchs_events_replay_to_its_stored_result(
    api: Api, game: str, request: pytest.FixtureRequest
) -> None:
    match: Finished = request.getfixturevalue(game)
    audit = await get_json(api, f"/api/matches/{match.id}")
    assert audit["game"] == game and audit["id"] == match.id and audit["room"] == match.code
    assert hashlib.sha256(audit["seed"].encode()).hexdigest() == audit["seed_hash"]
    assert [p["seat"] for p in audit["players"]] == list(range(len(match.tokens)))
    assert audit["result"]["finished"] is True and audit["finished_at"] is not None

    events = await all_events(api, match.id, limit=7)
    assert len(events) == audit["events"] > 7
    assert [e["seq"] for e in events] == sorted({e["seq"] for e in events})
    assert {e["by"] for e in events if e["kind"] == "move"} == {"player"}
    assert {e["by"] for e in events if e["kind"] == "tick"} <= {"clock"}

    replayed = await whole_replay(api, match.id, None, limit=40)
    assert replayed["steps"] == len(events) + 1 == len(replayed["frames"])
    assert [f["step"] for f in replayed["frames"]] == list(range(len(events) + 1))
    assert [f["event"]["seq"] for f in replayed["frames"][1:]] == [e["seq"] for e in events]
    assert replayed["result"] == audit["result"], "the log replays to the stored result"
    assert replayed["frames"][-1]["view"]["you"] is None


async def test_a_replay_shows_a_seat_its_own_view_and_every_hand_after_the_end(
    api: Api, leekha: Finished
) -> None:
    match = leekha
    page = await get_json(api, f"/api/matches/{match.id}/replay?seat=2&start=1&limit=3")
    assert [f["step"] for f in page["frames"]] == [1, 2, 3] and page["result"] is None
    for frame in page["frames"]:
        assert frame["view"]["you"] == 2
        assert frame["view"]["hand"] == frame["hands"][2], "seat 2 sees its own hand"
        assert all(isinstance(hand, list) for hand in frame["hands"]), "every hand is shown after the end"
    deal = (await get_json(api, f"/api/matches/{match.id}/replay?limit=1"))["frames"][0]
    assert deal["event"] is None and sorted(len(h) for h in deal["hands"]) == [13, 13, 13, 13]
    assert deal["view"]["hand"] == [], "a spectator's view holds no hand"


async def test_a_slap_race_is_logged_with_its_ruling_and_inputs(api: Api, slap: Finished) -> None:
    match = slap
    events = await all_events(api, match.id, limit=1000)
    ruled = [e for e in events if e["rulings"]]
    assert ruled, "a Slap match has won races"
    ruling = ruled[0]["rulings"][0]
    assert ruling["race"].startswith("flip:") and ruling["claims"]
    assert all("seat" in c and "arrival" in c for c in ruling["claims"])


async def test_a_slap_replay_shows_every_face_down_pile_after_the_end(api: Api, slap: Finished) -> None:
    deal = (await get_json(api, f"/api/matches/{slap.id}/replay?seat=1&limit=1"))["frames"][0]
    assert [len(pile) for pile in deal["hands"]] == [10, 10, 10]
    assert [{card[0] for card in pile} for pile in deal["hands"]] == [{"Y"}, {"G"}, {"P"}], "one colour each"
    assert deal["view"]["seats"][1]["pile"] == 10, "the view itself holds only how many"


async def test_a_player_lists_their_own_matches_a_page_at_a_time(api: Api, slap: Finished) -> None:
    host = slap.tokens[0]
    r = await api.call("POST", f"/api/rooms/{slap.code}/start", host)  # the same table plays again
    assert r.status_code == 200, r.text
    again = r.json()["match"]["id"]
    first = await get_json(api, "/api/players/me/matches?limit=1", token=host)
    assert [(m["id"], m["status"]) for m in first["matches"]] == [(again, "running")]
    assert first["next"] == again
    second = await get_json(api, f"/api/players/me/matches?limit=1&before={again}", token=host)
    assert [(m["id"], m["status"], m["title"]) for m in second["matches"]] == [(slap.id, "finished", "Slap")]
    assert second["next"] is None
    stranger = await api.player("Zed")
    assert (await get_json(api, "/api/players/me/matches", token=stranger["token"]))["matches"] == []
    assert (await get_json(api, "/api/players/me/matches", 401))["code"] == "AUTH_REQUIRED"


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/matches/999999", 404, "UNKNOWN_MATCH"),
        ("/api/matches/999999/events", 404, "UNKNOWN_MATCH"),
        ("/api/matches/abc", 422, "BAD_REQUEST"),
        ("/api/matches/0", 422, "BAD_REQUEST"),
        ("/api/matches/99999999999999999999999", 422, "BAD_REQUEST"),
        ("/api/matches/1/events?limit=0", 422, "BAD_REQUEST"),
        ("/api/matches/1/events?limit=100000", 422, "BAD_REQUEST"),
        ("/api/matches/1/events?after=-1", 422, "BAD_REQUEST"),
        ("/api/matches/1/replay?seat=x", 422, "BAD_REQUEST"),
        ("/api/matches/1/replay?limit=201", 422, "BAD_REQUEST"),
        ("/api/players/me/matches?before=0", 401, "AUTH_REQUIRED"),
    ],
)
async def test_a_malformed_match_request_gets_a_coded_answer(
    api: Api, path: str, status: int, code: str
) -> None:
    assert (await get_json(api, path, status))["code"] == code


async def test_a_replay_step_or_seat_past_the_match_is_refused(api: Api, slap: Finished) -> None:
    match = slap
    audit = await get_json(api, f"/api/matches/{match.id}")
    past = audit["events"] + 1
    body = await get_json(api, f"/api/matches/{match.id}/replay?start={past}", 422)
    assert body["code"] == "BAD_REQUEST" and "start" in body["message"]
    body = await get_json(api, f"/api/matches/{match.id}/replay?seat=3", 422)
    assert body["code"] == "BAD_REQUEST" and "seat" in body["message"]
