"""Open-loop fan-out benchmark: Rummy draft steps at a fixed rate, Bordet beside a bare broadcast floor.

Run with ``python -m bench.fanout`` (``--help`` for the rest; ``--idle`` measures idle connections
instead, see :mod:`bench.fanout_idle`).

The scenario (issue 18): ``--connections`` WebSockets in tables of four. Each action is one draft
step (rules 3.4, a ``move`` of one card) by the player whose turn it is; the draft is public, so
every step is applied, logged and diffed into one frame for each of the four seats. The same sweep
runs, in the same invocation, against ``bench.floor_server`` (FastAPI + uvicorn answering each
action with one ~150-byte message per seat of its table: no game, no log, no diff). Each server is
pinned to the first CPU and this process (every client, one asyncio loop on uvloop) to the others.

Open loop: the send times are fixed in advance (a Poisson schedule at the target rate, or evenly
spaced with ``--schedule fixed``) and handed round-robin to the tables. Latency runs from an action's
*intended* send time to the arrival of the last of the four frames carrying its effect, so a send
that leaves late (a busy client loop) counts against the server; the send lag is printed separately
so a reader can tell. Nothing waits for an answer before sending the next action.

Which frame carries step k? The acting player walks the binary-reflected Gray code over (up to)
fourteen cards of its starting hand: step k moves card ``ctz(k)`` to a new set of the draft or back
to the hand, so the set of those cards lying in the draft *is* the Gray code of k. Every seat's view
shows the draft, so each frame names the last step it contains (the inverse Gray code), and a step is
complete once every seat has seen it or a later one. On the floor the message carries k itself.

Per rate: p50/p95/p99/max latency, accepted actions/s (effect seen by all four seats), frames/s
received, server CPU (``/proc/<pid>/stat``, % of one core) and per 1,000 frames/s, server RSS and
per 1,000 connections, this process's CPU, other processes' CPU (noise), rejects, errors and actions
left unresolved. Then the ratio Bordet/floor. No pass or fail.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app import heap
from app.rooms.patch import apply_patch
from bench.slap_load import (
    SERVER_ENV,
    Lobby,
    RoomPlan,
    ServerProcess,
    bounded,
    check_database_url,
    code_version,
    cpu_busy_seconds,
    gather_limited,
    proc_cpu_seconds,
    proc_rss_mb,
    run_loop,
    summary,
)
from bench.soak import exit_code

SEATS = 4
NS = 1_000_000
MAX_CONNECTIONS = 4000
MAX_SWEEP_S = 240.0
"""A sweep must end well inside one Rummy turn (``turn_ms`` at most 300 s): the actor never changes."""
GRAY_CARDS = 14
"""Hand cards the Gray code walks: 2**14 - 1 distinct steps per table."""
MAX_STEP = 2**GRAY_CARDS - 1
TURN_MS = 300_000
RUMMY_OPTIONS: dict[str, Any] = {"turn_ms": TURN_MS, "rounds": 1, "afk_after": 0}

_quiet = False


def say(message: str) -> None:
    if not _quiet:
        print(f"[fanout {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def server_env(rooms: int) -> dict[str, str]:
    """Bordet's settings for a run: every abuse limit above what one loopback generator does."""
    return {**SERVER_ENV, "BORDET_MAX_LOADED_ROOMS": str(rooms + 100)}


def raise_fd_limit() -> int:
    """Soft RLIMIT_NOFILE up to the hard one (servers started afterwards inherit it); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def gc_pauses(base: str) -> tuple[float, float] | None:
    """The server's collector passes so far and their seconds in all (``bordet_gc_pause_seconds``,
    every generation); None for a server without that metric (the floor)."""
    try:
        answer = httpx.get(f"{base}/metrics", timeout=5.0)
    except httpx.HTTPError:
        return None
    if answer.status_code != 200:
        return None
    text = answer.text
    count = total = 0.0
    found = False
    for family in text_string_to_metric_families(text):
        if family.name == "bordet_gc_pause_seconds":
            for sample in family.samples:
                found = True
                if sample.name.endswith("_count"):
                    count += sample.value
                elif sample.name.endswith("_sum"):
                    total += sample.value
    return (count, total) if found else None


def run_queue_wait_s(pid: int) -> float:
    """Seconds the threads of ``pid`` were ready to run but waited for a CPU (``schedstat``'s second
    field): on a shared machine, how much the other processes held the server (or the clients) back."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(stat.read_text().split()[1])
    return total / 1e9


def gray(k: int) -> int:
    return k ^ (k >> 1)


def gray_step(mask: int) -> int:
    """The k whose Gray code is ``mask``."""
    k = mask
    while mask:
        mask >>= 1
        k ^= mask
    return k


# --------------------------------------------------------------------------- measurement


