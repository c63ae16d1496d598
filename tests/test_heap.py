"""The collector's settings and the heap trim of a long-running server (app/heap.py)."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
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


def test_trim_gives_freed_memory_under_a_live_block_back_to_the_system() -> None:
    # In a child interpreter, so that no other test's memory is counted. Freed blocks under one
    # that lives on stay with the process until they are trimmed.
    child = textwrap.dedent(
        """
        from app.heap import trim

        def rss_kb():
            with open("/proc/self/status") as status:
                return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))

        blocks = [bytes(2000) + n.to_bytes(4, "little") for n in range(40_000)]
        last = blocks[-1]
        del blocks
        held = rss_kb()
        print(trim(), held - rss_kb())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=60, check=True
    )
    trimmed, given_back_kb = done.stdout.split()
    assert trimmed == "True"
    assert int(given_back_kb) > 40_000  # most of the 80 MB freed
