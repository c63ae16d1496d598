"""The room's side of verified round trips: into each claim's logged link, and into the room's view.

A connection reports the round trip its client cannot delay (``Peer.verified``) or that it can
have none (``Peer.unverifiable``); the room copies both into the timing of a race claim, where the
arbiter reads them, and lists the seats whose races rest on their own pongs.
"""

from __future__ import annotations

from functools import partial

from app.engines import race
from app.rooms.manager import RoomManager
from app.rooms.replay import replay
from tests.rooms.conftest import FakePeer, settle
from tests.rooms.test_clock_sync_races import advance, table_with_a_pair


async def test_a_claim_is_judged_and_logged_with_the_verified_round_trip(manager: RoomManager) -> None:
    room, ana, bo = await table_with_a_pair(manager)
    game = room.game
    assert game is not None
    reveal, flip = game.state.reveal_at, game.state.flip
    # Bo's pongs say 150 ms, but his TCP connection was measured at 20 ms: he held them back.
    ana.verified, bo.verified = (20, 4), (20, 4)
    await advance(manager, room, 200)
    # Bo really took 170 ms and claims 60 to match his made-up link: 200 - 2 - 60 = 138 ms of network.
    room.post_action(bo, "b1", {"type": "slap", "flip": flip, "reaction_ms": 60})
    await settle(room)
    assert bo.reply("b1")["type"] == "ack"
    claim = game.state.slaps[0]
    assert claim.seat == 1 and claim.credit == 18 and claim.effective_ms == 200 - 2 - 18
    assert claim.flags == (race.UNVERIFIED, race.ABOVE_WINDOW, race.INHUMAN)
    events = await manager.store.load_events(game.rec.id)
    logged = next(e for e in events if e.kind == "move" and e.action.get("type") == "slap")
    assert logged.timing is not None
    assert logged.timing["links"][1] == {
        "rtt": 150,
        "jitter": 3,
        "sent": {f"flip:{flip}": reveal + 2},
        "verified": [20, 4],
    }
    assert replay(game.rec, events) == game.state


async def test_the_room_lists_the_seats_whose_links_cannot_be_verified(manager: RoomManager) -> None:
    store = manager.store
    ana, bo, cy = [await store.create_player(n) for n in ("Ana", "Bo", "Cy")]
    room = await manager.create(game="slap", options={}, public=True, host_id=ana.id, host_name="Ana")
    await room.call(partial(room.desk.join_seat, bo.id, bo.name, 2, {}))
    await room.call(partial(room.connect, FakePeer(ana.id, verified=(30, 2)), "Ana"))
    assert room.room_view()["reported_links"] == []
    await room.call(partial(room.connect, FakePeer(bo.id, unverifiable=True), "Bo"))
    await room.call(partial(room.connect, FakePeer(cy.id, unverifiable=True), "Cy"))  # watching only
    await settle(room)
    assert room.room_view()["reported_links"] == [2]
