"""The HTTP lobby against a real server: players, games, rooms, seats and the host's controls.

No mocks: every request goes over TCP to a uvicorn subprocess (see conftest.py).
Game timers run on the server's manual clock, moved through ``POST /api/_test/clock``.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import httpx
import pytest

from app.engines.slap.options import SlapOptions
from app.rooms.manager import CODE_ALPHABET, CODE_LENGTH
from app.security import TokenSigner
from tests.integration.client import Api, Client, frames_until_closed
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import step, sync_all

Json = dict[str, Any]

# ServerProcess starts every server with this BORDET_SECRET.
SERVER_SECRET = "integration-test-secret"
CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")
SLAP_DEFAULTS: Json = SlapOptions().model_dump(mode="json")


# --- helpers -----------------------------------------------------------------


def assert_error(r: httpx.Response, status: int, code: str) -> Json:
    """The API's error shape: the status, and a JSON body with a stable code and a readable message."""
    assert r.status_code == status, f"expected {status} {code}, got {r.status_code}: {r.text}"
    body: Json = r.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    return body


async def get_room(api: Api, code: str) -> Json:
    r = await api.call("GET", f"/api/rooms/{code}")
    assert r.status_code == 200, r.text
    room: Json = r.json()
    return room


async def listed_codes(api: Api) -> set[str]:
    r = await api.call("GET", "/api/rooms")
    assert r.status_code == 200, r.text
    return {s["code"] for s in r.json()["rooms"]}


def seated_ids(room: Json) -> list[str | None]:
    return [s["player_id"] if s else None for s in room["seats"]]


async def host_and_room(
    api: Api, options: Json | None = None, public: bool = True, host: str = "Ana"
) -> tuple[Json, str]:
    player = await api.player(host)
    room = await api.create_room(player["token"], "slap", options or {}, public=public)
    return player, room["code"]


async def started_pair(api: Api, options: Json | None = None) -> tuple[Json, Json, str]:
    """Ana (host, seat 0) and Bo (seat 1) in a started game."""
    ana, code = await host_and_room(api, options)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    await api.start(ana["token"], code)
    return ana, bo, code


def errors_in(frames: list[Json]) -> list[str]:
    return [f["code"] for f in frames if f["type"] == "error"]


# --- players -------------------------------------------------------------------


async def test_creating_a_player_returns_its_id_name_and_a_signed_token(api: Api) -> None:
    r = await api.call("POST", "/api/players", json={"name": "Ana"})
    assert r.status_code == 201, r.text
    body = r.json()
    assert set(body) == {"id", "name", "token"}
    assert body["name"] == "Ana"
    assert isinstance(body["id"], str) and body["id"]
    assert body["token"] == TokenSigner(SERVER_SECRET).sign(body["id"]), "the token is <id>.<HMAC of id>"


async def test_each_new_player_gets_a_new_id(api: Api) -> None:
    a, b = await api.player("Ana"), await api.player("Ana")
    assert a["id"] != b["id"] and a["token"] != b["token"]


async def test_a_players_name_is_trimmed(api: Api) -> None:
    assert (await api.player("  Ana  "))["name"] == "Ana"


async def test_me_returns_the_player_of_a_bearer_token(api: Api) -> None:
    ana = await api.player("Ana")
    r = await api.call("GET", "/api/players/me", ana["token"])
    assert r.status_code == 200, r.text
    assert r.json() == {"id": ana["id"], "name": "Ana"}


@pytest.mark.parametrize("name", ["", "   "], ids=["empty", "only-spaces"])
async def test_an_empty_name_is_refused_with_bad_request(api: Api, name: str) -> None:
    r = await api.call("POST", "/api/players", json={"name": name})
    assert r.status_code == 422, (
        f"APP BUG: the name {name!r} is empty once trimmed but was accepted: {r.status_code} {r.text}"
    )
    body = assert_error(r, 422, "BAD_REQUEST")
    assert "name" in body["message"]


async def test_a_name_over_40_characters_is_refused_with_bad_request(api: Api) -> None:
    body = assert_error(await api.call("POST", "/api/players", json={"name": "x" * 41}), 422, "BAD_REQUEST")
    assert "name" in body["message"]
    assert (await api.player("x" * 40))["name"] == "x" * 40


