"""The collector's settings for a long-running server (app/heap.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from app.config import Settings
from app.heap import settle


@pytest.fixture
def collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_freezes_what_start_up_made_and_sets_the_thresholds(collector: None) -> None:
    made_at_start = [{"room": n} for n in range(100)]
    settle((12_345, 7, 3))
    assert gc.get_threshold() == (12_345, 7, 3)
    assert gc.get_freeze_count() >= len(made_at_start)
    assert not any(obj is made_at_start for obj in gc.get_objects())


def test_thresholds_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BORDET_GC_THRESHOLDS", "50000,10,5")
    assert Settings.from_env().gc_thresholds == (50_000, 10, 5)


def test_the_default_thresholds_are_above_cpythons(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BORDET_GC_THRESHOLDS", raising=False)
    young, _, _ = Settings.from_env().gc_thresholds
    assert young > 700
