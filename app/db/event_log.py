"""The durable, append-only game event log: group commit through a raw writer per database.

:class:`EventLog` queues appends and clock checkpoints from every room, and one background task
hands them in batches to the writer of the store's database (:mod:`app.db.sqlite_writer`: a
thread with its own ``sqlite3`` connection; :mod:`app.db.pg_writer`: an asyncpg connection of
its own). Neither goes through SQLAlchemy, so a batch costs the event loop next to nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Sequence

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from .event_rows import LogWriter, batch_rows
from .pg_writer import PgWriter
from .sqlite_writer import SqliteWriter
from .store import EventRec, StaleOwner, Store, pg_connect_kwargs, sqlite_file

log = logging.getLogger(__name__)

# (game id, its events, the caller's future, the writer's fence: see ``append``)
_Append = tuple[int, tuple[EventRec, ...], asyncio.Future[None], int | None]

#: How long a clock note waits for a batch of appends to carry it (and for other games' notes
#: to share its transaction) before it is written on its own.
CLOCK_NOTE_DELAY_S = 0.05

#: The least time from one transaction's start to the next's. An append that finds the log idle
#: that long is written at once; under load, what arrives meanwhile waits for the next transaction
#: instead of having one of its own. A transaction's fixed cost (the writer thread's hand-off and
#: wake-up, this task's rounds, SQLite's begin and commit) is paid per transaction, so the gap sets
#: how many rows share it. Measured with ``bench.paired`` (two servers on one core, 900 actions/s
#: each, three pairs, against 2 ms): 4 ms spends 6 % less CPU per action (0.935-0.940) for 1.3 ms
#: more at the median; 8 ms 11 % less (0.876-0.898) but 4 ms more at the median and a p99 near
#: 25 ms at 2,000 actions/s in ``bench.fanout``. Rows a transaction at 2,000 appends/s (``bench.event_log``
#: paced, 250 games): 4.7 with 2 ms, 9.1 with 4 ms, and the process's CPU per 1,000 appends 31 -> 21 ms.
COMMIT_GAP_S = 0.004

#: A game's pending clock note: (room-clock ms, the noting writer's fence or None).
_Clock = tuple[int, int | None]


class EventLog:
    """The durable, append-only game event log, with group commit.

    ``await log.append(game_id, events)`` returns once those rows are committed (the room
    awaits it before anyone sees the effect). One background writer drains everything
    queued, from every game, and writes it in one transaction with a single executemany
    insert, then resolves all the waiting callers: under load, many inputs share one commit.
    Transactions begin at least ``commit_gap`` apart (:data:`COMMIT_GAP_S`): an append to an
    idle log is written at once, and under load each commit carries more.

    Errors: when a batch hits an integrity error (e.g. a retried ``(game_id, seat, client_id)``)
    the appends of that batch are retried one transaction each, so only the offending append
    (and any later append of the same game in that batch, so a game's log never gets a gap)
    fails, with the ``IntegrityError``; any other database error fails the whole batch. The
    writer keeps running either way. ``seq`` numbers come from the caller, not the database.

    Room-clock checkpoints: :meth:`note_clock` records how far a game's room clock got, and
    the same writer stores it in ``games.clock_at`` (see there). Appends leave it alone: a
    reader takes the later of ``clock_at`` and the last logged ``at``, so the busy path pays
    nothing for checkpoints.

    The transactions themselves are the ``writer``'s (:func:`open_writer`): SQL of its own on
    the driver, no SQLAlchemy on the way; errors come out as SQLAlchemy's all the same.

    Counters: ``batches`` (committed transactions with events), ``rows``, ``appends``
    (committed), ``failed_appends``; ``clock_writes`` (committed transactions that carried
    clock notes), ``dropped_clock_notes`` (per game, lost to a failed write).
    """

    def __init__(
        self,
        store: Store,
        *,
        max_batch_rows: int = 5000,
        clock_note_delay: float = CLOCK_NOTE_DELAY_S,
        commit_gap: float = COMMIT_GAP_S,
    ) -> None:
        self.store = store
        self.writer: LogWriter = open_writer(store)
        self.max_batch_rows = max_batch_rows
        self.clock_note_delay = clock_note_delay
        self.commit_gap = commit_gap
        self._last_start = -commit_gap  # monotonic time the last transaction began
        self._pending: deque[_Append] = deque()
        # Clock notes not yet taken by the writer (highest ``at`` per game), and the monotonic
        # time by which they must be written (None when there are none).
        self._clocks: dict[int, _Clock] = {}
        self._clocks_due: float | None = None
        self._in_flight: list[_Append] = []
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.batches = 0
        self.rows = 0
        self.appends = 0
        self.failed_appends = 0
        self.clock_writes = 0
        self.dropped_clock_notes = 0

    @property
    def running(self) -> bool:
        """True while appends are accepted (started, not stopping, writer alive)."""
        return self._task is not None and not self._task.done() and not self._stopping

    async def start(self) -> None:
        """Start the background writer (idempotent)."""
        if self._task is not None and not self._task.done():
            if self._stopping:
                raise RuntimeError("EventLog is stopping")
            return
        if self._task is not None:  # a writer that died: whatever it left is failed, not resumed
            self._fail_leftovers(RuntimeError("EventLog writer stopped before these events were committed"))
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._run(), name="bordet-event-log")
        self._task.add_done_callback(self._writer_done)

    async def stop(self) -> None:
        """Write everything already queued (appends and clock notes), then stop the writer."""
        task = self._task
        if task is None:
            return
        self._stopping = True
        self._wakeup.set()
        try:
            if not task.done():
                await task
        finally:
            self._task = None

    async def append(self, game_id: int, events: Sequence[EventRec], fence: int | None = None) -> None:
        """Queue ``events`` of one game and return once they are committed (or raise the DB error).

        ``fence``: the writer's ownership number when several processes share the rooms
        (:mod:`app.cluster`); the database refuses the rows if the room has a newer owner."""
        if not self.running:
            raise RuntimeError("EventLog is not running (call start() first)")
        batch = tuple(events)
        if not batch:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((game_id, batch, future, fence))
        self._wakeup.set()
        await future

    def note_clock(self, game_id: int, at: int, fence: int | None = None) -> None:
        """Checkpoint: game ``game_id``'s room clock has reached ``at`` ms. Returns at once.

        ``fence``: as for :meth:`append`; the checkpoint is written only while the game's room
        still has that fence, so a process that lost the room never moves its clock on.

        Coalesced per game (only the highest ``at`` noted is kept until written). The writer
        stores it with the next batch of appends, or on its own within ``clock_note_delay``
        seconds; :meth:`stop` writes whatever is still pending. ``games.clock_at`` is only ever
        raised (an older note never lowers it). Nothing waits for the write: a failed one is
        logged and dropped, and the game's next note replaces it. Notes made while the log is
        not running are kept for the next :meth:`start`.
        """
        noted = self._clocks.get(game_id)
        if noted is not None and noted[0] >= at:
            return
        self._clocks[game_id] = (at, fence)
        if self._clocks_due is None:
            # The first note since the last write: the writer may be parked with no timeout.
            self._clocks_due = time.monotonic() + self.clock_note_delay
            self._wakeup.set()

    # writer ------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while True:
                await self._idle()
                while self._pending or self._clocks_ready():
                    await self._space_out()
                    self._in_flight = self._take() if self._pending else []
                    await self._write(self._in_flight, self._take_clocks())
                    self._in_flight = []
                if self._stopping:
                    return
        finally:  # also when cancelled: the writer's connection (or thread) is not left behind
            await self.writer.close()

    async def _idle(self) -> None:
        """Wait for an append or stop() to wake the writer, or for pending clock notes to fall due."""
        due = self._clocks_due
        if due is None:
            await self._wakeup.wait()  # nothing to write: parked, no polling
        elif (delay := due - time.monotonic()) > 0:
            try:
                async with asyncio.timeout(delay):
                    await self._wakeup.wait()
            except TimeoutError:
                pass
        self._wakeup.clear()

    async def _space_out(self) -> None:
        """Begin a transaction no sooner than ``commit_gap`` after the last one began."""
        wait = self._last_start + self.commit_gap - time.monotonic()
        if wait > 0 and not self._stopping:
            await asyncio.sleep(wait)
        self._last_start = time.monotonic()

    def _clocks_ready(self) -> bool:
        due = self._clocks_due
        return due is not None and (self._stopping or time.monotonic() >= due)

    def _take_clocks(self) -> dict[int, _Clock]:
        clocks = self._clocks
        self._clocks = {}
        self._clocks_due = None
        return clocks

    def _writer_done(self, task: asyncio.Task[None]) -> None:
        # Cancelled (even before it ever ran) or crashed: never leave a caller waiting forever.
        if task is not self._task:
            return  # a newer writer took over; start() already cleaned up after this one
        if not task.cancelled() and task.exception() is not None:
            error: BaseException = RuntimeError("EventLog writer crashed")
            error.__cause__ = task.exception()
        else:
            error = RuntimeError("EventLog writer stopped before these events were committed")
        self._fail_leftovers(error)

    def _fail_leftovers(self, error: BaseException) -> None:
        for _, _, future, _ in [*self._in_flight, *self._pending]:
            _fail(future, error)
        self._in_flight = []
        self._pending.clear()

    def _take(self) -> list[_Append]:
        taken = [self._pending.popleft()]
        rows = len(taken[0][1])
        while self._pending and rows + len(self._pending[0][1]) <= self.max_batch_rows:
            item = self._pending.popleft()
            rows += len(item[1])
            taken.append(item)
        return taken

    async def _insert(self, appends: Sequence[_Append], clocks: dict[int, _Clock] | None = None) -> None:
        """One transaction: the appends' rows, then the noted games' ``clock_at`` raised."""
        batch = [(game_id, events, fence) for game_id, events, _, fence in appends]
        # In id order, so two transactions touching the same games lock them in one order.
        raise_to = [(game_id, at, fence) for game_id, (at, fence) in sorted((clocks or {}).items())]
        started = time.perf_counter()
        await self.writer.write(batch, raise_to)
        self.store.observe_commit("events", time.perf_counter() - started)
        if appends:
            self.batches += 1
            self.rows += batch_rows(batch)
            self.appends += len(appends)
        if clocks:
            self.clock_writes += 1

    async def _write(self, appends: list[_Append], clocks: dict[int, _Clock]) -> None:
        if not clocks:
            await self._write_appends(appends)
            return
        try:
            await self._insert(appends, clocks)
        except Exception as exc:
            if appends:
                # A clock note never fails an append: the appends go again without the notes
                # (sorting out which of them failed), then the notes get one try on their own.
                await self._write_appends(appends)
                await self._write_clocks(clocks)
            else:
                self._drop_clocks(clocks, exc)
        else:
            self._resolve(appends)

    async def _write_clocks(self, clocks: dict[int, _Clock]) -> None:
        try:
            await self._insert([], clocks)
        except Exception as exc:
            self._drop_clocks(clocks, exc)

    def _drop_clocks(self, clocks: dict[int, _Clock], error: BaseException) -> None:
        # Dropped, not re-queued: each room notes its clock again soon, and that note replaces this one.
        self.dropped_clock_notes += len(clocks)
        log.warning("room-clock checkpoint of %d game(s) not written: %r", len(clocks), error)

    async def _write_appends(self, appends: list[_Append]) -> None:
        try:
            await self._insert(appends)
        except DBAPIError as exc:
            if len(appends) > 1 and (isinstance(exc, IntegrityError) or is_stale_owner(exc)):
                await self._write_one_by_one(appends)
            else:
                self._fail_all(appends, exc)
        except Exception as exc:
            self._fail_all(appends, exc)
        else:
            self._resolve(appends)

    @staticmethod
    def _resolve(appends: Sequence[_Append]) -> None:
        for _, _, future, _ in appends:
            if not future.done():
                future.set_result(None)

    async def _write_one_by_one(self, appends: list[_Append]) -> None:
        failed: dict[int, BaseException] = {}
        for item in appends:
            game_id, _, future, _ = item
            if game_id in failed:
                self._fail_all([item], failed[game_id])
                continue
            try:
                await self._insert([item])
            except Exception as exc:
                failed[game_id] = exc
                self._fail_all([item], exc)
            else:
                if not future.done():
                    future.set_result(None)

    def _fail_all(self, appends: Sequence[_Append], error: BaseException) -> None:
        self.failed_appends += len(appends)
        for _, _, future, _ in appends:
            _fail(future, error)


STALE_OWNER = "BF001"
"""SQLSTATE of rows written under a fence their room no longer has (migration 0008_redis)."""


def is_stale_owner(exc: BaseException) -> bool:
    """The database refused rows of a process that lost their room to another (not the batch as
    such: the other appends of the batch go again one by one). ``exc`` as SQLAlchemy raises it,
    or the driver's own error (asyncpg's carries the SQLSTATE too), or a lobby write's refusal
    (:func:`app.db.store.hold_fence`)."""
    if isinstance(exc, StaleOwner):
        return True
    driver_error = exc.orig if isinstance(exc, DBAPIError) else exc
    return getattr(driver_error, "sqlstate", None) == STALE_OWNER


def _fail(future: asyncio.Future[None], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


def open_writer(store: Store) -> LogWriter:
    """The raw writer of ``store``'s database (it connects on its first write)."""
    if store.dialect == "postgresql":
        return PgWriter(pg_connect_kwargs(store.url))
    path = sqlite_file(make_url(store.url))
    if store.dialect == "sqlite" and path is not None:
        return SqliteWriter(path)
    # An in-memory SQLite database is one per connection: the log's own would be another one.
    raise ValueError(f"the event log needs PostgreSQL or a SQLite file, not {store.url!r}")


__all__ = ["CLOCK_NOTE_DELAY_S", "STALE_OWNER", "EventLog", "is_stale_owner", "open_writer"]