async def test_a_missing_or_extra_player_field_is_refused_with_bad_request(api: Api) -> None:
    assert_error(await api.call("POST", "/api/players", json={}), 422, "BAD_REQUEST")
    assert_error(
        await api.call("POST", "/api/players", json={"name": "Ana", "admin": True}), 422, "BAD_REQUEST"
    )


async def test_a_tampered_token_is_refused_with_bad_token(api: Api) -> None:
    ana, bo = await api.player("Ana"), await api.player("Bo")
    player_id, mac = ana["token"].split(".")
    forged = [
        f"{player_id}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}",  # one character of the signature changed
        f"{bo['id']}.{mac}",  # somebody else's id under Ana's signature
        f"{player_id}.",  # no signature
        "not-a-token",
    ]
    for token in forged:
        assert_error(await api.call("GET", "/api/players/me", token), 401, "BAD_TOKEN")


async def test_a_token_of_another_server_is_refused_with_bad_token(api: Api) -> None:
    ana = await api.player("Ana")
    foreign = TokenSigner("some-other-secret").sign(ana["id"])
    assert_error(await api.call("GET", "/api/players/me", foreign), 401, "BAD_TOKEN")


async def test_a_missing_token_is_refused_with_auth_required(api: Api) -> None:
    assert_error(await api.call("GET", "/api/players/me"), 401, "AUTH_REQUIRED")
    ana = await api.player("Ana")
    r = await api.http.get("/api/players/me", headers={"Authorization": f"Token {ana['token']}"})
    assert_error(r, 401, "AUTH_REQUIRED")


# --- games ---------------------------------------------------------------------


async def test_games_list_slap_with_its_player_counts(api: Api) -> None:
    r = await api.call("GET", "/api/games")
    assert r.status_code == 200, r.text
    games = {g["id"]: g for g in r.json()}
    slap = games["slap"]
    assert slap["title"] == "Slap"
    assert (slap["min_players"], slap["max_players"]) == (2, 4)


async def test_the_slap_options_schema_has_every_option_with_its_default(api: Api) -> None:
    r = await api.call("GET", "/api/games")
    schema = next(g for g in r.json() if g["id"] == "slap")["options_schema"]
    assert schema["type"] == "object"
    assert schema.get("additionalProperties") is False, "unknown options are refused, so the schema says so"
    properties = schema["properties"]
    assert set(properties) == set(SlapOptions.model_fields)
    for name, default in SLAP_DEFAULTS.items():
        assert "default" in properties[name], f"option {name} has no default in the schema"
        assert properties[name]["default"] == default, name
        assert properties[name].get("description"), f"option {name} has no description for the host"


# --- rooms ---------------------------------------------------------------------


async def test_creating_a_room_seats_the_host_at_seat_0_in_the_lobby(server: ServerProcess, api: Api) -> None:
    ana = await api.player("Ana")
    r = await api.call("POST", "/api/rooms", ana["token"], json={"game": "slap"})
    assert r.status_code == 201, r.text
    room = r.json()
    assert CODE_RE.match(room["code"]), room["code"]
    assert room["link"] == f"{server.http}/r/{room['code']}"
    assert room["status"] == "lobby"
    assert room["host"] == ana["id"]
    assert room["public"] is True
    assert (room["game"], room["title"], room["min_players"], room["max_players"]) == ("slap", "Slap", 2, 4)
    assert room["seats"][0] == {
        "seat": 0,
        "player_id": ana["id"],
        "name": "Ana",
        "connected": False,
        "prefs": {},
        "bot": False,
        "standin": False,
        "left": False,
        "removed": False,
    }
    assert room["seats"][1:] == [None, None, None]
    assert room["spectators"] == []
    assert room["match"] is None
    assert room["options"] == SLAP_DEFAULTS
    assert await get_room(api, room["code"]) == room


async def test_room_codes_use_only_the_unambiguous_alphabet(api: Api) -> None:
    ana = await api.player("Ana")
    codes = [(await api.create_room(ana["token"]))["code"] for _ in range(12)]
    assert all(CODE_RE.match(c) for c in codes), codes
    assert not set("".join(codes)) & set("01ILO"), codes
    assert len(set(codes)) == len(codes)


async def test_the_room_link_opens_the_web_client(api: Api) -> None:
    _, code = await host_and_room(api)
    link = (await get_room(api, code))["link"]
    r = await api.http.get(link)
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]


