"""Whatever fails while a room handles one input rejects that input with SERVER_ERROR, leaves the room
exactly as it was, and the room plays on: an engine bug, a refused database write, a value the log
cannot store; in a move, a timer, a bot's move and every lobby command."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import pytest

from app.rooms.clock import ManualClock
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from tests.engines.test_leekha import early_end_table
from tests.rooms.conftest import FakePeer, settle


class Injected(Exception):
    """The fault a test injects."""


def fail_once(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Make ``owner.name`` raise :class:`Injected` on its next call only; returns the calls seen."""
    real = getattr(owner, name)
    calls: list[int] = []
    if inspect.iscoroutinefunction(real):

        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            if len(calls) == 1:
                raise Injected(name)
            return await real(*args, **kwargs)

        monkeypatch.setattr(owner, name, async_wrapper)
    else:

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            if len(calls) == 1:
                raise Injected(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapper)
    return calls


async def advance(manager: RoomManager, room: Room, ms: int) -> None:
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    clock.advance(ms)
    await settle(room)


async def slap_table(manager: RoomManager, **options: Any) -> tuple[Room, list[str], list[FakePeer]]:
    """Ana (host, seat 0, the first starter) and Bo, both connected, the game started."""
    people = [await manager.store.create_player(n) for n in ("Ana", "Bo")]
    room = await manager.create(
        game="slap",
        options={"first_starter": 0, **options},
        public=True,
        host_id=people[0].id,
        host_name="Ana",
    )
    await room.call(lambda: room.desk.join_seat(people[1].id, "Bo", None, {}))
    peers = [FakePeer(p.id) for p in people]
    for peer, p in zip(peers, people, strict=True):
        await room.call(partial(room.connect, peer, p.name))
    await room.call(lambda: room.desk.start_game(people[0].id))
    await settle(room)
    return room, [p.id for p in people], peers


def phase(room: Room) -> str:
    assert room.game is not None
    return str(room.game.state.phase.value)


async def logged(manager: RoomManager, room: Room) -> list[str]:
    assert room.game is not None
    return [e.kind for e in await manager.store.load_events(room.game.rec.id)]


