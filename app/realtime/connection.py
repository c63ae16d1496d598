"""One WebSocket connection: a send backlog bounded in bytes and in time, drained by its own writer.

The room never awaits a socket: it only puts frames on the backlog. A frame that would take
the backlog past its byte bound empties it instead and ``send`` says so; the room then sends
one snapshot in place of the lost frames, and closes a client that keeps overflowing
(``TOO_SLOW``). A write the client does not take within the write timeout (it stopped reading
and its receive window is full) ends the connection: the transport is aborted, so that what
one stuck client holds is at most the backlog bound plus the server's socket buffer, and its
seat shows as disconnected at once.

The backlog is written by the event loop's one flush callback (:mod:`app.realtime.write_soon`), each
frame the socket takes without waiting (nearly all: a task per frame cost about 5 µs of each frame's
7); under uvicorn, what is queued goes in one write straight to the transport
(:mod:`app.realtime.frame_writer`). Only a write that has to wait starts the writer task, and the
frames after it wait for it. So
the writer is a task only while a write waits: an idle connection holds no task, coroutine or
future of its own, only its ping timer (pings follow :mod:`app.realtime.ping_schedule`;
the room says whether a race may be judged with this connection, :meth:`Connection.set_racing`).

While a race may be judged with the connection, the writer notes the room-clock time each numbered
state frame was handed to the socket, so a reaction race knows when this player was actually sent
its stimulus (:meth:`Connection.written_at`). The connection also keeps its clock sync, and the
round trip its client cannot delay where the server has one (:mod:`app.realtime.round_trip`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import orjson
from starlette.websockets import WebSocket

from app.engines.race import Verified
from app.observability.metrics import IGNORED, ConnectionMetrics
from app.realtime import transport
from app.realtime.frame_writer import FrameWriter, frame_writer
from app.realtime.ping_schedule import PingSchedule
from app.realtime.round_trip import RoundTrip
from app.realtime.write_soon import WriteSoon, write_soon
from app.realtime.write_watch import WriteWatch, write_watch
from app.rooms.clocksync import ClockSync
from app.tasks import Signal, cancel_and_wait, run_eagerly

log = logging.getLogger(__name__)


class _Ping:
    """A server ping: stamped with the room time when the writer actually sends it."""

    __slots__ = ("fields", "id")

    def __init__(self, ping_id: int, fields: dict[str, object]) -> None:
        self.id, self.fields = ping_id, fields


_CLOSE = object()
_PING_BYTES = 96
"""What a queued ping counts against the backlog (its text is built when it is written)."""
_WRITTEN = 32
"""How many recent state frames' write times a connection remembers."""
MAX_PINGS = 16
"""Pings awaiting a pong that a connection remembers."""
_RUN_BYTES = 64 * 1024
"""What one direct write takes at most: the socket's buffer then pauses the protocol (flow control),
so a client that stopped reading holds about as much in the server as with a write per frame."""

_Item = tuple[str, int | None] | _Ping | object


def _cost(item: _Item) -> int:
    # Characters, not encoded bytes: frames are JSON, almost all ASCII, and counting them is free.
    return len(item[0]) if isinstance(item, tuple) else _PING_BYTES


