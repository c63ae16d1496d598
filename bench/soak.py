"""Soak benchmark: a real server held under many long-lived connections for minutes; does it stay bounded?

Run with ``python -m bench.soak`` (10 minutes, 2,000 connections, 50 rooms) or e.g.
``python -m bench.soak --minutes 1 --connections 300 --stalled 30 --rooms 10``.

What it does
------------
1. Starts ``uvicorn app.main:app`` with :class:`bench.slap_load.ServerProcess` (loopback, a free port,
   a temporary SQLite file unless ``--database-url``), with the rate limits raised, bots quick
   (``BORDET_BOT_THINK_MS``) and a short seat hold; ``--server-env KEY=VALUE`` adds or overrides any
   setting, e.g. a connection cap the server grows later.
2. Creates ``--rooms`` rooms over HTTP (kuuduk, UFF-DA! and leekha in turn, with short turn timers):
   the host sits in chair 0, bots in every other chair, one more person in chair 2, and the host
   starts the game. The bots play; the people never act, so their turn timers run out and the server
   plays for them. A finished match is started again at the next sample.
3. Notes the server's RSS, then opens ``--connections`` WebSockets: the two seated people of each
   room, watchers spread over the rooms, and ``--stalled`` connections that send their hello and then
   never read (a 4 KiB receive buffer and a one-frame client queue, so the server's writes really
   back up). A stalled connection is opened again a second after the server cuts it off, or after
   60 s (it cannot always tell: the server's FIN waits behind the frames it never read). A share of the
   watchers (``--churn``) wander: watch a room for 5-30 s, close, leave it over HTTP, pick another.
4. Every ``--sample`` seconds prints a row: server RSS (``/proc/<pid>/status``), open file
   descriptors (``/proc/<pid>/fd``), and from ``GET /metrics``: rooms loaded, connections open,
   event-loop lag (latest and mean over the interval), frames/s sent, overflows and aborts so far.
5. At the end: RSS over the last half of the run (min/median/max), KB per idle connection (RSS
   read as soon as every connection is open, minus RSS before connecting, over the connection
   count), and the count of ERROR and Traceback lines in the server's log. No pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect

from bench.slap_load import (
    SERVER_ENV,
    Lobby,
    ServerProcess,
    _option,
    _redact,
    bounded,
    check_database_url,
    code_version,
    gather_limited,
    proc_rss_mb,
    run_loop,
)

MAX_MINUTES = 120.0
MAX_CONNECTIONS = 5000
MAX_ROOMS = 500
STALLED_RCVBUF = 4096
"""Bytes of kernel receive buffer of a stalled client (the kernel may round it up)."""
SEATS = 4
STALLED_CHECK_S = 1.0
STALLED_LIFETIME_S = 60.0
TCP_ESTABLISHED = 1
"""``tcpi_state`` of a TCP connection both ends still hold open (Linux ``TCP_INFO``)."""
CLIENT_GRACE_S = 5.0
CONNECTED_POLL_S = 0.25

SOAK_ENV = {
    **SERVER_ENV,  # rate and abuse limits raised (every soak client is 127.0.0.1), as for slap_load
    "BORDET_BOT_THINK_MS": "150-400",
    "BORDET_SEAT_HOLD_S": "2",
    "BORDET_SPECTATORS_PER_ROOM": "1000",  # 2,000 sockets watch 50 tables
}

GAMES: dict[str, dict[str, Any]] = {
    "kuuduk": {"turn_ms": 3000, "round_pause_ms": 1000},
    "uffda": {"turn_seconds": 3, "round_end_pause_ms": 1000},
    "leekha": {"turn_ms": 3000, "reveal_ms": 1000, "scoreboard_ms": 1000},
}


@dataclass
class Args:
    minutes: float
    connections: int
    stalled: int
    rooms: int
    sample: float
    churn: float
    games: list[str]
    database_url: str | None
    server_env: dict[str, str]
    concurrency: int
    seed: int


@dataclass
class Room:
    code: str
    host: str
    seated: list[str]
    """Tokens of the people seated (the host first)."""


@dataclass
class Counts:
    readers_open: int = 0
    stalled_open: int = 0
    stalled_reopened: int = 0
    wanders: int = 0
    frames_read: int = 0
    failures: dict[str, int] = field(default_factory=dict)

    def failed(self, exc: BaseException) -> None:
        name = type(exc).__name__
        self.failures[name] = self.failures.get(name, 0) + 1


@dataclass
class Sample:
    t: float
    rss_mb: float | None
    fds: int | None
    rooms: float
    connections: float
    lag_ms: float
    lag_mean_ms: float | None
    frames_per_s: float | None
    overflows: float
    aborts: float


# --------------------------------------------------------------------------- server figures


def open_fds(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def metric_totals(text: str) -> dict[str, float]:
    """Each sample name summed over its labels (``bordet_rejects_total`` of every code together)."""
    totals: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            totals[s.name] = totals.get(s.name, 0.0) + s.value
    return totals


def log_problems(path: Path) -> tuple[int, int]:
    """(ERROR lines, Traceback lines) of the server's log."""
    errors = tracebacks = 0
    with contextlib.suppress(OSError), path.open(errors="replace") as log:
        for line in log:
            errors += " ERROR " in line or line.startswith("ERROR")
            tracebacks += "Traceback" in line
    return errors, tracebacks


