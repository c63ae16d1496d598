"""Room lifecycle figures: what idle rooms cost in memory, and how long a start takes with a long history.

    python -m bench.lifecycle idle-rooms [--rooms 10000] [--database-url ...]
    python -m bench.lifecycle startup [--games 100000] [--database-url ...]

``idle-rooms``
    Starts a real server (:class:`bench.slap_load.ServerProcess`: loopback, a free port, a temporary
    SQLite file unless ``--database-url``) with ``BORDET_ROOM_IDLE_S=1``, the abuse limits raised and
    ``BORDET_MAX_LOADED_ROOMS`` above the run's rooms. Creates a pool of ``--players`` hosts and a few
    warm-up rooms, reads the server's RSS (``/proc/<pid>/status`` VmRSS), then creates ``--rooms``
    public lobby rooms over HTTP with at most ``--concurrency`` requests in flight. Reads RSS and
    ``bordet_rooms_loaded`` (``GET /metrics``) right after, then polls until no room is loaded
    (bounded by ``--unload-timeout``) and reads RSS again, and once more after the server's next
    heap trim (:func:`app.heap.keep_trimmed`, once a minute). Prints the cost per room while loaded
    and what is left per room once they are all put away, then checks that one random room still
    answers ``GET /api/rooms/{code}`` (loaded again on demand) and that the paged ``GET /api/rooms``
    still lists every room created.

    The rooms are created faster than the sweep (every 5 s) puts them away, but not faster than
    one second each: on the real clock most would leave memory while the rest are still being
    created, and "all loaded" would never be measured. So by default the server runs its room
    clock by hand (``BORDET_TEST_CLOCK=1``): the clock the idle time is measured on stands still
    while the rooms are created, and once they are all made this tool moves it on two seconds per
    poll, so every room turns idle at the next sweep. Lobby rooms have no deadline, so nothing else
    in them depends on that clock. ``--real-clock`` runs on the real clock instead (then "loaded
    right after creating" is whatever the sweep left).

``startup``
    Fills a scratch database (by default a fresh schema ``bordet_bench_<random>`` in the local
    PostgreSQL test database, selected with ``?options=-csearch_path%3D<schema>``, dropped at the end;
    a SQLite URL names a file that must not exist yet, removed at the end) with ``--games`` finished
    rooms (:mod:`bench.history`: players, members, one finished game and a few events each, written
    as rows) and ``--playing`` rooms whose game was started through the app. Then measures the start:
    ``migrate`` on a database already at head (every start runs it), ``RoomManager.recover()`` on a
    fresh manager in this process (the database already connected; ``--repeat`` times) and how many
    rooms it loaded, and a real server's time from spawn until ``/api/health`` answers 200
    (``ServerProcess.start`` polls every 0.1 s), with ``bordet_rooms_loaded`` then. The same server
    start on an empty database (migrated beforehand, so only the data differs) is the comparison.

No pass/fail: figures for a person to read. Loopback only; every count and wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from app.db.event_log import EventLog
from app.db.store import Store, create_engine, migrate, normalize_url
from app.engines import ALL_ENGINES
from app.heap import TRIM_EVERY_S
from app.rooms.clock import MonotonicClock
from app.rooms.manager import RoomManager
from bench import history
from bench.slap_load import (
    SERVER_ENV,
    Lobby,
    ServerProcess,
    _redact,
    bounded,
    check_database_url,
    code_version,
    gather_limited,
    proc_rss_mb,
    run_loop,
)
from bench.soak import exit_code, log_problems, metric_totals

MAX_ROOMS = 50_000
MAX_PLAYERS = 5_000
MAX_GAMES = 1_000_000
MAX_PLAYING = 500
MAX_WAIT_S = 900.0
WARMUP_ROOMS = 20
"""Created before the "before" reading: the first rooms fill caches (compiled SQL, pydantic) once."""
POLL_S = 0.5
CLOCK_STEP_MS = 2000
"""How far the hand-run room clock moves per poll: past ``BORDET_ROOM_IDLE_S`` (1 s)."""
PAGE = 100
DEFAULT_PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"

IDLE_ENV = {**SERVER_ENV, "BORDET_ROOM_IDLE_S": "1"}
"""``SERVER_ENV`` raises the players/rooms per minute and rooms per host for 127.0.0.1."""
TRIM_WAIT_S = TRIM_EVERY_S + 5
"""Memory freed by the rooms put away goes back to the system at the server's next heap trim."""


