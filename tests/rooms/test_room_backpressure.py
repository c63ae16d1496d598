"""A slow connection is reset with a snapshot or dropped; it never stalls the room or the others."""

from __future__ import annotations

from functools import partial

from app.rooms.manager import RoomManager
from app.rooms.patch import apply_patch
from app.rooms.room import Room
from tests.rooms.conftest import FakePeer, settle


async def lobby_with_peers(manager: RoomManager, slow_capacity: int) -> tuple[Room, str, FakePeer, FakePeer]:
    host = await manager.store.create_player("Ana")
    guest = await manager.store.create_player("Bo")
    room = await manager.create(game="slap", options={}, public=True, host_id=host.id, host_name=host.name)
    fast = FakePeer(host.id, capacity=1000)
    slow = FakePeer(guest.id, capacity=slow_capacity)
    await room.call(lambda: room.connect(fast, host.name))
    await room.call(lambda: room.connect(slow, guest.name))
    await settle(room)
    return room, host.id, fast, slow


async def flip_public(room: Room, host_id: str, times: int) -> None:
    for i in range(times):
        await room.call(partial(room.desk.configure, host_id, None, i % 2 == 1))  # public starts True
    await settle(room)


async def test_a_slow_connection_gets_one_reset_snapshot_instead_of_its_backlog(manager: RoomManager) -> None:
    room, host_id, _fast, slow = await lobby_with_peers(manager, slow_capacity=3)
    slow.drain()
    await flip_public(room, host_id, 6)
    frames = slow.drain()
    assert slow.overflows >= 1
    resets = [f for f in frames if f["type"] == "snapshot" and f["reason"] == "reset"]
    assert resets, frames
    # After the reset the slow client is in step again: its view is the room's view now.
    last_reset = frames.index(resets[-1])
    view = resets[-1]["view"]
    for frame in frames[last_reset + 1 :]:
        assert frame["type"] == "patch"
        view = apply_patch(view, frame["ops"])
    assert slow.closed_with is None
    assert view == room.view_for(None)


async def test_the_fast_connection_gets_every_frame_in_order_while_another_lags(manager: RoomManager) -> None:
    room, host_id, fast, _slow = await lobby_with_peers(manager, slow_capacity=2)
    fast.drain()
    await flip_public(room, host_id, 8)
    frames = fast.drain()
    seqs = [f["seq"] for f in frames if f["type"] in ("snapshot", "patch")]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert sum(1 for f in frames if f["type"] == "patch") == 8
    assert fast.overflows == 0


async def test_a_connection_that_keeps_overflowing_is_dropped_as_too_slow(manager: RoomManager) -> None:
    room, host_id, fast, slow = await lobby_with_peers(manager, slow_capacity=1)
    await flip_public(room, host_id, 12)
    assert slow.closed_with == (4008, "TOO_SLOW")
    # The room is not stalled: the host still changes options and the fast peer sees it.
    fast.drain()
    await room.call(lambda: room.desk.configure(host_id, {"rounds": 5}, None))
    await settle(room)
    assert any(f["type"] == "patch" for f in fast.drain())
