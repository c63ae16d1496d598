"""The room tells each connection whether a reaction race may be judged with its link: only the seats
of a running game whose engine has races. Everyone else's clock sync settles on the slow watching
interval (app.realtime.ping_schedule)."""

from __future__ import annotations

from functools import partial

import pytest

from app.rooms.manager import RoomManager
from app.rooms.room import Room
from tests.rooms.conftest import FakePeer, settle


async def table(manager: RoomManager, game: str) -> tuple[Room, FakePeer, FakePeer, str]:
    """Ana (host) and Bo seated and connected (others seated to make up the game's minimum), Cy
    connected as a spectator; the game not started."""
    store = manager.store
    ana, bo, cy = [await store.create_player(n) for n in ("Ana", "Bo", "Cy")]
    room = await manager.create(game=game, options={}, public=True, host_id=ana.id, host_name="Ana")
    await room.call(partial(room.desk.join_seat, bo.id, bo.name, 1, {}))
    for seat in range(2, room.engine.min_players):
        other = await store.create_player(f"Other {seat}")
        await room.call(partial(room.desk.join_seat, other.id, other.name, seat, {}))
    seated, watching = FakePeer(ana.id), FakePeer(cy.id)
    await room.call(partial(room.connect, seated, "Ana"))
    await room.call(partial(room.connect, FakePeer(bo.id), "Bo"))
    await room.call(partial(room.connect, watching, "Cy"))
    await settle(room)
    return room, seated, watching, ana.id


@pytest.mark.parametrize("game", ["slap", "uffda"])
async def test_a_seat_of_a_racing_game_is_a_racing_connection_once_the_game_runs(
    manager: RoomManager, game: str
) -> None:
    room, seated, watching, host = await table(manager, game)
    assert (seated.racing, watching.racing) == (False, False)  # the lobby: nothing to race yet
    await room.call(lambda: room.desk.start_game(host))
    await settle(room)
    assert (seated.racing, watching.racing) == (True, False)


@pytest.mark.parametrize("game", ["rummy", "leekha", "kuuduk"])
async def test_no_connection_of_a_game_without_races_is_a_racing_one(manager: RoomManager, game: str) -> None:
    room, seated, watching, host = await table(manager, game)
    await room.call(lambda: room.desk.start_game(host))
    await settle(room)
    assert room.status == "playing"
    assert (seated.racing, watching.racing) == (False, False)