# --------------------------------------------------------------------------- clients


def tcp_established(sock: socket.socket) -> bool:
    try:
        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] == TCP_ESTABLISHED
    except OSError:
        return False


def ws_url(base: str, code: str) -> str:
    return "ws" + base[len("http") :] + f"/ws/rooms/{code}"


class Crowd:
    """Every client of the run, in this one process: they share the counts, the end and a connect gate."""

    def __init__(self, base: str, lobby: Lobby, until: float, concurrency: int, seed: int) -> None:
        self.base, self.lobby, self.until = base, lobby, until
        self.counts = Counts()
        self.rng = random.Random(seed)
        self._gate = asyncio.Semaphore(concurrency)
        """At most this many connects at a time (the connections then live on outside it)."""

    async def hello(self, code: str, token: str, **kwargs: Any) -> ClientConnection:
        async with self._gate:
            ws = await connect(
                ws_url(self.base, code), ping_interval=None, compression=None, max_size=2**22, **kwargs
            )
            await ws.send(f'{{"type":"hello","token":"{token}"}}')
        return ws

    async def reader(self, code: str, token: str, until: float | None = None) -> None:
        """A person (seated or watching) whose client keeps up with every frame."""
        until = self.until if until is None else until
        ws = await self.hello(code, token)
        self.counts.readers_open += 1
        try:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(max(0.0, until - time.monotonic())):
                    async for _ in ws:
                        self.counts.frames_read += 1
        finally:
            self.counts.readers_open -= 1
            await ws.close()

    async def wanderer(self, rooms: list[Room], token: str) -> None:
        """Watches a room for a while, closes, leaves it over HTTP, and picks another; until the end."""
        while time.monotonic() < self.until:
            room = self.rng.choice(rooms)
            try:
                await self.reader(
                    room.code, token, min(self.until, time.monotonic() + self.rng.uniform(5, 30))
                )
                r = await self.lobby.http.post(
                    f"/api/rooms/{room.code}/leave", headers={"Authorization": f"Bearer {token}"}
                )
                if r.status_code != 404:  # 404 NOT_A_MEMBER: a spectator left with its last socket
                    r.raise_for_status()
                self.counts.wanders += 1
            except Exception as exc:
                self.counts.failed(exc)
                await asyncio.sleep(1)

    async def stalled(self, code: str, token: str) -> None:
        """Says hello, then never reads; opened again a second after it is cut off or gives up."""
        loop = asyncio.get_running_loop()
        parts = urlsplit(self.base)
        while time.monotonic() < self.until:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            # Set before connecting, so the window the client advertises stays small.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, STALLED_RCVBUF)
            sock.setblocking(False)
            try:
                await loop.sock_connect(sock, (parts.hostname, parts.port))
                # A one-frame queue: once it holds a frame the client stops reading the socket.
                ws = await self.hello(code, token, sock=sock, max_queue=1)
            except Exception as exc:
                sock.close()
                self.counts.failed(exc)
                await asyncio.sleep(1)
                continue
            self.counts.stalled_open += 1
            try:
                # A client that does not read never sees the server's close frame, nor its FIN: the
                # kernel's view of the TCP connection tells when the server has cut it off.
                # Nor does it see a FIN queued behind the frames it never read: the server may have
                # let go long before. So it also gives up after a lifetime, as a stuck client would.
                give_up = min(self.until, time.monotonic() + STALLED_LIFETIME_S)
                while time.monotonic() < give_up and tcp_established(sock):
                    await asyncio.sleep(STALLED_CHECK_S)
            finally:
                self.counts.stalled_open -= 1
                ws.transport.abort()
            if time.monotonic() < self.until:
                self.counts.stalled_reopened += 1
                await asyncio.sleep(1)


