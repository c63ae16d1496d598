"""Token buckets: bursts are fine, floods are dropped.

One bucket per connection for its frames; :class:`KeyedBuckets` keeps one per key (a client
address, a player) for the HTTP rate limits, with a cap on how many keys it remembers.

>>> b = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

from collections import OrderedDict


class TokenBucket:
    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds from the last ``take`` until the next one succeeds."""
        return max(0.0, (1.0 - self.tokens) / self.rate)

    def full_at(self) -> float:
        """When the bucket is full again: from then on it is no different from a new one."""
        return self.stamp + (self.burst - self.tokens) / self.rate


class KeyedBuckets:
    """A token bucket per key, ``limit`` takes per ``period`` seconds (and bursts of ``limit``).

    Memory is bounded: at most ``max_keys`` buckets are kept. Full buckets are forgotten (a new
    one is the same), and past the cap the least recently used key goes; forgetting a key only
    ever gives it back its whole burst, it never blocks anyone.

    >>> limit = KeyedBuckets(limit=2, period=60.0)
    >>> [limit.take("a", 0.0), limit.take("a", 0.0), limit.take("a", 0.0), limit.take("b", 0.0)]
    [0.0, 0.0, 30.0, 0.0]
    >>> limit.take("a", 30.0)
    0.0
    """

    def __init__(self, limit: int, period: float, max_keys: int = 10_000) -> None:
        self.rate = limit / period
        self.burst = limit
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str, now: float) -> float:
        """0.0 when ``key`` may go ahead now (and it is counted), else the seconds to wait."""
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst, now)
        self._buckets[key] = bucket  # now the most recently used
        allowed = bucket.take(now)
        self._forget(now)
        return 0.0 if allowed else bucket.wait()

    def _forget(self, now: float) -> None:
        while self._buckets:
            key, oldest = next(iter(self._buckets.items()))
            if len(self._buckets) <= self.max_keys and oldest.full_at() > now:
                return
            del self._buckets[key]
