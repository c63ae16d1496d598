"""The count of WebSocket connections open per client address."""

from __future__ import annotations

from app.limits import OpenCounts


def test_open_counts_refuse_past_the_limit_and_free_a_place_on_release() -> None:
    counts = OpenCounts(limit=2)
    assert counts.acquire("a") and counts.acquire("a")
    assert not counts.acquire("a")
    assert counts.acquire("b")
    counts.release("a")
    assert counts.acquire("a")


def test_open_counts_forget_an_address_with_nothing_open() -> None:
    counts = OpenCounts(limit=2)
    counts.acquire("a")
    counts.release("a")
    assert counts.count("a") == 0 and counts._open == {}