async def test_room_options_are_stored_with_the_defaults_filled_in(api: Api) -> None:
    _, code = await host_and_room(api, {"rounds": 1, "nu_mode": "auto"})
    assert (await get_room(api, code))["options"] == {**SLAP_DEFAULTS, "rounds": 1, "nu_mode": "auto"}


async def test_an_unknown_game_is_refused_with_unknown_game(api: Api) -> None:
    ana = await api.player("Ana")
    body = assert_error(
        await api.call("POST", "/api/rooms", ana["token"], json={"game": "chess"}), 422, "UNKNOWN_GAME"
    )
    assert "chess" in body["message"]


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 0},
        {"rounds": 11},
        {"rounds": "three"},
        {"first_starter": 4},
        {"nu_mode": "sometimes"},
        {"jokers": True},
        {"race_window_ms": 100},  # below max_credit_ms + tie_margin_ms
        {"placement_points": [0, 2, 4, 6]},  # points growing with a worse place
    ],
    ids=lambda o: next(iter(o)),
)
async def test_bad_options_are_refused_with_bad_options(api: Api, options: Json) -> None:
    ana = await api.player("Ana")
    r = await api.call("POST", "/api/rooms", ana["token"], json={"game": "slap", "options": options})
    assert_error(r, 422, "BAD_OPTIONS")


async def test_creating_a_room_needs_a_player_token(api: Api) -> None:
    assert_error(await api.call("POST", "/api/rooms", json={"game": "slap"}), 401, "AUTH_REQUIRED")
    assert_error(
        await api.call("POST", "/api/rooms", "nobody.forged", json={"game": "slap"}), 401, "BAD_TOKEN"
    )


async def test_the_room_list_shows_public_rooms_in_the_lobby(server: ServerProcess, api: Api) -> None:
    _, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    r = await api.call("GET", "/api/rooms")
    assert r.status_code == 200, r.text
    summary = next(s for s in r.json()["rooms"] if s["code"] == code)
    assert summary == {
        "code": code,
        "link": f"{server.http}/r/{code}",
        "game": "slap",
        "title": "Slap",
        "status": "lobby",
        "players": 2,
        "max_players": 4,
    }


async def test_the_room_list_is_paged_newest_first_with_an_opaque_cursor(api: Api) -> None:
    codes = [(await host_and_room(api))[1] for _ in range(3)]
    r = await api.call("GET", "/api/rooms", params={"limit": 2})
    assert r.status_code == 200, r.text
    first = r.json()
    assert [s["code"] for s in first["rooms"]] == codes[::-1][:2]
    assert isinstance(first["next"], str)
    r = await api.call("GET", "/api/rooms", params={"limit": 2, "cursor": first["next"]})
    assert r.json()["rooms"][0]["code"] == codes[0]


@pytest.mark.parametrize("limit", [0, 101, "many"])
async def test_a_room_list_page_holds_1_to_100_rooms(api: Api, limit: object) -> None:
    r = await api.call("GET", "/api/rooms", params={"limit": limit})
    assert_error(r, 422, "BAD_REQUEST")
    assert r.json()["message"].startswith("query.limit:")


async def test_a_room_list_cursor_the_server_did_not_make_is_refused(api: Api) -> None:
    r = await api.call("GET", "/api/rooms", params={"cursor": "<script>"})
    body = assert_error(r, 422, "BAD_REQUEST")
    assert "<script>" not in r.text and body["message"].startswith("query.cursor:")


async def test_a_private_room_is_not_listed_but_opens_by_its_code(api: Api) -> None:
    _, code = await host_and_room(api, public=False)
    assert code not in await listed_codes(api)
    room = await get_room(api, code)
    assert room["public"] is False
    bo = await api.player("Bo")
    assert (await api.sit(bo["token"], code))["seat"] == 1


async def test_a_started_room_is_not_listed(api: Api) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    assert code in await listed_codes(api)
    await api.start(ana["token"], code)
    assert code not in await listed_codes(api)


