"""A room put away is freed at once by reference counting: nothing in it refers back to it, so it
does not wait for a full garbage collection, which a quiet server (the one that puts rooms away)
may not run for hours."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from functools import partial

import pytest

from app.rooms.manager import RoomManager
from tests.rooms.test_bots import SHORT, new_room, run_until_finished


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    yield
    gc.enable()


async def test_a_lobby_put_away_is_freed_at_once(manager: RoomManager, no_collector: None) -> None:
    room, (host,) = await new_room(manager, "kuuduk")
    await room.call(partial(room.desk.seat_bot, host, 2))
    freed = weakref.ref(room)
    del room
    assert await manager.unload_idle(min_idle_ms=0) == 1
    assert freed() is None


@pytest.mark.parametrize("game", sorted(SHORT))
async def test_a_finished_game_put_away_is_freed_at_once(
    manager: RoomManager, no_collector: None, game: str
) -> None:
    room, (host,) = await new_room(manager, game)
    for seat in range(1, 4 if game == "leekha" else 2):
        await room.call(partial(room.desk.seat_bot, host, seat))
    await room.call(partial(room.desk.start_game, host))
    await run_until_finished(manager, room)
    freed = weakref.ref(room)
    del room
    assert await manager.unload_idle(min_idle_ms=0) == 1
    assert freed() is None
