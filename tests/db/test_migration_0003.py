"""Migration 0003 carries the server's ``_timing`` / ``_rulings`` out of logged actions and back."""

from __future__ import annotations

import asyncio
from typing import Any

import sqlalchemy as sa

from app.db import EventRec, Store
from app.db.store import create_engine, downgrade_sync, migrate_sync

JSON = sa.JSON(none_as_null=True)
players = sa.table("players", sa.column("id"), sa.column("name"), sa.column("created_at"), sa.column("bot"))
rooms = sa.table(
    "rooms",
    sa.column("code"),
    sa.column("game"),
    sa.column("options", JSON),
    sa.column("public"),
    sa.column("host_id"),
    sa.column("status"),
    sa.column("created_at"),
)
games = sa.table(
    "games",
    sa.column("id"),
    sa.column("room_code"),
    sa.column("engine"),
    sa.column("options", JSON),
    sa.column("seats", JSON),
    sa.column("seed"),
    sa.column("seed_hash"),
    sa.column("status"),
    sa.column("started_at"),
    sa.column("created_at"),
)
events_0002 = sa.table(
    "game_events",
    sa.column("game_id"),
    sa.column("seq"),
    sa.column("kind"),
    sa.column("seat"),
    sa.column("action", JSON),
    sa.column("at"),
    sa.column("rtt"),
    sa.column("client_id"),
)
events_0003 = sa.table(
    "game_events",
    sa.column("game_id"),
    sa.column("seq"),
    sa.column("kind"),
    sa.column("action", JSON),
    sa.column("timing", JSON),
    sa.column("rulings", JSON),
)

TIMING = {"links": [None, {"rtt": 40, "jitter": 3, "sent": {"flip:3": 1010}}]}
TIMING_2 = {"links": [{"rtt": 25, "jitter": 0, "sent": {"flip:4": 2000}}, None]}
RULINGS: list[dict[str, Any]] = [{"race": "flip:4", "winner": 0, "margin": 12}]
SAY = "my_timing, _rulings"
TICK_RULINGS: list[dict[str, Any]] = [{"race": "flip:4", "expired": True}, {"race": "flip:5", "winner": None}]

# (kind, seat, action as 0002 logged it) -> (action, timing, rulings) after 0003.
SHAPES: list[tuple[tuple[str, int | None, Any], tuple[Any, Any, Any]]] = [
    (
        ("move", 1, {"type": "slap", "flip": 3, "_timing": TIMING}),
        ({"type": "slap", "flip": 3}, TIMING, None),
    ),
    (
        ("move", 0, {"type": "slap", "flip": 4, "_timing": TIMING_2, "_rulings": RULINGS}),
        ({"type": "slap", "flip": 4}, TIMING_2, RULINGS),
    ),
    (("tick", None, {"_rulings": TICK_RULINGS}), (None, None, TICK_RULINGS)),
    (("move", 2, {"type": "play", "card": "7H"}), ({"type": "play", "card": "7H"}, None, None)),
    (("move", 3, {"type": "call", "_rulings": RULINGS}), ({"type": "call"}, None, RULINGS)),
    (("tick", None, None), (None, None, None)),
    (("end", None, None), (None, None, None)),
    # Looks like a server key to the SQL prefilter, but it is the player's text: left alone.
    (("move", 1, {"type": "say", "text": SAY}), ({"type": "say", "text": SAY}, None, None)),
]


async def _to(url: str, revision: str) -> None:
    await asyncio.to_thread(migrate_sync, url, revision)


async def _down(url: str, revision: str) -> None:
    await asyncio.to_thread(downgrade_sync, url, revision)