async def test_a_room_code_is_case_insensitive(api: Api) -> None:
    _, code = await host_and_room(api)
    assert (await get_room(api, code.lower()))["code"] == code
    bo = await api.player("Bo")
    assert (await api.sit(bo["token"], code.lower()))["seat"] == 1
    assert seated_ids(await get_room(api, code))[1] == bo["id"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/rooms/ZZZZZZ"),
        ("PATCH", "/api/rooms/ZZZZZZ"),
        ("POST", "/api/rooms/ZZZZZZ/seats"),
        ("POST", "/api/rooms/ZZZZZZ/watch"),
        ("POST", "/api/rooms/ZZZZZZ/leave"),
        ("POST", "/api/rooms/ZZZZZZ/start"),
        ("DELETE", "/api/rooms/ZZZZZZ/members/someone"),
    ],
)
async def test_an_unknown_room_is_404_unknown_room(api: Api, method: str, path: str) -> None:
    ana = await api.player("Ana")
    payload = {"seat": None} if path.endswith("/seats") else {} if method == "PATCH" else None
    body = assert_error(await api.call(method, path, ana["token"], json=payload), 404, "UNKNOWN_ROOM")
    assert "ZZZZZZ" in body["message"]


# --- seats -----------------------------------------------------------------------


async def test_joining_without_a_seat_takes_the_first_free_seat(api: Api) -> None:
    _, code = await host_and_room(api)
    cy = await api.player("Cy")
    assert await api.sit(cy["token"], code, seat=2) == {"role": "seat", "seat": 2}
    bo, di = await api.player("Bo"), await api.player("Di")
    r = await api.call("POST", f"/api/rooms/{code}/seats", bo["token"], json={})
    assert r.status_code == 200, r.text
    assert r.json() == {"role": "seat", "seat": 1}
    assert (await api.sit(di["token"], code))["seat"] == 3
    room = await get_room(api, code)
    assert [s["name"] if s else None for s in room["seats"]] == ["Ana", "Bo", "Cy", "Di"]


async def test_joining_a_chosen_seat(api: Api) -> None:
    _, code = await host_and_room(api)
    bo = await api.player("Bo")
    assert await api.sit(bo["token"], code, seat=3) == {"role": "seat", "seat": 3}
    room = await get_room(api, code)
    assert room["seats"][3]["player_id"] == bo["id"] and room["seats"][3]["seat"] == 3
    assert room["seats"][1] is None and room["seats"][2] is None


async def test_a_seated_player_can_move_to_another_free_seat(api: Api) -> None:
    _, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code, seat=1)
    await api.sit(bo["token"], code, seat=3)
    assert seated_ids(await get_room(api, code))[1:] == [None, None, bo["id"]]


async def test_a_taken_seat_is_refused_with_seat_taken(api: Api) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    r = await api.call("POST", f"/api/rooms/{code}/seats", bo["token"], json={"seat": 0})
    assert_error(r, 409, "SEAT_TAKEN")
    room = await get_room(api, code)
    assert seated_ids(room) == [ana["id"], None, None, None]
    assert room["spectators"] == []


@pytest.mark.parametrize("seat", [-1, 4, 99])
async def test_a_seat_out_of_range_is_refused_with_no_such_seat(api: Api, seat: int) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    r = await api.call("POST", f"/api/rooms/{code}/seats", bo["token"], json={"seat": seat})
    assert_error(r, 422, "NO_SUCH_SEAT")
    assert seated_ids(await get_room(api, code)) == [ana["id"], None, None, None]


async def test_a_full_room_is_refused_with_room_full(api: Api) -> None:
    _, code = await host_and_room(api)
    for name in ("Bo", "Cy", "Di"):
        await api.sit((await api.player(name))["token"], code)
    eve = await api.player("Eve")
    assert_error(await api.call("POST", f"/api/rooms/{code}/seats", eve["token"], json={}), 409, "ROOM_FULL")
    room = await get_room(api, code)
    assert eve["id"] not in seated_ids(room)
    assert eve["id"] not in {m["player_id"] for m in room["spectators"]}
    r = await api.call("POST", f"/api/rooms/{code}/watch", eve["token"])
    assert r.status_code == 200 and r.json() == {"role": "spectator", "seat": None}


async def test_seat_prefs_are_stored_and_shown(server: ServerProcess, api: Api) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code, colour="G")
    assert (await get_room(api, code))["seats"][1]["prefs"] == {"colour": "G"}
    # They survive the start and reach the game: Bo plays green.
    started = await api.start(ana["token"], code)
    assert started["seats"][1]["prefs"] == {"colour": "G"}
    client = await Client(server.ws, code, bo["token"]).open()
    try:
        await client.until(lambda v: v["game"] is not None)
        assert client.game["seats"][1]["colour"] == "G"
    finally:
        await client.close()


