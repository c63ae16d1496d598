"""Token buckets, and the keyed buckets of the HTTP rate limits with their bounded memory."""

from __future__ import annotations

import pytest

from app.realtime.ratelimit import KeyedBuckets, TokenBucket


def test_a_bucket_says_how_long_until_its_next_token() -> None:
    bucket = TokenBucket(rate=0.5, burst=1, now=0.0)
    assert bucket.take(0.0) and not bucket.take(0.5)
    assert bucket.wait() == 1.5


def test_keyed_buckets_limit_each_key_on_its_own() -> None:
    limit = KeyedBuckets(limit=2, period=60.0)
    assert [limit.take("a", 0.0) for _ in range(3)] == [0.0, 0.0, 30.0]
    assert limit.take("b", 0.0) == 0.0
    assert limit.take("a", 29.0) == pytest.approx(1.0)
    assert limit.take("a", 30.0) == 0.0


def test_keyed_buckets_keep_at_most_max_keys() -> None:
    limit = KeyedBuckets(limit=1, period=60.0, max_keys=100)
    for i in range(1000):
        limit.take(f"k{i}", 0.0)
    assert len(limit) == 100
    assert limit.take("k999", 0.0) > 0  # the most recent keys are the ones kept
    assert limit.take("k0", 0.0) == 0.0  # an evicted key starts afresh: eviction never blocks


def test_keyed_buckets_forget_keys_whose_bucket_is_full_again() -> None:
    limit = KeyedBuckets(limit=2, period=60.0)
    for i in range(50):
        limit.take(f"k{i}", 0.0)
    limit.take("late", 60.0)
    assert len(limit) == 1
