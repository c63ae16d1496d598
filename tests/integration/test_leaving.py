"""Leaving a running game, taking the seat back, the host's end of any game, removing a player who
left and resigning, on a real server with real WebSocket clients and the durable log."""

from __future__ import annotations

from typing import Any

from app.db.store import EventRec, GameRec, Store
from app.engines.stopped import game_engine
from app.rooms.replay import replay
from tests.integration.client import Api, Client, crash_and_restart, frames_until_closed
from tests.integration.server import ServerProcess

MAX_ADVANCES = 50


async def slap_table(server: ServerProcess, api: Api, names: tuple[str, ...]) -> tuple[str, list[Any]]:
    """A running game of Slap: the first named hosts, the second is the first starter."""
    people = [await api.player(n) for n in names]
    room = await api.create_room(people[0]["token"], "slap", {"rounds": 1, "first_starter": 1})
    for p in people[1:]:
        await api.sit(p["token"], room["code"])
    await api.start(people[0]["token"], room["code"])
    return room["code"], people


async def stored_game(database_url: str, code: str) -> tuple[GameRec, list[EventRec]]:
    store = Store(database_url)
    try:
        rec = await store.latest_game(code)
        assert rec is not None
        return rec, await store.load_events(rec.id)
    finally:
        await store.close()


def seat(view: dict[str, Any], n: int) -> dict[str, Any]:
    entry: dict[str, Any] = view["room"]["seats"][n]
    return entry


async def test_a_player_who_leaves_is_played_by_a_stand_in_at_once_and_takes_the_seat_back(
    server: ServerProcess, api: Api, sqlite_url: str
) -> None:
    code, (ana, bo, _cy) = await slap_table(server, api, ("Ana", "Bo", "Cy"))
    host = await Client(server.ws, code, ana["token"]).open()
    leaver = await Client(server.ws, code, bo["token"]).open()

    r = await api.call("POST", f"/api/rooms/{code}/leave", bo["token"])
    assert r.status_code == 204, r.text
    frames, close_code = await frames_until_closed(leaver)
    assert [f["code"] for f in frames if f["type"] == "error"] == ["LEFT"] and close_code == 1000
    await host.until(lambda v: seat(v, 1)["left"] and seat(v, 1)["standin"])

    # Bo starts the round: the stand-in calls Nu! for him once its thinking time has passed.
    for _ in range(MAX_ADVANCES):
        _, events = await stored_game(sqlite_url, code)
        if any(e.seat == 1 and e.actor == "standin" for e in events):
            break
        await api.advance_to_next_deadline(code)
    else:
        raise AssertionError("no stand-in move for the seat Bo left")

    back = await Client(server.ws, code, bo["token"]).open()
    assert back.welcome is not None and (back.welcome["role"], back.welcome["seat"]) == ("left", 1)
    assert back.game["you"] is None, "a player who left watches: the seat's cards are not shown"
    refused = await back.act({"type": "nu"})
    assert refused["type"] == "reject" and refused["code"] == "NOT_SEATED"

    r = await api.call("POST", f"/api/rooms/{code}/seats", bo["token"], json={})
    assert r.status_code == 200 and r.json() == {"role": "seat", "seat": 1}
    await back.until(lambda v: v["game"]["you"] == 1)
    await host.until(lambda v: not seat(v, 1)["left"] and not seat(v, 1)["standin"])


async def test_the_host_ends_any_running_game_logged_with_the_scores_so_far_and_rebuilt_the_same(
    any_db_server: ServerProcess, database_url: str
) -> None:
    server = any_db_server
    api = Api(server.http)
    code, (ana, bo, _cy) = await slap_table(server, api, ("Ana", "Bo", "Cy"))
    host = await Client(server.ws, code, ana["token"]).open()
    guest = await Client(server.ws, code, bo["token"]).open()
    assert (await guest.act({"type": "nu"}))["type"] == "ack"

    r = await api.call("POST", f"/api/rooms/{code}/end-game", bo["token"])
    assert r.status_code == 403 and r.json()["code"] == "NOT_HOST"
    r = await api.call("POST", f"/api/rooms/{code}/end-game", ana["token"])
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished"
    await host.until(lambda v: v["room"]["status"] == "finished")
    result = host.view["room"]["match"]["result"]  # type: ignore[index]
    assert result["finished"] is True and result["winners"] == []
    assert result["detail"]["stopped"]["by"] == "host"

    rec, events = await stored_game(database_url, code)
    assert events[-1].kind == "stop" and [e.kind for e in events].count("stop") == 1
    assert rec.result == result
    engine = game_engine("slap")
    rebuilt = replay(rec, events)
    assert engine.is_over(rebuilt) and engine.result(rebuilt).to_json() == result
    assert result["scores"] == engine.inner.result(rebuilt.state).to_json()["scores"], "the scores so far"

    r = await api.call("POST", f"/api/rooms/{code}/end-game", ana["token"])
    assert r.status_code == 409 and r.json()["code"] == "NO_GAME"
    before = await host.check_in_sync()
    await api.aclose()

    reborn = await crash_and_restart(server, [host, guest])
    try:
        again = await Client(reborn.ws, code, ana["token"]).open()
        after = await again.check_in_sync()
        assert after["room"]["match"] == before["room"]["match"]
        assert after["game"] == before["game"], "the ended game rebuilt from its log is the same"
        await again.close()
    finally:
        reborn.stop()


