"""Round trips through :class:`Store`: players, server keys, rooms, members, games."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.exc import IntegrityError

from app.db import CodeTaken, GameRec, MemberRec, NotFound, PlayerRec, RoomRec, SeatTaken, Store


async def test_players(store: Store) -> None:
    alice = await store.create_player("Alice")
    assert isinstance(alice, PlayerRec)
    assert len(alice.id) == 32 and int(alice.id, 16) >= 0
    assert await store.get_player(alice.id) == alice
    assert await store.get_player("0" * 32) is None
    bob = await store.create_player("Bob")
    assert bob.id != alice.id


async def test_get_or_create_key(store: Store) -> None:
    calls = itertools.count()

    def factory() -> str:
        return f"secret-{next(calls)}"

    first = await store.get_or_create_key("token-secret", factory)
    assert first == "secret-0"
    assert await store.get_or_create_key("token-secret", factory) == "secret-0"
    assert next(calls) == 1  # the factory ran once
    assert await store.get_or_create_key("other", lambda: "x") == "x"


async def test_get_or_create_key_first_writer_wins(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer stores the key between our read and our insert: we return theirs."""
    assert await store.get_or_create_key("k", lambda: "theirs") == "theirs"
    real_get_key = store.get_key
    reads: list[str] = []

    async def stale_first_read(name: str) -> str | None:
        reads.append(name)
        return None if len(reads) == 1 else await real_get_key(name)

    monkeypatch.setattr(store, "get_key", stale_first_read)
    assert await store.get_or_create_key("k", lambda: "ours") == "theirs"
    assert len(reads) == 2


async def test_rooms(store: Store) -> None:
    host = await store.create_player("Host")
    before = datetime.now(UTC) - timedelta(seconds=5)
    room = await store.create_room("ABCD", "slap", {"target": 3}, True, host.id)
    assert room == RoomRec(
        code="ABCD",
        game="slap",
        options={"target": 3},
        public=True,
        host_id=host.id,
        status="lobby",
        created_at=room.created_at,
    )
    assert room.created_at.tzinfo is not None and room.created_at >= before
    got = await store.get_room("ABCD")
    assert got is not None
    assert got.created_at == room.created_at
    assert got == room
    assert await store.get_room("NOPE") is None

    with pytest.raises(CodeTaken):
        await store.create_room("ABCD", "rummy", {}, False, host.id)
    assert (await store.get_room("ABCD")) == room  # untouched

    # only the given fields change
    updated = await store.update_room("ABCD", status="playing")
    assert (updated.status, updated.options, updated.public) == ("playing", {"target": 3}, True)
    updated = await store.update_room("ABCD", options={"target": 5}, public=False)
    assert (updated.status, updated.options, updated.public) == ("playing", {"target": 5}, False)
    assert await store.get_room("ABCD") == updated
    with pytest.raises(NotFound):
        await store.update_room("NOPE", status="finished")


async def test_room_host_must_exist(store: Store) -> None:
    with pytest.raises(IntegrityError):
        await store.create_room("ZZZZ", "slap", {}, True, "f" * 32)


async def test_list_public_rooms_and_rooms_in_status(store: Store) -> None:
    host = await store.create_player("Host")
    await store.create_room("PUB1", "slap", {}, True, host.id)
    await store.create_room("PUB2", "rummy", {}, True, host.id)
    await store.create_room("PRIV", "slap", {}, False, host.id)
    await store.create_room("PLAY", "uffda", {}, True, host.id)
    await store.update_room("PLAY", status="playing")

    lobby = await store.list_public_rooms()
    assert {r.code for r in lobby} == {"PUB1", "PUB2"}
    assert all(r.public and r.status == "lobby" for r in lobby)
    assert [r.code for r in await store.list_public_rooms(status="playing")] == ["PLAY"]
    assert len(await store.list_public_rooms(limit=1)) == 1

    assert {r.code for r in await store.rooms_in_status("lobby")} == {"PUB1", "PUB2", "PRIV"}
    assert [r.code for r in await store.rooms_in_status("playing")] == ["PLAY"]
    assert await store.rooms_in_status("finished") == []


