"""Four friends and a spectator play a round of Slap over real WebSockets against a real server."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import step, sync_all

CARD = re.compile(r"\b[YGPB](?:0[1-9]|10)\b")


def visible_cards(game: dict[str, Any] | None) -> set[str]:
    """Cards a player may legitimately know of: the face-up table and the last closed flip."""
    if game is None:
        return set()
    shown = {s["card"] for s in game["seats"] if s["card"]}
    shown |= set(CARD.findall(repr(game.get("last"))))
    return shown


async def seat_four(
    api: Api, server: ServerProcess, options: dict[str, Any]
) -> tuple[str, list[Client], Client]:
    host = await api.player("Ana")
    room = await api.create_room(host["token"], "slap", options)
    code = room["code"]
    tokens = [host["token"]]
    for name in ("Bo", "Cy", "Di"):
        p = await api.player(name)
        await api.sit(p["token"], code)
        tokens.append(p["token"])
    watcher = await api.player("Eve")
    r = await api.call("POST", f"/api/rooms/{code}/watch", watcher["token"])
    assert r.status_code == 200
    players = [await Client(server.ws, code, t).open() for t in tokens]
    spectator = await Client(server.ws, code, watcher["token"]).open()
    await api.start(host["token"], code)
    return code, players, spectator


async def test_four_players_play_a_round_to_its_end(server: ServerProcess, api: Api) -> None:
    # No time limit: the round ends as the rules end it, with a player out of cards (how long that
    # takes in room time depends on race rulings, which rest on real sockets' clock sync).
    options = {"rounds": 1, "first_starter": 0, "round_time_limit_s": 0}
    code, players, spectator = await seat_four(api, server, options)
    everyone = [*players, spectator]
    await sync_all(everyone)
    assert [c.game["you"] for c in players] == [0, 1, 2, 3]
    assert spectator.game["you"] is None and spectator.game["legal"] == []
    rng = random.Random(7)
    tricks_seen = 0
    checked = {id(c): 0 for c in everyone}
    before = {id(c): visible_cards(c.game) for c in everyone}
    steps = 0
    while players[0].game["phase"] != "MATCH_OVER":
        steps += 1
        assert steps < 3000, "the round never ended"
        await step(api, code, players, rng)
        await sync_all(everyone)
        last = players[0].game.get("last") or {}
        if last.get("kind") == "TRICK":
            tricks_seen += 1
        for client in everyone:
            # No frame ever names a card that is not face up (or in the flip just closed) for everyone.
            allowed = before[id(client)] | visible_cards(client.game)
            for frame in client.frames[checked[id(client)] :]:
                assert set(CARD.findall(frame)) <= allowed, frame
            checked[id(client)] = len(client.frames)
            before[id(client)] = visible_cards(client.game)
    assert tricks_seen > 0
    final = players[0].view
    assert final is not None
    match = final["room"]["match"]
    assert final["room"]["status"] == "finished"
    assert match["seed"] is not None and match["result"]["finished"] is True
    piles = [s["pile"] for s in players[0].game["seats"]]
    assert sum(piles) == 40 and min(piles) == 0
    # The seed was a secret until the frame that ended the match.
    for client in everyone:
        assert client.finished_frame is not None
        assert all(match["seed"] not in f for f in client.frames[: client.finished_frame])
        assert match["seed"] in client.frames[client.finished_frame]
    for client in everyone:
        await client.close()
