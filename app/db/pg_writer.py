"""The event log's PostgreSQL writer: one asyncpg connection of its own, outside SQLAlchemy.

A batch is one transaction: ``executemany`` of a prepared INSERT (asyncpg pipelines the rows in
C), and the clock UPDATE when there are checkpoints to write. The connection opens on first use
with the keywords the app's engine connects with (:func:`app.db.store.pg_connect_kwargs`), and
again after it dropped.
"""

from __future__ import annotations

from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from .event_rows import Batch, Clocks, as_db_error, event_rows, insert_sql, raise_clock_sql

_INSERT = insert_sql([f"${i}" for i in range(1, 13)])
_RAISE_CLOCK = raise_clock_sql(game="$1", at="$2", fence="$3::bigint", lock=" FOR SHARE")

#: Seconds a graceful close may take before the connection is simply cut.
_CLOSE_TIMEOUT_S = 5.0


class PgWriter:
    """The :class:`~app.db.event_rows.LogWriter` of a PostgreSQL database."""

    def __init__(self, connect_kwargs: dict[str, Any]) -> None:
        self._connect_kwargs = connect_kwargs
        self._conn: asyncpg.Connection | None = None
        self.transactions = 0
        self.connects = 0

    async def write(self, batch: Batch, clocks: Clocks) -> None:
        try:
            conn = await self._connection()
            rows = event_rows(batch)
            if rows and clocks:
                async with conn.transaction():
                    await conn.executemany(_INSERT, rows)
                    await conn.executemany(_RAISE_CLOCK, clocks)
            else:
                # One statement: asyncpg's executemany is its own transaction already (one Sync
                # after the last row: all or nothing, committed when it returns), one round trip.
                statement, args = (_INSERT, rows) if rows else (_RAISE_CLOCK, clocks)
                await conn.executemany(statement, args)
        except Exception as exc:
            conn = self._conn
            broken = conn is None or conn.is_closed() or conn.is_in_transaction()
            if broken:  # dropped (or cut mid-batch): the next write connects again
                self._drop()
                cls: type[DBAPIError] = OperationalError
            elif isinstance(exc, asyncpg.IntegrityConstraintViolationError):
                cls = IntegrityError
            else:  # refused by the server (e.g. a stale owner), or a value asyncpg cannot send
                cls = DBAPIError
            raise as_db_error(cls, _INSERT, exc) from exc
        self.transactions += 1

    @property
    def server_pid(self) -> int | None:
        """The PostgreSQL backend serving the writer's connection (None while it has none)."""
        conn = self._conn
        return None if conn is None or conn.is_closed() else int(conn.get_server_pid())

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None or conn.is_closed():
            return
        if conn.is_in_transaction():  # cancelled mid-batch: nothing of it is to be kept
            conn.terminate()
            return
        try:
            await conn.close(timeout=_CLOSE_TIMEOUT_S)
        except Exception:
            conn.terminate()

    async def _connection(self) -> asyncpg.Connection:
        if self._conn is not None and self._conn.is_closed():
            self._conn = None
        if self._conn is None:
            self._conn = await asyncpg.connect(**self._connect_kwargs)
            self.connects += 1
        return self._conn

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()


__all__ = ["PgWriter"]