# --------------------------------------------------------------------------- rooms


async def make_room(lobby: Lobby, index: int, game: str) -> Room:
    host = await lobby.player(f"soak{index}-host")
    room = await lobby.post("/api/rooms", host, {"game": game, "options": GAMES[game], "public": False})
    code: str = room["code"]
    for seat in range(1, SEATS, 2):
        await lobby.post(f"/api/rooms/{code}/bots", host, {"seat": seat})
    other = await lobby.player(f"soak{index}-seat2")
    await lobby.post(f"/api/rooms/{code}/seats", other, {"seat": 2, "prefs": {}})
    await lobby.start(code, host)
    return Room(code, host, [host, other])


async def restart_finished(lobby: Lobby, rooms: list[Room], counts: Counts) -> None:
    for room in rooms:
        try:
            r = await lobby.http.get(f"/api/rooms/{room.code}")
            if r.status_code == 200 and r.json()["status"] == "finished":
                await lobby.start(room.code, room.host)
        except Exception as exc:
            counts.failed(exc)


# --------------------------------------------------------------------------- the run


async def sample(http: httpx.AsyncClient, pid: int, t0: float, last: dict[str, float]) -> Sample:
    totals = metric_totals((await http.get("/metrics")).text)
    now = time.monotonic()
    frames = totals.get("bordet_frames_sent_total", 0.0)
    lag_sum = totals.get("bordet_event_loop_lag_samples_seconds_sum", 0.0)
    lag_count = totals.get("bordet_event_loop_lag_samples_seconds_count", 0.0)
    lag_mean = frames_per_s = None
    if last:
        if lag_count > last["lag_count"]:
            lag_mean = 1000 * (lag_sum - last["lag_sum"]) / (lag_count - last["lag_count"])
        frames_per_s = (frames - last["frames"]) / (now - last["t"])
    last.update(t=now, frames=frames, lag_sum=lag_sum, lag_count=lag_count)
    return Sample(
        t=now - t0,
        rss_mb=proc_rss_mb(pid),
        fds=open_fds(pid),
        rooms=totals.get("bordet_rooms_loaded", 0.0),
        connections=totals.get("bordet_connections_open", 0.0),
        lag_ms=1000 * totals.get("bordet_event_loop_lag_seconds", 0.0),
        lag_mean_ms=lag_mean,
        frames_per_s=frames_per_s,
        overflows=totals.get("bordet_send_overflows_total", 0.0),
        aborts=totals.get("bordet_connection_aborts_total", 0.0),
    )


HEADER = (
    f"{'t s':>6} {'RSS MB':>7} {'fds':>5} {'rooms':>5} {'conns':>5} {'lag ms':>6} {'mean':>6} "
    f"{'frames/s':>8} {'overflows':>9} {'aborts':>6} {'readers':>7} {'stalled':>7} {'reopened':>8}"
)