@dataclass
class RateStats:
    """One rate of the sweep: actions intended inside its measured window, and what they cost."""

    rate: float
    start: int = 0
    end: int = 0
    sent: int = 0
    completed: int = 0
    acked: int = 0
    latency: list[float] = field(default_factory=list)
    send_lag: list[float] = field(default_factory=list)
    frames: int = 0
    frame_bytes: int = 0
    messages: int = 0
    rejects: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    unresolved: int = 0
    skipped: int = 0
    seconds: float = 0.0
    server_cpu_s: float | None = None
    server_wait_s: float | None = None
    client_wait_s: float = 0.0
    client_cpu_s: float = 0.0
    machine_busy_s: float | None = None
    server_rss_mb: float | None = None
    gc_passes: int | None = None
    """The server's collector passes in the measured window, and their seconds in all."""
    gc_pause_s: float | None = None

    def holds(self, t: int) -> bool:
        return self.start <= t < self.end


@dataclass(slots=True)
class Step:
    k: int
    intended: int
    stats: RateStats | None
    """None: sent during a warm-up, not measured."""


class Table:
    """Four seats; the actor's steps in flight, and how far each seat's frames have got."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.links: list[Link] = []
        self.actor = 0
        self.turn_id = 0
        self.cards: list[str] = []
        self.k = 0
        self.seen = [0] * SEATS
        self.pending: deque[Step] = deque()
        self.stats: RateStats | None = None
        """The rate being run: frames, rejects and errors count there while its window is open."""
        self.refused_hellos = 0
        """Hellos of this table's seats the server refused while it was being set up (tried again)."""

    def observe(self, seat: int, marker: int, t: int) -> None:
        """Seat ``seat`` received at ``t`` a frame holding every step up to ``marker``."""
        if marker <= self.seen[seat]:
            return
        self.seen[seat] = marker
        low = min(self.seen)
        pending = self.pending
        while pending and pending[0].k <= low:
            step = pending.popleft()
            if step.stats is not None:
                step.stats.completed += 1
                step.stats.latency.append((t - step.intended) / NS)

    def close_steps(self) -> None:
        """End of a rate: what is still in flight will not be measured."""
        for step in self.pending:
            if step.stats is not None:
                step.stats.unresolved += 1
        self.pending.clear()


class Link(ABC):
    """One seat's WebSocket: reads every message; each protocol says what a message means."""

    def __init__(self, table: Table, seat: int, ws: ClientConnection) -> None:
        self.table, self.seat, self.ws = table, seat, ws
        self.task: asyncio.Task[None] | None = None
        self.closed_early = False
        self.close_code: int | None = None
        """The close code of the connection once it ended (None: no close frame, or not ended)."""
        self.stopping = False

    def start(self) -> None:
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for text in self.ws:
                t = time.perf_counter_ns()
                stats = self.table.stats
                if stats is not None and not stats.holds(t):
                    stats = None
                await self.on_message(text, t, stats)
        self.closed_early = not self.stopping
        self.close_code = self.ws.close_code

    @abstractmethod
    async def on_message(self, text: str | bytes, t: int, stats: RateStats | None) -> None:
        """Take one message received at ``t`` (``stats``: the open window, if ``t`` is in one)."""

    @abstractmethod
    def step_frame(self, k: int, card: str, to_draft: bool) -> str:
        """The frame that sends draft step ``k``: ``card`` into the draft or back to the hand."""

    async def close(self) -> None:
        self.stopping = True
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self.task, 5)


class BordetLink(Link):
    """A seated player of the Bordet protocol: patches its view, answers clock-sync pings."""

    def __init__(self, table: Table, seat: int, ws: ClientConnection) -> None:
        super().__init__(table, seat, ws)
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.gaps = 0
        self.pings = 0

    async def on_message(self, text: str | bytes, t: int, stats: RateStats | None) -> None:
        msg: dict[str, Any] = orjson.loads(text)
        kind = msg["type"]
        if stats is not None:
            stats.messages += 1
        if kind == "patch" or kind == "snapshot":
            if kind == "snapshot":
                self.view = msg["view"]
            elif msg["seq"] != self.seq + 1 or self.view is None:
                self.gaps += 1
                if stats is not None:
                    stats.errors["SEQ_GAP"] += 1
                await self.ws.send('{"type":"resync"}')
                return
            else:
                self.view = apply_patch(self.view, msg["ops"])
            self.seq = msg["seq"]
            if stats is not None:
                stats.frames += 1
                stats.frame_bytes += len(text)
            marker = self.marker()
            if marker:
                self.table.observe(self.seat, marker, t)
        elif kind == "ping":
            self.pings += 1
            now = time.monotonic() * 1000
            await self.ws.send(
                orjson.dumps({"type": "pong", "id": msg["id"], "t": msg["t"], "t2": now, "t3": now}).decode()
            )
        elif kind == "ack":
            if stats is not None:
                stats.acked += 1
        elif kind == "reject" or kind == "error":
            target = stats if stats is not None else self.table.stats
            if target is not None:
                (target.rejects if kind == "reject" else target.errors)[msg["code"]] += 1

    def marker(self) -> int:
        """The last draft step this view holds (0: none, or not the measured turn)."""
        assert self.view is not None
        game = self.view["game"]
        table = self.table
        if not table.cards or game is None or game["turn_id"] != table.turn_id or game["draft"] is None:
            return 0
        placed = {card for meld in game["draft"]["table"] for card in meld["cards"]}
        mask = 0
        for bit, card in enumerate(table.cards):
            if card in placed:
                mask |= 1 << bit
        return gray_step(mask)

    def step_frame(self, k: int, card: str, to_draft: bool) -> str:
        move = {
            "type": "move",
            "turn_id": self.table.turn_id,
            "card": card,
            "to": "new" if to_draft else "hand",
        }
        return orjson.dumps({"type": "action", "id": str(k), "action": move}).decode()


