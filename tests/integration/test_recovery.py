"""SIGKILL the server mid-round, start it again, and finish the round from exactly where it was."""

from __future__ import annotations

import random

from tests.integration.client import Api, Client, crash_and_restart
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import step, sync_all


async def test_a_killed_server_resumes_the_round_with_no_accepted_action_lost(
    any_db_server: ServerProcess,
) -> None:
    server = any_db_server
    api = Api(server.http)
    names = ["Ana", "Bo", "Cy", "Di"]
    people = [await api.player(n) for n in names]
    room = await api.create_room(people[0]["token"], "slap", {"rounds": 1, "first_starter": 2})
    code = room["code"]
    for p in people[1:]:
        await api.sit(p["token"], code)
    players = [await Client(server.ws, code, p["token"]).open() for p in people]
    await api.start(people[0]["token"], code)
    await sync_all(players)
    rng = random.Random(3)
    for _ in range(40):
        await step(api, code, players, rng)
        await sync_all(players)
    acked = [(i, aid) for i, c in enumerate(players) for aid, r in c.replies.items() if r["type"] == "ack"]
    assert acked, "the table should have accepted some actions"
    before = [c.game for c in players]
    await api.aclose()

    reborn = await crash_and_restart(server, players)
    try:
        api = Api(reborn.http)
        players = [await Client(reborn.ws, code, p["token"]).open() for p in people]
        await sync_all(players)
        after = [c.game for c in players]
        assert after == before, "the rebuilt table differs from the one before the kill"
        # Every acked action is in the durable log: a retry of it is recognised, not applied again.
        seat, action_id = acked[-1]
        again = await players[seat].act({"type": "nu"}, action_id=action_id)
        assert again["type"] == "ack" and again["duplicate"] is True
        steps = 0
        while players[0].game["phase"] != "MATCH_OVER":
            steps += 1
            assert steps < 3000
            await step(api, code, players, rng)
            await sync_all(players)
        assert players[0].view is not None and players[0].view["room"]["status"] == "finished"
        assert sum(s["pile"] for s in players[0].game["seats"]) == 40
        await api.aclose()
    finally:
        for c in players:
            await c.close()
        reborn.stop()
