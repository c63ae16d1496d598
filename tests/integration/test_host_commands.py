"""The host's commands over HTTP and over the socket: bots in empty chairs, Leekha teams, the early end."""

from __future__ import annotations

from typing import Any

from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess


async def leekha_lobby(api: Api, mode: str = "teams") -> tuple[str, list[dict[str, Any]]]:
    """Ana hosts; Bo, Cy and Di take seats 1 to 3."""
    people = [await api.player(n) for n in ("Ana", "Bo", "Cy", "Di")]
    room = await api.create_room(people[0]["token"], "leekha", {"mode": mode})
    for p in people[1:]:
        await api.sit(p["token"], room["code"])
    return room["code"], people


def seated(view: dict[str, Any]) -> list[str | None]:
    return [s["name"] if s else None for s in view["room"]["seats"]]


async def test_the_host_assigns_teams_over_http_and_everyone_sees_teammates_opposite(
    server: ServerProcess, api: Api
) -> None:
    code, (ana, bo, cy, di) = await leekha_lobby(api)
    watcher = await Client(server.ws, code, di["token"]).open()
    teams = {"teams": [[ana["id"], bo["id"]], [cy["id"], di["id"]]]}
    r = await api.call("PUT", f"/api/rooms/{code}/teams", ana["token"], json=teams)
    assert r.status_code == 200, r.text
    assert [s["name"] for s in r.json()["seats"]] == ["Ana", "Cy", "Bo", "Di"]
    await watcher.until(lambda v: seated(v) == ["Ana", "Cy", "Bo", "Di"])


async def test_a_non_host_cannot_assign_teams_over_http(api: Api) -> None:
    code, (ana, bo, cy, di) = await leekha_lobby(api)
    teams = {"teams": [[bo["id"], ana["id"]], [cy["id"], di["id"]]]}
    r = await api.call("PUT", f"/api/rooms/{code}/teams", bo["token"], json=teams)
    assert r.status_code == 403 and r.json()["code"] == "NOT_HOST"
    room = (await api.call("GET", f"/api/rooms/{code}")).json()
    assert [s["name"] for s in room["seats"]] == ["Ana", "Bo", "Cy", "Di"]


async def test_the_host_assigns_teams_over_the_socket_and_a_non_host_is_refused(
    server: ServerProcess, api: Api
) -> None:
    code, (ana, bo, cy, di) = await leekha_lobby(api)
    host = await Client(server.ws, code, ana["token"]).open()
    guest = await Client(server.ws, code, bo["token"]).open()
    teams = [[ana["id"], di["id"]], [bo["id"], cy["id"]]]

    refused = await guest.admin("assign_teams", teams=teams)
    assert refused["type"] == "reject" and refused["code"] == "NOT_HOST"
    assert "host" in refused["message"].lower()

    accepted = await host.admin("assign_teams", teams=teams)
    assert accepted["type"] == "ack"
    assert seated(host.view or {}) == ["Ana", "Bo", "Di", "Cy"], "the ack comes with the frame carrying it"
    await guest.until(lambda v: seated(v) == ["Ana", "Bo", "Di", "Cy"])


async def test_teams_in_free_for_all_are_refused_with_a_reason(server: ServerProcess, api: Api) -> None:
    code, (ana, bo, cy, di) = await leekha_lobby(api, mode="ffa")
    host = await Client(server.ws, code, ana["token"]).open()
    refused = await host.admin("assign_teams", teams=[[ana["id"], bo["id"]], [cy["id"], di["id"]]])
    assert refused["code"] == "NOT_TEAM_GAME"
    missing = await host.admin("assign_teams")
    assert missing["code"] == "BAD_MESSAGE"


async def test_the_host_seats_a_bot_over_http_and_over_the_socket(server: ServerProcess, api: Api) -> None:
    ana, bo = await api.player("Ana"), await api.player("Bo")
    code = (await api.create_room(ana["token"], "kuuduk", {}))["code"]
    r = await api.call("POST", f"/api/rooms/{code}/bots", ana["token"], json={"seat": 3})
    assert r.status_code == 201 and r.json() == {"role": "seat", "seat": 3}
    r = await api.call("POST", f"/api/rooms/{code}/bots", bo["token"], json={})
    assert r.status_code == 403 and r.json()["code"] == "NOT_HOST"

    host = await Client(server.ws, code, ana["token"]).open()
    assert (await host.admin("seat_bot", seat=1))["type"] == "ack"
    seats = host.view["room"]["seats"] if host.view else []
    assert [bool(s and s["bot"]) for s in seats[:4]] == [False, True, False, True]
    taken = await host.admin("seat_bot", seat=1)
    assert taken["type"] == "reject" and taken["code"] == "SEAT_TAKEN"


async def test_a_bot_plays_its_turns_in_a_real_room(server: ServerProcess, api: Api) -> None:
    ana = await api.player("Ana")
    code = (await api.create_room(ana["token"], "kuuduk", {"mode": "single_round"}))["code"]
    r = await api.call("POST", f"/api/rooms/{code}/bots", ana["token"], json={})
    assert r.status_code == 201
    host = await Client(server.ws, code, ana["token"]).open()
    await api.start(ana["token"], code)
    await host.until(lambda v: v["game"] is not None)
    me = host.game["you"]
    bot_turns_done = 0
    for _ in range(300):
        view = await host.check_in_sync()
        if view["room"]["status"] == "finished" or bot_turns_done >= 3:
            break
        if host.game["turn"] == me:
            legal = host.game.get("legal") or []
            assert legal and (await host.act(legal[0]))["type"] == "ack"
            continue
        await api.advance_to_next_deadline(code)  # the bot thinks for a while on the room clock
        await host.check_in_sync()
        if host.game["turn"] == me:
            bot_turns_done += 1
    assert bot_turns_done >= 1 or host.view["room"]["status"] == "finished"  # type: ignore[index]
    assert bot_turns_done >= 3 or host.view["room"]["status"] == "finished"  # type: ignore[index]


async def test_only_the_host_ends_a_match_and_only_once_it_is_decided(
    server: ServerProcess, api: Api
) -> None:
    code, (ana, bo, *_) = await leekha_lobby(api, mode="ffa")
    await api.start(ana["token"], code)
    r = await api.call("POST", f"/api/rooms/{code}/end", bo["token"])
    assert r.status_code == 403 and r.json()["code"] == "NOT_HOST"
    r = await api.call("POST", f"/api/rooms/{code}/end", ana["token"])
    assert r.status_code == 409 and r.json()["code"] == "NOT_DECIDED"
    host = await Client(server.ws, code, ana["token"]).open()
    refused = await host.admin("end_match")
    assert refused["type"] == "reject" and refused["code"] == "NOT_DECIDED"
    assert host.view is not None and host.view["room"]["status"] == "playing"