class FloorLink(Link):
    """A seat at the floor server: every message is an effect naming its step."""

    async def on_message(self, text: str | bytes, t: int, stats: RateStats | None) -> None:
        msg: dict[str, Any] = orjson.loads(text)
        if stats is not None:
            stats.messages += 1
        if msg["type"] != "effect":
            if stats is not None:
                stats.errors[str(msg.get("code"))] += 1
            return
        if stats is not None:
            stats.frames += 1
            stats.frame_bytes += len(text)
        self.table.observe(self.seat, msg["k"], t)

    def step_frame(self, k: int, card: str, to_draft: bool) -> str:
        return f'{{"k":{k}}}'


async def send_step(table: Table, intended: int, stats: RateStats | None) -> None:
    """The actor's next draft step, due at ``intended`` (now or already past)."""
    if table.k >= MAX_STEP:
        if stats is not None:
            stats.skipped += 1
        return
    k = table.k = table.k + 1
    bit = (k & -k).bit_length() - 1
    card = table.cards[bit] if table.cards else ""
    frame = table.links[table.actor].step_frame(k, card, bool(gray(k) >> bit & 1))
    table.pending.append(Step(k, intended, stats))
    sent = time.perf_counter_ns()
    if stats is not None:
        stats.sent += 1
        stats.send_lag.append((sent - intended) / NS)
    with contextlib.suppress(ConnectionClosed):
        await table.links[table.actor].ws.send(frame)


async def pace(
    send_times: Iterator[float],
    end: float,
    send: Callable[[int, int], Awaitable[None]],
    clock: Callable[[], int] = time.perf_counter_ns,
) -> None:
    """Send step ``j`` (0, 1, ...) at the ``j``-th of ``send_times`` (``clock`` ns), until ``end``.

    Every step due by the time the loop comes back here leaves before it yields again. Sending a
    fixed few per turn of the loop falls behind for good, and the whole run with it, once the
    readers' turns outlast those few gaps between sends: at 2,000 actions/s, eight sends a turn
    cannot keep up with turns longer than 4 ms.
    """
    j = 0
    intended = next(send_times)
    while intended < end:
        now = clock()
        if intended > now:
            await asyncio.sleep((intended - now) / 1e9)
        else:
            await asyncio.sleep(0)  # behind schedule: still let the readers take their frames
        now = clock()
        while intended <= now and intended < end:
            await send(j, int(intended))
            j += 1
            intended = next(send_times)


# --------------------------------------------------------------------------- setting a server up


async def open_ws(url: str) -> ClientConnection:
    return await connect(url, compression=None, ping_interval=None, max_size=2**22, open_timeout=60)


