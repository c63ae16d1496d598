"""Bots at the table: the host seats them, they play through the room's one path, they stand in."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from app.engines import ENGINES
from app.rooms.clock import ManualClock
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.replay import replay
from app.rooms.room import Room
from tests.rooms.conftest import FakePeer, settle

SHORT: dict[str, dict[str, Any]] = {
    "slap": {"rounds": 1},
    "leekha": {"limit": 20},
    "rummy": {"rounds": 1},
    "uffda": {"rounds": 1},
    "kuuduk": {"mode": "single_round"},
}
"""Options that make a whole game short enough for a test."""


async def new_room(
    manager: RoomManager, game: str, names: tuple[str, ...] = ("Ana",)
) -> tuple[Room, list[str]]:
    """A room of ``game``; the first name is the host, each of the others takes the next seat."""
    people = [await manager.store.create_player(n) for n in names]
    room = await manager.create(
        game=game, options=SHORT[game], public=True, host_id=people[0].id, host_name=people[0].name
    )
    for p in people[1:]:
        await room.call(partial(room.desk.join_seat, p.id, p.name, None, {}))
    return room, [p.id for p in people]


async def run_until_finished(manager: RoomManager, room: Room, limit: int = 20_000) -> None:
    """Move the manual clock from deadline to deadline (bots' thinking included) until the game ends."""
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    for _ in range(limit):
        await settle(room)
        if room.status == "finished":
            return
        deadline = room.next_deadline()
        assert deadline is not None, "a game of bots must always have something pending"
        clock.advance(max(0, deadline - room.now()))
    raise AssertionError(f"{room.game_name}: no end after {limit} steps")


async def test_the_host_seats_a_bot_in_an_empty_chair(manager: RoomManager) -> None:
    room, (host,) = await new_room(manager, "slap")
    bot = await room.call(lambda: room.desk.seat_bot(host, 2))
    assert bot.bot and bot.seat == 2 and bot.name == "Ada (bot)"
    seat = room.room_view()["seats"][2]
    assert seat["bot"] is True and seat["connected"] is True and seat["standin"] is False
    stored = {m.player_id: m for m in await manager.store.list_members(room.code)}
    assert stored[bot.player_id].bot and stored[bot.player_id].seat == 2


async def test_a_second_bot_gets_another_name_and_the_first_free_seat(manager: RoomManager) -> None:
    room, (host,) = await new_room(manager, "slap")
    first = await room.call(lambda: room.desk.seat_bot(host, None))
    second = await room.call(lambda: room.desk.seat_bot(host, None))
    assert (first.seat, second.seat) == (1, 2)
    assert first.name != second.name


async def test_only_the_host_seats_a_bot(manager: RoomManager) -> None:
    room, (_, guest) = await new_room(manager, "slap", ("Ana", "Bo"))
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.seat_bot(guest, 2))
    assert info.value.code == "NOT_HOST" and info.value.status == 403
    assert room.room_view()["seats"][2] is None


async def test_a_bot_cannot_take_a_taken_seat(manager: RoomManager) -> None:
    room, (host, _) = await new_room(manager, "slap", ("Ana", "Bo"))
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.seat_bot(host, 1))
    assert info.value.code == "SEAT_TAKEN"


async def test_no_bot_joins_a_running_game(manager: RoomManager) -> None:
    room, (host, _) = await new_room(manager, "slap", ("Ana", "Bo"))
    await room.call(lambda: room.desk.start_game(host))
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.seat_bot(host, None))
    assert info.value.code == "GAME_RUNNING"


@pytest.mark.parametrize("game", sorted(ENGINES))
async def test_a_table_of_bots_plays_a_whole_game_and_its_log_replays_it(
    manager: RoomManager, game: str
) -> None:
    room, (host,) = await new_room(manager, game)
    await room.call(lambda: room.desk.watch(host, "Ana"))  # the host only watches
    for _ in range(ENGINES[game].min_players):
        await room.call(lambda: room.desk.seat_bot(host, None))
    await room.call(lambda: room.desk.start_game(host))
    await run_until_finished(manager, room)

    assert room.game is not None
    events = await manager.store.load_events(room.game.rec.id)
    assert events and all(e.kind == "tick" or (e.client_id or "").startswith("bot-") for e in events)
    assert all(e.actor is None for e in events), "a seated bot plays its own seat: no stand-in"
    assert replay(room.game.rec, events) == room.game.state
    assert room.game.rec.status == "finished" and room.game.rec.result is not None


async def test_bots_think_before_they_act(manager: RoomManager) -> None:
    room, (host,) = await new_room(manager, "slap")
    await room.call(lambda: room.desk.watch(host, "Ana"))
    for _ in range(2):
        await room.call(lambda: room.desk.seat_bot(host, None))
    await room.call(lambda: room.desk.start_game(host))
    await settle(room)
    assert room.game is not None
    started = room.now()
    low, high = room.bots.pace.think_ms
    due = room.bots.due
    assert due and all(started + low <= at <= started + high for at in due.values())
    assert room.game.next_seq == 1, "nothing was played before a bot's thinking time was over"


