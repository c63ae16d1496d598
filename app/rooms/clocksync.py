"""Clock sync of one connection: NTP-style samples from the server's pings (pure state and update).

Each sample has four timestamps: the server sends a ``ping`` at ``t1`` (room
clock), the client receives it at ``t2`` and answers with a ``pong`` at ``t3``
(both on the client's clock), the server reads the pong at ``t4``::

    rtt    = (t4 - t1) - (t3 - t2)           the network round trip, without the client's own delay
    offset = ((t1 - t2) + (t4 - t3)) / 2     room time = client time + offset

A window of recent samples gives the estimates: the round trip is the window's
minimum (the path without queueing), the jitter band a high percentile minus
that minimum, at most twice the median's distance from it (a client that holds
back a few pongs cannot widen the band: the median hardly moves), and the offset
comes from the minimum-round-trip sample (the one least distorted by queueing).
Each sample is also checked against the estimates it found: ``steady`` counts the
samples in a row that agreed with them, and drops to 0 on one that did not (the
link or the client's clock changed); the ping schedule backs off on a steady link
and hurries on a moving one (:mod:`app.realtime.ping_schedule`). Only pongs with the
client's receive and send times count: without them the client's own delay in
answering could not be told from the network's. The offset drives the client's
countdowns; the round trip and jitter bound what a reaction claim may be credited (:mod:`app.engines.race`).

A client 5 s ahead of the room clock, on a 40 ms link with a little jitter:

>>> sync = ClockSync()
>>> for t1, extra in ((1000, 6), (3000, 0), (5000, 2), (7000, 9)):
...     t2 = t1 + 20 + 5000.0 + extra
...     t4 = t1 + 40 + extra + 1
...     _ = sync.add(t1, t2, t2 + 1.0, t4)
>>> sync.rtt, sync.jitter, sync.offset, sync.samples
(40, 9, -5000.0, 4)
>>> sync.steady  # the second sample found a route 6 ms faster than the first; since then, steady
2
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass

MAX_RTT_MS = 30_000.0
"""Samples with a longer round trip are dropped as nonsense."""
STAMP_MS = 1.0
"""The room clock's resolution: a round trip down to minus this is a fast link, not nonsense."""
STEADY_MS = 5.0
"""Slack of the steadiness check (stamps are whole ms, and a fast link's band is a few ms wide)."""


@dataclass(frozen=True, slots=True)
class Sample:
    rtt: float
    offset: float


@dataclass(frozen=True, slots=True)
class LinkStats:
    """The estimates of one connection, as the room logs them with a race claim."""

    rtt: int | None
    jitter: int | None
    offset: float | None
    samples: int


class ClockSync:
    """A window of the connection's recent samples and the estimates drawn from it."""

    __slots__ = ("_percentile", "_window", "_window_size", "jitter", "offset", "rtt", "steady")

    def __init__(self, window: int = 16, percentile: float = 0.9) -> None:
        if window < 1 or not 0 < percentile <= 1:
            raise ValueError("a window holds at least one sample; the percentile is in (0, 1]")
        # Flat (rtt, offset) pairs in one array of doubles: 16 samples in 0.3 KB, where a list of
        # Sample objects took 1.5 KB of every connection.
        self._window = array("d")
        self._window_size = window
        self._percentile = percentile
        self.rtt: int | None = None
        """Smallest round trip of the window (ms, rounded up), None before the first sample."""
        self.jitter: int | None = None
        """The window's ``percentile`` round trip minus its smallest, at most twice its median minus
        its smallest (ms, rounded up)."""
        self.offset: float | None = None
        """Room time minus client time (ms, 0.1 ms resolution), from the smallest-round-trip sample."""
        self.steady = 0
        """Samples in a row that agreed with the estimates they found (see :meth:`agrees`)."""

    @property
    def samples(self) -> int:
        return len(self._window) // 2

    def stats(self) -> LinkStats:
        return LinkStats(self.rtt, self.jitter, self.offset, self.samples)

    def agrees(self, sample: Sample) -> bool:
        """Whether ``sample`` fits the estimates so far (the first always does).

        It does not when its round trip is clearly below the smallest (a new, faster route), far
        above the jitter band (twice its width, and at least a quarter of the round trip: a slower
        route, or a congested one), or when its offset and the estimate's are further apart than
        their two round trips allow: each is within half its own round trip of the true offset,
        so a gap past that means the client's clock itself moved.

        >>> sync = ClockSync()
        >>> _ = sync._add(Sample(40.0, -5000.0))
        >>> [sync.agrees(Sample(r, o)) for r, o in ((44, -5010), (80, -5000), (41, -5100), (30, -5000))]
        [True, False, False, False]
        """
        if self.rtt is None or self.jitter is None or self.offset is None:
            return True
        rtt, band = self.rtt, 2 * self.jitter + max(STEADY_MS, self.rtt / 4)
        if not rtt - STEADY_MS <= sample.rtt <= rtt + band:
            return False
        return abs(sample.offset - self.offset) <= (sample.rtt + rtt) / 2 + STEADY_MS

    def add(self, t1: float, t2: float, t3: float, t4: float) -> Sample | None:
        """Add one four-timestamp sample; returns it, or None when it makes no sense (then it is dropped).

        >>> ClockSync().add(1000, 50.0, 40.0, 1030) is None  # the client answered before it received
        True
        >>> ClockSync().add(1000, 50.0, 50.6, 1000).rtt  # loopback: the stamps cannot tell 0.3 ms
        0.0
        """
        held = t3 - t2
        rtt = (t4 - t1) - held
        if not (held >= 0 and -STAMP_MS <= rtt <= MAX_RTT_MS and math.isfinite(rtt)):
            return None
        rtt = max(rtt, 0.0)  # a sub-millisecond link, seen through whole-millisecond stamps
        offset = ((t1 - t2) + (t4 - t3)) / 2
        if not math.isfinite(offset):
            return None
        return self._add(Sample(rtt, offset))

    def _add(self, sample: Sample) -> Sample:
        self.steady = self.steady + 1 if self.agrees(sample) else 0
        window = self._window
        window.append(sample.rtt)
        window.append(sample.offset)
        if len(window) > 2 * self._window_size:
            del window[:2]
        rtts = window[0::2]
        fastest = min(range(len(rtts)), key=rtts.__getitem__)  # the first of equals, as before
        ranked = sorted(rtts)
        low = ranked[0]
        high = ranked[max(0, math.ceil(self._percentile * len(ranked)) - 1)]
        median = ranked[len(ranked) // 2]
        self.rtt = math.ceil(low)
        self.jitter = math.ceil(min(high - low, 2 * (median - low)))
        self.offset = round(window[2 * fastest + 1], 1)
        return sample