async def test_watching_makes_a_spectator(api: Api) -> None:
    ana, code = await host_and_room(api)
    eve = await api.player("Eve")
    r = await api.call("POST", f"/api/rooms/{code}/watch", eve["token"])
    assert r.status_code == 200, r.text
    assert r.json() == {"role": "spectator", "seat": None}
    room = await get_room(api, code)
    assert room["spectators"] == [{"player_id": eve["id"], "name": "Eve", "connected": False}]
    assert seated_ids(room) == [ana["id"], None, None, None]


async def test_a_seated_player_who_watches_frees_the_seat(api: Api) -> None:
    _, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    r = await api.call("POST", f"/api/rooms/{code}/watch", bo["token"])
    assert r.json() == {"role": "spectator", "seat": None}
    room = await get_room(api, code)
    assert room["seats"][1] is None
    assert [m["player_id"] for m in room["spectators"]] == [bo["id"]]


async def test_leaving_before_the_start_removes_the_member(api: Api) -> None:
    _, code = await host_and_room(api)
    bo, eve = await api.player("Bo"), await api.player("Eve")
    await api.sit(bo["token"], code)
    await api.call("POST", f"/api/rooms/{code}/watch", eve["token"])
    for p in (bo, eve):
        r = await api.call("POST", f"/api/rooms/{code}/leave", p["token"])
        assert r.status_code == 204 and r.content == b""
    room = await get_room(api, code)
    assert room["seats"][1] is None and room["spectators"] == []
    assert_error(await api.call("POST", f"/api/rooms/{code}/leave", bo["token"]), 404, "NOT_A_MEMBER")


async def test_a_seated_players_leave_during_the_game_keeps_the_seat(server: ServerProcess, api: Api) -> None:
    _, bo, code = await started_pair(api)
    client = await Client(server.ws, code, bo["token"]).open()
    r = await api.call("POST", f"/api/rooms/{code}/leave", bo["token"])
    assert r.status_code == 204, r.text
    # Leaving only drops the connections...
    frames, close_code = await frames_until_closed(client)
    assert errors_in(frames) == ["LEFT"] and close_code == 1000
    # ...the seat and its cards stay in the game.
    room = await get_room(api, code)
    assert room["status"] == "playing"
    assert room["seats"][1]["player_id"] == bo["id"]
    assert room["spectators"] == []


async def test_joining_a_running_game_is_refused_with_game_running(api: Api) -> None:
    _, _, code = await started_pair(api)
    cy = await api.player("Cy")
    assert_error(
        await api.call("POST", f"/api/rooms/{code}/seats", cy["token"], json={}), 409, "GAME_RUNNING"
    )
    r = await api.call("POST", f"/api/rooms/{code}/watch", cy["token"])
    assert r.status_code == 200 and r.json()["role"] == "spectator"


async def test_a_seated_player_cannot_switch_to_watching_during_the_game(api: Api) -> None:
    _, bo, code = await started_pair(api)
    assert_error(await api.call("POST", f"/api/rooms/{code}/watch", bo["token"]), 409, "GAME_RUNNING")


# --- host controls -------------------------------------------------------------


async def test_the_host_starts_the_game(api: Api) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    r = await api.call("POST", f"/api/rooms/{code}/start", ana["token"])
    assert r.status_code == 200, r.text
    room = r.json()
    assert room["status"] == "playing"
    assert seated_ids(room) == [ana["id"], bo["id"]]
    match = room["match"]
    assert re.fullmatch("[0-9a-f]{64}", match["seed_hash"])
    assert match["seed"] is None, "the seed stays secret while the game runs"
    assert match["result"] is None
    assert await get_room(api, code) == room


async def test_only_the_host_can_start(api: Api) -> None:
    _, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    assert_error(await api.call("POST", f"/api/rooms/{code}/start", bo["token"]), 403, "NOT_HOST")
    assert (await get_room(api, code))["status"] == "lobby"


async def test_starting_needs_the_minimum_number_of_players(api: Api) -> None:
    ana, code = await host_and_room(api)
    eve = await api.player("Eve")
    await api.call("POST", f"/api/rooms/{code}/watch", eve["token"])  # spectators do not count
    body = assert_error(
        await api.call("POST", f"/api/rooms/{code}/start", ana["token"]), 409, "NOT_ENOUGH_PLAYERS"
    )
    assert "2" in body["message"]
    assert (await get_room(api, code))["status"] == "lobby"


