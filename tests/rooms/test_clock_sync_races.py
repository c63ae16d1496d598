"""The room's side of fair races: per-connection stimulus send times, the timing in the event log, replay.

The room is game-agnostic: Slap names its live stimulus (``stimuli``), the room notes which frame
first carried it to each connection, the connection reports when that frame was written, and a
claim's move carries every seat's send time and link statistics. Here on the manual clock with
fake connections whose links and write delays are chosen by the test.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from app.rooms.clock import ManualClock
from app.rooms.manager import RoomManager
from app.rooms.replay import replay
from app.rooms.room import Room
from tests.rooms.conftest import FakePeer, settle


async def advance(manager: RoomManager, room: Room, ms: int) -> None:
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    clock.advance(ms)
    await settle(room)


def has_pair(game: dict[str, Any]) -> bool:
    numbers = [int(s["card"][1:]) for s in game["seats"] if s["card"]]
    return len(set(numbers)) < len(numbers)


async def table_with_a_pair(manager: RoomManager) -> tuple[Room, FakePeer, FakePeer]:
    """Four seats, Ana (20 ms link) and Bo (150 ms) connected, Cy and Di never; a pair just revealed."""
    store = manager.store
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    people = [await store.create_player(n) for n in ("Ana", "Bo", "Cy", "Di")]
    room = await manager.create(
        game="slap", options={"nu_mode": "auto"}, public=True, host_id=people[0].id, host_name="Ana"
    )
    for seat, p in enumerate(people[1:], start=1):
        await room.call(partial(room.desk.join_seat, p.id, p.name, seat, {}))
    ana = FakePeer(people[0].id, clock=clock, rtt=20, jitter=2, write_ms=1)
    bo = FakePeer(people[1].id, clock=clock, rtt=150, jitter=3, write_ms=2)
    for peer, name in ((ana, "Ana"), (bo, "Bo")):
        await room.call(partial(room.connect, peer, name))
    await room.call(lambda: room.desk.start_game(people[0].id))
    await settle(room)
    for _ in range(200):  # a pair shows on about half the flips of four cards
        game = room.view_for(0)["game"]
        if game["phase"] == "FLIP_OPEN" and has_pair(game):
            return room, ana, bo
        deadline = room.next_deadline()
        assert deadline is not None
        await advance(manager, room, deadline - room.now())
    raise AssertionError("no pair in 200 steps")


async def test_a_claim_carries_every_seats_send_time_and_link_into_the_log(manager: RoomManager) -> None:
    room, ana, bo = await table_with_a_pair(manager)
    game = room.game
    assert game is not None
    reveal = game.state.reveal_at
    flip = game.state.flip
    assert room.now() == reveal
    # The frame that showed the cards is noted per connection; it went out 1 and 2 ms later.
    assert set(room.viewers[ana].stimuli) == set(room.viewers[bo].stimuli) == {f"flip:{flip}"}

    # Ana (20 ms) reacted in 230 ms; her slap arrives 256 ms after the reveal. A slap that also
    # tries to bring timing of its own is refused: timing is the server's, kept apart from actions.
    await advance(manager, room, 256)
    forged = {"links": [{"rtt": 900, "jitter": 900, "sent": {f"flip:{flip}": 0}}]}
    room.post_action(ana, "a0", {"type": "slap", "flip": flip, "reaction_ms": 230, "timing": forged})
    room.post_action(ana, "a1", {"type": "slap", "flip": flip, "reaction_ms": 230})
    await settle(room)
    assert ana.reply("a0")["code"] == "BAD_ACTION"
    assert ana.reply("a1")["type"] == "ack"
    # Bo (150 ms) could still win: the race waits for him, not for Cy and Di (never connected).
    assert room.next_deadline() == reveal + 2 + 230 + 10 + (150 + 3 + 17)

    # Bo reacted in 200 ms and arrives 362 ms after the reveal: he wins; nobody is left, so it closes.
    await advance(manager, room, 106)
    room.post_action(bo, "b1", {"type": "slap", "flip": flip, "reaction_ms": 200})
    await settle(room)
    assert bo.reply("b1")["type"] == "ack"
    last = room.view_for(1)["game"]["last"]
    assert last["winner"] == 1 and last["closed_at"] == reveal + 362
    assert [(c["seat"], c["reaction"], c["claimed"], c["flags"]) for c in last["claims"]] == [
        (1, 200, 200, []),
        (0, 230, 230, []),
    ]

    events = await manager.store.load_events(game.rec.id)
    moves = [e for e in events if e.kind == "move" and e.action.get("type") == "slap"]
    assert [e.seat for e in moves] == [0, 1]
    for ev in moves:
        assert ev.action == {"type": "slap", "flip": flip, "reaction_ms": 230 if ev.seat == 0 else 200}
        assert ev.timing is not None
        links = ev.timing["links"]
        assert links[2] is None and links[3] is None
        assert links[0] == {"rtt": 20, "jitter": 2, "sent": {f"flip:{flip}": reveal + 1}}
        assert links[1] == {"rtt": 150, "jitter": 3, "sent": {f"flip:{flip}": reveal + 2}}
        assert ev.rulings is None or ev.seat == 1
    ruling = next(e.rulings for e in events if e.rulings)
    assert ruling[0]["race"] == f"flip:{flip}" and ruling[0]["winner"] == 1
    assert {c["seat"]: (c["sent"], c["arrival"], c["claimed"], c["credit"]) for c in ruling[0]["claims"]} == {
        0: (reveal + 1, reveal + 256, 230, 25),
        1: (reveal + 2, reveal + 362, 200, 160),
    }
    # The log alone rebuilds the state, rulings included.
    assert replay(game.rec, events) == game.state


async def test_a_connection_that_joins_mid_race_is_timed_from_its_join_snapshot(manager: RoomManager) -> None:
    room, _ana, _bo = await table_with_a_pair(manager)
    game = room.game
    assert game is not None
    reveal, flip = game.state.reveal_at, game.state.flip
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    cy_id = game.rec.seats[2]["player_id"]
    await advance(manager, room, 100)
    cy = FakePeer(cy_id, clock=clock, rtt=40, jitter=0, write_ms=1)
    await room.call(lambda: room.connect(cy, "Cy"))
    await settle(room)
    assert cy.frames[0]["type"] == "snapshot" and f"flip:{flip}" in room.viewers[cy].stimuli
    # Cy saw the cards in the snapshot written at reveal + 101, reacted in 200 ms over a 40 ms link.
    await advance(manager, room, 241)
    room.post_action(cy, "c1", {"type": "slap", "flip": flip, "reaction_ms": 200})
    await settle(room)
    claim = next(c for c in (*game.state.slaps, *(game.state.last.claims if game.state.last else ())))
    assert (claim.seat, claim.sent, claim.effective_ms, claim.flags) == (2, reveal + 101, 200, ())
