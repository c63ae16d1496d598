"""Inputs that once wedged a room: each is refused with a code, and the same room then plays a whole game.

Run on SQLite and PostgreSQL: a NUL or a huge number used to fail inside the database write.
"""

from __future__ import annotations

import random

from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import step, sync_all

HOSTILE_PREFS = (
    '{"prefs": {"colour": 1000000000000000000000000000000}}',
    '{"prefs": {"colour": "\\ud800"}}',
    '{"prefs": {"colour": "Y\\u0000"}}',
    '{"prefs": {"colour": "X"}}',
    '{"prefs": {"hat": "Y"}}',
)


async def test_hostile_seat_prefs_are_refused_and_the_room_then_plays_a_whole_game(
    any_db_server: ServerProcess,
) -> None:
    server = any_db_server
    api = Api(server.http)
    host, guest, mallory = [await api.player(n) for n in ("Ana", "Bo", "Mallory")]
    code = (await api.create_room(host["token"], "slap", {"rounds": 1, "first_starter": 0}))["code"]
    watching = await Client(server.ws, code, host["token"]).open()

    for body in HOSTILE_PREFS:
        r = await api.call(
            "POST",
            f"/api/rooms/{code}/seats",
            mallory["token"],
            content=body.encode(),
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422, (body, r.status_code, r.text)
        answer = r.json()
        assert answer["code"] in ("BAD_REQUEST", "BAD_PREFS"), answer
        assert "1000000000000000000000000000000" not in r.text, "a refusal never echoes the input"

    room = (await api.call("GET", f"/api/rooms/{code}")).json()
    assert [s["name"] for s in room["seats"] if s] == ["Ana"], "nothing of the refused seats stayed behind"

    await api.sit(guest["token"], code, colour="G")
    players = [watching, await Client(server.ws, code, guest["token"]).open()]
    await api.start(host["token"], code)
    for client in players:
        await client.until(lambda v: v["game"] is not None)
    rng = random.Random(3)
    for _ in range(3000):
        await sync_all(players)
        if players[0].game["phase"] == "MATCH_OVER":
            break
        await step(api, code, players, rng)
    assert players[0].game["phase"] == "MATCH_OVER"
    assert players[0].view is not None and players[0].view["room"]["status"] == "finished"
    late = await Client(server.ws, code, mallory["token"]).open()
    assert late.view is not None and late.view["room"]["status"] == "finished", "newcomers get a snapshot"
    for client in [*players, late]:
        await client.close()
    await api.aclose()
