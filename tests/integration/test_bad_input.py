"""The bad-input matrix: every kind of bad frame gets its documented code and changes nothing."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess


async def table(
    api: Api, server: ServerProcess, options: dict[str, Any] | None = None
) -> tuple[str, Client, Client]:
    """A started two-player Slap game; seat 0 (Ana) is the first starter."""
    ana = await api.player("Ana")
    bo = await api.player("Bo")
    room = await api.create_room(ana["token"], "slap", {"first_starter": 0, **(options or {})})
    code = room["code"]
    await api.sit(bo["token"], code)
    a = await Client(server.ws, code, ana["token"]).open()
    b = await Client(server.ws, code, bo["token"]).open()
    await api.start(ana["token"], code)
    await a.check_in_sync()
    await b.check_in_sync()
    return code, a, b


async def assert_unchanged_and_usable(client: Client, before: dict[str, Any]) -> None:
    view = await client.check_in_sync()
    assert view["game"] == before["game"]


async def test_malformed_json_is_answered_with_bad_json(server: ServerProcess, api: Api) -> None:
    _, a, _ = await table(api, server)
    before = await a.check_in_sync()
    await a.send("{not json")
    assert (await a.next_error())["code"] == "BAD_JSON"
    await assert_unchanged_and_usable(a, before)


async def test_unknown_message_type_is_answered_with_unknown_type(server: ServerProcess, api: Api) -> None:
    _, a, _ = await table(api, server)
    before = await a.check_in_sync()
    await a.send({"type": "teleport"})
    assert (await a.next_error())["code"] == "UNKNOWN_TYPE"
    await assert_unchanged_and_usable(a, before)


async def test_wrong_field_types_are_answered_with_bad_message(server: ServerProcess, api: Api) -> None:
    _, a, _ = await table(api, server)
    before = await a.check_in_sync()
    await a.send({"type": "action", "id": 5, "action": "nu"})
    error = await a.next_error()
    assert error["code"] == "BAD_MESSAGE" and "id" in error["message"]
    await assert_unchanged_and_usable(a, before)


async def test_a_frame_over_64_kib_is_refused_with_too_large(server: ServerProcess, api: Api) -> None:
    _, a, _ = await table(api, server)
    before = await a.check_in_sync()
    await a.send(json.dumps({"type": "action", "id": "big", "action": {"type": "nu", "pad": "x" * 70_000}}))
    assert (await a.next_error())["code"] == "TOO_LARGE"
    assert "big" not in a.replies
    await assert_unchanged_and_usable(a, before)


async def test_an_action_out_of_turn_is_rejected_by_the_rules(server: ServerProcess, api: Api) -> None:
    _, _a, b = await table(api, server)
    before = await b.check_in_sync()
    reply = await b.act({"type": "nu"})
    assert reply["type"] == "reject" and reply["code"] == "NOT_STARTER"
    assert reply["message"]
    await assert_unchanged_and_usable(b, before)


async def test_an_action_for_another_seat_is_rejected(server: ServerProcess, api: Api) -> None:
    _, a, b = await table(api, server)
    before = await b.check_in_sync()
    await b.send({"type": "action", "id": "x1", "seat": 0, "action": {"type": "nu"}})
    reply = await b.reply("x1")
    assert reply["type"] == "reject" and reply["code"] == "NOT_YOUR_SEAT"
    await assert_unchanged_and_usable(b, before)
    assert (await a.check_in_sync())["game"]["phase"] == "AWAIT_NU"


async def test_a_spectator_cannot_act(server: ServerProcess, api: Api) -> None:
    code, _a, _ = await table(api, server)
    eve = await api.player("Eve")
    watcher = await Client(server.ws, code, eve["token"]).open()
    reply = await watcher.act({"type": "nu"})
    assert reply["type"] == "reject" and reply["code"] == "NOT_SEATED"
    assert watcher.game["you"] is None


async def test_a_bad_token_is_refused_and_closed(server: ServerProcess, api: Api) -> None:
    code, _, _ = await table(api, server)
    bad = Client(server.ws, code, "nobody.forged-signature")
    await bad.open(hello=False)
    await bad.send({"type": "hello", "token": bad.token})
    assert (await bad.recv())["code"] == "BAD_TOKEN"
    with pytest.raises(ConnectionClosed):
        await bad.recv()
    assert bad.closed is not None and bad.closed[0] == 4001


async def test_a_missing_token_is_refused_and_closed(server: ServerProcess, api: Api) -> None:
    code, _, _ = await table(api, server)
    anon = Client(server.ws, code, "")
    await anon.open(hello=False)
    await anon.send({"type": "action", "id": "a", "action": {"type": "nu"}})
    assert (await anon.recv())["code"] == "AUTH_REQUIRED"
    with pytest.raises(ConnectionClosed):
        await anon.recv()
    assert anon.closed is not None and anon.closed[0] == 4001


async def test_an_unknown_room_code_is_refused_and_closed(server: ServerProcess, api: Api) -> None:
    ana = await api.player("Ana")
    lost = Client(server.ws, "ZZZZZZ", ana["token"])
    await lost.open(hello=False)
    await lost.send({"type": "hello", "token": ana["token"]})
    assert (await lost.recv())["code"] == "UNKNOWN_ROOM"
    with pytest.raises(ConnectionClosed):
        await lost.recv()
    assert lost.closed is not None and lost.closed[0] == 4004
    r = await api.call("GET", "/api/rooms/ZZZZZZ")
    assert r.status_code == 404 and r.json()["code"] == "UNKNOWN_ROOM"


async def test_a_duplicate_action_id_is_applied_once(server: ServerProcess, api: Api) -> None:
    _, a, _ = await table(api, server)
    first = await a.act({"type": "nu"}, action_id="nu-1")
    assert first["type"] == "ack" and not first.get("duplicate")
    after_first = await a.check_in_sync()
    assert after_first["game"]["phase"] == "NU_CALLED"
    again = await a.act({"type": "nu"}, action_id="nu-1")
    assert again["type"] == "ack" and again["duplicate"] is True and again["code"] == "DUPLICATE_ACTION"
    await assert_unchanged_and_usable(a, after_first)


async def test_a_slap_flood_costs_one_penalty_and_is_rate_limited(strict_server: ServerProcess) -> None:
    api = Api(strict_server.http)
    code, a, b = await table(api, strict_server)
    await a.act({"type": "nu"})
    await api.advance_to(code, (await a.check_in_sync())["game"]["reveal_at"])
    view = await b.check_in_sync()
    assert view["game"]["phase"] in ("FLIP_OPEN",)
    flip = view["game"]["flip"]
    for i in range(120):
        await b.send({"type": "action", "id": f"s{i}", "action": {"type": "slap", "flip": flip}})
    codes = [(await b.reply(f"s{i}")).get("code") for i in range(120)]
    assert codes[0] is None  # the first slap counts (a claim or a false slap)
    assert "RATE_LIMITED" in codes and "ALREADY_SLAPPED" in codes
    view = await b.check_in_sync()
    assert view["game"]["seats"][1]["penalties"] <= 1
    assert view["game"]["seats"][1]["slapped"] is True
    await api.aclose()


async def test_http_calls_with_a_bad_token_get_401(server: ServerProcess, api: Api) -> None:
    r = await api.call("POST", "/api/rooms", "bad.token", json={"game": "slap"})
    assert r.status_code == 401 and r.json()["code"] == "BAD_TOKEN"
    r = await api.call("POST", "/api/rooms", None, json={"game": "slap"})
    assert r.status_code == 401 and r.json()["code"] == "AUTH_REQUIRED"


async def test_an_action_that_is_not_an_object_is_rejected_with_bad_action(
    server: ServerProcess, api: Api
) -> None:
    _, a, _ = await table(api, server)
    before = await a.check_in_sync()
    for i, action in enumerate(["nu", 7, None, ["nu"]]):
        await a.send({"type": "action", "id": f"n{i}", "action": action})
        reply = await a.reply(f"n{i}")
        assert reply["type"] == "reject" and reply["code"] == "BAD_ACTION", reply
    await assert_unchanged_and_usable(a, before)


async def test_a_bad_field_in_a_frame_with_a_usable_id_is_rejected_with_that_id(
    server: ServerProcess, api: Api
) -> None:
    _, a, _ = await table(api, server)
    await a.send({"type": "action", "id": "s1", "action": {"type": "nu"}, "seat": "zero"})
    await a.send({"type": "admin", "id": "h1", "command": "dance"})
    await a.send({"type": "action", "id": "x1", "action": {"type": "nu"}, "extra": 1})
    for frame_id in ("s1", "h1", "x1"):
        reply = await a.reply(frame_id)
        assert reply["type"] == "reject" and reply["code"] == "BAD_MESSAGE", reply
    assert a.errors == []


async def test_an_unusable_id_gets_an_error_without_an_id(server: ServerProcess, api: Api) -> None:
    """An id an answer could not carry back (a control character, too long) is no id at all."""
    _, a, _ = await table(api, server)
    for frame_id in ("a\x00", "x" * 65, ""):
        await a.send({"type": "action", "id": frame_id, "action": {"type": "nu"}})
        error = await a.next_error()
        assert error["code"] == "BAD_MESSAGE" and "id" in error["message"], error
    assert a.replies == {}


BAD_ACTIONS: dict[str, dict[str, Any]] = {
    "more-than-32-keys": {"type": "nu", **{f"k{i}": i for i in range(32)}},
    "deeper-than-4": {"type": "nu", "a": [[[[1]]]]},
    "list-over-128": {"type": "nu", "cards": ["Y01"] * 129},
    "string-over-200": {"type": "nu", "note": "n" * 201},
    "integer-beyond-2**53": {"type": "slap", "flip": 2**53},
    "integer-beyond-64-bits": {"type": "slap", "flip": -(2**64)},
    "control-character": {"type": "nu\x00"},
    "bidi-override-in-a-key": {"type": "nu", "\u202ekey": 1},
}


@pytest.mark.parametrize("action", BAD_ACTIONS.values(), ids=BAD_ACTIONS.keys())
async def test_an_action_out_of_bounds_is_rejected_with_bad_action(
    server: ServerProcess, api: Api, action: dict[str, Any]
) -> None:
    _, a, _ = await table(api, server)
    before = await a.check_in_sync()
    reply = await a.act(action, action_id="big")
    assert reply["type"] == "reject" and reply["code"] == "BAD_ACTION", reply
    assert "\x00" not in reply["message"] and "\u202e" not in reply["message"]
    await assert_unchanged_and_usable(a, before)


async def test_a_binary_frame_before_hello_is_refused_with_auth_required(
    server: ServerProcess, api: Api
) -> None:
    code, _, _ = await table(api, server)
    anon = Client(server.ws, code, "")
    await anon.open(hello=False)
    await anon.send(b"\x00hello")
    assert (await anon.recv())["code"] == "AUTH_REQUIRED"
    with pytest.raises(ConnectionClosed):
        await anon.recv()
    assert anon.closed is not None and anon.closed[0] == 4001


async def test_a_burst_of_200_actions_gets_one_answer_each(strict_server: ServerProcess) -> None:
    """The production rate limits: the first 40 reach the room, the rest are RATE_LIMITED; all 200
    frames leave the client before it reads anything, and none of the answers is lost."""
    api = Api(strict_server.http)
    try:
        _, a, _ = await table(api, strict_server)
        ids = [f"b{i}" for i in range(200)]
        for i in ids:
            await a.send({"type": "action", "id": i, "action": {"type": "nu"}})
        replies = [await a.reply(i) for i in ids]
        answered = Counter(msg["id"] for msg in map(json.loads, a.frames) if msg["type"] in ("ack", "reject"))
        assert all(answered[i] == 1 for i in ids), answered
        codes = Counter(r.get("code") or r["type"] for r in replies)
        assert codes["ack"] == 1 and codes["RATE_LIMITED"] >= 100, codes
        assert not any('"reason":"reset"' in f for f in a.frames)
    finally:
        await api.aclose()