def row(s: Sample, counts: Counts) -> str:
    def num(v: float | None, fmt: str) -> str:
        return format(v, fmt) if v is not None else "-".rjust(int(fmt.split(".")[0].rstrip("df")))

    return (
        f"{s.t:6.0f} {num(s.rss_mb, '7.1f')} {num(s.fds, '5d')} {s.rooms:5.0f} {s.connections:5.0f} "
        f"{s.lag_ms:6.1f} {num(s.lag_mean_ms, '6.1f')} {num(s.frames_per_s, '8.0f')} {s.overflows:9.0f} "
        f"{s.aborts:6.0f} {counts.readers_open:7d} {counts.stalled_open:7d} {counts.stalled_reopened:8d}"
    )


async def soak(args: Args, server: ServerProcess) -> None:
    lobby = Lobby(server.base, args.concurrency)
    tasks: list[asyncio.Task[None]] = []
    try:
        games = [args.games[i % len(args.games)] for i in range(args.rooms)]
        say(f"creating {args.rooms} rooms ({', '.join(sorted(set(games)))})")
        rooms: list[Room] = await gather_limited(
            [make_room(lobby, i, g) for i, g in enumerate(games)], args.concurrency
        )
        seated = [(room.code, token) for room in rooms for token in room.seated][
            : args.connections - args.stalled
        ]
        watchers = args.connections - args.stalled - len(seated)
        say(f"creating {watchers + args.stalled} more players")
        tokens = await gather_limited(
            [lobby.player(f"soak-w{i}") for i in range(watchers + args.stalled)], args.concurrency
        )
        before_mb = proc_rss_mb(server.pid)
        end = time.monotonic() + args.minutes * 60
        # The clients outlive the last sample, so that it still sees every connection open.
        crowd = Crowd(server.base, lobby, end + CLIENT_GRACE_S, args.concurrency, args.seed)
        counts = crowd.counts
        wandering = int(watchers * args.churn)
        say(f"opening {args.connections} connections ({args.stalled} never read, {wandering} wander)")
        clients = [crowd.reader(code, token) for code, token in seated]
        for i, token in enumerate(tokens[:watchers]):
            clients.append(
                crowd.wanderer(rooms, token)
                if i < wandering
                else crowd.reader(rooms[i % len(rooms)].code, token)
            )
        clients += [crowd.stalled(rooms[i % len(rooms)].code, t) for i, t in enumerate(tokens[watchers:])]
        tasks = [asyncio.ensure_future(c) for c in clients]

        print(HEADER, flush=True)
        samples: list[Sample] = []
        last: dict[str, float] = {}
        t0 = time.monotonic()
        connected_mb = await rss_once_connected(
            server.pid, counts, args.connections, min(end, t0 + args.sample)
        )
        while (left := end - time.monotonic()) > 0:
            await asyncio.sleep(min(args.sample, left))
            if not server.alive():
                raise RuntimeError("the server exited during the run")
            s = await sample(lobby.http, server.pid, t0, last)
            samples.append(s)
            print(row(s, counts), flush=True)
            await restart_finished(lobby, rooms, counts)
        summary(args, server, samples, before_mb, connected_mb, counts)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await lobby.aclose()


async def rss_once_connected(pid: int, counts: Counts, connections: int, deadline: float) -> float | None:
    """The server's RSS as soon as 98 % of the connections are open (checked every 0.25 s), or None if
    they are not by ``deadline``: read then, not at the next sample, so that what a connection costs is
    not mixed with what a minute of play adds (caches warming, the log growing)."""
    while time.monotonic() < deadline:
        if counts.readers_open + counts.stalled_open >= connections * 0.98:
            return proc_rss_mb(pid)
        await asyncio.sleep(CONNECTED_POLL_S)
    return None


