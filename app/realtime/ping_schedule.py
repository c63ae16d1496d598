"""When a connection's next clock-sync ping goes out (pure: the connection keeps the time).

Pings cost the server a little per connection, and thousands of idle connections made that most
of an idle server's work. So a connection is pinged often only while its estimate is young or
moving, and while a reaction race may be judged with it:

1. **The join burst** (:data:`PING_BURST`): ten pings within about 2.3 s, so the first race and the
   first countdown have an estimate.
2. **A link that moves** (its latest sample disagreed with the estimate, see
   :meth:`app.rooms.clocksync.ClockSync.agrees`, or fewer than :data:`STEADY_SAMPLES` have agreed
   in a row since): the short interval, ``short_s`` (``BORDET_PING_INTERVAL_S``). A sample that
   disagrees also brings a ping that was planned later forward to the short interval from then.
3. **A racing connection** (a seat of a game whose engine has reaction races, while the game runs)
   on a steady link: the interval doubles with each ping, up to ``racing_max_s``
   (``BORDET_PING_RACING_MAX_S``). Becoming a racing connection (the game starts) pings at once and
   starts again from the short interval.
4. **Every other connection** (spectators, the lobby, games without races) on a steady link:
   ``watching_s`` (``BORDET_PING_WATCHING_S``). Its offset only drives the client's countdowns, and
   a client clock drifts by milliseconds per minute at most; the interval also stays below the
   idle timeouts of common proxies (nginx: 60 s).

A new connection (a reconnect) starts again with the burst.

>>> s = PingSchedule(short_s=2.0, racing_max_s=16.0, watching_s=30.0)
>>> gap, gaps = 0.0, []
>>> for sent in range(1, 15):
...     gap = s.after(sent, gap, steady=sent, racing=True)
...     gaps.append(gap)
>>> gaps
[0.05, 0.05, 0.05, 0.05, 0.05, 0.5, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 16.0, 16.0]
>>> s.after(20, 16.0, steady=0, racing=True), s.after(20, 16.0, steady=9, racing=False)
(2.0, 30.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

PING_BURST = (0.0, 0.05, 0.05, 0.05, 0.05, 0.05, 0.5, 0.5, 1.0)
"""Delays (s) between the first pings after the join: an estimate before the first race, then more
samples (also for the offset, which each ping reports back) before the regular schedule."""
STEADY_SAMPLES = 4
"""Samples in a row that must agree with the estimate before the interval grows."""


@dataclass(frozen=True, slots=True)
class PingSchedule:
    short_s: float
    """The interval while the estimate is young or moving."""
    racing_max_s: float
    """The longest interval of a racing connection on a steady link."""
    watching_s: float
    """The interval of a connection no race is judged with, on a steady link."""
    burst: tuple[float, ...] = PING_BURST
    """Delays before the first pings: the first is the delay of the first ping itself."""

    def after(self, sent: int, gap: float, steady: int, racing: bool) -> float:
        """Seconds from ping number ``sent`` (the first is 1) to the next one.

        ``gap``: the seconds before ping ``sent`` (what this returned last time); ``steady``: the
        connection's :attr:`~app.rooms.clocksync.ClockSync.steady`.
        """
        if sent < len(self.burst):
            return self.burst[sent]
        if steady < STEADY_SAMPLES:
            return self.short_s
        if not racing:
            return self.watching_s
        return min(max(2 * gap, self.short_s), self.racing_max_s)


@cache
def ping_schedule(short_s: float, racing_max_s: float, watching_s: float) -> PingSchedule:
    """One shared schedule per setting (every connection of a process holds the same one)."""
    return PingSchedule(short_s, max(short_s, racing_max_s), max(short_s, watching_s))
