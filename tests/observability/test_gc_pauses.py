"""The collector's passes are counted and timed, by generation."""

from __future__ import annotations

import gc

from prometheus_client.parser import text_string_to_metric_families

from app.observability.gc_pauses import GcPauseProbe
from app.observability.metrics import Metrics


def test_each_pass_is_reported_with_its_generation_and_a_duration() -> None:
    reports: list[tuple[int, float]] = []
    probe = GcPauseProbe(lambda generation, seconds: reports.append((generation, seconds)))
    probe.start()
    try:
        gc.collect(0)
        gc.collect(2)
    finally:
        probe.stop()
    assert [generation for generation, _ in reports][-2:] == [0, 2]
    assert all(seconds >= 0 for _, seconds in reports)


def test_nothing_is_reported_once_the_probe_is_stopped() -> None:
    reports: list[tuple[int, float]] = []
    probe = GcPauseProbe(lambda generation, seconds: reports.append((generation, seconds)))
    probe.start()
    probe.stop()
    gc.collect()
    assert reports == []


def test_starting_twice_reports_each_pass_once() -> None:
    reports: list[int] = []
    probe = GcPauseProbe(lambda generation, seconds: reports.append(generation))
    probe.start()
    probe.start()
    try:
        gc.collect(1)
    finally:
        probe.stop()
    assert reports.count(1) == 1


def test_the_metrics_count_the_passes_of_each_generation() -> None:
    metrics = Metrics()
    probe = GcPauseProbe(metrics.collected)
    probe.start()
    try:
        gc.collect(1)
    finally:
        probe.stop()
    text = metrics.render()[0].decode()
    counts = {
        s.labels["generation"]: s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == "bordet_gc_pause_seconds_count"
    }
    assert counts["1"] >= 1
    assert set(counts) == {"0", "1", "2"}
