"""The durable event log alone (no server): what its appends cost the event loop's thread.

Each of ``--rooms`` games has one appender that logs one small move and awaits its commit before
the next, as a room does. Two runs per database: ``max`` (every appender appends again at once:
the most the log takes) and ``paced`` (``--rate`` appends per second in all, spread over the
rooms: batches stay small, so each commit's fixed cost shows). For each: appends/s, batches/s,
appends per batch, the median and 99th percentile of an append, and the CPU milliseconds per
1,000 appends of the event loop's thread (``time.thread_time()`` read in the loop) and of the
whole process (the loop plus any writer thread). A first row, ``none``, is the paced appenders
with appends that return at once: the benchmark's own share of the loop's figure.

    .venv/bin/python -m bench.event_log                     # SQLite and PostgreSQL, 3 s per run
    .venv/bin/python -m bench.event_log --db sqlite --seconds 5 --rooms 100 --rate 500

PostgreSQL: ``--pg-url`` (default the test database on 127.0.0.1), in a fresh schema dropped at
the end; SQLite: a new file in a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from app.db import EventLog, EventRec, Store, migrate
from bench.lifecycle import DEFAULT_PG_URL, scratch_database


@dataclass
class Run:
    db: str
    mode: str
    seconds: float = 0.0
    appends: int = 0
    batches: int = 0
    loop_cpu_s: float = 0.0
    process_cpu_s: float = 0.0
    waits_ms: list[float] = field(default_factory=list)

    def row(self) -> str:
        waits = sorted(self.waits_ms or [0.0])
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
        per_k = 1000.0 / max(self.appends, 1)
        return (
            f"{self.db:<10} {self.mode:<6}"
            f" {self.appends / self.seconds:>9.0f} {self.batches / self.seconds:>9.0f}"
            f" {self.appends / max(self.batches, 1):>8.1f} {statistics.median(waits):>8.2f} {p99:>8.2f}"
            f" {self.loop_cpu_s * 1000 * per_k:>10.0f} {self.process_cpu_s * 1000 * per_k:>10.0f}"
        )


#: A small move, as a card game logs many.
ACTION = {"type": "play", "card": "7H"}

HEADER = (
    f"{'database':<10} {'mode':<6} {'appends/s':>9} {'batches/s':>9} {'per batch':>8}"
    f" {'p50 ms':>8} {'p99 ms':>8}"
    f" {'loop ms/1k':>10} {'proc ms/1k':>10}"
)


async def _games(store: Store, n: int) -> list[int]:
    host = await store.create_player("Bench")
    await store.create_room("BENCH", "slap", {}, True, host.id)
    seats = [{"player_id": host.id, "name": "Bench", "prefs": {}}]
    return [(await store.create_game("BENCH", "slap", {}, seats, "seed", "hash", 0)).id for _ in range(n)]


class Appendable(Protocol):
    batches: int

    async def append(self, game_id: int, events: Sequence[EventRec], fence: int | None = None) -> None: ...


class NoDatabase:
    """An append that returns at once: what the appenders cost the loop by themselves."""

    batches = 0

    async def append(self, game_id: int, events: Sequence[EventRec], fence: int | None = None) -> None:
        return None


async def drive(log: Appendable, games: list[int], run: Run, seconds: float, rate: float) -> Run:
    """Every game's appender, for ``seconds``; the figures into ``run``."""
    interval = len(games) / rate if run.mode == "paced" else 0.0
    stop_at = time.monotonic() + seconds

    async def appender(game: int, offset: float) -> None:
        loop = asyncio.get_running_loop()
        due = loop.time() + offset
        seq = 0
        while time.monotonic() < stop_at:
            if interval:
                await asyncio.sleep(max(0.0, due - loop.time()))
                due += interval
            seq += 1
            event = EventRec(seq, "move", seq % 4, ACTION, seq * 10, 40, f"c{seq}")
            started = time.perf_counter()
            await log.append(game, [event])
            run.waits_ms.append((time.perf_counter() - started) * 1000)

    batches, cpu, proc, wall = log.batches, time.thread_time(), time.process_time(), time.perf_counter()
    await asyncio.gather(*(appender(g, i * interval / len(games)) for i, g in enumerate(games)))
    run.seconds = time.perf_counter() - wall
    run.loop_cpu_s = time.thread_time() - cpu
    run.process_cpu_s = time.process_time() - proc
    run.batches = log.batches - batches
    run.appends = len(run.waits_ms)
    return run


async def measure(url: str, db: str, mode: str, rooms: int, seconds: float, rate: float) -> Run:
    store = Store(url)
    log = EventLog(store)
    await log.start()
    try:
        return await drive(log, await _games(store, rooms), Run(db, mode), seconds, rate)
    finally:
        await log.stop()
        await store.close()


async def main(args: argparse.Namespace) -> None:
    print(HEADER)
    floor = await drive(NoDatabase(), list(range(args.rooms)), Run("none", "paced"), args.seconds, args.rate)
    print(floor.row(), flush=True)
    with tempfile.TemporaryDirectory(prefix="bordet-bench-log-") as tmp:
        for db in ["sqlite", "postgresql"] if args.db == "both" else [args.db]:
            given = "sqlite:///unused.db" if db == "sqlite" else args.pg_url
            for mode in ("max", "paced"):
                async with scratch_database(given, Path(tmp), f"log-{mode}") as url:
                    await migrate(url)
                    print(
                        (await measure(url, db, mode, args.rooms, args.seconds, args.rate)).row(), flush=True
                    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--pg-url", default=DEFAULT_PG_URL, help="a PostgreSQL database (a schema is made in it)"
    )
    parser.add_argument("--rooms", type=int, default=50, help="concurrent appenders, one game each")
    parser.add_argument("--seconds", type=float, default=3.0, help="per run")
    parser.add_argument("--rate", type=float, default=250.0, help="appends/s in all, for the paced run")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