def say(message: str) -> None:
    print(f"[lifecycle {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def database_label(url: str | None) -> str:
    return "SQLite (temporary file)" if url is None else _redact(url)


async def rooms_loaded(http: httpx.AsyncClient) -> int:
    r = await http.get("/metrics")
    r.raise_for_status()
    return int(metric_totals(r.text).get("bordet_rooms_loaded", -1))


def kb_per(mb_after: float | None, mb_before: float | None, count: int) -> str:
    if mb_after is None or mb_before is None or count == 0:
        return "-"
    return f"{(mb_after - mb_before) * 1024 / count:.2f} KB"


def mb(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


# =========================================================================== idle-rooms


@dataclass
class IdleArgs:
    rooms: int
    players: int
    concurrency: int
    game: str
    database_url: str | None
    unload_timeout: float
    real_clock: bool
    cycles: int


@dataclass
class Cycle:
    """One batch of rooms created, then put away."""

    loaded_mb: float | None = None
    unloaded_mb: float | None = None
    trimmed_mb: float | None = None
    loaded_after_create: int = 0
    loaded_after_wait: int = -1
    create_s: float = 0.0
    unload_s: float = 0.0


@dataclass
class IdleFigures:
    before_mb: float | None = None
    cycles: list[Cycle] = field(default_factory=list)
    probe: str = ""
    listing: str = ""


async def create_rooms(lobby: Lobby, hosts: list[str], game: str, count: int, limit: int) -> list[str]:
    async def one(i: int) -> str:
        room = await lobby.post("/api/rooms", hosts[i % len(hosts)], {"game": game, "public": True})
        return str(room["code"])

    codes: list[str] = await gather_limited([one(i) for i in range(count)], limit)
    return codes


async def wait_unloaded(http: httpx.AsyncClient, held_clock: bool, timeout: float) -> int:
    """Polls ``bordet_rooms_loaded`` until 0 or ``timeout``; returns the last count."""
    deadline = time.monotonic() + timeout
    loaded = await rooms_loaded(http)
    while loaded > 0 and time.monotonic() < deadline:
        if held_clock:
            # A room's idle time starts at the first sweep that finds it idle: keep moving the
            # clock, so the rooms the sweep first sees late also reach the idle time.
            r = await http.post("/api/_test/clock", json={"ms": CLOCK_STEP_MS})
            r.raise_for_status()
        await asyncio.sleep(POLL_S)
        loaded = await rooms_loaded(http)
    return loaded


async def probe_room(http: httpx.AsyncClient, code: str) -> str:
    """One room put away answers again: rebuilt from the database on this request."""
    r = await http.get(f"/api/rooms/{code}")
    status = r.json().get("status") if r.status_code == 200 else r.text[:200]
    return (
        f"GET /api/rooms/{code} -> {r.status_code} ({status}); rooms loaded then: {await rooms_loaded(http)}"
    )


async def walk_list(http: httpx.AsyncClient, codes: set[str], max_pages: int) -> str:
    """Every page of the public lobby list: are all the rooms created there?"""
    started = time.perf_counter()
    seen: set[str] = set()
    cursor: str | None = None
    pages = 0
    while pages < max_pages:
        params: dict[str, Any] = {"limit": PAGE} | ({"cursor": cursor} if cursor else {})
        r = await http.get("/api/rooms", params=params)
        r.raise_for_status()
        body = r.json()
        pages += 1
        seen.update(room["code"] for room in body["rooms"])
        cursor = body["next"]
        if cursor is None:
            break
    took = time.perf_counter() - started
    return (
        f"GET /api/rooms: {len(seen)} rooms in {pages} pages of {PAGE} ({took:.2f} s), "
        f"{len(codes & seen)} of the {len(codes)} created" + ("" if cursor is None else "; stopped early")
    )


async def one_cycle(
    args: IdleArgs, server: ServerProcess, lobby: Lobby, hosts: list[str]
) -> tuple[Cycle, list[str]]:
    c = Cycle()
    say(f"creating {args.rooms} lobby rooms ({args.concurrency} requests in flight)")
    started = time.perf_counter()
    codes = await create_rooms(lobby, hosts, args.game, args.rooms, args.concurrency)
    c.create_s = time.perf_counter() - started
    c.loaded_mb = proc_rss_mb(server.pid)
    c.loaded_after_create = await rooms_loaded(lobby.http)
    say(f"{c.loaded_after_create} rooms loaded; waiting until they are put away")
    started = time.perf_counter()
    c.loaded_after_wait = await wait_unloaded(lobby.http, not args.real_clock, args.unload_timeout)
    c.unload_s = time.perf_counter() - started
    c.unloaded_mb = proc_rss_mb(server.pid)
    say(f"all put away; waiting {TRIM_WAIT_S:.0f} s for the server's next heap trim")
    await asyncio.sleep(TRIM_WAIT_S)
    c.trimmed_mb = proc_rss_mb(server.pid)
    return c, codes


async def idle_rooms(args: IdleArgs, server: ServerProcess, f: IdleFigures) -> None:
    lobby = Lobby(server.base, args.concurrency)
    try:
        say(f"creating {args.players} players and {WARMUP_ROOMS} warm-up rooms")
        hosts: list[str] = await gather_limited(
            [lobby.player(f"idle{i}") for i in range(args.players)], args.concurrency
        )
        codes = set(await create_rooms(lobby, hosts, args.game, WARMUP_ROOMS, args.concurrency))
        f.before_mb = proc_rss_mb(server.pid)
        for _ in range(args.cycles):
            cycle, made = await one_cycle(args, server, lobby, hosts)
            f.cycles.append(cycle)
            codes.update(made)
        f.probe = await probe_room(lobby.http, random.choice(sorted(codes)))
        f.listing = await walk_list(lobby.http, codes, len(codes) // PAGE + 10)
    finally:
        await lobby.aclose()


def render_idle(args: IdleArgs, f: IdleFigures, server: ServerProcess) -> str:
    clock = "real room clock" if args.real_clock else "room clock held while creating"
    lines = [
        f"idle lobby rooms: {args.rooms} {args.game} rooms by {args.players} hosts"
        + (f", {args.cycles} times" if args.cycles > 1 else "")
        + f", {database_label(args.database_url)}, BORDET_ROOM_IDLE_S=1, {clock}, {code_version()}",
        "",
        f"{'':36} {'RSS MB':>8} {'rooms loaded':>13}",
        f"{'before (after warm-up)':36} {mb(f.before_mb):>8} {WARMUP_ROOMS:>13}",
    ]
    for n, c in enumerate(f.cycles, start=1):
        tag = f" (batch {n})" if args.cycles > 1 else ""
        lines += [
            f"{'right after creating' + tag:36} {mb(c.loaded_mb):>8} {c.loaded_after_create:>13}",
            f"{'after the idle ones left' + tag:36} {mb(c.unloaded_mb):>8} {c.loaded_after_wait:>13}",
            f"{'after the next heap trim' + tag:36} {mb(c.trimmed_mb):>8} {'':>13}",
        ]
    lines.append("")
    start_mb = f.before_mb
    for n, c in enumerate(f.cycles, start=1):
        tag = f"batch {n}: " if args.cycles > 1 else ""
        lines += [
            f"{tag}per room while loaded:     {kb_per(c.loaded_mb, start_mb, args.rooms)}"
            "  ((right after creating - before this batch) / rooms of the batch)",
            f"{tag}per room after unloading:  {kb_per(c.unloaded_mb, f.before_mb, n * args.rooms)}"
            "  ((after unloading - before) / rooms created so far)",
            f"{tag}per room after the heap trim: {kb_per(c.trimmed_mb, f.before_mb, n * args.rooms)}"
            "  ((after the trim - before) / rooms created so far)",
            f"{tag}created in {c.create_s:.1f} s ({args.rooms / max(c.create_s, 1e-9):.0f} rooms/s); "
            f"all put away {c.unload_s:.1f} s later"
            + ("" if c.loaded_after_wait == 0 else f" (NOT all: {c.loaded_after_wait} still loaded)"),
        ]
        start_mb = c.unloaded_mb
    lines += [f.probe, f.listing]
    errors, tracebacks = log_problems(server.log_path)
    lines.append(f"server log: {errors} ERROR lines, {tracebacks} Traceback lines")
    return "\n".join(lines)


def run_idle(args: IdleArgs) -> str:
    with tempfile.TemporaryDirectory(prefix="bordet-lifecycle-") as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bordet.db"
        env = {**IDLE_ENV, "BORDET_MAX_LOADED_ROOMS": str(2 * (args.rooms + WARMUP_ROOMS))}
        if not args.real_clock:
            env["BORDET_TEST_CLOCK"] = "1"
        server = ServerProcess(database_url=url, log_path=Path(tmp) / "server.log", env=env)
        say(f"starting the server ({database_label(args.database_url)}, {code_version()})")
        server.start(None)
        say(f"server pid {server.pid} on {server.base}")
        figures = IdleFigures()
        try:
            run_loop(idle_rooms(args, server, figures), "uvloop")
            return render_idle(args, figures, server)
        except BaseException:
            state = "running" if server.alive() else "exited"
            print(f"server ({state}) log tail:\n{server.log_tail()}", file=sys.stderr)
            raise
        finally:
            server.stop()


# =========================================================================== startup


@dataclass
class StartupArgs:
    games: int
    playing: int
    database_url: str
    repeat: int


@dataclass
class ServerStart:
    seconds: list[float] = field(default_factory=list)
    loaded: int = -1
    rss_mb: float | None = None


@dataclass
class StartupFigures:
    fill_s: float = 0.0
    running_s: float = 0.0
    migrate_s: float = 0.0
    recover_s: list[float] = field(default_factory=list)
    recovered: int = -1
    full: ServerStart = field(default_factory=ServerStart)
    empty: ServerStart = field(default_factory=ServerStart)
    counts: dict[str, int] = field(default_factory=dict)


@asynccontextmanager
async def scratch_database(url: str, tmp: Path, name: str) -> AsyncIterator[str]:
    """A database nobody else uses, removed afterwards: a fresh PostgreSQL schema, or a new SQLite file."""
    if url.startswith("sqlite"):
        async with _scratch_sqlite(url, tmp, name) as scratch:
            yield scratch
    else:
        async with _scratch_schema(url) as scratch:
            yield scratch


@asynccontextmanager
async def _scratch_sqlite(url: str, tmp: Path, name: str) -> AsyncIterator[str]:
    given = make_url(normalize_url(url)).database
    path = Path(given) if given and name == "data" else tmp / f"{name}.db"
    if path.exists():
        raise SystemExit(
            f"{path} exists: give a SQLite file that does not exist yet (it is removed afterwards)"
        )
    try:
        yield f"sqlite+aiosqlite:///{path}"
    finally:
        for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            leftover.unlink(missing_ok=True)


@asynccontextmanager
async def _scratch_schema(url: str) -> AsyncIterator[str]:
    base = normalize_url(url)
    if "?" in base:
        raise SystemExit("--database-url: give the PostgreSQL database without query options")
    schema = f"bordet_bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, poolclass=NullPool)
    try:
        async with admin.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            yield f"{base}?options=-csearch_path%3D{schema}"
        finally:
            async with admin.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        await admin.dispose()


async def table_counts(store: Store) -> dict[str, int]:
    counts = {}
    async with store.engine.connect() as conn:
        for table in ("players", "rooms", "room_members", "games", "game_events"):
            counts[table] = int((await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one())
    return counts


async def fill(url: str, args: StartupArgs, f: StartupFigures) -> None:
    await migrate(url)
    store = Store(url)
    try:
        say(f"writing {args.games} finished games")
        started = time.perf_counter()
        await history.insert_finished(store, args.games)
        await history.analyze(store)
        f.fill_s = time.perf_counter() - started
        say(f"starting {args.playing} games through the app")
        started = time.perf_counter()
        await history.start_running_games(store, args.playing)
        f.running_s = time.perf_counter() - started
        f.counts = await table_counts(store)
    finally:
        await store.close()


async def time_recover(url: str) -> tuple[float, int]:
    """``RoomManager.recover()`` on a fresh manager, the database already connected."""
    store = Store(url)
    event_log = EventLog(store)
    manager = RoomManager(store, event_log, MonotonicClock())
    try:
        await store.ping()
        await event_log.start()
        started = time.perf_counter()
        count = await manager.recover()
        return time.perf_counter() - started, count
    finally:
        await manager.stop()
        await event_log.stop()
        await store.close()


async def time_server_start(url: str, log_path: Path, repeat: int, into: ServerStart) -> None:
    """Spawn until ``/api/health`` answers 200, ``repeat`` times; rooms loaded and RSS after the last."""
    for _ in range(repeat):
        server = ServerProcess(database_url=url, log_path=log_path, env=dict(SERVER_ENV))
        started = time.perf_counter()
        try:
            await asyncio.to_thread(server.start, None)
            into.seconds.append(time.perf_counter() - started)
            async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
                into.loaded = await rooms_loaded(http)
            into.rss_mb = proc_rss_mb(server.pid)
        finally:
            await asyncio.to_thread(server.stop)


async def startup(args: StartupArgs, f: StartupFigures, tmp: Path) -> None:
    async with scratch_database(args.database_url, tmp, "data") as url:
        await fill(url, args, f)
        started = time.perf_counter()
        await migrate(url)
        f.migrate_s = time.perf_counter() - started
        for _ in range(args.repeat):
            seconds, f.recovered = await time_recover(url)
            f.recover_s.append(seconds)
        say(f"starting a server on it {args.repeat} times")
        await time_server_start(url, tmp / "server.log", args.repeat, f.full)
    async with scratch_database(args.database_url, tmp, "empty") as url:
        await migrate(url)
        say(f"starting a server on an empty database {args.repeat} times")
        await time_server_start(url, tmp / "server-empty.log", args.repeat, f.empty)


def seconds_of(values: list[float]) -> str:
    if not values:
        return "-"
    middle = statistics.median(values)
    return f"median {middle:.3f} s (min {min(values):.3f}, max {max(values):.3f}, n={len(values)})"


def render_startup(args: StartupArgs, f: StartupFigures) -> str:
    rows = ", ".join(f"{name} {n:,}" for name, n in f.counts.items())
    return "\n".join(
        [
            f"start-up with {args.games:,} finished games and {args.playing} running, "
            f"{_redact(args.database_url)}, {code_version()}",
            f"rows: {rows}",
            f"written in {f.fill_s:.1f} s (finished games), {f.running_s:.1f} s (running games via the app)",
            "",
            f"migrate, already at head:             {f.migrate_s:.3f} s",
            f"RoomManager.recover() in process:     {seconds_of(f.recover_s)}; {f.recovered} rooms loaded",
            f"server spawn -> /api/health 200:      {seconds_of(f.full.seconds)}; "
            f"bordet_rooms_loaded {f.full.loaded}, RSS {mb(f.full.rss_mb)} MB",
            f"  same, empty database (migrated):    {seconds_of(f.empty.seconds)}; "
            f"bordet_rooms_loaded {f.empty.loaded}, RSS {mb(f.empty.rss_mb)} MB",
        ]
    )


def run_startup(args: StartupArgs) -> str:
    with tempfile.TemporaryDirectory(prefix="bordet-startup-") as tmp:
        say(f"database {_redact(args.database_url)}, {code_version()}")
        figures = StartupFigures()
        run_loop(startup(args, figures, Path(tmp)), "asyncio")
        return render_startup(args, figures)


# =========================================================================== command line


def parse_args(argv: list[str] | None) -> IdleArgs | StartupArgs:
    parser = argparse.ArgumentParser(prog="python -m bench.lifecycle", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    idle = sub.add_parser("idle-rooms", help="memory of idle lobby rooms, loaded and put away")
    idle.add_argument("--rooms", type=bounded(int, 1, MAX_ROOMS), default=10_000)
    idle.add_argument("--players", type=bounded(int, 1, MAX_PLAYERS), default=300, help="hosts")
    idle.add_argument("--concurrency", type=bounded(int, 1, 200), default=32, help="requests in flight")
    idle.add_argument("--game", choices=sorted(ALL_ENGINES), default="kuuduk")
    idle.add_argument("--database-url", help="database for the server (default: temp SQLite file)")
    idle.add_argument("--unload-timeout", type=bounded(float, 1, MAX_WAIT_S), default=300.0)
    idle.add_argument("--real-clock", action="store_true", help="do not hold the room clock while creating")
    idle.add_argument(
        "--cycles",
        type=bounded(int, 1, 5),
        default=1,
        help="batches of --rooms, each put away before the next",
    )
    start = sub.add_parser("startup", help="start-up time over many finished games")
    start.add_argument("--games", type=bounded(int, 0, MAX_GAMES), default=100_000)
    start.add_argument("--playing", type=bounded(int, 0, MAX_PLAYING), default=20)
    start.add_argument(
        "--database-url", default=DEFAULT_PG_URL, help="PostgreSQL database or new SQLite file"
    )
    start.add_argument("--repeat", type=bounded(int, 1, 10), default=3)
    ns = parser.parse_args(argv)
    if ns.database_url:
        check_database_url(ns.database_url)
    if ns.command == "idle-rooms":
        return IdleArgs(
            ns.rooms,
            ns.players,
            ns.concurrency,
            ns.game,
            ns.database_url,
            ns.unload_timeout,
            ns.real_clock,
            ns.cycles,
        )
    return StartupArgs(ns.games, ns.playing, ns.database_url, ns.repeat)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    run: Callable[[Any], str] = run_idle if isinstance(args, IdleArgs) else run_startup
    return exit_code("lifecycle", lambda: print(run(args), flush=True))


if __name__ == "__main__":
    sys.exit(main())
