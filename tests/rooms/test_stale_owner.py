"""A room whose writes the database refuses because another process took it over (its fence moved
on) changes nothing and leaves this process; with one process nothing is fenced."""

from __future__ import annotations

from functools import partial

import pytest

from app.db.fences import raise_fence, room_fence
from app.db.store import Store
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from tests.rooms.conftest import FakePeer
from tests.rooms.test_bots import new_room


class FencedOwner:
    """The database half of what the cluster's node does (app.cluster.node.Node.take): each take
    raises the room's fence to a new number, as a new Redis lease would bring."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.given_up: list[str] = []

    async def take(self, code: str) -> int:
        fence = (await room_fence(self.store, code) or 0) + 1
        assert await raise_fence(self.store, code, fence) is not None
        return fence

    async def give_up(self, code: str) -> None:
        self.given_up.append(code)


async def _members(store: Store, code: str) -> list[tuple[str, str, int | None]]:
    return [(m.player_id, m.role, m.seat) for m in await store.list_members(code)]


async def test_a_lobby_command_of_a_room_taken_over_changes_nothing_and_gives_the_room_up(
    manager: RoomManager,
) -> None:
    owner = manager.owner = FencedOwner(manager.store)
    room, (host,) = await new_room(manager, "slap")
    peer = FakePeer(host)
    await room.call(lambda: room.connect(peer, "Ana"))
    guest = await manager.store.create_player("Bo")
    assert room.fence is not None
    await raise_fence(manager.store, room.code, room.fence + 1)  # another process took it over
    before, stored = await _members(manager.store, room.code), await manager.store.get_room(room.code)

    with pytest.raises(RoomError) as refused:
        await room.call(partial(room.desk.join_seat, guest.id, "Bo", None, {}))
    assert refused.value.code == "SERVER_ERROR"
    await manager.let_go_done()

    assert await _members(manager.store, room.code) == before
    assert await manager.store.get_room(room.code) == stored
    assert room.code not in manager.rooms and owner.given_up == [room.code]
    assert peer.closed_with is not None and peer.closed_with[0] == 1012  # it reconnects to the new owner


async def test_one_process_writes_without_a_fence(manager: RoomManager) -> None:
    room, _ = await new_room(manager, "slap", ("Ana", "Bo"))
    assert room.fence is None
    assert len(await _members(manager.store, room.code)) == 2
