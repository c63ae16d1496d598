"""The host's commands before and during a Leekha match: teams (teammates opposite) and the early end."""

from __future__ import annotations

from functools import partial

import pytest

from app.engines.leekha.state import Phase
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.replay import replay
from app.rooms.room import Room
from tests.engines.test_leekha import early_end_table
from tests.rooms.conftest import FakePeer, settle

NAMES = ("Ana", "Bo", "Cy", "Di")


async def leekha_room(manager: RoomManager, mode: str = "teams") -> tuple[Room, list[str]]:
    """Four people seated 0 to 3 in name order; Ana hosts."""
    people = [await manager.store.create_player(n) for n in NAMES]
    room = await manager.create(
        game="leekha", options={"mode": mode}, public=True, host_id=people[0].id, host_name="Ana"
    )
    for p in people[1:]:
        await room.call(partial(room.desk.join_seat, p.id, p.name, None, {}))
    return room, [p.id for p in people]


def seat_of(room: Room, player_id: str) -> int | None:
    return room.members[player_id].seat


async def test_the_host_assigns_teams_and_teammates_sit_opposite(manager: RoomManager) -> None:
    room, (ana, bo, cy, di) = await leekha_room(manager)
    await room.call(lambda: room.desk.assign_teams(ana, [[ana, bo], [cy, di]]))
    assert [seat_of(room, p) for p in (ana, bo, cy, di)] == [0, 2, 1, 3]
    stored = {m.player_id: m.seat for m in await manager.store.list_members(room.code)}
    assert [stored[p] for p in (ana, bo, cy, di)] == [0, 2, 1, 3]

    await room.call(lambda: room.desk.start_game(ana))
    assert room.game is not None
    names = [s["name"] for s in room.game.rec.seats]
    assert names == ["Ana", "Cy", "Bo", "Di"], "the match is played with the teams as assigned"


async def test_teams_can_be_assigned_again_before_the_match(manager: RoomManager) -> None:
    room, (ana, bo, cy, di) = await leekha_room(manager)
    await room.call(lambda: room.desk.assign_teams(ana, [[ana, bo], [cy, di]]))
    await room.call(lambda: room.desk.assign_teams(ana, [[di, ana], [bo, cy]]))
    assert [seat_of(room, p) for p in (di, ana, bo, cy)] == [0, 2, 1, 3]


async def test_a_non_host_cannot_assign_teams(manager: RoomManager) -> None:
    room, (ana, bo, cy, di) = await leekha_room(manager)
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.assign_teams(bo, [[bo, ana], [cy, di]]))
    assert (info.value.code, info.value.status) == ("NOT_HOST", 403)
    assert [seat_of(room, p) for p in (ana, bo, cy, di)] == [0, 1, 2, 3]


async def test_teams_are_only_for_the_two_against_two_mode(manager: RoomManager) -> None:
    room, (ana, bo, cy, di) = await leekha_room(manager, mode="ffa")
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.assign_teams(ana, [[ana, bo], [cy, di]]))
    assert info.value.code == "NOT_TEAM_GAME"


@pytest.mark.parametrize(
    "teams",
    [
        pytest.param(lambda a, b, c, d: [[a, b], [c]], id="a team of one"),
        pytest.param(lambda a, b, c, d: [[a, b], [c, c]], id="a player twice"),
        pytest.param(lambda a, b, c, d: [[a, b], [c, "stranger"]], id="someone not seated"),
        pytest.param(lambda a, b, c, d: [[a, b], [c, d], []], id="three teams"),
    ],
)
async def test_teams_must_name_every_seated_player_once(manager: RoomManager, teams: object) -> None:
    room, people = await leekha_room(manager)
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.assign_teams(people[0], teams(*people)))  # type: ignore[operator]
    assert (info.value.code, info.value.status) == ("BAD_TEAMS", 422)
    assert [seat_of(room, p) for p in people] == [0, 1, 2, 3]


async def test_teams_cannot_change_during_the_match(manager: RoomManager) -> None:
    room, (ana, bo, cy, di) = await leekha_room(manager)
    await room.call(lambda: room.desk.start_game(ana))
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.assign_teams(ana, [[ana, bo], [cy, di]]))
    assert info.value.code == "GAME_RUNNING"


async def test_only_the_host_ends_a_decided_match(manager: RoomManager) -> None:
    room, (ana, bo, *_) = await leekha_room(manager, mode="ffa")
    await room.call(lambda: room.desk.start_game(ana))
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.end_match(bo))
    assert (info.value.code, info.value.status) == ("NOT_HOST", 403)


async def test_an_undecided_match_cannot_be_ended_early(manager: RoomManager) -> None:
    room, (ana, *_) = await leekha_room(manager, mode="ffa")
    await room.call(lambda: room.desk.start_game(ana))
    with pytest.raises(RoomError) as info:
        await room.call(lambda: room.desk.end_match(ana))
    assert (info.value.code, info.value.status) == ("NOT_DECIDED", 409)
    assert room.status == "playing"


async def test_the_host_ends_a_decided_match_at_once_and_the_end_is_logged(manager: RoomManager) -> None:
    room, (ana, *_) = await leekha_room(manager, mode="ffa")
    await room.call(lambda: room.desk.start_game(ana))
    assert room.game is not None
    # A table where Bo has lost whatever happens (the engine's own scenario 29), as this match's state.
    decided = early_end_table()
    room.game.state = room.game.committed = decided
    await room.call(lambda: room.desk.end_match(ana))
    await settle(room)

    assert room.status == "finished"
    assert room.game.state.phase is Phase.MATCH_END
    assert room.game.rec.result is not None and room.game.rec.result["winners"] == [3]
    events = await manager.store.load_events(room.game.rec.id)
    assert events[-1].kind == "end" and events[-1].seat is None
    assert room.room_view()["match"]["seed"] is not None, "the seed is revealed as after any end"


async def test_a_refused_early_end_is_not_logged(manager: RoomManager) -> None:
    room, (ana, *_) = await leekha_room(manager, mode="ffa")
    await room.call(lambda: room.desk.start_game(ana))
    assert room.game is not None
    with pytest.raises(RoomError):
        await room.call(lambda: room.desk.end_match(ana))
    events = await manager.store.load_events(room.game.rec.id)
    assert events == [], "a refused early end is not logged"
    assert replay(room.game.rec, events) == room.game.state


async def test_a_failing_host_command_is_refused_and_the_rest_of_the_batch_still_runs(
    manager: RoomManager,
) -> None:
    room, (ana, *_) = await leekha_room(manager)
    peer = FakePeer(ana, 1000)
    await room.call(lambda: room.connect(peer, "Ana"))

    async def broken() -> None:
        raise RuntimeError("a bug")

    room.post_admin(peer, "h1", broken)
    room.post_admin(peer, "h2", lambda: room.desk.seat_bot(ana, None))  # queued in the same batch
    await settle(room)
    replies = {f["id"]: f for f in peer.drain() if f["type"] in ("ack", "reject")}
    assert replies["h1"]["type"] == "reject" and replies["h1"]["code"] == "SERVER_ERROR"
    assert replies["h2"]["type"] == "reject" and replies["h2"]["code"] == "ROOM_FULL"
