"""Every game, created, joined, started and played to its end by real WebSocket clients on a real server.

Each client decides with the game's bot (``app/bots/<game>.py``) from the view the
server sent it, so the test knows no rules. Before every decision each client asks
for a snapshot and checks that the view it patched together equals it; time moves
only when nobody wants to act, to the room's next deadline.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.bots import bot_for
from app.db.store import Store
from app.engines import ENGINES
from app.engines.step import step
from app.rooms.replay import seat_setups
from app.rooms.table import input_of
from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess

SHORT: dict[str, dict[str, Any]] = {
    "slap": {"rounds": 1},
    "leekha": {"limit": 20, "mode": "teams"},
    "rummy": {"rounds": 1},
    "uffda": {"rounds": 1},
    "kuuduk": {"mode": "single_round"},
}
PLAYERS = {"slap": 3, "leekha": 4, "rummy": 3, "uffda": 3, "kuuduk": 3}
NAMES = ("Ana", "Bo", "Cy", "Di")
MAX_STEPS = 5000


async def open_table(server: ServerProcess, api: Api, game: str) -> tuple[str, list[Client], Client]:
    people = [await api.player(n) for n in NAMES[: PLAYERS[game]]]
    room = await api.create_room(people[0]["token"], game, SHORT[game])
    code = room["code"]
    for p in people[1:]:
        await api.sit(p["token"], code)
    watcher = await api.player("Wes")
    clients = [await Client(server.ws, code, p["token"]).open() for p in people]
    spectator = await Client(server.ws, code, watcher["token"]).open()
    await api.start(people[0]["token"], code)
    return code, clients, spectator


async def play_to_the_end(api: Api, code: str, clients: list[Client], game: str) -> int:
    """Returns how many actions were played."""
    brain = bot_for(game)
    rng = random.Random(f"{game}-over-the-wire")
    actions = 0
    for _ in range(MAX_STEPS):
        views = [await c.check_in_sync() for c in clients]
        if views[0]["room"]["status"] == "finished":
            return actions
        order = list(range(len(clients)))
        rng.shuffle(order)
        for i in order:
            action = brain(clients[i].game, rng)
            if action is None:
                continue
            reply = await clients[i].act(action)
            assert reply["type"] == "ack", f"{game}: the bot's legal choice {action} was refused: {reply}"
            actions += 1
            break
        else:
            await api.advance_to_next_deadline(code)
    raise AssertionError(f"{game}: not finished after {MAX_STEPS} steps")


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def game_strings_sent(client: Client) -> set[str]:
    """Every string the game part of this client's frames carried (snapshots and patch values)."""
    found: set[str] = set()
    for text in client.frames:
        frame = json.loads(text)
        if frame.get("type") == "snapshot":
            found.update(strings_in(frame["view"]["game"]))
        elif frame.get("type") == "patch":
            for op in frame["ops"]:
                if op["path"].startswith("/game") and "value" in op:
                    found.update(strings_in(op["value"]))
    return found


async def strings_each_seat_may_see(database_url: str, code: str, seats: int) -> dict[int | None, set[str]]:
    """Replay the stored game input by input: every string each seat's (and a spectator's) view ever held."""
    store = Store(database_url)
    try:
        rec = await store.latest_game(code)
        assert rec is not None
        events = await store.load_events(rec.id)
    finally:
        await store.close()
    engine = ENGINES[rec.engine]
    options = engine.options_model.model_validate(rec.options)
    state = engine.start(seat_setups(rec.seats), options, rec.seed, rec.started_at)
    keys: list[int | None] = [None, *range(seats)]
    allowed: dict[int | None, set[str]] = {k: set(strings_in(engine.view(state, k))) for k in keys}
    for ev in events:
        state = step(engine, state, input_of(ev))
        for k in keys:
            allowed[k].update(strings_in(engine.view(state, k)))
    return allowed


@pytest.mark.parametrize("game", sorted(ENGINES))
async def test_a_whole_game_is_played_over_websockets(
    server: ServerProcess, api: Api, sqlite_url: str, game: str
) -> None:
    code, clients, spectator = await open_table(server, api, game)
    actions = await play_to_the_end(api, code, clients, game)
    assert actions > 0

    for c in [*clients, spectator]:
        await c.until(lambda v: v["room"]["status"] == "finished")
    final = await spectator.check_in_sync()
    match = final["room"]["match"]
    assert match["result"]["finished"] is True
    seed = match["seed"]
    assert seed, "the seed is revealed once the game is over"
    for c in [*clients, spectator]:
        assert c.finished_frame is not None
        before_the_end = c.frames[: c.finished_frame]
        assert before_the_end and not any(seed in f for f in before_the_end), "the seed leaked before the end"
        assert not c.errors, c.errors
    r = await api.call("GET", f"/api/rooms/{code}")
    assert r.json()["status"] == "finished"

    # Nothing hidden ever left the server: each connection's frames carried only what its own seat's
    # view held at some moment of the replayed game (no other hand, no draw pile, no seed).
    allowed = await strings_each_seat_may_see(sqlite_url, code, len(clients))
    for seat, c in enumerate(clients):
        leaked = game_strings_sent(c) - allowed[seat]
        assert not leaked, f"{game}: seat {seat} was sent {sorted(leaked)[:5]}"
    leaked = game_strings_sent(spectator) - allowed[None]
    assert not leaked, f"{game}: the spectator was sent {sorted(leaked)[:5]}"