def summary(
    args: Args,
    server: ServerProcess,
    samples: list[Sample],
    before_mb: float | None,
    connected_mb: float | None,
    counts: Counts,
) -> None:
    print()
    half = [s.rss_mb for s in samples[len(samples) // 2 :] if s.rss_mb is not None]
    if half:
        print(
            f"RSS over the last half:   min {min(half):.1f} MB, median {statistics.median(half):.1f} MB, "
            f"max {max(half):.1f} MB ({len(half)} samples)"
        )
    if before_mb is not None and connected_mb is not None:
        per = (connected_mb - before_mb) * 1024 / args.connections
        print(
            f"KB per idle connection:   {per:.1f} ({before_mb:.1f} MB before connecting, "
            f"{connected_mb:.1f} MB with {args.connections} open)"
        )
    else:
        print("KB per idle connection:   - (the connections never all opened within a sample)")
    errors, tracebacks = log_problems(server.log_path)
    print(f"server log:               {errors} ERROR lines, {tracebacks} Traceback lines")
    print(
        f"clients:                  {counts.frames_read} frames read, {counts.wanders} wanders, "
        f"{counts.stalled_reopened} stalled connections re-opened"
    )
    if counts.failures:
        print(
            "client failures:          " + ", ".join(f"{k} {v}" for k, v in sorted(counts.failures.items()))
        )


def say(message: str) -> None:
    print(f"[soak {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run(args: Args) -> None:
    with tempfile.TemporaryDirectory(prefix="bordet-soak-") as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bordet.db"
        server = ServerProcess(
            database_url=url, log_path=Path(tmp) / "server.log", env={**SOAK_ENV, **args.server_env}
        )
        db = "SQLite (temporary file)" if args.database_url is None else _redact(args.database_url)
        say(f"starting the server ({db}, {code_version()})")
        server.start(None)
        say(f"server pid {server.pid} on {server.base}")
        try:
            run_loop(soak(args, server), "uvloop")
        except BaseException:
            if not server.alive():
                print(f"server log tail:\n{server.log_tail()}", file=sys.stderr)
            raise
        finally:
            server.stop()


def parse_args(argv: list[str] | None) -> Args:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak",
        description="Soak a real server: long-lived connections, bots playing, memory and lag over time.",
    )
    parser.add_argument("--minutes", type=bounded(float, 0.2, MAX_MINUTES), default=10.0)
    parser.add_argument("--connections", type=bounded(int, 1, MAX_CONNECTIONS), default=2000)
    parser.add_argument(
        "--stalled", type=bounded(int, 0, MAX_CONNECTIONS), default=200, help="of them, never read"
    )
    parser.add_argument("--rooms", type=bounded(int, 1, MAX_ROOMS), default=50)
    parser.add_argument("--sample", type=bounded(float, 1, 600), default=10.0, help="seconds between rows")
    parser.add_argument(
        "--churn", type=bounded(float, 0, 1), default=0.2, help="share of the watchers that wander"
    )
    parser.add_argument("--games", default=",".join(GAMES), help=f"comma-separated, of {', '.join(GAMES)}")
    parser.add_argument("--database-url", help="database for the server (default: temp SQLite file)")
    parser.add_argument(
        "--server-env",
        type=_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a server setting (environment variable), e.g. a raised connection cap; repeatable",
    )
    parser.add_argument("--concurrency", type=bounded(int, 1, 200), default=20, help="parallel setup")
    parser.add_argument("--seed", type=int, default=1)
    ns = parser.parse_args(argv)
    games = [g.strip() for g in ns.games.split(",") if g.strip()]
    if not games or any(g not in GAMES for g in games):
        parser.error(f"--games takes names of {', '.join(GAMES)}")
    if ns.stalled > ns.connections:
        parser.error("--stalled cannot exceed --connections")
    if ns.database_url:
        check_database_url(ns.database_url)
    return Args(
        minutes=ns.minutes,
        connections=ns.connections,
        stalled=ns.stalled,
        rooms=ns.rooms,
        sample=ns.sample,
        churn=ns.churn,
        games=games,
        database_url=ns.database_url,
        server_env={k: str(v) for k, v in ns.server_env},
        concurrency=ns.concurrency,
        seed=ns.seed,
    )


def exit_code(tool: str, work: Callable[[], None]) -> int:
    """Runs ``work``: 0 when done, 130 when interrupted (the server stopped), 1 on any failure."""
    try:
        work()
    except (KeyboardInterrupt, asyncio.CancelledError):
        print(f"{tool}: interrupted; the server was stopped", file=sys.stderr)
        return 130
    except Exception as exc:
        print(f"{tool} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return exit_code("soak", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