async def test_members(store: Store) -> None:
    host = await store.create_player("Host")
    zed = await store.create_player("Zed")
    amy = await store.create_player("Amy")
    spec_b = await store.create_player("Bea")
    spec_a = await store.create_player("Al")
    await store.create_room("ROOM", "leekha", {}, True, host.id)

    await store.put_member("ROOM", host.id, "seat", 2, {"color": "red"})
    await store.put_member("ROOM", zed.id, "seat", 0, {})
    await store.put_member("ROOM", spec_b.id, "spectator", None, {})
    await store.put_member("ROOM", spec_a.id, "spectator", None, {})  # NULL seats never collide
    await store.put_member("ROOM", amy.id, "seat", 1, {"sort": "suit"})

    members = await store.list_members("ROOM")
    assert members == [
        MemberRec(zed.id, "Zed", "seat", 0, {}),
        MemberRec(amy.id, "Amy", "seat", 1, {"sort": "suit"}),
        MemberRec(host.id, "Host", "seat", 2, {"color": "red"}),
        MemberRec(spec_a.id, "Al", "spectator", None, {}),
        MemberRec(spec_b.id, "Bea", "spectator", None, {}),
    ]

    # update in place: move Amy to seat 3 and change prefs
    await store.put_member("ROOM", amy.id, "seat", 3, {"sort": "rank"})
    # a seat already held by someone else
    with pytest.raises(SeatTaken):
        await store.put_member("ROOM", spec_a.id, "seat", 0, {})
    with pytest.raises(SeatTaken):
        await store.put_member("ROOM", zed.id, "seat", 3, {})
    # a seated player becomes a spectator
    await store.put_member("ROOM", host.id, "spectator", None, {"color": "red"})
    await store.remove_member("ROOM", spec_b.id)
    await store.remove_member("ROOM", spec_b.id)  # removing twice is harmless

    assert await store.list_members("ROOM") == [
        MemberRec(zed.id, "Zed", "seat", 0, {}),
        MemberRec(amy.id, "Amy", "seat", 3, {"sort": "rank"}),
        MemberRec(spec_a.id, "Al", "spectator", None, {}),
        MemberRec(host.id, "Host", "spectator", None, {"color": "red"}),
    ]
    assert await store.list_members("NOPE") == []


async def test_members_are_per_room(store: Store) -> None:
    host = await store.create_player("Host")
    await store.create_room("AAAA", "slap", {}, True, host.id)
    await store.create_room("BBBB", "slap", {}, True, host.id)
    await store.put_member("AAAA", host.id, "seat", 0, {})
    await store.put_member("BBBB", host.id, "seat", 0, {})  # same seat number, other room
    assert [m.seat for m in await store.list_members("AAAA")] == [0]
    assert [m.seat for m in await store.list_members("BBBB")] == [0]


async def test_member_needs_existing_player_and_valid_role(store: Store) -> None:
    host = await store.create_player("Host")
    await store.create_room("ROOM", "slap", {}, True, host.id)
    with pytest.raises(IntegrityError):
        await store.put_member("ROOM", "e" * 32, "seat", 0, {})  # foreign keys are enforced
    with pytest.raises(IntegrityError):
        await store.put_member("ROOM", host.id, "king", None, {})


async def test_games(store: Store) -> None:
    host = await store.create_player("Host")
    other = await store.create_player("Other")
    await store.create_room("GAME", "rummy", {"turn_ms": 120_000}, True, host.id)
    seats = [
        {"player_id": host.id, "name": "Host", "prefs": {}},
        {"player_id": other.id, "name": "Other", "prefs": {"sort": "suit"}},
    ]
    assert await store.latest_game("GAME") is None

    first = await store.create_game("GAME", "rummy", {"turn_ms": 120_000}, seats, "s33d", "h4sh", 1234)
    assert first == GameRec(
        id=first.id,
        room_code="GAME",
        engine="rummy",
        options={"turn_ms": 120_000},
        seats=seats,
        seed="s33d",
        seed_hash="h4sh",
        status="running",
        result=None,
        started_at=1234,
    )
    assert await store.get_game(first.id) == first
    assert await store.get_game(first.id + 1000) is None
    assert await store.latest_game("GAME") == first
    assert await store.unfinished_games() == [first]

    result = {"winner": 1, "scores": [10, 42], "finished": True}
    finished = await store.finish_game(first.id, result)
    assert (finished.status, finished.result) == ("finished", result)
    assert await store.get_game(first.id) == finished
    assert await store.unfinished_games() == []
    with pytest.raises(NotFound):
        await store.finish_game(first.id + 1000, {})

    big = 2**40  # room-clock ms need 64 bits
    second = await store.create_game("GAME", "rummy", {}, seats, "s2", "h2", big)
    assert second.id > first.id
    assert second.started_at == big
    assert await store.latest_game("GAME") == second
    assert await store.unfinished_games() == [second]


async def test_bot_players_are_marked_and_listed_as_bots(store: Store) -> None:
    host = await store.create_player("Ana")
    bot = await store.create_player("Ada (bot)", bot=True)
    assert bot.bot and not host.bot
    assert await store.get_player(bot.id) == bot
    await store.create_room("BOTS22", "slap", {}, True, host.id)
    await store.put_member("BOTS22", host.id, "seat", 0, {})
    await store.put_member("BOTS22", bot.id, "seat", 1, {})
    members = await store.list_members("BOTS22")
    assert [(m.name, m.bot) for m in members] == [("Ana", False), ("Ada (bot)", True)]
