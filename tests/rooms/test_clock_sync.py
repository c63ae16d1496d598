"""Clock sync of one connection (app/rooms/clocksync.py): NTP-style samples, window estimates."""

from __future__ import annotations

import random

import pytest

from app.rooms.clocksync import ClockSync


def sample(
    sync: ClockSync, t1: int, *, up: float, down: float, held: float = 1.0, skew: float = 0.0
) -> object:
    """One ping at room time ``t1``: ``down`` ms to the client, held there, ``up`` ms back."""
    t2 = t1 + down + skew
    t3 = t2 + held
    t4 = round(t1 + down + held + up)
    return sync.add(t1, t2, t3, t4)


def test_round_trip_excludes_the_clients_own_delay() -> None:
    sync = ClockSync()
    sample(sync, 1000, up=30, down=30, held=250)  # a busy client answered late
    assert sync.rtt == 60 and sync.jitter == 0


def test_offset_comes_from_the_fastest_sample() -> None:
    sync = ClockSync()
    skew = 123_456.7  # the client's clock is far ahead
    sample(sync, 1000, up=40, down=80, skew=skew)  # queued on the way down: asymmetric, slow
    sample(sync, 3000, up=25, down=25, skew=skew)  # the clean one
    sample(sync, 5000, up=25, down=60, skew=skew)
    assert sync.rtt == 50 and sync.offset == pytest.approx(-skew, abs=0.6)


def test_jitter_band_is_a_high_percentile_above_the_minimum() -> None:
    sync = ClockSync(window=10)
    for i, extra in enumerate([0, 1, 2, 3, 4, 5, 6, 7, 8, 40]):
        sample(sync, 1000 + 2000 * i, up=20 + extra / 2, down=20 + extra / 2, held=0)
    # 90th percentile of ten samples is the ninth smallest: a single spike does not widen the band.
    assert (sync.rtt, sync.jitter, sync.samples) == (40, 8, 10)


def test_the_window_forgets_old_samples() -> None:
    sync = ClockSync(window=4)
    sample(sync, 0, up=10, down=10)
    for i in range(1, 5):
        sample(sync, 2000 * i, up=50, down=50)  # the route got slower
    assert sync.rtt == 100 and sync.samples == 4


@pytest.mark.parametrize(
    ("t1", "t2", "t3", "t4"),
    [
        (1000, 5.0, 4.0, 1100),
        (1000, 5.0, 6.0, 990),
        (1000, 5.0, 6.0, 1000 + 40_000),
        (0, float("nan"), 1, 10),
    ],
)
def test_nonsense_samples_are_dropped(t1: int, t2: float, t3: float, t4: int) -> None:
    sync = ClockSync()
    assert sync.add(t1, t2, t3, t4) is None
    assert (sync.rtt, sync.offset, sync.samples) == (None, None, 0)


def test_a_few_held_back_pongs_do_not_widen_the_jitter_band() -> None:
    """Two pongs of sixteen held 150 ms: the 90th percentile would take one of them, the median not."""
    sync = ClockSync()
    for i in range(16):
        held_back = 150 if i in (5, 11) else 0
        sample(sync, 1000 + 2000 * i, up=10 + (i % 3) + held_back, down=10)
    assert (sync.rtt, sync.jitter) == (20, 2)


def test_estimates_converge_on_a_jittery_link() -> None:
    """Seeded: 150 ms round trip, up to 5 ms jitter each way, 16 samples, integer server stamps."""
    rng = random.Random(8)
    for _ in range(200):
        sync = ClockSync()
        skew = rng.uniform(-1e7, 1e7)
        for i in range(16):
            sample(
                sync,
                10_000 + 2000 * i,
                up=75 + rng.uniform(0, 5),
                down=75 + rng.uniform(0, 5),
                held=rng.uniform(0, 3),
                skew=skew,
            )
        assert sync.rtt is not None and sync.jitter is not None and sync.offset is not None
        assert 149 <= sync.rtt <= 154 and 0 <= sync.jitter <= 10
        assert abs(sync.offset + skew) <= 3.5  # half the worst asymmetry plus rounding


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        ClockSync(window=0)
    with pytest.raises(ValueError):
        ClockSync(percentile=1.5)
