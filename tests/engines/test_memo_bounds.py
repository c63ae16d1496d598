"""The engines' memos (``functools.lru_cache`` on pure functions) are bounded, and all of them together,
full, fit a small budget.

A memo fills over a server's life and never empties: every entry is kept until a newer one pushes it
out, so a long-running server holds each memo full. The soak benchmark showed it as slow growth
(Leekha's legal passes, Kuuduk's placements: hundreds of entries a minute for an hour). Each memo is
sized for the live rooms' working set; this test measures what one entry holds after a few real
playouts and checks that every memo, full, stays within :data:`BUDGET_BYTES` in all.
"""

from __future__ import annotations

import gc
import importlib
import pkgutil
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import app.engines
from app.bots.playout import playout
from app.engines import ALL_ENGINES, get_engine

BUDGET_BYTES = 32 * 1024 * 1024
"""What every engine memo may hold, full, in all (before this test they came to about 60 MB). About
12 MB of it keeps view parts (a seat, a score table, legal actions) the same object while they do
not change, so the room's diff passes over them (:mod:`app.engines.view_parts`)."""

PLAYOUTS = 2
"""Games per engine, to fill the memos with real entries."""


def engine_memos() -> dict[str, Any]:
    """Every ``lru_cache`` defined in a module of ``app.engines``, by dotted name."""
    memos: dict[str, Any] = {}
    for info in pkgutil.walk_packages(app.engines.__path__, "app.engines."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if hasattr(obj, "cache_info") and getattr(obj, "__module__", None) == info.name:
                memos[f"{info.name}.{name}"] = obj
    return memos


def _bytes_held(clear: Callable[[], None]) -> int:
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    clear()
    gc.collect()
    return before - tracemalloc.get_traced_memory()[0]


def test_every_engine_memo_has_a_bound() -> None:
    memos = engine_memos()
    assert memos, "no memo found: the walk over app.engines is broken"
    unbounded = [name for name, memo in memos.items() if memo.cache_info().maxsize is None]
    assert unbounded == []


def test_every_engine_memo_full_fits_the_budget() -> None:
    memos = engine_memos()
    for memo in memos.values():
        memo.cache_clear()
    tracemalloc.start()
    try:
        for name in sorted(ALL_ENGINES):
            engine = get_engine(name)
            options = engine.options_model.model_validate({})
            players = min(max(4, engine.min_players), engine.max_players)
            for i in range(PLAYOUTS):
                playout(engine, players, options, seed=f"memo-{i}", rng=random.Random(i))
        full: dict[str, int] = {}
        for name, memo in memos.items():
            info = memo.cache_info()
            if info.currsize:
                per_entry = _bytes_held(memo.cache_clear) / info.currsize
                full[name] = int(per_entry * info.maxsize)
    finally:
        tracemalloc.stop()
    assert len(full) >= 5, f"the playouts filled too few memos to measure: {sorted(full)}"
    assert sum(full.values()) <= BUDGET_BYTES, sorted(full.items(), key=lambda kv: -kv[1])
