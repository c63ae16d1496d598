"""The rows behind a room's life in memory, on SQLite and PostgreSQL: put away, touched, expired."""

from __future__ import annotations

from datetime import timedelta

from app.db import Store
from app.db.models import utcnow
from app.db.room_lifecycle import expire_lobbies, put_away, touch


async def test_lobbies_untouched_since_the_cutoff_expire_and_others_stay(store: Store) -> None:
    host = await store.create_player("Host")
    old, fresh = "OLDLOB", "NEWLOB"
    await store.create_room(old, "slap", {}, True, host.id)
    cutoff = utcnow()
    await store.create_room(fresh, "slap", {}, True, host.id)
    await store.create_room("PLAYIN", "slap", {}, True, host.id)
    await store.update_room("PLAYIN", status="playing")

    assert await expire_lobbies(store, cutoff) == 1
    assert (await store.get_room(old)).status == "expired"  # type: ignore[union-attr]
    assert (await store.get_room(fresh)).status == "lobby"  # type: ignore[union-attr]
    assert (await store.get_room("PLAYIN")).status == "playing"  # type: ignore[union-attr]


async def test_a_touched_lobby_counts_as_used_now(store: Store) -> None:
    host = await store.create_player("Host")
    await store.create_room("TOUCHD", "slap", {}, True, host.id)
    cutoff = utcnow() + timedelta(microseconds=1)
    await touch(store, ["TOUCHD"])
    assert await expire_lobbies(store, cutoff) == 0


async def test_putting_a_room_away_drops_its_spectators_but_not_its_host_or_seats(store: Store) -> None:
    host, guest, fan = [await store.create_player(n) for n in ("Host", "Guest", "Fan")]
    await store.create_room("AWAYRM", "slap", {}, True, host.id)
    await store.put_member("AWAYRM", host.id, "spectator", None, {})
    await store.put_member("AWAYRM", guest.id, "seat", 0, {})
    await store.put_member("AWAYRM", fan.id, "spectator", None, {})
    cutoff = utcnow()
    await put_away(store, "AWAYRM", host.id)
    assert {m.player_id for m in await store.list_members("AWAYRM")} == {host.id, guest.id}
    assert await expire_lobbies(store, cutoff) == 0  # put away just now: used until then
