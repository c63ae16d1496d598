"""Alembic migrations build exactly the schema the models describe, on both backends."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from app.db import downgrade, migrate
from app.db.models import Base
from app.db.store import MIGRATIONS_DIR, create_engine

HEAD = "0008_redis"
TABLES = {"players", "server_keys", "rooms", "room_members", "games", "game_events", "game_seats"}


async def _inspect(url: str) -> tuple[set[str], list[Any], str | None]:
    """(table names, autogenerate diffs against the models, alembic revision)."""

    def run(conn: Connection) -> tuple[set[str], list[Any], str | None]:
        tables = set(inspect(conn).get_table_names())
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diffs = compare_metadata(context, Base.metadata)
        return tables, diffs, context.get_current_revision()

    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(run)
    finally:
        await engine.dispose()


async def test_upgrade_empty_database_matches_models(db_url: str) -> None:
    tables, _, revision = await _inspect(db_url)
    assert tables == set()
    assert revision is None

    await migrate(db_url)

    tables, diffs, revision = await _inspect(db_url)
    assert tables == TABLES | {"alembic_version"}
    assert diffs == []
    assert revision == HEAD


async def test_migrate_twice_is_a_no_op(migrated_url: str) -> None:
    await migrate(migrated_url)
    tables, diffs, revision = await _inspect(migrated_url)
    assert tables == TABLES | {"alembic_version"}
    assert diffs == []
    assert revision == HEAD


async def test_downgrade_to_base_then_upgrade_again(migrated_url: str) -> None:
    await downgrade(migrated_url, "base")
    tables, _, revision = await _inspect(migrated_url)
    assert tables <= {"alembic_version"}
    assert revision is None

    await migrate(migrated_url)
    tables, diffs, revision = await _inspect(migrated_url)
    assert tables == TABLES | {"alembic_version"}
    assert diffs == []
    assert revision == HEAD


async def test_alembic_cli_with_x_url(db_url: str) -> None:
    """``alembic -x url=... upgrade head`` from the repository root (what ``make run`` relies on)."""
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("alembic")),
        "-x",
        f"url={db_url}",
        "upgrade",
        "head",
        cwd=MIGRATIONS_DIR.parent,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await proc.communicate()
    assert proc.returncode == 0, output.decode()
    _, diffs, revision = await _inspect(db_url)
    assert diffs == []
    assert revision == HEAD


async def test_sqlite_pragmas(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pragmas.db'}"  # plain sqlite:// is mapped onto aiosqlite
    await migrate(url)
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            assert (await conn.execute(text("PRAGMA synchronous"))).scalar() == 1  # NORMAL
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1
    finally:
        await engine.dispose()