class Connection:
    # Thousands of mostly idle connections: no per-instance dict, and nothing allocated up front
    # that an idle connection does not use (no writer task while there is nothing to write).
    __slots__ = (
        "_backlog",
        "_below_half",
        "_bytes",
        "_close",
        "_frames",
        "_half",
        "_head",
        "_high",
        "_limit",
        "_listed",
        "_metrics",
        "_next_ping",
        "_now",
        "_ping_gap",
        "_ping_id",
        "_ping_timer",
        "_racing",
        "_schedule",
        "_send_text",
        "_soon",
        "_watch",
        "_write_timeout",
        "_writer",
        "_written_at",
        "_written_seqs",
        "aborted",
        "closed",
        "pings",
        "player_id",
        "room_code",
        "round_trip",
        "sync",
        "ws",
    )

    def __init__(
        self,
        ws: WebSocket,
        player_id: str,
        now: Callable[[], int],
        *,
        room_code: str,
        backlog_bytes: int,
        write_timeout_s: float,
        metrics: ConnectionMetrics = IGNORED,
        round_trip: RoundTrip | None = None,
    ) -> None:
        self.ws = ws
        server_send = transport.server_send(ws)
        self._send_text: Callable[[str], Awaitable[None]] = (
            ws.send_text
            if server_send is None
            else lambda text: server_send({"type": "websocket.send", "text": text})
        )
        self._frames = frame_writer(server_send)
        self.round_trip = round_trip or RoundTrip()
        self._metrics = metrics
        self.player_id = player_id
        self.room_code = room_code
        self.sync = ClockSync()
        self.pings: dict[int, int] = {}
        """Server pings awaiting their pong: id -> room time sent (the pong's echo is not trusted)."""
        self.aborted = False
        """True once the connection was cut off because a write did not complete in time."""
        self._now = now
        # Recent state frames, oldest first, at most 2 x _WRITTEN: their seqs and the room times
        # they were written. Two lists of ints, not a list of pairs: a pair per frame written was
        # a tracked object for the collector's every young pass.
        self._written_seqs: list[int] = []
        self._written_at: list[int] = []
        self._backlog: list[_Item] = []
        self._head = 0
        """Index of the oldest item of ``_backlog`` not yet taken by the writer."""
        self._bytes = 0
        self._limit = backlog_bytes
        self._half = backlog_bytes // 2
        self._high = backlog_bytes * 3 // 4
        self._write_timeout = write_timeout_s
        self._below_half = Signal(True)
        """Set while the backlog is less than half full (or the connection is gone): see drained()."""
        self._writer: asyncio.Task[None] | None = None
        """The task writing the backlog, while it has something to write."""
        self._close: tuple[int, str] | None = None
        self._schedule: PingSchedule | None = None
        self._racing = False
        self._next_ping = 0.0
        self._ping_gap = 0.0
        """Seconds between the last ping and the next (the schedule doubles it on a steady link)."""
        self._ping_id = 0
        self._ping_timer: asyncio.TimerHandle | None = None
        self._watch: WriteWatch | None = None
        self._soon: WriteSoon | None = None
        self._listed = False
        """Waiting in the loop's write-soon list."""
        self.closed = Signal()

    @property
    def rtt(self) -> int | None:
        return self.sync.rtt

    @property
    def jitter(self) -> int | None:
        return self.sync.jitter

    @property
    def ping_gap(self) -> float:
        """Seconds from the latest ping to the next one, as planned (see the ping schedule)."""
        return self._ping_gap

    @property
    def verified(self) -> Verified | None:
        return self.round_trip.verified

    @property
    def unverifiable(self) -> bool:
        return self.round_trip.unverifiable

    def check_link(self) -> None:
        """With each clock-sync sample, the kernel's figure too (it moves with the link); a sample that
        disagreed with the estimate brings the next ping forward to the short interval."""
        self.round_trip.refresh()
        schedule = self._schedule
        if schedule is not None and self.sync.steady == 0:
            self._ping_gap = schedule.short_s
            self._plan_ping(min(self._next_ping, asyncio.get_running_loop().time() + schedule.short_s))

    def set_racing(self, racing: bool) -> None:
        """Whether a reaction race may be judged with this connection's link (the room decides).
        Becoming one pings at once, then from the short interval: the estimate may be old. No longer
        one, it forgets the write times it kept (only races read them)."""
        if racing == self._racing:
            return
        self._racing = racing
        if not racing:
            self._written_seqs.clear()
            self._written_at.clear()
        elif self._schedule is not None:
            self._ping_gap = self._schedule.short_s
            self._plan_ping(asyncio.get_running_loop().time())

    def written_at(self, seq: int) -> int | None:
        """Room time the first state frame numbered ``seq`` or later was written to the socket, while
        the connection is racing (:meth:`set_racing`): no other connection's times are kept.

        (Later, because frame ``seq`` may have been dropped by an overflow and its
        content reached the client in the reset snapshot that replaced it.)
        """
        for i, written_seq in enumerate(self._written_seqs):
            if written_seq >= seq:
                return self._written_at[i]
        return None

    def start(self) -> None:
        self._watch = write_watch()
        self._watch.join(self._write_timeout)
        self._soon = write_soon()

    def _kick(self) -> None:
        """Have the backlog written in the loop's next round, unless the writer is at it (or the
        connection is over)."""
        if self._writer is None and not self._listed and not self.closed.is_set():
            self._listed = True
            assert self._soon is not None, "start() first"
            self._soon.add(self)

    def flush(self) -> None:
        """The loop's flush: write the backlog, each frame the socket takes without waiting; a write
        that has to wait, and the close, are the writer task's."""
        self._listed = False
        loop = asyncio.get_running_loop()
        frames = self._frames
        while self._writer is None and self._head < len(self._backlog) and not self.closed.is_set():
            if self._backlog[self._head] is _CLOSE:
                self._writer = loop.create_task(self._write_loop())
                return
            if frames is not None and frames.ready():
                try:
                    self._write_run(frames)
                except Exception:  # the peer went away: the connection ends as after a failed write
                    self._writer = loop.create_task(self._end())
                    return
                continue
            text, seq = self._handed(self._pop())
            try:
                rest = run_eagerly(self._send_text(text))
            except Exception:  # the peer went away: the connection ends as after a failed write
                self._writer = loop.create_task(self._end())
                return
            if rest is not None:
                self._writer = loop.create_task(self._write_loop(rest, seq))
                return
            self._note_written(seq)

    def _write_run(self, frames: FrameWriter) -> None:
        """Write the backlog's frames up to the close (if any) or ``_RUN_BYTES``, in one write."""
        texts: list[str] = []
        seqs: list[int] = []
        size = 0
        while size < _RUN_BYTES and self._head < len(self._backlog):
            if self._backlog[self._head] is _CLOSE:
                break
            text, seq = self._handed(self._pop())
            texts.append(text)
            size += len(text)
            if seq is not None:
                seqs.append(seq)
        frames.write(texts)
        for seq in seqs:
            self._note_written(seq)

    def _unwatch(self) -> None:
        if self._watch is not None:
            self._watch.leave(self)
            self._watch = None
        if self._ping_timer is not None:
            self._ping_timer.cancel()
            self._ping_timer = None

    def start_pings(self, schedule: PingSchedule) -> None:
        """Clock-sync pings from now on, on ``schedule``: a quick burst first."""
        self._schedule = schedule
        self._plan_ping(asyncio.get_running_loop().time() + schedule.burst[0])

    def _plan_ping(self, at: float) -> None:
        """The next ping at loop time ``at``: one timer per ping, however busy the connection."""
        if self.closed.is_set():
            return
        if self._ping_timer is not None:
            self._ping_timer.cancel()
        self._next_ping = at
        self._ping_timer = asyncio.get_running_loop().call_at(at, self._queue_ping)

    def backlogged(self) -> bool:
        """Whether the backlog is three quarters full or more (and the connection open): the reader
        then waits for :meth:`drained` before it takes the client's next message."""
        return self._bytes >= self._high and not self.closed.is_set()

    async def drained(self) -> None:
        """Return at once while the backlog is under three quarters full; past that, once it is
        back under half full (or the connection has closed).

        The reader awaits this between frames: answers it queues itself (rejects, pongs) then
        never crowd out the room's frames, and a client that sends faster than it reads is slowed
        down instead of losing answers to an overflow. A reader that waited earlier (at half)
        would hold back a busy table's moves and cost the room its batching.
        """
        if not self.backlogged():
            return
        self._below_half.clear()
        await self._below_half.wait()

    def _push(self, item: _Item) -> bool:
        """Queue ``item`` if it fits; a frame always fits an empty backlog (a big snapshot too)."""
        cost = _cost(item)
        if self._head < len(self._backlog) and self._bytes + cost > self._limit:
            return False
        self._backlog.append(item)
        self._bytes += cost
        self._kick()
        return True

    def _pop(self) -> _Item:
        item = self._backlog[self._head]
        self._head += 1
        if self._head == len(self._backlog):
            # Drained (after nearly every frame): cleared, which frees its slots too. The same list
            # rather than a new one each time, which would be one more young object per frame
            # for the collector's next pass to walk.
            self._backlog.clear()
            self._head = 0
        self._bytes -= _cost(item)
        if self._bytes < self._half:
            self._below_half.set()
        return item

    def _empty(self) -> None:
        self._backlog.clear()
        self._head = 0
        self._bytes = 0
        self._below_half.set()

    def send(self, text: str, seq: int | None = None) -> bool:
        """Queue a frame; False when it did not fit and the backlog has been emptied (this frame
        included)."""
        if self._close is not None:
            return True
        if self._push((text, seq)):
            return True
        self._metrics.overflowed()
        self._empty()
        return False

    def send_json(self, obj: object) -> bool:
        return self.send(orjson.dumps(obj).decode())

    def _queue_ping(self) -> None:
        """The ping timer: queue a clock-sync ping, with the estimates so far, and plan the next.
        Its ``t`` is the room time the writer hands it to the socket (so time spent in the backlog
        behind other frames is not mistaken for network delay). A ping that does not fit is
        skipped: the backlog is about to be reset anyway."""
        self._ping_timer = None
        schedule = self._schedule
        if self._close is not None or schedule is None:
            return
        self._ping_id += 1
        sync = self.sync
        self._ping_gap = schedule.after(self._ping_id, self._ping_gap, sync.steady, self._racing)
        self._plan_ping(asyncio.get_running_loop().time() + self._ping_gap)
        fields: dict[str, object] = {}
        if sync.offset is not None:
            fields["offset"] = sync.offset
        if sync.rtt is not None:
            fields["rtt"], fields["jitter"] = sync.rtt, sync.jitter
        self._push(_Ping(self._ping_id, fields))

    def close(self, code: int, error: str, message: str) -> None:
        """Send an error frame, then close; frames queued before it still go out (if the client
        takes them within the write timeout)."""
        if self._close is not None:
            return
        if code != 1000:  # 1000: the player left; anything else cuts a client off
            self._metrics.aborted(error)
        text = orjson.dumps({"type": "error", "code": error, "message": message}).decode()
        while self._head < len(self._backlog) and self._bytes + len(text) > self._limit:
            self._pop()
        self._backlog.append((text, None))
        self._bytes += len(text)
        self._backlog.append(_CLOSE)
        self._close = (code, message[:120])
        self._kick()

    def _text_of(self, item: tuple[str, int | None] | _Ping) -> tuple[str, int | None]:
        """A frame's text and number; a ping's, stamped now that it is handed to the socket."""
        if not isinstance(item, _Ping):
            return item
        t1 = self._now()
        self.pings[item.id] = t1
        while len(self.pings) > MAX_PINGS:  # never answered: forget the oldest
            del self.pings[min(self.pings)]
        return orjson.dumps({"type": "ping", "id": item.id, "t": t1, **item.fields}).decode(), None

    def _handed(self, item: _Item) -> tuple[str, int | None]:
        """The text and number of a frame taken from the backlog to be written, counted as sent
        before the write, so that a client that has it sees it counted."""
        assert isinstance(item, tuple | _Ping)
        text, seq = self._text_of(item)
        self._metrics.sent(text)
        return text, seq

    def _note_written(self, seq: int | None) -> None:
        # Only a racing connection's write times are ever read (a race judged with its link); a
        # connection becomes one with the snapshot it is sent (Viewer.send_snapshot), before it.
        if seq is not None and self._racing:
            self._written_seqs.append(seq)
            self._written_at.append(self._now())
            if len(self._written_seqs) >= 2 * _WRITTEN:
                del self._written_seqs[:_WRITTEN]
                del self._written_at[:_WRITTEN]

    async def _write(self, sending: Awaitable[None]) -> bool:
        """Hand one frame to the socket; False (and the connection cut off) if it takes too long."""
        watch = self._watch
        assert watch is not None
        watch.begin(self, watch.now() + self._write_timeout)
        try:
            await sending
        except asyncio.CancelledError:
            if not self.aborted:  # stopped from outside, not cut off by the write watch
                raise
            task = asyncio.current_task()
            assert task is not None
            task.uncancel()
            return False
        finally:
            watch.end(self)
        return True

    def write_overran(self) -> None:
        """The write watch: the write in progress missed its deadline."""
        self._abort()
        if self._writer is not None:
            self._writer.cancel()

    def _abort(self) -> None:
        log.warning(
            "room %s: connection of player %s cut off: a frame was not taken within %g s"
            " (%d bytes waiting, bound %d)",
            self.room_code,
            self.player_id,
            self._write_timeout,
            self._bytes,
            self._limit,
        )
        self.aborted = True
        self._metrics.aborted("WRITE_TIMEOUT")
        self._empty()
        if not transport.abort(self.ws):
            log.warning("room %s: no transport to abort; the connection is left to close", self.room_code)

    async def _write_loop(self, started: Awaitable[None] | None = None, seq: int | None = None) -> None:
        """Write until the backlog is empty (then the task ends), or until the connection ends;
        ``started``: the rest of a write the flush began (frame ``seq``), finished first."""
        over = True
        try:
            if started is not None:
                if not await self._write(started):
                    return
                self._note_written(seq)
            while self._head < len(self._backlog):
                item = self._pop()
                if item is _CLOSE:
                    break
                text, seq = self._handed(item)
                if not await self._write(self._send_text(text)):
                    return
                self._note_written(seq)
            else:
                over = False
        except Exception:  # the peer went away; the reader notices too
            pass
        finally:
            if over:  # the task stays the connection's writer: no other starts after it
                await self._end()
            else:
                self._writer = None

    async def _end(self) -> None:
        """The writer's last act: the close handshake if one was asked for, then nothing more."""
        try:
            if self._close is not None and not self.aborted:
                code, reason = self._close
                try:
                    async with asyncio.timeout(self._write_timeout):
                        await self.ws.close(code=code, reason=reason)
                except TimeoutError:
                    self._abort()
                except Exception:
                    pass
        finally:
            self._unwatch()
            self._empty()
            self.closed.set()

    async def stop(self) -> None:
        """The connection's end: a close already asked for goes out first (each write the watch
        bounds), else the writer stops at once."""
        if self._close is not None and not self.closed.is_set():
            if self._writer is None:  # still waiting for the loop's flush: the writer takes it now
                self._writer = asyncio.get_running_loop().create_task(self._write_loop())
            await self.closed.wait()
        await cancel_and_wait(self._writer)
        self._unwatch()
        self._empty()
        self.closed.set()
