"""A room lives in memory only while it is in use: put away when idle, rebuilt on the next use;
finished games wait in the database; lobbies nobody comes back to expire; rooms hold a bounded
number of spectators and a process a bounded number of rooms."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import pytest

from app.db.room_queries import open_rooms
from app.rooms.clock import ManualClock
from app.rooms.errors import RoomError
from app.rooms.manager import Lifecycle, RoomManager
from app.rooms.room import Room
from tests.rooms.conftest import FakePeer, settle
from tests.rooms.test_bots import new_room, run_until_finished


@pytest.fixture
async def rooms(manager: RoomManager) -> AsyncIterator[RoomManager]:
    """A manager on the same database with tight limits: 2 spectators, 3 loaded rooms, and
    lobbies that expire as soon as they are put away."""
    tight = RoomManager(
        manager.store,
        manager.event_log,
        ManualClock(),
        manager.pace,
        lifecycle=Lifecycle(idle_ms=60_000, max_loaded=3, lobby_expiry_s=0, max_spectators=2),
    )
    yield tight
    await tight.stop()


def _views(room: Room) -> dict[Any, Any]:
    keys = [None, *range(len(room.game.rec.seats))] if room.game is not None else [None]
    return {key: room.view_for(key) for key in keys}


async def _watcher(room: Room, name: str) -> FakePeer:
    player = await room.store.create_player(name)
    peer = FakePeer(player.id)
    await room.call(lambda: room.connect(peer, name))
    return peer


async def test_an_idle_lobby_is_put_away_and_rebuilt_identically_on_next_use(rooms: RoomManager) -> None:
    room, (host,) = await new_room(rooms, "uffda")
    await room.call(lambda: room.desk.seat_bot(host, 3))
    await room.call(lambda: room.desk.configure(host, {"rounds": 2}, False))
    before = _views(room)

    clock = rooms.clock
    assert isinstance(clock, ManualClock)
    assert await rooms.unload_idle() == 0  # idle from now on
    clock.advance(59_999)
    assert await rooms.unload_idle() == 0  # not idle long enough yet
    clock.advance(1)
    assert await rooms.unload_idle() == 1
    assert room.code not in rooms.rooms

    again = await rooms.require(room.code)
    assert again is not room
    assert _views(again) == before


async def test_a_finished_game_is_put_away_and_rebuilt_identically(rooms: RoomManager) -> None:
    room, (host,) = await new_room(rooms, "slap")
    await room.call(lambda: room.desk.seat_bot(host, 1))
    await room.call(lambda: room.desk.start_game(host))
    await run_until_finished(rooms, room)
    before = _views(room)

    assert await rooms.unload_idle(min_idle_ms=0) == 1
    again = await rooms.require(room.code)
    assert again.status == "finished"
    assert _views(again) == before


async def test_a_room_with_a_connection_stays_loaded(rooms: RoomManager) -> None:
    room, (host,) = await new_room(rooms, "slap")
    peer = FakePeer(host)
    await room.call(lambda: room.connect(peer, "Ana"))
    assert await rooms.unload_idle(min_idle_ms=0) == 0
    assert rooms.rooms[room.code] is room
    await room.call(lambda: room.disconnect(peer))
    assert await rooms.unload_idle(min_idle_ms=0) == 1


async def test_a_game_with_a_live_deadline_or_a_bot_to_move_stays_loaded(rooms: RoomManager) -> None:
    room, (host,) = await new_room(rooms, "slap")
    await room.call(lambda: room.desk.seat_bot(host, 1))
    await room.call(lambda: room.desk.start_game(host))
    await settle(room)
    assert room.next_deadline() is not None
    assert await rooms.unload_idle(min_idle_ms=0) == 0
    assert rooms.rooms[room.code] is room


async def test_finished_games_and_lobbies_are_not_loaded_at_start(rooms: RoomManager) -> None:
    finished, (host,) = await new_room(rooms, "slap")
    await finished.call(lambda: finished.desk.seat_bot(host, 1))
    await finished.call(lambda: finished.desk.start_game(host))
    await run_until_finished(rooms, finished)
    lobby, _ = await new_room(rooms, "leekha")
    running, (other,) = await new_room(rooms, "slap", ("Bo",))
    await running.call(lambda: running.desk.seat_bot(other, 1))
    await running.call(lambda: running.desk.start_game(other))
    await rooms.stop()

    reborn = RoomManager(rooms.store, rooms.event_log, ManualClock(), rooms.pace)
    try:
        assert await reborn.recover() == 1
        assert set(reborn.rooms) == {running.code}
        loaded = await reborn.require(finished.code)  # asked for: loaded then
        assert loaded.status == "finished" and set(reborn.rooms) == {running.code, finished.code}
        assert (await reborn.require(lobby.code)).status == "lobby"
    finally:
        await reborn.stop()


async def test_a_lobby_nobody_uses_expires_and_leaves_the_list(rooms: RoomManager) -> None:
    room, _ = await new_room(rooms, "kuuduk")
    assert [r.code for r in (await open_rooms(rooms.store, 10)).rooms] == [room.code]
    assert await rooms.unload_idle(min_idle_ms=0) == 1

    assert await rooms.expire_lobbies() == 1
    assert (await open_rooms(rooms.store, 10)).rooms == []
    with pytest.raises(RoomError) as refused:
        await rooms.get(room.code)
    assert (refused.value.code, refused.value.status) == ("ROOM_EXPIRED", 410)


async def test_a_lobby_in_use_does_not_expire(rooms: RoomManager) -> None:
    room, _ = await new_room(rooms, "kuuduk")
    assert await rooms.expire_lobbies() == 0
    assert (await rooms.require(room.code)).status == "lobby"


async def test_a_spectator_who_leaves_is_not_kept(rooms: RoomManager) -> None:
    room, (host,) = await new_room(rooms, "slap")
    peer = await _watcher(room, "Cy")
    assert room.members[peer.player_id].role == "spectator"
    await room.call(lambda: room.disconnect(peer))
    assert peer.player_id not in room.members
    assert peer.player_id not in {m.player_id for m in await rooms.store.list_members(room.code)}
    assert host in room.members


async def test_spectators_who_never_connected_are_dropped_when_the_room_is_put_away(
    rooms: RoomManager,
) -> None:
    room, (host,) = await new_room(rooms, "slap")
    cy = await rooms.store.create_player("Cy")
    await room.call(lambda: room.desk.watch(cy.id, "Cy"))
    assert await rooms.unload_idle(min_idle_ms=0) == 1
    assert {m.player_id for m in await rooms.store.list_members(room.code)} == {host}


async def test_a_room_holds_a_bounded_number_of_spectators(rooms: RoomManager) -> None:
    room, _ = await new_room(rooms, "slap")
    await _watcher(room, "Cy")
    await _watcher(room, "Di")
    with pytest.raises(RoomError) as refused:
        await _watcher(room, "Ed")
    assert (refused.value.code, refused.value.status) == ("ROOM_CROWDED", 409)
    eve = await rooms.store.create_player("Eve")
    with pytest.raises(RoomError):
        await room.call(lambda: room.desk.watch(eve.id, "Eve"))
    assert len([m for m in room.members.values() if m.role == "spectator"]) == 2


async def test_a_process_holds_a_bounded_number_of_rooms_and_makes_space_by_putting_idle_ones_away(
    rooms: RoomManager,
) -> None:
    busy = []
    for _ in range(3):
        room, (host,) = await new_room(rooms, "slap")
        peer = FakePeer(host)
        await room.call(partial(room.connect, peer, "Ana"))
        busy.append((room, peer))
    with pytest.raises(RoomError) as refused:
        await new_room(rooms, "slap")
    assert (refused.value.code, refused.value.status) == ("BUSY", 503)

    room, peer = busy[0]
    await room.call(lambda: room.disconnect(peer))
    fourth, _ = await new_room(rooms, "slap")  # the idle one is put away to make space
    assert set(rooms.rooms) == {busy[1][0].code, busy[2][0].code, fourth.code}
