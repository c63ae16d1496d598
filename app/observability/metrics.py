"""The server's Prometheus metrics, on a registry of their own (one per app, so apps never share series).

The hot paths only call methods of small objects holding pre-bound children: a frame written costs
two counter increments, and nothing builds a label dict per frame. Rates (frames/s, bytes/s) are
Prometheus' job: everything that counts is a counter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

__all__ = ["IGNORED", "ClusterMetrics", "ConnectionMetrics", "Metrics", "RelayTotals", "RoomMetrics"]

COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: a SQLite commit takes well under a millisecond, a busy PostgreSQL one tens of them."""
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class SentTotals(Collector):
    """Frames and bytes written to WebSockets: plain integers on the hot path (a Counter takes a
    lock on every increment, once per frame), turned into counters when scraped."""

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily("bordet_frames_sent", "Frames written to WebSockets.", value=self.frames)
        yield CounterMetricFamily(
            "bordet_sent_bytes", "UTF-8 payload bytes of the frames written to WebSockets.", value=self.bytes
        )


class RelayTotals(Collector):
    """Relay messages (ASGI events of relayed sockets and requests, and their control messages)
    published to and received from other processes: plain integers on the hot path, like
    :class:`SentTotals`."""

    def __init__(self) -> None:
        self.messages_out = self.bytes_out = self.messages_in = self.bytes_in = 0

    def published(self, size: int) -> None:
        self.messages_out += 1
        self.bytes_out += size

    def received(self, size: int) -> None:
        self.messages_in += 1
        self.bytes_in += size

    def collect(self) -> Iterator[CounterMetricFamily]:
        messages = CounterMetricFamily(
            "bordet_relay_messages",
            "Relay messages between processes, by direction (out: published here, in: received here).",
            labels=["direction"],
        )
        messages.add_metric(["out"], self.messages_out)
        messages.add_metric(["in"], self.messages_in)
        size = CounterMetricFamily(
            "bordet_relay_bytes", "Bytes of those relay messages, by direction.", labels=["direction"]
        )
        size.add_metric(["out"], self.bytes_out)
        size.add_metric(["in"], self.bytes_in)
        yield messages
        yield size


class ClusterMetrics:
    """What a process sharing the rooms with others reports (:mod:`app.cluster`); all zero when
    it serves alone."""

    def __init__(self, r: CollectorRegistry) -> None:
        self.leases_held = Gauge("bordet_cluster_leases_held", "Room leases this process holds.", registry=r)
        self.renewals_failed = Counter(
            "bordet_cluster_lease_renewals_failed",
            "Lease renewals that failed: lost (another process holds the room now) or unreachable"
            " (Redis did not answer).",
            ["reason"],
            registry=r,
        )
        self.taken_over = Counter(
            "bordet_cluster_rooms_taken_over",
            "Rooms this process took over from an owner that stopped answering (dead or paused):"
            " running games found orphaned, and rooms a client reached while their owner was silent.",
            registry=r,
        )
        self.relayed_open = Gauge(
            "bordet_cluster_relayed_connections_open",
            "Relayed WebSockets open, by side (edge: the client is connected here; owner: its room is here).",
            ["side"],
            registry=r,
        )
        self.relay = RelayTotals()
        r.register(self.relay)

    def count(self, leases: Callable[[], int], edge: Callable[[], int], owner: Callable[[], int]) -> None:
        """Read the leases and relayed sockets at scrape time."""
        self.leases_held.set_function(leases)
        self.relayed_open.labels("edge").set_function(edge)
        self.relayed_open.labels("owner").set_function(owner)


class ConnectionMetrics:
    """What a WebSocket connection reports: frames and bytes written, overflows, aborts."""

    def __init__(self, totals: SentTotals, overflows: Counter, aborts: Counter) -> None:
        self._totals = totals
        self._overflow = overflows.labels("queue_full")
        self._overflows = overflows
        self._aborts = aborts

    def sent(self, text: str) -> None:
        """One frame handed to the socket (its UTF-8 payload; the WebSocket header is not counted)."""
        totals = self._totals
        totals.frames += 1
        # isascii is a fast C scan; only a frame with non-ASCII text (names, chat) pays for encoding.
        totals.bytes += len(text) if text.isascii() else len(text.encode())

    def overflowed(self, reason: str | None = None) -> None:
        (self._overflow if reason is None else self._overflows.labels(reason)).inc()

    def aborted(self, reason: str) -> None:
        """The server cut the connection off (``reason``: the error code sent, e.g. TOO_SLOW)."""
        self._aborts.labels(reason.lower()).inc()