async def bo_walks_away(manager: RoomManager, game: str) -> tuple[Room, str, str, FakePeer]:
    """Ana and Bo, both connected, start a game; then Bo's only connection drops."""
    room, (host, guest) = await new_room(manager, game, ("Ana", "Bo"))
    ana, bo = FakePeer(host, 10_000), FakePeer(guest, 10_000)
    await room.call(lambda: room.connect(ana, "Ana"))
    await room.call(lambda: room.connect(bo, "Bo"))
    await room.call(lambda: room.desk.start_game(host))
    await room.call(lambda: room.disconnect(bo))
    await settle(room)
    return room, host, guest, ana


async def test_a_player_gone_past_the_seat_hold_is_played_by_a_bot_until_they_return(
    manager: RoomManager,
) -> None:
    # Kuuduk without a turn timer: a table where nobody plays for Bo would wait for ever.
    room, host, guest, ana = await bo_walks_away(manager, "kuuduk")
    assert room.game is not None
    bo_seat = room.members[guest].seat
    assert bo_seat is not None
    gone_at = room.now()
    hold = room.bots.pace.seat_hold_ms
    assert room.next_deadline() is not None and room.next_deadline() <= gone_at + hold  # type: ignore[operator]

    clock = manager.clock
    assert isinstance(clock, ManualClock)
    clock.advance(hold - 1)
    await settle(room)
    assert room.room_view()["seats"][bo_seat]["standin"] is False, "the seat is held for the whole hold time"
    clock.advance(1)
    await settle(room)
    assert room.room_view()["seats"][bo_seat]["standin"] is True

    # Ana plays her turns as a person; Bo's seat is played by the stand-in.
    for _ in range(400):
        view = room.view_for(room.key_of(host))["game"]
        if any(e.seat == bo_seat for e in await manager.store.load_events(room.game.rec.id)):
            break
        legal = view.get("legal") or []
        if legal:
            room.post_action(ana, f"a{room.game.next_seq}", legal[0])
        else:
            deadline = room.next_deadline()
            assert deadline is not None
            clock.advance(max(0, deadline - room.now()))
        await settle(room)
    events = await manager.store.load_events(room.game.rec.id)
    stand_in_moves = [e for e in events if e.seat == bo_seat]
    # Logged as a stand-in's moves for Bo's seat, not as Bo's and not as a seated bot's.
    assert stand_in_moves and all(e.actor == "standin" for e in stand_in_moves)
    assert all((e.client_id or "").startswith("standin-") for e in stand_in_moves)
    assert all(e.actor is None for e in events if e.seat is not None and e.seat != bo_seat)

    back = FakePeer(guest, 10_000)
    await room.call(lambda: room.connect(back, "Bo"))
    await settle(room)
    assert room.room_view()["seats"][bo_seat]["standin"] is False
    assert bo_seat not in room.bots.playing()


async def test_a_player_who_comes_back_within_the_hold_keeps_the_seat(manager: RoomManager) -> None:
    room, _, guest, _ = await bo_walks_away(manager, "slap")
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    clock.advance(room.bots.pace.seat_hold_ms // 2)
    again = FakePeer(guest, 10_000)
    await room.call(lambda: room.connect(again, "Bo"))
    clock.advance(room.bots.pace.seat_hold_ms)
    await settle(room)
    assert not room.bots.standins and not room.bots.away


async def test_a_bot_never_becomes_the_host(manager: RoomManager) -> None:
    room, (host, guest) = await new_room(manager, "slap", ("Ana", "Bo"))
    await room.call(lambda: room.desk.seat_bot(host, 2))
    await room.call(lambda: room.desk.watch(guest, "Bo"))
    await room.call(lambda: room.desk.leave(host))
    assert room.host_id == guest, "the spectator Bo hosts, not the seated bot"
    await room.call(lambda: room.desk.leave(guest))
    assert room.host_id == guest, "a room left to bots keeps its last host"


async def test_after_a_restart_the_bots_take_their_seats_again_and_finish_the_game(
    manager: RoomManager,
) -> None:
    room, (host,) = await new_room(manager, "kuuduk")
    await room.call(lambda: room.desk.watch(host, "Ana"))
    for _ in range(2):
        await room.call(lambda: room.desk.seat_bot(host, None))
    await room.call(lambda: room.desk.start_game(host))
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    for _ in range(6):  # a few bot moves, then the server goes down
        deadline = room.next_deadline()
        assert deadline is not None
        clock.advance(max(0, deadline - room.now()))
        await settle(room)
    assert room.game is not None and room.game.next_seq > 1
    await manager.stop()

    reborn = RoomManager(manager.store, manager.event_log, ManualClock(), manager.pace)
    try:
        assert await reborn.recover() == 1
        again = reborn.rooms[room.code]
        assert again.status == "playing" and again.bots.bots == {0, 1}
        assert again.game is not None and again.game.state == room.game.state
        await run_until_finished(reborn, again)
        assert again.game.rec.status == "finished"
    finally:
        await reborn.stop()