async def test_the_host_ends_a_game_over_the_socket_and_nobody_else_can(
    server: ServerProcess, api: Api
) -> None:
    code, (ana, bo) = await slap_table(server, api, ("Ana", "Bo"))
    host = await Client(server.ws, code, ana["token"]).open()
    guest = await Client(server.ws, code, bo["token"]).open()
    refused = await guest.admin("end_game")
    assert refused["type"] == "reject" and refused["code"] == "NOT_HOST"
    assert (await host.admin("end_game"))["type"] == "ack"
    assert host.view is not None and host.view["room"]["status"] == "finished"
    assert host.game["stopped"]["by"] == "host" and host.game["legal"] == []
    late = await guest.act({"type": "nu"})
    assert late["type"] == "reject" and late["code"] == "NO_GAME"


async def test_a_retry_of_an_action_acked_before_the_game_ended_is_acked_again_as_a_duplicate(
    server: ServerProcess, api: Api
) -> None:
    code, (ana, bo) = await slap_table(server, api, ("Ana", "Bo"))
    host = await Client(server.ws, code, ana["token"]).open()
    starter = await Client(server.ws, code, bo["token"]).open()
    first = await starter.act({"type": "nu"}, action_id="nu-1")
    assert first["type"] == "ack" and not first.get("duplicate")
    assert (await host.admin("end_game"))["type"] == "ack"
    again = await starter.act({"type": "nu"}, action_id="nu-1")
    assert again["type"] == "ack" and again["duplicate"] is True and again["code"] == "DUPLICATE_ACTION"
    new = await starter.act({"type": "nu"}, action_id="nu-2")
    assert new["type"] == "reject" and new["code"] == "NO_GAME"


async def test_the_host_removes_a_player_who_left_and_a_stand_in_plays_the_seat_on(
    server: ServerProcess, api: Api
) -> None:
    code, (ana, bo, _cy) = await slap_table(server, api, ("Ana", "Bo", "Cy"))
    host = await Client(server.ws, code, ana["token"]).open()

    r = await api.call("DELETE", f"/api/rooms/{code}/members/{bo['id']}", ana["token"])
    assert r.status_code == 409 and r.json()["code"] == "GAME_RUNNING", "only a player who left"
    assert (await api.call("POST", f"/api/rooms/{code}/leave", bo["token"])).status_code == 204
    missing = await host.admin("remove")
    assert missing["type"] == "reject" and missing["code"] == "BAD_MESSAGE"
    assert (await host.admin("remove", player=bo["id"]))["type"] == "ack"
    removed = seat(host.view or {}, 1)
    assert (removed["name"], removed["removed"], removed["standin"]) == ("Bo", True, True)

    r = await api.call("POST", f"/api/rooms/{code}/seats", bo["token"], json={})
    assert r.status_code == 409 and r.json()["code"] == "GAME_RUNNING", "a removed player cannot come back"

    reborn = await crash_and_restart(server, [host])
    try:
        again = await Client(reborn.ws, code, ana["token"]).open()
        assert seat(again.view or {}, 1)["standin"] is True, "the rebuilt room still plays the seat"
        await again.close()
    finally:
        reborn.stop()


async def test_in_a_two_player_game_a_player_resigns_and_the_other_wins(
    server: ServerProcess, api: Api
) -> None:
    code, (ana, bo) = await slap_table(server, api, ("Ana", "Bo"))
    host = await Client(server.ws, code, ana["token"]).open()
    guest = await Client(server.ws, code, bo["token"]).open()
    malformed = await guest.act({"type": "resign", "seat": 0})
    assert malformed["type"] == "reject" and malformed["code"] == "BAD_ACTION"
    assert (await guest.act({"type": "resign"}))["type"] == "ack"
    await host.until(lambda v: v["room"]["status"] == "finished")
    result = host.view["room"]["match"]["result"]  # type: ignore[index]
    assert result["winners"] == [0]
    assert {k: v for k, v in result["detail"]["stopped"].items() if k != "at"} == {"by": "resign", "seat": 1}


async def test_resigning_a_game_of_three_is_refused(server: ServerProcess, api: Api) -> None:
    code, (_ana, bo, _cy) = await slap_table(server, api, ("Ana", "Bo", "Cy"))
    guest = await Client(server.ws, code, bo["token"]).open()
    refused = await guest.act({"type": "resign"})
    assert refused["type"] == "reject" and refused["code"] == "NOT_TWO_PLAYERS"
    assert guest.view is not None and guest.view["room"]["status"] == "playing"
