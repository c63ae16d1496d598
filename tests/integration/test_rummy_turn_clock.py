"""Rummy's two-minute turn is the server's clock: in the state, logged when it runs out, kept on a crash."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.integration.client import Api, Client, crash_and_restart
from tests.integration.server import ServerProcess

IDLE_MS = 15_000


async def room_clock(api: Api, code: str) -> dict[str, Any]:
    r = await api.call("GET", f"/api/_test/rooms/{code}/clock")
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


async def two_at_a_rummy_table(
    server: ServerProcess, api: Api
) -> tuple[list[dict[str, Any]], str, list[Client]]:
    """Ana and Bo, connected, a game of Rummy with one-minute turns started."""
    people = [await api.player(n) for n in ("Ana", "Bo")]
    code = (await api.create_room(people[0]["token"], "rummy", {"turn_ms": 60_000}))["code"]
    await api.sit(people[1]["token"], code)
    players = [await Client(server.ws, code, p["token"]).open() for p in people]
    await api.start(people[0]["token"], code)
    for c in players:
        await c.until(lambda v: v["game"] is not None)
    return people, code, players


async def until_durable(api: Api, code: str, room_now: int) -> None:
    """Wait (bounded) for the server's periodic checkpoint to make ``room_now`` durable."""
    give_up = time.monotonic() + 10
    while ((await room_clock(api, code))["durable"] or 0) < room_now:
        assert time.monotonic() < give_up, "no clock checkpoint reached the database"
        await asyncio.sleep(0.05)  # polls a condition of the server under test; it synchronises nothing


async def test_the_turn_deadline_survives_a_crash_and_its_timeout_is_applied_and_logged(
    any_db_server: ServerProcess,
) -> None:
    server = any_db_server
    api = Api(server.http)
    people, code, players = await two_at_a_rummy_table(server, api)
    game = players[0].game
    mover, deadline, turn_id = game["turn"], game["deadline"], game["turn_id"]
    started = (await api.call("GET", f"/api/rooms/{code}")).json()["match"]["started_at"]
    assert deadline == started + 60_000, "the room option sets the turn length"
    hand_before = len(players[mover].game["hand"])
    await api.aclose()

    reborn = await crash_and_restart(server, players)
    try:
        api = Api(reborn.http)
        players = [await Client(reborn.ws, code, p["token"]).open() for p in people]
        game = players[0].game
        assert (game["turn"], game["deadline"], game["turn_id"]) == (mover, deadline, turn_id)

        await api.advance_to(code, deadline - 1)
        view = await players[0].check_in_sync()
        assert view["game"]["turn_id"] == turn_id, "one millisecond before the deadline the turn goes on"
        for _ in range(3):  # the grace for a commit in flight, then the pause between turns
            await api.advance_to_next_deadline(code)
            game = (await players[mover].check_in_sync())["game"]
            if game["turn_id"] != turn_id:
                break
        assert game["turn"] != mover, "the turn passed on when the time ran out"
        assert len(game["hand"]) == hand_before + 1, "a player out of time draws a card (the spec's timeout)"
        after_timeout = [(await c.check_in_sync())["game"] for c in players]
        await api.aclose()
    finally:
        for c in players:
            await c.close()
        reborn.kill()

    # The timeout is an input of the log: a second restart rebuilds the very same table.
    third = server.reborn()
    try:
        players = [await Client(third.ws, code, p["token"]).open() for p in people]
        assert [c.game for c in players] == after_timeout
    finally:
        for c in players:
            await c.close()
        third.stop()


async def test_a_turn_ending_with_an_invalid_table_is_rejected_with_the_reasons_per_set(
    server: ServerProcess, api: Api
) -> None:
    people = [await api.player(n) for n in ("Ana", "Bo")]
    code = (await api.create_room(people[0]["token"], "rummy", {}))["code"]
    await api.sit(people[1]["token"], code)
    players = [await Client(server.ws, code, p["token"]).open() for p in people]
    await api.start(people[0]["token"], code)
    await players[0].until(lambda v: v["game"] is not None and v["game"]["phase"] == "TURN")
    mover = players[players[0].game["turn"]]
    game = (await mover.check_in_sync())["game"]
    card = game["hand"][0]
    moved = await mover.act({"type": "move", "turn_id": game["turn_id"], "card": card, "to": "new"})
    assert moved["type"] == "ack"
    before = (await mover.check_in_sync())["game"]

    refused = await mover.act({"type": "commit", "turn_id": game["turn_id"]})
    assert refused["type"] == "reject"
    problems = refused["detail"]["problems"]
    assert problems and problems[0]["code"] == refused["code"]
    assert any(p["set"] == 0 for p in problems), "the one-card set is named as the set at fault"
    assert "Set 1" in refused["message"]
    assert (await mover.check_in_sync())["game"] == before, "a refused turn end changes nothing"


async def test_an_idle_turn_keeps_its_time_left_across_a_crash(any_db_server: ServerProcess) -> None:
    server = any_db_server
    api = Api(server.http)
    people, code, players = await two_at_a_rummy_table(server, api)
    deadline, turn_id = players[0].game["deadline"], players[0].game["turn_id"]
    started = (await room_clock(api, code))["room_now"]

    # Nobody moves for 15 s: nothing is logged, only the clock runs.
    await api.advance_to(code, started + IDLE_MS)
    at_kill = (await room_clock(api, code))["room_now"]
    left_at_kill = deadline - at_kill
    await until_durable(api, code, at_kill)
    await api.aclose()

    reborn = await crash_and_restart(server, players)
    try:
        api = Api(reborn.http)
        players = [await Client(reborn.ws, code, p["token"]).open() for p in people]
        resumed = (await room_clock(api, code))["room_now"]
        game = players[0].game
        assert (game["turn_id"], game["deadline"]) == (turn_id, deadline)
        assert abs((deadline - resumed) - left_at_kill) <= 1_000, "the turn keeps the time it had left"
        assert resumed >= at_kill, "the room clock never runs backwards"
        assert all(c.welcome is not None and c.welcome["server_time"] >= at_kill for c in players)
        await api.aclose()
    finally:
        for c in players:
            await c.close()
        reborn.stop()
