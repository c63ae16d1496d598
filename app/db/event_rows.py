"""What the event log's raw writers share: the rows, the SQL per dialect, the driver errors mapped.

The writers (:mod:`app.db.sqlite_writer`, :mod:`app.db.pg_writer`) talk to their driver directly,
outside SQLAlchemy, so a batch costs the event loop no statement compilation. What they store
must still read back through the models exactly as before: JSON columns get the text the
engine's ``json_serializer`` gives (:func:`app.db.store.json_text`), Python None is SQL NULL
(``NullableJSON``), and errors are raised as SQLAlchemy's (``IntegrityError`` for a constraint,
with the driver's error as ``orig``), which the log and its callers already understand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy.exc import DBAPIError

from .store import EventRec, json_text

#: One append as a writer gets it: (game id, its events, the writer's fence or None).
Batch = Sequence[tuple[int, Sequence[EventRec], int | None]]

#: Clock checkpoints as a writer gets them, in game id order: (game id, room-clock ms, fence or None).
Clocks = Sequence[tuple[int, int, int | None]]

Row = tuple[Any, ...]

_COLUMNS = (
    "game_id",
    "seq",
    "kind",
    "seat",
    "action",
    "at",
    "rtt",
    "client_id",
    "timing",
    "rulings",
    "actor",
    "fence",
)


def insert_sql(marks: Sequence[str]) -> str:
    """The one INSERT of a batch, with the driver's parameter marks (one per column)."""
    return f"INSERT INTO game_events ({', '.join(_COLUMNS)}) VALUES ({', '.join(marks)})"


def raise_clock_sql(game: str, at: str, fence: str, lock: str = "") -> str:
    """Raise ``games.clock_at``, never lower it, and only while the game's room still has the
    noting writer's fence (a NULL fence, one process, is not checked).

    The conditions sit in WHERE (not a CASE in SET) so rows that would not change stay unwritten:
    no dead row versions on PostgreSQL. ``lock`` takes the room row there as the fence trigger
    does (``FOR SHARE``), so a takeover's raise of the fence and a clock write go one after the other.
    """
    room_fence = f"SELECT r.fence FROM rooms r WHERE r.code = games.room_code{lock}"
    return (
        f"UPDATE games SET clock_at = {at} WHERE id = {game} AND (clock_at IS NULL OR clock_at < {at}) "
        f"AND ({fence} IS NULL OR {fence} = ({room_fence}))"
    )


def _json(value: Any) -> str | None:
    return None if value is None else json_text(value)


def event_rows(batch: Batch) -> list[Row]:
    """The rows of a batch, in :func:`insert_sql`'s column order."""
    return [
        (
            game_id,
            e.seq,
            e.kind,
            e.seat,
            _json(e.action),
            e.at,
            e.rtt,
            e.client_id,
            _json(e.timing),
            _json(e.rulings),
            e.actor,
            fence,
        )
        for game_id, events, fence in batch
        for e in events
    ]


def batch_rows(batch: Batch) -> int:
    return sum(len(events) for _, events, _ in batch)


def as_db_error(cls: type[DBAPIError], statement: str, exc: BaseException) -> DBAPIError:
    """The driver's ``exc`` raised as SQLAlchemy's ``cls``, the driver's error kept as ``orig``."""
    error = cls(statement, None, exc)  # any driver error: SQLAlchemy keeps it as ``orig`` as it is
    error.__cause__ = exc
    return error


class LogWriter(Protocol):
    """Writes one transaction of the event log: a batch's rows, then clock checkpoints."""

    #: Committed transactions (with rows, clock checkpoints or both).
    transactions: int

    async def write(self, batch: Batch, clocks: Clocks) -> None:
        """Commit ``batch`` and ``clocks`` in one transaction, or raise (a ``DBAPIError``
        for what the database refused) with nothing of it written."""

    async def close(self) -> None:
        """Let go of the connection; the next :meth:`write` opens a new one."""


__all__ = [
    "Batch",
    "Clocks",
    "LogWriter",
    "Row",
    "as_db_error",
    "batch_rows",
    "event_rows",
    "insert_sql",
    "raise_clock_sql",
]
