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

Why 20,000 and not another young threshold (``bench.fanout``, 1,000 connections, two runs each):
a young pass walks every room's views and states made since the last pass, not just the threshold's
worth, so its length grows with the threshold. 5,000 and 2,000 gave 4 and 12 times the collector's
time in all. 100,000 and 200,000 gave rarer but longer passes (about 60 and 100 ms, against 20-45
at 20,000 on the same machine): a better p99 at 500-1,000 actions/s, a worse one near saturation,
where a longer stall leaves a backlog that takes longer to drain.

What a young pass walks is what is still alive of what was made since the last one. A census of the
young generation as passes began (``bench.fanout`` at 2,000 actions/s, 1,000 connections,
2026-12-07): about 47,000 objects each, 14-31 ms a pass as that day's machine got busier. 23,000
tuples and 4,500 melds, mostly the drafts each table's undo history keeps (every draft step's
draft, up to ``UNDO_LIMIT`` steps a turn: 12,000 of the young tables were undo entries of young
states) and their cards; 7,900 lists and 2,800 dicts of views' JSON (each table's latest views, and
the memo caches of :mod:`app.engines.rummy.view`); and about 1,000 each (one per connection) of
what a connection makes anew for each message or ping: its parser's generator and ``Frame``, its
ping timer's handles and ``Context``. Yet a pass does not cost in proportion to that count: with
the undo history cut to one draft (``UNDO_LIMIT = 1``, an experiment, same day) passes took 23 and
24 ms each instead of 26 and 31 (two runs each, five passes in 15 s every time), so keeping drafts
in a form the collector does not walk would shorten a pass by a fifth at most. And those passes
found nothing to collect (``collected`` 0 in the collector's callback, all six young passes of a
run at 1,000 and then 2,000 actions/s, 17-31 ms each): in steady play the server makes no cyclic
garbage, so each of them is a stall for nothing. A policy that freezes what survives (``gc.freeze``
is cheap) and collects in full only on a slow schedule could remove them; it needs a soak to show
that the cycles other paths make (errors, disconnects) do not pile up in between, and a full pass
is long: ``gc.collect()`` in the same loaded server took 157-192 ms over the 200,000-230,000
tracked objects made since start-up (three calls, 5 s apart; it found 174 objects, then none).

:func:`keep_trimmed` hands freed memory back to the operating system once a minute. Frames,
patches and socket buffers are larger than Python's small-object allocator takes, so they come from
the C allocator, which returns freed memory only from the top of its heap: one live block above
many freed ones keeps them all (one ``malloc_trim`` on a soak server at minute 31 gave back 11 MB
of its 247 MB). glibc only; elsewhere there is nothing to call and nothing is started.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
from collections.abc import Callable

TRIM_EVERY_S = 60.0

DEFAULT_THRESHOLDS = (20_000, 20, 10)


def settle(thresholds: tuple[int, int, int] = DEFAULT_THRESHOLDS) -> None:
    """Freeze what start-up made and set the collector's thresholds (young, middle, full)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to call
        return None
    return trim


MALLOC_TRIM = _malloc_trim()


def trim() -> bool:
    """Give the C allocator's freed memory back to the operating system; False where that cannot
    be done (no glibc) or nothing was given back."""
    return MALLOC_TRIM is not None and MALLOC_TRIM(0) == 1


async def keep_trimmed(interval: float = TRIM_EVERY_S) -> None:
    """:func:`trim` every ``interval`` seconds until cancelled, in a worker thread (ctypes lets go
    of the interpreter lock, so the event loop goes on while the allocator's heap is walked)."""
    while True:
        await asyncio.sleep(interval)
        await asyncio.to_thread(trim)
