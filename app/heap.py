"""The cyclic garbage collector, set for a long-running server that builds many short-lived trees.

Every accepted input builds a JSON view per seat key and a patch per key; most of those trees
die within a turn, but at CPython's default thresholds (700, 10, 10) the collector runs a young
pass every 700 net new containers and a full pass over the whole heap every hundred of them.
Measured under ``bench.fanout`` at 250 actions/s with 1,000 connections: 1,160 young, 105 middle
and 10 full passes in 20 s, the full ones 120-215 ms each, and those stalls were the p99 (140-170 ms).

:func:`settle` runs once the app has started: everything made so far (modules, settings, the
recovered rooms) lives as long as the process, so it is frozen out of every later pass; then the
young threshold is raised, so a young pass happens per tens of thousands of surviving objects
rather than per hundreds, and middle and full passes become rare. Cyclic garbage is still found,
only in larger, rarer passes; refcounting frees everything else at once as before.
"""

from __future__ import annotations

import gc

DEFAULT_THRESHOLDS = (20_000, 20, 10)


def settle(thresholds: tuple[int, int, int] = DEFAULT_THRESHOLDS) -> None:
    """Freeze what start-up made and set the collector's thresholds (young, middle, full)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