async def _seed_0002(url: str, logs: dict[int, list[tuple[str, int | None, Any]]]) -> None:
    """Rows as a 0002 server wrote them: one game per key of ``logs``, its events in seq order."""
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            now = sa.func.current_timestamp()
            await conn.execute(sa.insert(players).values(id="h" * 32, name="Host", created_at=now, bot=False))
            await conn.execute(
                sa.insert(rooms).values(
                    code="MIGR",
                    game="slap",
                    options={},
                    public=True,
                    host_id="h" * 32,
                    status="playing",
                    created_at=now,
                )
            )
            for game_id in logs:
                await conn.execute(
                    sa.insert(games).values(
                        id=game_id,
                        room_code="MIGR",
                        engine="slap",
                        options={},
                        seats=[],
                        seed="s",
                        seed_hash="h",
                        status="running",
                        started_at=0,
                        created_at=now,
                    )
                )
            rows = [
                {
                    "game_id": game_id,
                    "seq": seq,
                    "kind": kind,
                    "seat": seat,
                    "action": action,
                    "at": 1000 + seq,
                    "rtt": None,
                    "client_id": None,
                }
                for game_id, log in logs.items()
                for seq, (kind, seat, action) in enumerate(log, start=1)
            ]
            await conn.execute(sa.insert(events_0002), rows)
    finally:
        await engine.dispose()


async def _read(url: str, table: sa.TableClause) -> list[tuple[Any, ...]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            columns = [c for c in table.c if c.name not in ("seat", "at", "rtt", "client_id")]
            query = sa.select(*columns).order_by(table.c.game_id, table.c.seq)
            return [tuple(row) for row in await conn.execute(query)]
    finally:
        await engine.dispose()


def _ordered(value: Any) -> Any:
    """``value`` with every object as its list of items: key order counts in the comparison."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


async def test_upgrade_moves_timing_and_rulings_into_their_columns(db_url: str) -> None:
    await _to(db_url, "0002")
    await _seed_0002(db_url, {7: [before for before, _ in SHAPES]})

    await _to(db_url, "0003")

    after = await _read(db_url, events_0003)
    expected = [(7, seq, kind, *moved) for seq, ((kind, _, _), moved) in enumerate(SHAPES, start=1)]
    assert after == expected
    assert _ordered(after) == _ordered(expected)

    await _to(db_url, "head")  # today's store reads the rows (later migrations only add columns)
    store = Store(db_url)
    try:
        loaded = await store.load_events(7)
        game = await store.get_game(7)
    finally:
        await store.close()
    assert loaded[1] == EventRec(
        2, "move", 0, {"type": "slap", "flip": 4}, 1002, None, None, TIMING_2, RULINGS
    )
    assert loaded[2] == EventRec(3, "tick", None, None, 1003, timing=None, rulings=TICK_RULINGS)
    assert game is not None and game.clock_at is None  # no checkpoint was ever written


async def test_downgrade_restores_the_logged_actions(db_url: str) -> None:
    await _to(db_url, "0002")
    await _seed_0002(db_url, {7: [before for before, _ in SHAPES]})
    original = await _read(db_url, events_0002)

    await _to(db_url, "0003")
    await _down(db_url, "0002")

    restored = await _read(db_url, events_0002)
    assert restored == original
    assert _ordered(restored) == _ordered(original)  # server keys back after the player's, in order


async def test_every_row_is_carried_over_past_a_chunk(db_url: str) -> None:
    """More rows than the migration rewrites per round trip, spread over two games."""
    logs: dict[int, list[tuple[str, int | None, Any]]] = {
        1: [("move", n % 4, {"n": n, "_timing": {"links": [n]}}) for n in range(1200)],
        2: [("tick", None, {"_rulings": [{"n": n}]}) for n in range(900)],
    }
    await _to(db_url, "0002")
    await _seed_0002(db_url, logs)

    await _to(db_url, "0003")
    after = await _read(db_url, events_0003)
    assert after == [(1, n + 1, "move", {"n": n}, {"links": [n]}, None) for n in range(1200)] + [
        (2, n + 1, "tick", None, None, [{"n": n}]) for n in range(900)
    ]

    await _down(db_url, "0002")
    restored = await _read(db_url, events_0002)
    assert [row[3] for row in restored] == [action for log in logs.values() for _, _, action in log]
