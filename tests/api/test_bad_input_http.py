"""Hostile input at the HTTP edge: names, seat prefs and room options are bounded, and a refusal
(a coded 422, or 400 for a body that is not UTF-8 JSON) never echoes what was sent.

Bodies are sent as raw bytes where they must hold what a JSON encoder would not write
(a lone surrogate escape, invalid UTF-8).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.client import Api
from tests.integration.conftest import database_url  # noqa: F401  (sqlite and postgres)
from tests.integration.server import ServerProcess

Json = dict[str, Any]
JSON_HEADERS = {"Content-Type": "application/json"}


def assert_bad_request(r: httpx.Response, where: str, status: int = 422) -> Json:
    """The coded 422: BAD_REQUEST, a message naming the field, a detail with no input in it."""
    assert r.status_code == status, r.text
    body: Json = r.json()
    assert body["code"] == "BAD_REQUEST", body
    assert body["message"].startswith(where), body
    for error in body.get("detail", []):
        assert set(error) == {"loc", "msg", "type"}, error
    return body


async def post_raw(api: Api, path: str, body: bytes, token: str | None = None) -> httpx.Response:
    headers = dict(JSON_HEADERS)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return await api.http.post(path, content=body, headers=headers)


async def lobby(api: Api) -> tuple[Json, str]:
    ana = await api.player("Ana")
    room = await api.create_room(ana["token"], "slap")
    return ana, room["code"]


# --- names -------------------------------------------------------------------------

FORBIDDEN = {
    "nul": "\x00",
    "bell": "\x07",
    "newline": "\n",
    "delete": "\x7f",
    "c1-control": "\x85",
    "zero-width-space": "\u200b",
    "zero-width-joiner": "\u200d",
    "right-to-left-mark": "\u200f",
    "line-separator": "\u2028",
    "paragraph-separator": "\u2029",
    "right-to-left-override": "\u202e",
    "left-to-right-embedding": "\u202a",
    "first-strong-isolate": "\u2068",
    "pop-directional-isolate": "\u2069",
    "arabic-letter-mark": "\u061c",
    "byte-order-mark": "\ufeff",
}


@pytest.mark.parametrize("char", FORBIDDEN.values(), ids=FORBIDDEN.keys())
async def test_a_name_with_a_control_format_or_bidi_character_is_refused(api: Api, char: str) -> None:
    r = await api.call("POST", "/api/players", json={"name": f"An{char}a"})
    body = assert_bad_request(r, "body.name:")
    assert f"U+{ord(char):04X}" in body["message"], body
    assert body["detail"][0]["type"] == "bad_name"


async def test_a_name_with_a_lone_surrogate_is_refused(api: Api) -> None:
    r = await post_raw(api, "/api/players", b'{"name": "An\\ud800a"}')
    body = assert_bad_request(r, "body.name:")
    assert "U+D800" in body["message"]


async def test_a_name_with_letters_of_any_script_and_emoji_is_accepted(api: Api) -> None:
    for name in ("Zoë", "Ωμέγα", "مريم", "李雷", "Ana 🃏", "Jean-Luc O'Neil"):
        assert (await api.player(name))["name"] == name


async def test_a_name_is_bounded_once_trimmed(api: Api) -> None:
    assert (await api.player("  " + "x" * 40 + "  "))["name"] == "x" * 40
    r = await api.call("POST", "/api/players", json={"name": "x" * 41})
    assert "1 to 40 characters" in assert_bad_request(r, "body.name:")["message"]


@pytest.fixture
def db_server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:  # noqa: F811
    server = ServerProcess(database_url=database_url, log_path=tmp_path / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def test_a_nul_in_a_name_is_a_422_on_every_database(db_server: ServerProcess) -> None:
    """PostgreSQL refuses NUL in text with an error (a 500, before names were checked)."""
    api = Api(db_server.http)
    try:
        r = await api.call("POST", "/api/players", json={"name": "Ana\x00"})
        assert_bad_request(r, "body.name:")
        ana = await api.player("Ana")
        code = (await api.create_room(ana["token"], "slap"))["code"]
        r = await api.call(
            "POST", f"/api/rooms/{code}/seats", ana["token"], json={"prefs": {"note": "a\x00"}}
        )
        assert_bad_request(r, "body.prefs:")
        assert (await api.player("Bo"))["name"] == "Bo"
    finally:
        await api.aclose()


# --- 422s never echo the input ---------------------------------------------------------


async def test_a_validation_error_does_not_echo_a_big_body(api: Api) -> None:
    big = "y" * 60_000  # under the 64 KiB body limit: the validation error answers it
    r = await api.call("POST", "/api/players", json={"name": big})
    assert_bad_request(r, "body.name:")
    assert "yyyyyyyyyy" not in r.text and len(r.content) < 2_000


async def test_a_validation_error_lists_at_most_ten_errors(api: Api) -> None:
    ana, _ = await lobby(api)
    r = await api.call(
        "POST", "/api/rooms", ana["token"], json={"game": 1, **{f"x{i}": i for i in range(50)}}
    )
    body = assert_bad_request(r, "body.")
    assert len(body["detail"]) == 10


async def test_a_lone_surrogate_in_a_key_is_not_echoed(api: Api) -> None:
    r = await post_raw(api, "/api/players", b'{"name": "Ana", "\\ud800\\u202e": 1}')
    assert_bad_request(r, "body")
    assert "\\ud800" not in r.text and "\\u202e" not in r.text


async def test_a_lone_surrogate_in_seat_prefs_is_refused(api: Api) -> None:
    ana, code = await lobby(api)
    r = await post_raw(api, f"/api/rooms/{code}/seats", b'{"prefs": {"colour": "\\ud800"}}', ana["token"])
    body = assert_bad_request(r, "body.prefs: colour: strings may not contain U+D800")
    assert body["detail"][0]["type"] == "bad_prefs"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/rooms", b'{"game": "slap", "options": {"rounds": "\\udfff"}}'),
        ("/api/rooms", b'{"game": "slap", "options": {"\\udfff": 1}}'),
        ("/api/rooms/{code}", b'{"options": {"nu_mode": ["\\ud800"]}}'),
    ],
    ids=["option-value", "option-key", "option-update"],
)
async def test_a_lone_surrogate_in_room_options_is_refused(api: Api, path: str, body: bytes) -> None:
    ana, code = await lobby(api)
    method = "PATCH" if "{code}" in path else "POST"
    headers = {**JSON_HEADERS, "Authorization": f"Bearer {ana['token']}"}
    r = await api.http.request(method, path.format(code=code), content=body, headers=headers)
    reply = assert_bad_request(r, "body.options:")
    assert "\\ud" not in r.text and "\\udfff" not in reply["message"]


async def test_a_body_that_is_not_json_gets_a_coded_422(api: Api) -> None:
    r = await post_raw(api, "/api/players", b'{"name": "Ana"')
    assert_bad_request(r, "body.")


async def test_a_body_that_is_not_utf8_gets_a_coded_400(api: Api) -> None:
    r = await post_raw(api, "/api/players", b'{"name": "An\xff\xfea"}')
    assert_bad_request(r, "The request body", status=400)


async def test_a_number_beyond_pythons_int_limit_gets_a_coded_4xx(api: Api) -> None:
    r = await post_raw(api, "/api/players", b'{"name": ' + b"9" * 5000 + b"}")
    assert r.status_code in (400, 422) and r.json()["code"] == "BAD_REQUEST"


# --- seat prefs ----------------------------------------------------------------------

BAD_PREFS: dict[str, tuple[Json, str]] = {
    "more-than-8-keys": ({f"k{'_' * i}": 1 for i in range(9)}, "at most 8 keys"),
    "key-not-a-z": ({"Colour": "G"}, "key #1: keys are 1 to 32 characters of a-z and _"),
    "key-over-32": ({"k" * 33: "G"}, "key #1"),
    "empty-key": ({"": "G"}, "key #1"),
    "string-over-64": ({"colour": "G" * 65}, "colour: strings are at most 64 characters"),
    "control-character": ({"colour": "G\x00"}, "colour: strings may not contain U+0000"),
    "bidi-override": ({"colour": "\u202eG"}, "colour: strings may not contain U+202E"),
    "float": ({"colour": 1.5}, "colour: numbers must be integers here"),
    "unsafe-integer": ({"colour": 2**53}, "colour: integers must lie within"),
    "list": ({"colour": ["G"]}, "colour: values are null, true, false, a string or an integer"),
    "object": ({"colour": {"c": "G"}}, "colour: values are"),
}


@pytest.mark.parametrize(("prefs", "rule"), BAD_PREFS.values(), ids=BAD_PREFS.keys())
async def test_seat_prefs_out_of_bounds_are_refused(api: Api, prefs: Json, rule: str) -> None:
    ana, code = await lobby(api)
    r = await api.call("POST", f"/api/rooms/{code}/seats", ana["token"], json={"prefs": prefs})
    body = assert_bad_request(r, "body.prefs:")
    assert rule in body["message"], body


async def test_seat_prefs_within_bounds_reach_the_room(api: Api) -> None:
    """The HTTP edge only bounds prefs; what they mean is the room's and the game's business."""
    ana, code = await lobby(api)
    bo = await api.player("Bo")
    prefs = {"colour": "G"}
    r = await api.call("POST", f"/api/rooms/{code}/seats", bo["token"], json={"prefs": prefs})
    assert r.status_code == 200, r.text
    r = await api.call("GET", f"/api/rooms/{code}")
    assert r.json()["seats"][1]["prefs"] == prefs
    assert ana["id"] != bo["id"]


# --- room options ----------------------------------------------------------------------

BAD_OPTIONS: dict[str, tuple[Json, str]] = {
    "more-than-32-keys": ({f"o{i}": i for i in range(33)}, "at most 32 keys"),
    "deeper-than-3": ({"a": {"b": {"c": {"d": 1}}}}, "a.b.c: nested at most 3 deep"),
    "string-over-200": ({"nu_mode": "s" * 201}, "nu_mode: strings are at most 200 characters"),
    "unsafe-integer": ({"rounds": -(2**53)}, "rounds: integers must lie within"),
    "list-over-32": ({"placement_points": list(range(33))}, "placement_points: lists have at most 32 items"),
    "control-character-in-key": ({"rou\tnds": 1}, "key #1: keys are 1 to 64 characters of plain text"),
}


@pytest.mark.parametrize(("options", "rule"), BAD_OPTIONS.values(), ids=BAD_OPTIONS.keys())
async def test_room_options_out_of_bounds_are_refused(api: Api, options: Json, rule: str) -> None:
    ana = await api.player("Ana")
    r = await api.call("POST", "/api/rooms", ana["token"], json={"game": "slap", "options": options})
    body = assert_bad_request(r, "body.options:")
    assert rule in body["message"], body
    _, code = await lobby(api)
    r = await api.call("PATCH", f"/api/rooms/{code}", ana["token"], json={"options": options})
    assert r.status_code in (403, 422)  # bounded before the host check, or not the host


async def test_non_finite_numbers_in_options_are_refused(api: Api) -> None:
    """Python's JSON reader takes NaN and 1e400 (infinity); neither can be stored as JSON."""
    ana = await api.player("Ana")
    for number in (b"NaN", b"1e400", b"-Infinity"):
        body = b'{"game": "slap", "options": {"rounds": ' + number + b"}}"
        r = await post_raw(api, "/api/rooms", body, ana["token"])
        assert "rounds: numbers must be finite" in assert_bad_request(r, "body.options:")["message"]


async def test_team_ids_are_bounded(api: Api) -> None:
    ana, code = await lobby(api)
    r = await api.call("PUT", f"/api/rooms/{code}/teams", ana["token"], json={"teams": [["a\x00"], ["b"]]})
    assert_bad_request(r, "body.teams.0.0:")
    assert json.dumps("a\x00") not in r.text