async def test_a_running_game_cannot_be_started_again(api: Api) -> None:
    ana, _, code = await started_pair(api)
    assert_error(await api.call("POST", f"/api/rooms/{code}/start", ana["token"]), 409, "GAME_RUNNING")


async def test_the_host_changes_options_before_the_start(api: Api) -> None:
    ana, code = await host_and_room(api)
    r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json={"options": {"rounds": 5}})
    assert r.status_code == 200, r.text
    assert r.json()["options"] == {**SLAP_DEFAULTS, "rounds": 5}
    assert (await get_room(api, code))["options"]["rounds"] == 5


async def test_changed_options_are_validated(api: Api) -> None:
    ana, code = await host_and_room(api, {"rounds": 2})
    for options in ({"rounds": 0}, {"jokers": True}):
        r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json={"options": options})
        assert_error(r, 422, "BAD_OPTIONS")
    assert (await get_room(api, code))["options"] == {**SLAP_DEFAULTS, "rounds": 2}
    r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json={"colour": "G"})
    assert_error(r, 422, "BAD_REQUEST")


async def test_only_the_host_can_change_options(api: Api) -> None:
    _, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    for body in ({"options": {"rounds": 5}}, {"public": False}):
        assert_error(await api.call("PATCH", f"/api/rooms/{code}", bo["token"], json=body), 403, "NOT_HOST")
    room = await get_room(api, code)
    assert room["options"]["rounds"] == SLAP_DEFAULTS["rounds"] and room["public"] is True


async def test_options_cannot_change_after_the_start(api: Api) -> None:
    ana, _, code = await started_pair(api, {"rounds": 2})
    for body in ({"options": {"rounds": 5}}, {"public": False}):
        r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json=body)
        assert_error(r, 409, "GAME_RUNNING")
    room = await get_room(api, code)
    assert room["options"]["rounds"] == 2 and room["public"] is True


async def test_making_a_room_private_hides_it_from_the_list(api: Api) -> None:
    ana, code = await host_and_room(api)
    assert code in await listed_codes(api)
    r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json={"public": False})
    assert r.status_code == 200 and r.json()["public"] is False
    assert code not in await listed_codes(api)
    r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json={"public": True})
    assert r.status_code == 200 and r.json()["public"] is True
    assert code in await listed_codes(api)


async def test_the_host_removes_a_player(api: Api) -> None:
    ana, code = await host_and_room(api)
    bo, eve = await api.player("Bo"), await api.player("Eve")
    await api.sit(bo["token"], code)
    await api.call("POST", f"/api/rooms/{code}/watch", eve["token"])
    for p in (bo, eve):
        r = await api.call("DELETE", f"/api/rooms/{code}/members/{p['id']}", ana["token"])
        assert r.status_code == 204 and r.content == b"", r.text
    room = await get_room(api, code)
    assert seated_ids(room) == [ana["id"], None, None, None] and room["spectators"] == []


async def test_a_removed_players_socket_gets_removed_and_closes_with_4003(
    server: ServerProcess, api: Api
) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code)
    client = await Client(server.ws, code, bo["token"]).open()
    r = await api.call("DELETE", f"/api/rooms/{code}/members/{bo['id']}", ana["token"])
    assert r.status_code == 204, r.text
    frames, close_code = await frames_until_closed(client)
    assert errors_in(frames) == ["REMOVED"], frames
    assert frames[-1]["type"] == "error" and frames[-1]["message"], "the error is the last frame"
    assert close_code == 4003


async def test_only_the_host_can_remove_a_player(api: Api) -> None:
    ana, code = await host_and_room(api)
    bo, cy = await api.player("Bo"), await api.player("Cy")
    await api.sit(bo["token"], code)
    await api.sit(cy["token"], code)
    r = await api.call("DELETE", f"/api/rooms/{code}/members/{cy['id']}", bo["token"])
    assert_error(r, 403, "NOT_HOST")
    assert seated_ids(await get_room(api, code)) == [ana["id"], bo["id"], cy["id"], None]