async def test_an_engine_bug_in_a_move_rejects_it_and_the_table_plays_on(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _, (ana, bo) = await slap_table(manager)
    assert room.game is not None
    before = room.game.state
    fail_once(monkeypatch, room.engine, "play")
    room.post_action(ana, "a1", {"type": "nu"})
    await settle(room)
    assert ana.reply("a1")["code"] == "SERVER_ERROR"
    assert room.game.state is before and await logged(manager, room) == []

    room.post_action(ana, "a2", {"type": "nu"})
    await settle(room)
    assert ana.reply("a2")["type"] == "ack" and phase(room) == "NU_CALLED"
    assert await logged(manager, room) == ["move"]
    assert bo.frames[-1]["type"] == "patch", "the others go on getting frames"


async def test_a_refused_log_write_rejects_the_move_and_keeps_the_committed_state(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _, (ana, _bo) = await slap_table(manager)
    assert room.game is not None
    before = room.game.state
    fail_once(monkeypatch, manager.event_log, "append")
    room.post_action(ana, "a1", {"type": "nu"})
    await settle(room)
    assert ana.reply("a1")["code"] == "SERVER_ERROR"
    assert room.game.state is before and room.game.next_seq == 1 and not room.game.applied

    room.post_action(ana, "a1", {"type": "nu"})  # the same id again: it was never applied
    await settle(room)
    assert [f["type"] for f in ana.frames if f.get("id") == "a1"] == ["reject", "ack"]
    assert await logged(manager, room) == ["move"]


async def test_a_value_the_log_cannot_store_rejects_only_that_input(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _, (ana, _bo) = await slap_table(manager)
    assert room.game is not None
    before, real = room.game.state, room.engine.rulings
    # An engine bug: the move's ruling holds a set, which JSON cannot carry.
    monkeypatch.setattr(room.engine, "rulings", lambda state: [] if state is before else [{"odd": {1, 2}}])
    room.post_action(ana, "a1", {"type": "nu"})
    await settle(room)
    assert ana.reply("a1")["code"] == "SERVER_ERROR"
    assert room.game.state is before
    monkeypatch.setattr(room.engine, "rulings", real)
    room.post_action(ana, "a2", {"type": "nu"})
    await settle(room)
    assert ana.reply("a2")["type"] == "ack" and await logged(manager, room) == ["move"]


async def test_an_engine_bug_in_a_view_refuses_the_move_that_led_to_it(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _, (ana, bo) = await slap_table(manager)
    assert room.game is not None
    before, real = room.game.state, room.engine.views

    def views(state: Any, seats: Any) -> Any:
        if state.phase.value == "NU_CALLED":
            raise Injected("view")
        return real(state, seats)

    monkeypatch.setattr(room.engine, "views", views)
    room.post_action(ana, "a1", {"type": "nu"})
    await settle(room)
    assert ana.reply("a1")["code"] == "SERVER_ERROR"
    assert room.game.state is before and await logged(manager, room) == []

    monkeypatch.setattr(room.engine, "views", real)
    room.post_action(ana, "a2", {"type": "nu"})
    await settle(room)
    assert ana.reply("a2")["type"] == "ack" and phase(room) == "NU_CALLED"
    assert bo.frames[-1]["type"] == "patch"


async def test_an_engine_bug_in_a_timer_is_logged_and_the_timer_fires_a_second_later(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _, (ana, bo) = await slap_table(manager)
    room.post_action(ana, "a1", {"type": "nu"})
    await settle(room)
    calls = fail_once(monkeypatch, room.engine, "tick")
    deadline = room.next_deadline()
    assert deadline is not None
    await advance(manager, room, deadline - room.now())
    assert len(calls) == 1 and phase(room) == "NU_CALLED", "a failed timer changes nothing"
    assert room.next_deadline() == room.now() + 1_000, "it is tried again a second later, not in a loop"
    await advance(manager, room, 1_000)
    assert phase(room) == "FLIP_OPEN" and await logged(manager, room) == ["move", "tick"]
    assert bo.frames[-1]["type"] == "patch"


async def test_an_engine_bug_in_a_bots_move_drops_that_move_and_the_bot_plays_on(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = await manager.store.create_player("Ana")
    room = await manager.create(
        # The server would call Nu! for the starter after 2 s; here it waits long enough for the bot.
        game="slap",
        options={"first_starter": 1, "nu_auto_ms": 60_000},
        public=True,
        host_id=host.id,
        host_name="Ana",
    )
    await room.call(lambda: room.desk.seat_bot(host.id, None))
    peer = FakePeer(host.id)
    await room.call(lambda: room.connect(peer, "Ana"))
    await room.call(lambda: room.desk.start_game(host.id))
    await settle(room)
    calls = fail_once(monkeypatch, room.engine, "play")
    for _ in range(40):  # the bot (the starter) calls Nu! after thinking; its first try fails
        await advance(manager, room, 100)
        if room.game is not None and room.game.next_seq > 1:
            break
    assert len(calls) >= 2, "the bot tried again after its failed move"
    assert room.game is not None
    first = (await manager.store.load_events(room.game.rec.id))[0]
    assert (first.kind, first.seat, first.action) == ("move", 1, {"type": "nu"})


async def test_a_duplicate_is_answered_once_after_the_originals_effect_frame(manager: RoomManager) -> None:
    room, _, (ana, _bo) = await slap_table(manager)
    ana.drain()
    room.post_action(ana, "a1", {"type": "nu"})
    room.post_action(ana, "a1", {"type": "nu"})
    await settle(room)
    frames = ana.drain()
    effect = next(i for i, f in enumerate(frames) if f["type"] == "patch")
    answers = [(i, f) for i, f in enumerate(frames) if f.get("id") == "a1"]
    assert [f.get("duplicate", False) for _, f in answers] == [False, True]
    assert all(i > effect and f["seq"] == frames[effect]["seq"] for i, f in answers)


# --- lobby commands -----------------------------------------------------------------------------------

Command = Callable[[Room, list[str]], Awaitable[Any]]


async def four_in_a_leekha_room(manager: RoomManager) -> tuple[Room, list[str]]:
    people = [await manager.store.create_player(n) for n in ("Ana", "Bo", "Cy", "Di")]
    room = await manager.create(
        game="leekha", options={"mode": "teams"}, public=True, host_id=people[0].id, host_name="Ana"
    )
    for p in people[1:3]:
        await room.call(partial(room.desk.join_seat, p.id, p.name, None, {}))
    await room.call(lambda: room.desk.watch(people[3].id, "Di"))
    return room, [p.id for p in people]


LOBBY_COMMANDS: dict[str, Command] = {
    "join_seat": lambda room, ids: room.desk.join_seat(ids[3], "Di", None, {}),
    "watch": lambda room, ids: room.desk.watch(ids[2], "Cy"),
    "leave": lambda room, ids: room.desk.leave(ids[0]),
    "remove_player": lambda room, ids: room.desk.remove_player(ids[0], ids[2]),
    "configure": lambda room, ids: room.desk.configure(ids[0], {"limit": 51}, False),
    "seat_bot": lambda room, ids: room.desk.seat_bot(ids[0], None),
    "assign_teams": lambda room, ids: room.desk.assign_teams(ids[0], [[ids[0], ids[1]], [ids[2], ids[3]]]),
}


def lobby_shape(room: Room) -> dict[str, Any]:
    lobby = room.lobby
    return {
        "members": {p: (m.role, m.seat, dict(m.prefs), m.bot) for p, m in lobby.members.items()},
        "options": lobby.options,
        "public": lobby.public,
        "host": lobby.host_id,
        "status": lobby.status,
    }


async def stored_shape(manager: RoomManager, room: Room) -> dict[str, Any]:
    rec = await manager.store.get_room(room.code)
    assert rec is not None
    members = {m.player_id: (m.role, m.seat) for m in await manager.store.list_members(room.code)}
    return {"members": members, "options": rec.options, "public": rec.public, "host": rec.host_id}


@pytest.mark.parametrize("name", sorted(LOBBY_COMMANDS))
async def test_a_refused_write_leaves_the_lobby_as_it_was_and_the_command_works_next_time(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    room, ids = await four_in_a_leekha_room(manager)
    if name == "assign_teams":
        await room.call(lambda: room.desk.join_seat(ids[3], "Di", None, {}))
    command = LOBBY_COMMANDS[name]
    before, stored = lobby_shape(room), await stored_shape(manager, room)
    fail_once(monkeypatch, manager.store, "write_lobby")
    with pytest.raises(RoomError) as info:
        await room.call(lambda: command(room, ids))
    assert (info.value.code, info.value.status) == ("SERVER_ERROR", 503)
    assert lobby_shape(room) == before and await stored_shape(manager, room) == stored

    await room.call(lambda: command(room, ids))
    assert lobby_shape(room) != before
    assert await stored_shape(manager, room) != stored


async def test_a_refused_start_leaves_the_room_in_its_lobby_and_the_next_start_works(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, ids = await four_in_a_leekha_room(manager)
    await room.call(lambda: room.desk.join_seat(ids[3], "Di", None, {}))
    before = lobby_shape(room)
    fail_once(monkeypatch, manager.store, "start_game")
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.start_game(ids[0]))
    assert info.value.code == "SERVER_ERROR"
    assert lobby_shape(room) == before and room.game is None
    rec = await manager.store.get_room(room.code)
    assert rec is not None and rec.status == "lobby"

    await room.call(lambda: room.desk.start_game(ids[0]))
    assert room.status == "playing" and room.game is not None


async def test_a_refused_connect_leaves_no_member_behind(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _ = await four_in_a_leekha_room(manager)
    eve = await manager.store.create_player("Eve")
    peer = FakePeer(eve.id)
    fail_once(monkeypatch, manager.store, "write_lobby")
    with pytest.raises(RoomError):
        await room.call(lambda: room.connect(peer, "Eve"))
    assert eve.id not in room.members and peer not in room.viewers
    await room.call(lambda: room.connect(peer, "Eve"))
    assert room.members[eve.id].connections == 1


async def test_an_early_end_the_log_refuses_is_refused_and_the_match_goes_on(
    manager: RoomManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, ids = await four_in_a_leekha_room(manager)
    await room.call(lambda: room.desk.join_seat(ids[3], "Di", None, {}))
    await room.call(lambda: room.desk.start_game(ids[0]))
    assert room.game is not None
    decided = early_end_table()  # Bo has lost whatever happens (the engine's scenario 29)
    room.game.state = room.game.committed = decided
    fail_once(monkeypatch, manager.event_log, "append")
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.end_match(ids[0]))
    assert info.value.code == "SERVER_ERROR", "the host hears of the refusal, not of an end that was lost"
    assert room.status == "playing" and not room.engine.is_over(room.game.state)
    assert "end" not in await logged(manager, room)

    await room.call(lambda: room.desk.end_match(ids[0]))
    await settle(room)
    assert room.status == "finished"
    assert (await logged(manager, room))[-1] == "end"
