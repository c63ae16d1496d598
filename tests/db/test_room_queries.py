"""The lobby's room queries read the rows: the paged public list and the rooms a player hosts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.db import Store
from app.db.models import Room
from app.db.room_queries import BadCursor, hosted_unfinished, open_rooms

T0 = datetime(2026, 12, 1, 12, 0, 0, 123456, tzinfo=UTC)


async def add_room(store: Store, code: str, host_id: str, at: datetime, public: bool = True) -> None:
    """A room row with a chosen creation time (Store.create_room stamps the current time)."""
    async with store.sessions.begin() as session:
        session.add(
            Room(
                code=code,
                game="slap",
                options={},
                public=public,
                host_id=host_id,
                status="lobby",
                created_at=at,
            )
        )


async def test_open_rooms_are_public_lobby_rooms_with_their_seated_count_newest_first(store: Store) -> None:
    host, guest = await store.create_player("Host"), await store.create_player("Guest")
    await add_room(store, "OLD", host.id, T0)
    await add_room(store, "NEW", host.id, T0 + timedelta(seconds=1))
    await add_room(store, "PRIV", host.id, T0 + timedelta(seconds=2), public=False)
    await add_room(store, "PLAY", host.id, T0 + timedelta(seconds=3))
    await store.update_room("PLAY", status="playing")
    await store.put_member("NEW", host.id, "seat", 0, {})
    await store.put_member("NEW", guest.id, "spectator", None, {})
    await store.put_member("OLD", host.id, "seat", 0, {})
    await store.put_member("OLD", guest.id, "seat", 1, {})

    page = await open_rooms(store, limit=50)
    assert [(r.code, r.players, r.status) for r in page.rooms] == [("NEW", 1, "lobby"), ("OLD", 2, "lobby")]
    assert page.rooms[1].created_at == T0
    assert page.next is None


async def test_open_rooms_page_by_cursor_without_repeats_or_gaps(store: Store) -> None:
    host = await store.create_player("Host")
    # Ties on created_at are ordered by code: the cursor carries both.
    times = {"A": 0, "B": 1, "C": 1, "D": 1, "E": 2, "F": 3, "G": 3}
    for code, second in times.items():
        await add_room(store, code, host.id, T0 + timedelta(seconds=second))

    seen, cursor, pages = [], None, 0
    while True:
        page = await open_rooms(store, limit=3, cursor=cursor)
        seen += [r.code for r in page.rooms]
        pages += 1
        if page.next is None:
            break
        cursor = page.next
    assert seen == ["G", "F", "E", "D", "C", "B", "A"]
    assert pages == 3


async def test_a_page_ending_on_the_last_room_has_no_next(store: Store) -> None:
    host = await store.create_player("Host")
    await add_room(store, "A", host.id, T0)
    await add_room(store, "B", host.id, T0 + timedelta(seconds=1))
    assert (await open_rooms(store, limit=2)).next is None


@pytest.mark.parametrize("cursor", ["", "not base64!", "bm90IGEgY3Vyc29y", "MTIzLmEvYg"])
async def test_a_cursor_the_list_did_not_make_is_refused(store: Store, cursor: str) -> None:
    with pytest.raises(BadCursor):
        await open_rooms(store, limit=3, cursor=cursor)


async def test_hosted_unfinished_counts_the_lobby_and_playing_rooms_a_host_is_still_in(store: Store) -> None:
    host, other = await store.create_player("Host"), await store.create_player("Other")
    for code in ("L1", "L2", "P1", "F1", "GONE"):
        await add_room(store, code, host.id, T0)
        if code != "GONE":  # the host left that one while it was empty
            await store.put_member(code, host.id, "seat", 0, {})
    await add_room(store, "X1", other.id, T0)
    await store.put_member("X1", other.id, "seat", 0, {})
    await store.put_member("X1", host.id, "seat", 1, {})  # a seat in another's room hosts nothing
    await store.update_room("P1", status="playing")
    await store.update_room("F1", status="finished")
    assert await hosted_unfinished(store, host.id) == 3
    assert await hosted_unfinished(store, other.id) == 1
    assert await hosted_unfinished(store, "0" * 32) == 0