class RoomMetrics:
    """What a room reports: the ``reject`` frames it answers, by protocol code; writes the database
    refused because another process holds the room now."""

    def __init__(self, rejects: Counter, stale_owner: Counter | None = None) -> None:
        self._rejects = rejects
        self._by_code: dict[str, Counter] = {}
        self._stale_owner = stale_owner

    def stale_owner(self) -> None:
        if self._stale_owner is not None:
            self._stale_owner.inc()

    def rejected(self, code: str) -> None:
        child = self._by_code.get(code)
        if child is None:
            child = self._by_code[code] = self._rejects.labels(code)
        child.inc()


class _Ignored(ConnectionMetrics, RoomMetrics):
    """Reports nothing: rooms and connections made without an app (unit tests, tools)."""

    def __init__(self) -> None:
        pass

    def sent(self, text: str) -> None:
        pass

    def overflowed(self, reason: str | None = None) -> None:
        pass

    def aborted(self, reason: str) -> None:
        pass

    def rejected(self, code: str) -> None:
        pass

    def stale_owner(self) -> None:
        pass


IGNORED = _Ignored()


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.rooms_loaded = Gauge("bordet_rooms_loaded", "Rooms held in memory.", registry=r)
        self.connections_open = Gauge(
            "bordet_connections_open", "WebSocket connections open (authenticated or not).", registry=r
        )
        self.sent = SentTotals()
        r.register(self.sent)
        self.send_overflows = Counter(
            "bordet_send_overflows",
            "Send backlogs emptied because the client did not read fast enough.",
            ["reason"],
            registry=r,
        )
        self.connection_aborts = Counter(
            "bordet_connection_aborts",
            "Connections the server cut off, by the error code it sent (too_slow, ...).",
            ["reason"],
            registry=r,
        )
        self.rejects = Counter("bordet_rejects", "Reject frames answered, by code.", ["code"], registry=r)
        self.commit_seconds = Histogram(
            "bordet_commit_seconds",
            "Durable database writes: the event log's group commits and the lobby's transactions.",
            ["kind"],
            buckets=COMMIT_BUCKETS,
            registry=r,
        )
        self.loop_lag = Gauge(
            "bordet_event_loop_lag_seconds",
            "How late the latest periodic event-loop timer woke up.",
            registry=r,
        )
        self.loop_lag_samples = Histogram(
            "bordet_event_loop_lag_samples_seconds",
            "How late each periodic event-loop timer woke up.",
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.gc_pauses = Histogram(
            "bordet_gc_pause_seconds",
            "Passes of the cyclic garbage collector, by generation (0 young, 2 full): the whole "
            "process stands still meanwhile.",
            ["generation"],
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self._gc_generations = [self.gc_pauses.labels(str(g)) for g in range(3)]
        self.stale_owner_refusals = Counter(
            "bordet_stale_owner_refusals",
            "Writes of a room the database refused because another process holds the room now.",
            registry=r,
        )
        self.cluster = ClusterMetrics(r)
        self.connection = ConnectionMetrics(self.sent, self.send_overflows, self.connection_aborts)
        self.room = RoomMetrics(self.rejects, self.stale_owner_refusals)
        self._commits = {kind: self.commit_seconds.labels(kind) for kind in ("events", "lobby")}

    def count_rooms(self, count: Callable[[], int]) -> None:
        """Read the number of rooms at scrape time (nothing to keep in step as rooms come and go)."""
        self.rooms_loaded.set_function(count)

    def committed(self, kind: str, seconds: float) -> None:
        """A durable write of ``kind`` ("events" or "lobby") took ``seconds``."""
        self._commits[kind].observe(seconds)

    def lagged(self, seconds: float) -> None:
        self.loop_lag.set(seconds)
        self.loop_lag_samples.observe(seconds)

    def collected(self, generation: int, seconds: float) -> None:
        """A pass of the cyclic collector over ``generation`` (and the younger ones) took ``seconds``."""
        self._gc_generations[generation].observe(seconds)

    def render(self, accept: str = "") -> tuple[bytes, str]:
        """Every metric in the exposition format the scraper's ``Accept`` header asks for, and its
        content type (Prometheus' text format by default)."""
        encode, content_type = choose_encoder(accept)
        return encode(self.registry), content_type