async def test_the_host_cannot_remove_themselves(api: Api) -> None:
    ana, code = await host_and_room(api)
    r = await api.call("DELETE", f"/api/rooms/{code}/members/{ana['id']}", ana["token"])
    assert_error(r, 409, "CANNOT_REMOVE_HOST")
    assert seated_ids(await get_room(api, code))[0] == ana["id"]


async def test_removing_someone_not_in_the_room_is_404_not_a_member(api: Api) -> None:
    ana, code = await host_and_room(api)
    stranger = await api.player("Zed")
    r = await api.call("DELETE", f"/api/rooms/{code}/members/{stranger['id']}", ana["token"])
    assert_error(r, 404, "NOT_A_MEMBER")


async def test_a_seated_player_cannot_be_removed_during_the_game(api: Api) -> None:
    ana, bo, code = await started_pair(api)
    r = await api.call("DELETE", f"/api/rooms/{code}/members/{bo['id']}", ana["token"])
    assert_error(r, 409, "GAME_RUNNING")
    assert seated_ids(await get_room(api, code)) == [ana["id"], bo["id"]]


async def test_seats_are_renumbered_compactly_at_the_start(server: ServerProcess, api: Api) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code, seat=2)
    assert seated_ids(await get_room(api, code)) == [ana["id"], None, bo["id"], None]
    client = await Client(server.ws, code, bo["token"]).open()
    try:
        started = await api.start(ana["token"], code)
        assert seated_ids(started) == [ana["id"], bo["id"]]
        assert [s["seat"] for s in started["seats"]] == [0, 1]
        # Bo's own game view says seat 1, and Bo acts as seat 1.
        await client.until(lambda v: v["game"] is not None)
        assert client.game["you"] == 1
        assert len(client.game["seats"]) == 2
    finally:
        await client.close()


# --- the end of a match --------------------------------------------------------


async def test_a_finished_match_reveals_the_seed_that_matches_its_hash(
    server: ServerProcess, api: Api
) -> None:
    ana, bo, code = await started_pair(api, {"rounds": 1, "first_starter": 0})
    during = (await get_room(api, code))["match"]
    assert during["seed"] is None
    players = [await Client(server.ws, code, p["token"]).open() for p in (ana, bo)]
    try:
        await sync_all(players)
        rng = random.Random(11)
        steps = 0
        while players[0].game["phase"] != "MATCH_OVER":
            steps += 1
            assert steps < 2000, "the match never ended"
            await step(api, code, players, rng)
            await sync_all(players)
    finally:
        for client in players:
            await client.close()
    room = await get_room(api, code)
    assert room["status"] == "finished"
    match = room["match"]
    assert match["id"] == during["id"] and match["seed_hash"] == during["seed_hash"]
    assert isinstance(match["seed"], str) and match["seed"]
    assert hashlib.sha256(match["seed"].encode()).hexdigest() == match["seed_hash"]
    assert match["result"]["finished"] is True
    assert len(match["result"]["scores"]) == 2
    assert code not in await listed_codes(api), "a finished room is not open for players"
    assert len(room["seats"]) == 4, "after a game every seat is offered again for the next one"


async def test_changing_one_option_keeps_the_others(api: Api) -> None:
    ana, code = await host_and_room(api, {"rounds": 4, "nu_mode": "auto"})
    r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json={"options": {"rounds": 7}})
    assert r.status_code == 200, r.text
    assert r.json()["options"]["rounds"] == 7 and r.json()["options"]["nu_mode"] == "auto"


async def test_taking_a_seat_needs_no_body(api: Api) -> None:
    _, code = await host_and_room(api)
    bo = await api.player("Bo")
    r = await api.call("POST", f"/api/rooms/{code}/seats", bo["token"])
    assert r.status_code == 200, r.text
    assert r.json() == {"role": "seat", "seat": 1}


async def test_when_the_host_leaves_the_lowest_seat_becomes_host(api: Api) -> None:
    ana, code = await host_and_room(api)
    bo = await api.player("Bo")
    await api.sit(bo["token"], code, 2)
    r = await api.call("POST", f"/api/rooms/{code}/leave", ana["token"])
    assert r.status_code == 204
    room = await get_room(api, code)
    assert room["host"] == bo["id"]
    r = await api.call("PATCH", f"/api/rooms/{code}", bo["token"], json={"public": False})
    assert r.status_code == 200, r.text
