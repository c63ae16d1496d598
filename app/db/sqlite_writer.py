"""The event log's SQLite writer: one thread of its own, with its own ``sqlite3`` connection.

A batch costs the event loop one hand-off each way: the loop puts it on a queue, the thread
builds the rows, runs one ``executemany`` INSERT (and the clock UPDATE) and COMMIT, then wakes
the loop with one ``call_soon_threadsafe``. ``sqlite3`` lets go of the GIL while SQLite works,
so the loop keeps running meanwhile.

The thread runs as ``SCHED_BATCH`` (Linux): a job handed to it then does not preempt the event loop
when both share a core (a one-core VPS, or the benchmarks' pinned server); it runs when the loop
waits for I/O or its time slice ends, and the loop is not cut off halfway through a turn only to
wait for the GIL the loop still holds. ``bench.paired`` (pure, two servers on one core, 2026-12-07):
0.994 of the CPU per action at 600 actions/s each (five pairs, p50 lower in all five) and 0.983 at
750 each (three pairs).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from .event_rows import Batch, Clocks, event_rows, insert_sql, raise_clock_sql
from .store import SQLITE_PRAGMAS

_INSERT = insert_sql(["?"] * 12)
_RAISE_CLOCK = raise_clock_sql(game="?1", at="?2", fence="?3")

# (the batch, its clock checkpoints, the future the loop awaits); None asks the thread to end.
_Job = tuple[Batch, Clocks, "asyncio.Future[None]"]


class SqliteWriter:
    """The :class:`~app.db.event_rows.LogWriter` of a SQLite file.

    Counters (for tests and benchmarks): ``handoffs`` (jobs given to the thread), ``wakeups``
    (times the thread woke the loop), ``transactions`` (committed).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.transactions = 0
        self.handoffs = 0
        self.wakeups = 0
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()  # the running thread's
        self._thread: threading.Thread | None = None
        self._closed: asyncio.Future[None] | None = None

    @property
    def thread(self) -> threading.Thread | None:
        """The thread that writes, once the first batch started it (None after :meth:`close`)."""
        return self._thread

    async def write(self, batch: Batch, clocks: Clocks) -> None:
        loop = asyncio.get_running_loop()
        if self._thread is None:
            self._closed = loop.create_future()
            self._jobs = queue.SimpleQueue()  # a thread still finishing after close() keeps its own
            self._thread = threading.Thread(
                target=self._serve,
                args=(loop, self._jobs, self._closed),
                name="bordet-event-log-sqlite",
                daemon=True,
            )
            self._thread.start()
        done: asyncio.Future[None] = loop.create_future()
        self.handoffs += 1
        self._jobs.put((batch, clocks, done))
        await done

    async def close(self) -> None:
        if self._thread is None or self._closed is None:
            return
        closed, self._thread, self._closed = self._closed, None, None
        self._jobs.put(None)  # after any job in flight: the thread finishes that one first
        await closed

    # the thread --------------------------------------------------------------

    def _serve(
        self,
        loop: asyncio.AbstractEventLoop,
        jobs: queue.SimpleQueue[_Job | None],
        closed: asyncio.Future[None],
    ) -> None:
        conn: sqlite3.Connection | None = None
        with contextlib.suppress(AttributeError, OSError):  # not Linux: the thread stays as it is
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))  # 0: this thread
        try:
            while (job := jobs.get()) is not None:
                batch, clocks, done = job
                error: BaseException | None = None
                try:
                    if conn is None:  # opened on first use, and again after a failed open
                        conn = self._connect()
                    self._transaction(conn, batch, clocks)
                    self.transactions += 1
                except Exception as exc:
                    # IntegrityError, OperationalError, ... by the driver error's class, as the
                    # engine raises them (StatementError for a value SQLite cannot take).
                    error = DBAPIError.instance(_INSERT, None, exc, sqlite3.Error)
                self._wake(loop, done, error)
        finally:
            if conn is not None:
                conn.close()
            self._wake(loop, closed, None)

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: the transaction is exactly the BEGIN ... COMMIT below.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        for pragma in SQLITE_PRAGMAS:
            conn.execute(pragma)
        return conn

    @staticmethod
    def _transaction(conn: sqlite3.Connection, batch: Batch, clocks: Clocks) -> None:
        rows = event_rows(batch)
        # IMMEDIATE: the write lock up front (waiting out busy_timeout), never a failed upgrade.
        conn.execute("BEGIN IMMEDIATE")
        try:
            if rows:
                conn.executemany(_INSERT, rows)
            if clocks:
                conn.executemany(_RAISE_CLOCK, clocks)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _wake(
        self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[None], error: BaseException | None
    ) -> None:
        self.wakeups += 1
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
            loop.call_soon_threadsafe(_settle, future, error)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():  # its awaiter was cancelled
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


__all__ = ["SqliteWriter"]
