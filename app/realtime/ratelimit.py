"""A token bucket per connection: bursts are fine, floods are dropped.

>>> b = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations


class TokenBucket:
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
