"""Round-trip estimate of one connection from server pings (best recent samples).

>>> rtt = RoundTrip()
>>> for sample in (80, 62, 95, 60, 70):
...     rtt.add(sample)
>>> rtt.estimate
60
"""

from __future__ import annotations

from collections import deque


class RoundTrip:
    """Keeps a window of samples; the minimum is the path's round trip without queueing delay."""

    def __init__(self, window: int = 8) -> None:
        self._samples: deque[int] = deque(maxlen=window)
        self.estimate: int | None = None

    def add(self, sample_ms: int) -> None:
        if sample_ms < 0:
            return
        self._samples.append(sample_ms)
        self.estimate = min(self._samples)
