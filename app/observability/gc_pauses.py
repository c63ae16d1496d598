"""The cyclic garbage collector's passes, timed.

A pass stops everything the process does, the event loop included, for as long as it walks its
generation: under load a young pass over the rooms' fresh state takes tens of milliseconds (see
:mod:`app.heap`), and every action that arrives meanwhile waits. The loop-lag probe sees such a
stall only when one of its timers falls inside it; this counts and times every pass.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


class GcPauseProbe:
    """Reports ``(generation, seconds)`` for each pass between :meth:`start` and :meth:`stop`.

    The collector calls back on whichever thread triggered the pass, so ``report`` must be safe
    to call from any thread (a Prometheus histogram is). Passes never overlap (the collector starts
    none while one runs), so one start time serves them all.
    """

    def __init__(self, report: Callable[[int, float], None]) -> None:
        self._report = report
        self._started = 0.0

    def start(self) -> None:
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def stop(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self._report(info["generation"], time.perf_counter() - self._started)
