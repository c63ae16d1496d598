"""The bulk history of ``bench.lifecycle startup``: rows the app can read back and rebuild."""

from __future__ import annotations

from app.db import EventLog, Store
from app.rooms.clock import ManualClock
from app.rooms.manager import CODE_ALPHABET, RoomManager
from bench import history


def test_room_codes_are_distinct_and_well_formed() -> None:
    codes = [history.room_code(i) for i in range(5000)]
    assert len(set(codes)) == len(codes)
    assert all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)


async def test_finished_rooms_load_and_running_games_recover(store: Store) -> None:
    await history.insert_finished(store, 5)
    await history.start_running_games(store, 2)
    manager = RoomManager(store, EventLog(store), ManualClock())
    try:
        assert await manager.recover() == 2  # only the running games come back at start
        room = await manager.require(history.room_code(3))  # a finished room, rebuilt on demand
        assert room.status == "finished"
        assert room.game is not None and room.game.next_seq == history.EVENTS_PER_GAME + 1
    finally:
        await manager.stop()