async def bordet_tables(base: str, count: int, concurrency: int, start: bool = True) -> list[Table]:
    """``count`` Rummy rooms of four seated players, every seat connected (and the games started)."""
    lobby = Lobby(base, concurrency)
    ws_base = "ws" + base[len("http") :]
    created = joined = 0

    async def room(i: int) -> RoomPlan:
        nonlocal created
        plan = await lobby.room(i, SEATS, RUMMY_OPTIONS, game="rummy")
        created += 1
        if created % max(1, count // 10) == 0:
            say(f"{created} of {count} rooms created")
        return plan

    try:
        plans = await gather_limited([room(i) for i in range(count)], concurrency)
        tables = [Table(i) for i in range(count)]

        async def join(table: Table, seat: int, code: str, token: str) -> None:
            nonlocal joined
            ws = await hello(f"{ws_base}/ws/rooms/{code}", token, table)
            link = BordetLink(table, seat, ws)
            table.links[seat] = link
            link.start()
            joined += 1
            if joined % max(1, count * SEATS // 10) == 0:
                say(f"{joined} of {count * SEATS} connections open")

        for table in tables:
            table.links = [None] * SEATS  # type: ignore[list-item]  # each filled by its join
        await gather_limited(
            [
                join(t, s, p.code, p.tokens[s])
                for t, p in zip(tables, plans, strict=True)
                for s in range(SEATS)
            ],
            concurrency,
        )
        if start:
            await gather_limited([lobby.start(p.code, p.tokens[0]) for p in plans], concurrency)
        return tables
    finally:
        await lobby.aclose()


HELLO_TRIES = 6
"""Hellos a seat sends before its setup fails: the server refuses one (close 1011) while a burst of
them keeps its database busy, and the browser client then tries again, backing off."""


async def hello(url: str, token: str, table: Table) -> ClientConnection:
    """A connection whose hello the server welcomed; a refused one is tried again after 0.5, 1, 2...
    seconds, with the browser client's "equal jitter" (static/js/connection.js)."""
    for attempt in range(HELLO_TRIES):
        ws = await open_ws(url)
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        with contextlib.suppress(ConnectionClosed):
            if orjson.loads(await ws.recv())["type"] == "welcome":
                return ws
        await ws.close()
        table.refused_hellos += 1
        base = min(10.0, 0.5 * 2**attempt)
        await asyncio.sleep(base / 2 + random.random() * base / 2)
    raise RuntimeError(f"the server refused {HELLO_TRIES} hellos in a row at {url}")


def bordet_ready(table: Table) -> bool:
    """Take the turn (actor, turn_id, the cards of the Gray code) once every seat's view shows it."""
    views = [link.view for link in table.links if isinstance(link, BordetLink)]
    games = [v["game"] for v in views if v is not None and v["game"] is not None]
    if len(games) < SEATS or any(g["phase"] != "TURN" or g["turn"] is None for g in games):
        return False
    actor: int = games[0]["turn"]
    hand = games[actor]["hand"]
    if hand is None or games[actor]["draft"]["steps"]:
        return False
    table.actor, table.turn_id, table.cards = actor, games[0]["turn_id"], list(hand[:GRAY_CARDS])
    return True


async def floor_tables(base: str, count: int, concurrency: int) -> list[Table]:
    ws_base = "ws" + base[len("http") :]
    tables = [Table(i) for i in range(count)]

    async def join(table: Table, seat: int) -> None:
        link = FloorLink(table, seat, await open_ws(f"{ws_base}/ws/floor/{table.index}/{seat}"))
        table.links[seat] = link
        link.start()

    for table in tables:
        table.links = [None] * SEATS  # type: ignore[list-item]  # each filled by its join
    await gather_limited([join(t, s) for t in tables for s in range(SEATS)], concurrency)
    return tables


async def wait_for(check: Callable[[], bool], what: str, timeout: float, alive: Callable[[], bool]) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if not alive():
            raise RuntimeError(f"the server exited while waiting for {what}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.05)


# --------------------------------------------------------------------------- the sweep


@dataclass
class Args:
    connections: int
    rates: list[float]
    warmup: float
    seconds: float
    grace: float
    schedule: str
    seed: int
    targets: list[str]
    database_url: str | None
    pin: bool
    concurrency: int
    as_json: bool
    quiet: bool
    repeat: int = 1
    """Runs of each server, alternating; the figures are the medians over them."""


@dataclass
class TargetResult:
    name: str
    server_pid: int = 0
    rss_start_mb: float | None = None
    rss_connected_mb: float | None = None
    rates: list[RateStats] = field(default_factory=list)
    seq_gaps: int = 0
    closed_early: int = 0
    notes: list[str] = field(default_factory=list)


async def run_rate(
    args: Args, tables: list[Table], stats: RateStats, server: ServerProcess, rng: random.Random
) -> None:
    """Pace the actions of one rate: a warm-up, the measured window, then a grace for the last frames."""
    pid = server.pid
    gap_ns = 1e9 / stats.rate
    begin = time.perf_counter_ns() + 20 * NS
    stats.start = begin + int(args.warmup * 1e9)
    stats.end = stats.start + int(args.seconds * 1e9)
    for table in tables:
        table.stats = stats

    def meter() -> None:
        # A thread of its own: a busy event loop would wake it late and shift the CPU window.
        time.sleep(max(0.0, (stats.start - time.perf_counter_ns()) / 1e9))
        gc0 = gc_pauses(server.base)  # scraped outside the CPU window: the scrape costs the server too
        cpu0, own0, busy0 = sum(proc_cpu_seconds(pid)), os.times(), cpu_busy_seconds()["all"]
        wait0, own_wait0 = run_queue_wait_s(pid), run_queue_wait_s(os.getpid())
        w0 = time.perf_counter_ns()
        time.sleep(max(0.0, (stats.end - time.perf_counter_ns()) / 1e9))
        cpu1, own1, busy1 = sum(proc_cpu_seconds(pid)), os.times(), cpu_busy_seconds()["all"]
        stats.server_wait_s = run_queue_wait_s(pid) - wait0
        stats.client_wait_s = run_queue_wait_s(os.getpid()) - own_wait0
        stats.seconds = (time.perf_counter_ns() - w0) / 1e9
        stats.server_cpu_s = cpu1 - cpu0
        stats.client_cpu_s = own1.user + own1.system - own0.user - own0.system
        stats.machine_busy_s = busy1 - busy0
        stats.server_rss_mb = proc_rss_mb(pid)
        gc1 = gc_pauses(server.base)
        if gc0 is not None and gc1 is not None:
            stats.gc_passes = round(gc1[0] - gc0[0])
            stats.gc_pause_s = gc1[1] - gc0[1]

    def send_times() -> Iterator[float]:
        intended = float(begin)
        while True:
            yield intended
            intended += rng.expovariate(1.0) * gap_ns if args.schedule == "poisson" else gap_ns

    async def send(j: int, due: int) -> None:
        await send_step(tables[j % len(tables)], due, stats if stats.holds(due) else None)

    await asyncio.gather(asyncio.to_thread(meter), pace(send_times(), stats.end, send))
    grace_end = time.perf_counter_ns() + int(args.grace * 1e9)
    while time.perf_counter_ns() < grace_end and any(t.pending for t in tables):
        await asyncio.sleep(0.02)
    for table in tables:
        table.close_steps()
        table.stats = None


async def sweep(args: Args, name: str, server: ServerProcess, result: TargetResult) -> None:
    tables_count = args.connections // SEATS
    rng = random.Random(args.seed)
    say(f"{name}: setting up {tables_count} tables, {tables_count * SEATS} connections")
    t0 = time.monotonic()
    if name == "bordet":
        tables = await bordet_tables(server.base, tables_count, args.concurrency)
    else:
        tables = await floor_tables(server.base, tables_count, args.concurrency)
    links = [link for t in tables for link in t.links]
    try:
        if name == "bordet":
            await wait_for(
                lambda: all(bordet_ready(t) for t in tables), "every game's first turn", 120, server.alive
            )
        result.rss_connected_mb = proc_rss_mb(server.pid)
        result.notes.append(f"setup: {len(links)} connections ready in {time.monotonic() - t0:.1f} s")
        heap.settle()  # this process's own collector passes would count as server latency
        for rate in args.rates:
            if not server.alive():
                raise RuntimeError(f"the {name} server exited during the sweep")
            say(f"{name}: {rate:g} actions/s ({args.warmup:g} s warm-up, {args.seconds:g} s measured)")
            stats = RateStats(rate=rate)
            with collector_paused():
                await run_rate(args, tables, stats, server, rng)
            result.rates.append(stats)
    finally:
        await asyncio.gather(*(link.close() for link in links), return_exceptions=True)
        result.closed_early = sum(link.closed_early for link in links)
        result.seq_gaps = sum(link.gaps for link in links if isinstance(link, BordetLink))


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """This process's cyclic collector off for one rate, and a full pass after it. Even after
    ``heap.settle`` its young passes over the clients' views took 15-20 ms, a few in each window,
    and every send due and every frame arriving during one was counted late: as server latency
    (``bench.fanout`` at 1,000 and 2,000 actions/s: p99 15.8 and 77.7 ms with them, 10.4 and 51.3
    without). Refcounting still frees everything acyclic; the cycles of one rate wait for the pass."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
        gc.collect()


@contextlib.contextmanager
def pinned_server(server: ServerProcess, pin: bool, notes: list[str]) -> Iterator[ServerProcess]:
    """Start ``server`` on the first CPU and move this process (the clients) to the others; undo both
    at the end, and show the server's last log lines if it died."""
    mine = os.sched_getaffinity(0)
    cpus = sorted(mine)
    pinned = pin and len(cpus) >= 2
    try:
        server.start({cpus[0]} if pinned else None)
        if pinned:
            os.sched_setaffinity(0, set(cpus[1:]))
        where = (
            f"pinned to CPU {cpus[0]}, clients on {','.join(map(str, cpus[1:]))}" if pinned else "not pinned"
        )
        notes.append(f"server pid {server.pid} ({server.app}), {where}")
        yield server
    except BaseException:
        if not server.alive():
            print(f"server log tail:\n{server.log_tail()}", file=sys.stderr)
        raise
    finally:
        os.sched_setaffinity(0, mine)
        server.stop()


def run_target(args: Args, name: str, tmp: Path) -> TargetResult:
    result = TargetResult(name=name)
    tmp.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(
        database_url=args.database_url or f"sqlite+aiosqlite:///{tmp}/{name}.db",
        log_path=tmp / f"{name}.log",
        env=server_env(args.connections // SEATS),
        app="app.main:app" if name == "bordet" else "bench.floor_server:app",
    )
    with pinned_server(server, args.pin, result.notes):
        result.server_pid = server.pid
        result.rss_start_mb = proc_rss_mb(server.pid)
        run_loop(sweep(args, name, server, result), "uvloop")
    return result


# --------------------------------------------------------------------------- report


def rate_figures(s: RateStats, connections: int) -> dict[str, Any]:
    secs = (s.end - s.start) / 1e9  # the window the actions were scheduled in
    frames_per_s = s.frames / secs
    cpu_secs = s.seconds or secs  # the window the CPU was read over (the same, give or take a tick)
    cpu_pct = None if s.server_cpu_s is None else 100 * s.server_cpu_s / cpu_secs
    client_pct = 100 * s.client_cpu_s / cpu_secs
    other = None
    if s.machine_busy_s is not None and s.server_cpu_s is not None:
        other = max(0.0, 100 * (s.machine_busy_s - s.server_cpu_s - s.client_cpu_s) / cpu_secs)
    return {
        "target_per_s": s.rate,
        "sent_per_s": s.sent / secs,
        "accepted_per_s": s.completed / secs,
        "acked_per_s": s.acked / secs,
        "latency_ms": summary(s.latency),
        "send_lag_ms": summary(s.send_lag),
        "frames_per_s": frames_per_s,
        "frame_bytes_avg": s.frame_bytes / s.frames if s.frames else 0.0,
        "messages_per_s": s.messages / secs,
        "server_cpu_pct": cpu_pct,
        "server_cpu_pct_per_1000_frames_per_s": (
            None if cpu_pct is None or not frames_per_s else cpu_pct / (frames_per_s / 1000)
        ),
        "server_cpu_pct_per_1000_actions_per_s": (
            None if cpu_pct is None or not s.completed else cpu_pct / (s.completed / secs / 1000)
        ),
        "server_rss_mb": s.server_rss_mb,
        "server_gc_passes": s.gc_passes,
        "server_gc_pause_ms": None if s.gc_pause_s is None else s.gc_pause_s * 1000,
        "server_rss_mb_per_1000_connections": (
            None if s.server_rss_mb is None else s.server_rss_mb / (connections / 1000)
        ),
        "client_cpu_pct": client_pct,
        "server_waiting_for_cpu_pct": None if s.server_wait_s is None else 100 * s.server_wait_s / cpu_secs,
        "client_waiting_for_cpu_pct": 100 * s.client_wait_s / cpu_secs,
        "other_processes_cpu_pct": other,
        "rejects": dict(s.rejects),
        "errors": dict(s.errors),
        "unresolved": s.unresolved,
        "skipped": s.skipped,
        "measured_s": secs,
        "cpu_measured_s": cpu_secs,
    }


def ratios(bordet: list[dict[str, Any]], floor: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def ratio(a: float | None, b: float | None) -> float | None:
        return None if a is None or not b else a / b

    return [
        {
            "target_per_s": b["target_per_s"],
            "cpu_per_1000_frames_per_s": ratio(
                b["server_cpu_pct_per_1000_frames_per_s"], f["server_cpu_pct_per_1000_frames_per_s"]
            ),
            "cpu_per_1000_actions_per_s": ratio(
                b["server_cpu_pct_per_1000_actions_per_s"], f["server_cpu_pct_per_1000_actions_per_s"]
            ),
            "p99": ratio(b["latency_ms"]["p99"], f["latency_ms"]["p99"]),
        }
        for b, f in zip(bordet, floor, strict=True)
    ]


def target_figures(args: Args, r: TargetResult) -> dict[str, Any]:
    return {
        "server_pid": r.server_pid,
        "rss_start_mb": r.rss_start_mb,
        "rss_connected_mb": r.rss_connected_mb,
        "rss_added_mb_per_1000_connections": (
            None
            if r.rss_start_mb is None or r.rss_connected_mb is None
            else (r.rss_connected_mb - r.rss_start_mb) / (args.connections / 1000)
        ),
        "seq_gaps": r.seq_gaps,
        "connections_closed_early": r.closed_early,
        "notes": r.notes,
        "rates": [rate_figures(s, args.connections) for s in r.rates],
    }


def median_of(values: list[Any]) -> Any:
    """One figure over several runs: the median of the numbers (None if no run has one), a summary
    (a dict) key by key, anything else as the first run has it.

    >>> median_of([3.0, None, 1.0, 2.0]), median_of([{"p99": 9}, {"p99": 5}, {"p99": 7}]), median_of([None])
    (2.0, {'p99': 7}, None)
    """
    present = [v for v in values if v is not None]
    if not present:
        return None
    first = present[0]
    if isinstance(first, dict):
        return {key: median_of([v.get(key) for v in present]) for key in first}
    if isinstance(first, bool) or not isinstance(first, int | float):
        return first
    return statistics.median(present)


def merged_rates(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Per rate, the median of each figure over the runs; what went wrong (rejects, errors, actions
    left unresolved or skipped) is summed instead, so that no run's trouble is hidden."""
    merged = []
    for same_rate in zip(*runs, strict=True):
        rate = {key: median_of([r[key] for r in same_rate]) for key in same_rate[0]}
        for key in ("unresolved", "skipped"):
            rate[key] = sum(r[key] for r in same_rate)
        for key in ("rejects", "errors"):
            rate[key] = dict(sum((Counter(r[key]) for r in same_rate), Counter()))
        merged.append(rate)
    return merged


def merged_target(runs: list[dict[str, Any]]) -> dict[str, Any]:
    if len(runs) == 1:
        return runs[0]
    out = {key: median_of([r[key] for r in runs]) for key in runs[0] if key not in ("rates", "notes")}
    out["seq_gaps"] = sum(r["seq_gaps"] for r in runs)
    out["connections_closed_early"] = sum(r["connections_closed_early"] for r in runs)
    later = [n for r in runs[1:] for n in r["notes"] if n.startswith("server pid")]
    out["notes"] = [*runs[0]["notes"], *later, f"medians of {len(runs)} runs"]
    out["rates"] = merged_rates([r["rates"] for r in runs])
    out["runs"] = runs
    return out


def figures(args: Args, results: dict[str, list[TargetResult]], notes: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "connections": args.connections,
        "tables": args.connections // SEATS,
        "rates": args.rates,
        "warmup_s": args.warmup,
        "measured_s": args.seconds,
        "schedule": args.schedule,
        "repeat": args.repeat,
        "python": platform.python_version(),
        "notes": notes,
        "targets": {},
    }
    runs = {name: [target_figures(args, r) for r in rs] for name, rs in results.items()}
    for name, target_runs in runs.items():
        out["targets"][name] = merged_target(target_runs)
    if "bordet" in runs and "floor" in runs:
        # Each run of Bordet against the floor's run beside it (the machine as it was then).
        paired = [ratios(b["rates"], f["rates"]) for b, f in zip(runs["bordet"], runs["floor"], strict=True)]
        out["ratio_bordet_to_floor"] = [median_of(list(same)) for same in zip(*paired, strict=True)]
    return out


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def render(f: dict[str, Any]) -> str:
    lines = [
        f"Fan-out: {f['connections']} connections in {f['tables']} tables of {SEATS}, Rummy draft steps, "
        f"{f['schedule']} schedule, {f['warmup_s']:g} s warm-up + {f['measured_s']:g} s per rate",
        *(f"  {n}" for n in f["notes"]),
    ]
    head = (
        f"  {'rate':>6} {'sent/s':>8} {'acc/s':>8} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} "
        f"{'lag99':>6} {'frames/s':>9} {'cpu%':>6} {'cpu%/kf':>7} {'cpu%/ka':>7} {'rss MB':>7} {'MB/kc':>6} "
        f"{'gc n':>4} {'gc ms':>6} {'gen%':>5} {'other%':>6} {'s-wait%':>7} {'g-wait%':>7} "
        f"{'rej':>4} {'err':>4} {'unres':>5}"
    )
    for name, t in f["targets"].items():
        lines += ["", f"{name}:", *(f"  {n}" for n in t["notes"])]
        lines.append(
            f"  RSS {_num(t['rss_start_mb'], '.0f')} MB at start, {_num(t['rss_connected_mb'], '.0f')} MB "
            f"connected ({_num(t['rss_added_mb_per_1000_connections'], '.1f')} MB added per 1,000 "
            "connections); "
            f"seq gaps {t['seq_gaps']}, connections closed early {t['connections_closed_early']}"
        )
        lines.append(head)
        for i, r in enumerate(t["rates"]):
            lat = r["latency_ms"]
            lines.append(
                f"  {r['target_per_s']:>6g} {r['sent_per_s']:>8.0f} {r['accepted_per_s']:>8.0f} "
                f"{_num(lat['p50'], '7.1f')} {_num(lat['p95'], '7.1f')} {_num(lat['p99'], '7.1f')} "
                f"{_num(lat['max'], '7.1f')} {_num(r['send_lag_ms']['p99'], '6.1f')} "
                f"{r['frames_per_s']:>9.0f} {_num(r['server_cpu_pct'], '6.1f')} "
                f"{_num(r['server_cpu_pct_per_1000_frames_per_s'], '7.2f')} "
                f"{_num(r['server_cpu_pct_per_1000_actions_per_s'], '7.2f')} "
                f"{_num(r['server_rss_mb'], '7.0f')} {_num(r['server_rss_mb_per_1000_connections'], '6.1f')} "
                f"{_num(r['server_gc_passes'], '4.0f')} {_num(r['server_gc_pause_ms'], '6.0f')} "
                f"{r['client_cpu_pct']:>5.0f} {_num(r['other_processes_cpu_pct'], '6.0f')} "
                f"{_num(r['server_waiting_for_cpu_pct'], '7.0f')} {r['client_waiting_for_cpu_pct']:>7.0f} "
                f"{sum(r['rejects'].values()):>4} {sum(r['errors'].values()):>4} {r['unresolved']:>5}"
            )
            problems = {**r["rejects"], **r["errors"]}
            if problems:
                lines.append(f"         rejects/errors: {problems}")
            if "runs" in t:
                same = [run["rates"][i] for run in t["runs"]]
                p99s = " / ".join(_num(x["latency_ms"]["p99"], ".1f") for x in same)
                cpus = " / ".join(_num(x["server_cpu_pct"], ".1f") for x in same)
                lines.append(f"         by run: p99 {p99s} ms; cpu% {cpus}")
    if "ratio_bordet_to_floor" in f:
        lines += [
            "",
            "Bordet / floor" + (" (the median of each run's own ratio):" if f["repeat"] > 1 else ":"),
            f"  {'rate':>6} {'cpu per 1,000 frames/s':>24} {'cpu per 1,000 actions/s':>24} {'p99':>8}",
        ]
        for r in f["ratio_bordet_to_floor"]:
            lines.append(
                f"  {r['target_per_s']:>6g} {_num(r['cpu_per_1000_frames_per_s'], '23.1f')}x "
                f"{_num(r['cpu_per_1000_actions_per_s'], '23.1f')}x {_num(r['p99'], '7.1f')}x"
            )
    lines += [
        "",
        "  latency ms from intended send time to the last of the 4 seats; lag99: p99 of send time - intended",
        "  cpu%: server, % of one core; cpu%/kf: per 1,000 frames/s received; cpu%/ka: per 1,000 accepted"
        " actions/s",
        "  (Bordet folds the steps one room turn drains into one frame per seat: under load, fewer frames)",
        "  MB/kc: server RSS per 1,000 connections",
        "  gc n, gc ms: the server's garbage-collector passes in the window and their pauses in all"
        " (every action arriving meanwhile waits; - for a server without the metric)",
        "  gen%: this load generator's CPU (near 100 % means it limited the run);"
        " other%: the rest of the machine",
        "  s-wait%, g-wait%: time the server's / generator's threads were ready but waited for a CPU"
        " (busy machine)",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- command line


def parse_rates(text: str) -> list[float]:
    try:
        rates = [float(r) for r in text.split(",") if r.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, not {text!r}") from None
    if not rates or len(rates) > 20 or any(not 1 <= r <= 100_000 for r in rates):
        raise argparse.ArgumentTypeError("1 to 20 rates, each between 1 and 100000 actions/s")
    return rates


def parse_args(argv: list[str] | None) -> Args:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fanout",
        description="Open-loop Rummy draft steps over many WebSockets, Bordet beside a bare broadcast floor.",
    )
    parser.add_argument("--connections", type=bounded(int, SEATS, MAX_CONNECTIONS), default=1000)
    parser.add_argument("--rates", type=parse_rates, default=[250.0, 500.0, 1000.0, 2000.0, 4000.0])
    parser.add_argument("--warmup", type=bounded(float, 0, 30), default=2.0, help="seconds before each rate")
    parser.add_argument("--seconds", type=bounded(float, 0.5, 60), default=5.0, help="measured per rate")
    parser.add_argument("--grace", type=bounded(float, 0, 10), default=2.0, help="for the last frames")
    parser.add_argument("--schedule", choices=("poisson", "fixed"), default="poisson")
    parser.add_argument("--seed", type=int, default=1, help="of the Poisson schedule")
    parser.add_argument("--only", choices=("bordet", "floor"), help="one server instead of both")
    parser.add_argument("--database-url", help="Bordet's database (default: a temporary SQLite file)")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server and clients")
    parser.add_argument("--concurrency", type=bounded(int, 1, 200), default=32, help="parallel setup")
    parser.add_argument(
        "--repeat", type=bounded(int, 1, 9), default=1, help="runs of each server, alternating: medians"
    )
    parser.add_argument("--json", dest="as_json", action="store_true", help="the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(argv)
    if ns.connections % SEATS:
        parser.error(f"--connections must be a multiple of {SEATS}")
    if len(ns.rates) * (ns.warmup + ns.seconds + ns.grace) > MAX_SWEEP_S:
        parser.error(
            f"a sweep must fit in {MAX_SWEEP_S:g} s (one Rummy turn): fewer rates or shorter windows"
        )
    if ns.database_url:
        check_database_url(ns.database_url)
    return Args(
        connections=ns.connections,
        rates=ns.rates,
        warmup=ns.warmup,
        seconds=ns.seconds,
        grace=ns.grace,
        schedule=ns.schedule,
        seed=ns.seed,
        targets=[ns.only] if ns.only else ["bordet", "floor"],
        database_url=ns.database_url,
        pin=ns.pin,
        concurrency=ns.concurrency,
        as_json=ns.as_json,
        quiet=ns.quiet,
        repeat=ns.repeat,
    )


def run(args: Args) -> None:
    notes = [
        f"code: {code_version()}, Python {platform.python_version()} (the server's too)",
        f"file descriptors: soft limit raised to {raise_fd_limit()}",
    ]
    results: dict[str, list[TargetResult]] = {name: [] for name in args.targets}
    with tempfile.TemporaryDirectory(prefix="bordet-fanout-") as tmp:
        for run_no in range(args.repeat):
            for name in args.targets:  # alternating, so a noisy minute of the machine hits both
                results[name].append(run_target(args, name, Path(tmp) / f"{run_no}"))
    f = figures(args, results, notes)
    print(json.dumps(f, indent=2) if args.as_json else render(f))


def main(argv: list[str] | None = None) -> int:
    global _quiet
    raw = sys.argv[1:] if argv is None else argv
    if "--idle" in raw:
        from bench.fanout_idle import main as idle_main  # it imports this module

        return idle_main([a for a in raw if a != "--idle"])
    args = parse_args(raw)
    _quiet = args.quiet
    return exit_code("fanout", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
