"""Load test of Slap tables over real WebSockets: latency from an action to the last screen it reaches.

Run with ``python -m bench.slap_load --rooms 100 --seconds 20`` (``--help`` for the rest).

What it does
------------
1. Starts a real server: ``uvicorn app.main:app`` in a subprocess on a free loopback port, one
   worker, the real monotonic clock (``BORDET_TEST_CLOCK`` is removed from its environment), a
   temporary SQLite file (``--database-url`` for e.g. PostgreSQL), ``BORDET_SECRET`` set and the
   rate limits raised (scripted players act far faster than people).  With two or more CPUs the
   server is pinned to the first CPU and this process (all the clients) to the others, so the
   server gets one core to itself; ``--no-pin`` turns that off.  ``--url`` targets a server that
   is already running instead (``--server-pid`` lets its CPU be measured).
2. Over HTTP creates ``--rooms`` rooms of game "slap" with fast timings (``--option`` changes
   them), seats ``--clients`` guest players in each, connects one WebSocket per player and starts
   every game.  When a match ends the host starts a new one, so the load never stops.
3. All clients run in this one asyncio process (uvloop when available): on the two-core machine
   this was written for, the server owns one core and one client process can use all of the
   other, so more client processes would only share that core.  The clients play as fast as the
   protocol allows: the starter sends ``nu`` on the first frame where it is legal, and every
   player sends ``slap`` on the first frame where it is legal (all of them slap every flip: races
   on pairs, false slaps otherwise).  Server pings are answered with pongs.  Each client keeps
   its view up to date by applying the JSON-Patch frames, exactly like the browser client.
4. After ``--warmup`` seconds the measured window of ``--seconds`` starts; actions *sent* inside
   it are measured; a short grace period afterwards lets their last frames arrive.

How the latency is measured
---------------------------
For each action the clock starts just before the client hands the frame to its socket and stops
when the **last** of the table's clients has received the frame that carries the effect of the
action.  All clients share this process's monotonic clock, so the times are comparable.

* The acting client: the server answers an accepted action with an ``ack`` whose ``seq`` is the
  number of the last state frame it had sent to that connection, and the room broadcasts before
  it acks, so frame ``seq`` is exactly the one carrying the effect.  Each client remembers the
  receive time of its recent frames by ``seq``.
* The other clients get no ack, so their effect frame is found by content: the first state frame
  received after the action was sent after which their patched view has reached or passed the
  state right after the action.  The room applies inputs in one order and every frame is a
  snapshot of that one state sequence, so "reached or passed" is a simple test on public fields:

  - ``nu`` called at flip ``f`` (in AWAIT_NU): the view's ``flip`` is above ``f`` (Nu! numbers the
    next flip);
  - ``slap`` of seat ``s`` on flip ``f``: the view shows flip ``f`` open (FLIP_OPEN/RACE) with
    ``seats[s].slapped`` true, or flip ``f`` already closed (any later phase), or a later flip.

  Matches are ordered by the order in which the table first saw them, so a new match after a
  restart also counts as "passed".  The same test is run on the acting client's own frames and
  compared with the ``ack.seq`` frame: the number of disagreements is printed as a self-check
  (it should be 0).
* Rejected actions (e.g. ``STALE_SLAP`` for a slap arriving after the race closed) have no effect:
  they are counted by code and leave the latency figures out.  Actions still unresolved 10 s
  after sending are counted as unresolved.

Also printed: the latency to the acting client's own effect frame and to its ack (the ack is sent
after the broadcast, so it is the slowest of the three for the actor), accepted actions/s, state
frames/s received by all clients together, flips/s, rejects and errors by code, and the CPU time
(user + sys from ``/proc/<pid>/stat``, as % of one core over the measured window) of the server,
of its event-loop thread alone, and of this client process.  A client process close to 100 %
means the client side, not the server, limited the figures.  How busy each CPU of the machine was,
and how much of that went to other processes, shows whether anything else ran at the same time
(the figures are only as clean as the machine).  All traffic stays on loopback.  No pass/fail:
the exit code is 0 (1 on a setup failure, 130 when interrupted).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ipaddress
import itertools
import json
import math
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app import heap, native
from app.rooms.patch import apply_patch

ROOT = Path(__file__).resolve().parents[1]
NS = 1_000_000  # nanoseconds per millisecond
MAX_ROOMS = 1000
MAX_SECONDS = 600.0
UNRESOLVED_AFTER_NS = 10_000 * NS
HTTP_TIMEOUT = 30.0

#: Fast but valid Slap timings (see app/engines/slap/options.py); ``--option`` overrides any of them.
DEFAULT_OPTIONS: dict[str, Any] = {
    "rounds": 10,
    "nu_mode": "starter",
    "nu_auto_ms": 2000,  # fallback only: the scripted starter calls Nu! at once
    "nu_lead_ms": 30,
    "no_pair_window_ms": 80,
    "pair_timeout_ms": 2000,
    "race_window_ms": 30,
    "max_credit_ms": 20,
    "tie_margin_ms": 5,
    "trick_pause_ms": 40,
    "nopair_pause_ms": 40,
    "round_time_limit_s": 0,
    "round_end_pause_ms": 100,
}

SERVER_ENV = {
    "BORDET_RATE_PER_S": "1000000",
    "BORDET_RATE_BURST": "1000000",
    "BORDET_RESYNC_PER_S": "1000000",
    "BORDET_RESYNC_BURST": "1000000",
    # Every bench player, room and socket comes from 127.0.0.1 (400 sockets for 100 tables).
    "BORDET_PLAYERS_PER_MIN": "1000000",
    "BORDET_ROOMS_PER_MIN": "1000000",
    "BORDET_ROOMS_PER_HOST": "1000000",
    "BORDET_SOCKETS_PER_ADDRESS": "1000000",
    "MALLOC_ARENA_MAX": "2",  # as the Dockerfile and `make run` start the server
}

OPEN_PHASES = ("FLIP_OPEN", "RACE")


# --------------------------------------------------------------------------- CPU accounting


def proc_cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, sys) CPU seconds of a process, all threads, from ``/proc/<pid>/stat``."""
    return proc_cpu_seconds_of(Path(f"/proc/{pid}/stat"))


def main_thread_cpu_seconds(pid: int) -> float:
    """user + sys CPU seconds of a process's main thread (for an asyncio server: the event loop)."""
    user, system = proc_cpu_seconds_of(Path(f"/proc/{pid}/task/{pid}/stat"))
    return user + system


def proc_cpu_seconds_of(stat: Path) -> tuple[float, float]:
    text = stat.read_text()
    # The command name (field 2) may contain spaces: split after its closing parenthesis.
    fields = text[text.rindex(")") + 2 :].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick  # utime, stime (fields 14 and 15)


def cpu_busy_seconds() -> dict[str, float]:
    """Busy (non-idle, non-iowait) seconds of the whole machine ("all") and of each CPU, from /proc/stat."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for line in Path("/proc/stat").read_text().splitlines():
        if not line.startswith("cpu"):
            break
        name, *values = line.split()
        ticks = [int(v) for v in values[:8]]  # user nice system idle iowait irq softirq steal
        out["all" if name == "cpu" else name] = (sum(ticks) - ticks[3] - ticks[4]) / tick
    return out


def proc_rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


# --------------------------------------------------------------------------- loopback checks


def is_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_database_url(url: str) -> None:
    """Only loopback databases: a SQLite file, or a server on 127.0.0.1/::1/localhost (or a socket)."""
    if url.startswith("sqlite"):
        return
    host = urlsplit(url).hostname
    if host is not None and not host.startswith("/") and not is_loopback_host(host):
        raise SystemExit(f"--database-url must point at a loopback address, not {host!r}")


# --------------------------------------------------------------------------- the server process


def code_version() -> str:
    """The git commit of the code under test, whether app/ has uncommitted changes, and its build."""
    return f"{_git_version()}, {app_build()}"


def _git_version() -> str:
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", "app"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    return f"git {head}" + (" + uncommitted changes in app/" if dirty else "")


def app_build(root: Path = ROOT) -> str:
    """Whether the checkout at ``root`` runs its hot modules compiled (``make native``) or as plain
    Python: the two differ by about 7 % of the server's CPU per action.

    >>> app_build(Path("/nonexistent"))
    'pure Python'
    """
    modules = native.compiled_modules(root / "app")
    return f"{len(modules)} modules compiled with mypyc" if modules else "pure Python"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM if this benchmark dies without cleaning up."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class ServerProcess:
    database_url: str
    log_path: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=lambda: dict(SERVER_ENV))
    """Settings of the server on top of this process's environment (other tools raise other limits)."""
    app: str = "app.main:app"
    """The ASGI app uvicorn serves (``bench.fanout`` also starts its floor, ``bench.floor_server:app``)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, cpus: set[int] | None, timeout: float = 60.0) -> None:
        env = {k: v for k, v in os.environ.items() if k != "BORDET_TEST_CLOCK"}
        env["BORDET_SECRET"] = "slap-load-" + secrets.token_hex(16)  # processes sharing rooms share one
        env.update(self.env)
        env["DATABASE_URL"] = self.database_url
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            self.app,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            "1",
            "--log-level",
            "warning",
            "--no-access-log",
            "--ws-max-size",
            "1048576",
            "--ws-per-message-deflate",
            "false",
        ]
        mine = os.sched_getaffinity(0)
        with open(self.log_path, "ab") as log_file:
            try:
                # The child inherits the CPU mask at fork, every thread it starts later too.
                if cpus is not None:
                    os.sched_setaffinity(0, cpus)
                self.proc = subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log_file,
                    stderr=log_file,
                    start_new_session=True,  # a Ctrl-C reaches only us; we stop the server ourselves
                    preexec_fn=_die_with_parent,
                )
            finally:
                if cpus is not None:
                    os.sched_setaffinity(0, mine)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not become healthy in {timeout:.0f} s:\n{self.log_tail()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=15)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"


# --------------------------------------------------------------------------- measurement state


@dataclass
class Window:
    """The measured window, in ``time.perf_counter_ns()`` (set once every game has started)."""

    start: int = 2**63 - 1
    end: int = 2**63 - 1

    def holds(self, t: int) -> bool:
        return self.start <= t < self.end


@dataclass
class Stats:
    window: Window = field(default_factory=Window)
    lat_all: dict[str, list[float]] = field(default_factory=lambda: {"nu": [], "slap": []})
    lat_actor: list[float] = field(default_factory=list)
    lat_ack: list[float] = field(default_factory=list)
    lat_ack_by_route: dict[str, list[float]] = field(default_factory=lambda: {"owner": [], "relayed": []})
    """With --also-url: send -> ack of actors connected to their room's owner, or to another process."""
    sent: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    rejects: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    snapshots: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    messages: int = 0
    frame_bytes: int = 0
    flips: int = 0
    matches_started: int = 0
    unresolved: int = 0
    mismatches: int = 0
    offset_changes: int = 0
    seq_gaps: int = 0
    closed_early: int = 0
    restart_failures: int = 0


@dataclass(slots=True, eq=False)
class Pending:
    """One action sent and not yet resolved (acked and seen by every client, or rejected)."""

    kind: str
    seat: int
    match: int
    flip: int
    sent: int
    actor: Bot
    seen: list[int | None]
    seen_seq: list[int | None]
    missing: int
    measured: bool
    acked: bool = False
    closed: bool = False


@dataclass
class RoomPlan:
    code: str
    tokens: list[str]


class Table:
    """The clients of one room and the actions in flight there."""

    def __init__(self, code: str, stats: Stats) -> None:
        self.code = code
        self.stats = stats
        self.bots: list[Bot] = []
        self.pending: list[Pending] = []
        self.match_order: dict[str, int] = {}
        self.last_flip: tuple[int, int] = (-1, -1)
        self.offsets: tuple[int, ...] | None = None

    def match_index(self, match_id: str | None) -> int:
        if match_id is None:
            return -1
        index = self.match_order.get(match_id)
        if index is None:
            index = self.match_order[match_id] = len(self.match_order)
        return index

    def add(self, pending: Pending) -> None:
        self.pending.append(pending)

    def observe(self, bot: Bot, t: int, seq: int) -> None:
        """``bot`` has just applied state frame ``seq``, received at ``t``."""
        view = bot.view
        if view is None:
            return
        game = view["game"]
        match = self.match_index(bot.match_id)
        if game is not None and bot.index == 0:
            flip = (match, game["flip"])
            if flip > self.last_flip:
                self.last_flip = flip
                if self.stats.window.holds(t):
                    self.stats.flips += 1
        if not self.pending:
            return
        i = bot.index
        done: list[Pending] = []
        for p in self.pending:
            if p.seen[i] is None and reached(p, match, game):
                p.seen[i] = t
                p.seen_seq[i] = seq
                p.missing -= 1
                if p.acked and p.missing == 0:
                    done.append(p)
            elif t - p.sent > UNRESOLVED_AFTER_NS:
                done.append(p)
        for p in done:
            self.finish(p)

    def finish(self, p: Pending) -> None:
        if p.closed:
            return
        p.closed = True
        with contextlib.suppress(ValueError):
            self.pending.remove(p)
        if not p.measured:
            return
        if not p.acked or p.missing:
            self.stats.unresolved += 1
            return
        last = max(t for t in p.seen if t is not None)
        self.stats.lat_all[p.kind].append((last - p.sent) / NS)
        # Cross-check: one broadcast reaches every client, so the effect frames' seq numbers should
        # keep a constant offset from client to client (it moves only when a client gets an extra
        # snapshot, or when a broadcast leaves some client's view unchanged).
        seqs = p.seen_seq
        if seqs[0] is not None:
            offsets = tuple(s - seqs[0] for s in seqs if s is not None)
            if self.offsets is not None and offsets != self.offsets:
                self.stats.offset_changes += 1
            self.offsets = offsets

    def on_ack(self, p: Pending, seq: int, t: int) -> None:
        if p.closed:
            return
        p.acked = True
        actor = p.actor
        i = actor.index
        frame_at = actor.frame_times.get(seq)
        if p.seen_seq[i] != seq:
            self.stats.mismatches += p.measured
        if frame_at is not None:
            if p.seen[i] is None:
                p.missing -= 1
            p.seen[i] = frame_at
            p.seen_seq[i] = seq
        if p.measured:
            self.stats.accepted[p.kind] += 1
            self.stats.lat_ack.append((t - p.sent) / NS)
            self.stats.lat_ack_by_route["owner" if actor.at_owner else "relayed"].append((t - p.sent) / NS)
            own = p.seen[i]
            if own is not None:
                self.stats.lat_actor.append((own - p.sent) / NS)
        if p.missing == 0:
            self.finish(p)

    def on_reject(self, p: Pending, code: str) -> None:
        if p.closed:
            return
        p.closed = True
        with contextlib.suppress(ValueError):
            self.pending.remove(p)
        if p.measured:
            self.stats.rejects[code] += 1

    def sweep(self, now: int) -> None:
        for p in [p for p in self.pending if now - p.sent > UNRESOLVED_AFTER_NS]:
            self.finish(p)

    def drain(self) -> None:
        """At the end: whatever is still open was never resolved."""
        for p in list(self.pending):
            self.finish(p)


def reached(p: Pending, match: int, game: dict[str, Any] | None) -> bool:
    """Has a view (of match ``match``) reached or passed the state right after action ``p``?"""
    if match != p.match:
        return match > p.match
    if game is None:
        return False
    flip: int = game["flip"]
    if p.kind == "nu":
        return flip > p.flip
    if flip != p.flip:
        return flip > p.flip
    phase: str = game["phase"]
    if phase in OPEN_PHASES:
        return bool(game["seats"][p.seat]["slapped"])
    return phase != "NU_CALLED"


# --------------------------------------------------------------------------- one client


class Bot:
    """One scripted player on one WebSocket."""

    def __init__(
        self,
        table: Table,
        index: int,
        token: str,
        ws_url: str,
        compression: str | None,
        restart: Callable[[], Awaitable[None]] | None,
    ) -> None:
        self.table = table
        self.index = index
        self.token = token
        self.ws_url = ws_url
        self.compression = compression
        self.restart = restart
        self.at_owner = True
        """Connected to the process holding its room (the one it was created on), not relayed."""
        self.stats = table.stats
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.match_id: str | None = None
        self.seat: int | None = None
        self.seq = 0
        self.frame_times: dict[int, int] = {}
        self.in_flight: dict[str, Pending] = {}
        self.ids = itertools.count(1)
        self.acted: set[tuple[str, str | None, int]] = set()
        self.open_seen: tuple[str | None, int, int] = (None, -1, 0)
        self.restarted: set[str] = set()
        self.stopping = False
        self.resyncing = False
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        self.ws = await connect(
            self.ws_url,
            compression=self.compression,
            max_size=2**22,
            ping_interval=None,
            open_timeout=HTTP_TIMEOUT,
            close_timeout=2,
        )
        await self.ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
        self.task = asyncio.create_task(self.read_loop())
        async with asyncio.timeout(HTTP_TIMEOUT):
            await self.ready.wait()

    async def close(self) -> None:
        self.stopping = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def read_loop(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                t = time.perf_counter_ns()
                if self.stats.window.holds(t):
                    self.stats.messages += 1
                await self.on_frame(text, t)
        except ConnectionClosed:
            pass
        if not self.stopping:
            self.stats.closed_early += 1
            code = self.ws.close_code
            self.stats.errors[f"CLOSED_{code}"] += 1
        self.ready.set()

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(orjson.dumps(msg).decode())

    async def on_frame(self, text: str | bytes, t: int) -> None:
        msg: dict[str, Any] = orjson.loads(text)
        kind = msg["type"]
        stats = self.stats
        if kind == "patch" or kind == "snapshot":
            seq: int = msg["seq"]
            if kind == "patch":
                if seq != self.seq + 1 or self.view is None:
                    if not self.resyncing:
                        self.resyncing = True
                        stats.seq_gaps += 1
                        await self.send({"type": "resync"})
                    return
                self.view = apply_patch(self.view, msg["ops"])
            else:
                self.view = msg["view"]
                self.resyncing = False
                if stats.window.holds(t) or msg["reason"] in ("reset", "resync"):
                    stats.snapshots[msg["reason"]] += 1
                self.ready.set()
            self.seq = seq
            frame_times = self.frame_times
            frame_times[seq] = t
            frame_times.pop(seq - 64, None)
            if stats.window.holds(t):
                stats.frames += 1
                stats.frame_bytes += len(text)
            match = self.view["room"]["match"]
            self.match_id = match["id"] if match is not None else None
            self.table.observe(self, t, seq)
            if not self.stopping:
                await self.act(t)
        elif kind == "ack":
            p = self.in_flight.pop(msg["id"], None)
            if p is not None:
                self.table.on_ack(p, msg["seq"], t)
        elif kind == "reject":
            p = self.in_flight.pop(msg["id"], None)
            if p is not None:
                self.table.on_reject(p, msg["code"])
            elif stats.window.holds(t):
                stats.rejects[msg["code"]] += 1
        elif kind == "ping":
            await self.send({"type": "pong", "id": msg["id"], "t": msg["t"]})
        elif kind == "welcome":
            self.seat = msg["seat"]
        elif kind == "error" and stats.window.holds(t):
            stats.errors[msg["code"]] += 1

    async def act(self, t: int) -> None:
        view = self.view
        assert view is not None
        game = view["game"]
        room = view["room"]
        if room["status"] == "finished":
            if self.restart is not None and self.match_id is not None and self.match_id not in self.restarted:
                self.restarted.add(self.match_id)
                await self.restart()
            return
        if game is None or room["status"] != "playing" or self.seat is None:
            return
        flip: int = game["flip"]
        if game["phase"] in OPEN_PHASES and self.open_seen[:2] != (self.match_id, flip):
            self.open_seen = (self.match_id, flip, t)
        for legal in game["legal"]:
            kind = legal["type"]
            key = (kind, self.match_id, flip)
            if key in self.acted:
                continue
            self.acted.add(key)
            if len(self.acted) > 64:
                self.acted = {key}
            if kind == "nu":
                action: dict[str, Any] = {"type": "nu"}
            elif kind == "slap":
                reaction = max(0, (t - self.open_seen[2]) // NS) if self.open_seen[:2] == key[1:] else 0
                action = {"type": "slap", "flip": legal["flip"], "reaction_ms": reaction}
            else:
                continue
            await self.send_action(kind, flip, action)

    async def send_action(self, kind: str, flip: int, action: dict[str, Any]) -> None:
        assert self.seat is not None
        n = len(self.table.bots)
        action_id = f"{self.index}-{next(self.ids)}"
        sent = time.perf_counter_ns()
        measured = self.stats.window.holds(sent)
        p = Pending(
            kind=kind,
            seat=self.seat,
            match=self.table.match_index(self.match_id),
            flip=flip,
            sent=sent,
            actor=self,
            seen=[None] * n,
            seen_seq=[None] * n,
            missing=n,
            measured=measured,
        )
        self.in_flight[action_id] = p
        self.table.add(p)
        if measured:
            self.stats.sent[kind] += 1
        await self.send({"type": "action", "id": action_id, "action": action})


# --------------------------------------------------------------------------- HTTP lobby


class Lobby:
    def __init__(self, base: str, concurrency: int) -> None:
        self.http = httpx.AsyncClient(
            base_url=base,
            timeout=HTTP_TIMEOUT,
            # Idle connections are dropped before uvicorn's keep-alive (5 s) can close one under a
            # request (a ReadError on a loaded machine).
            limits=httpx.Limits(
                max_connections=concurrency, max_keepalive_connections=concurrency, keepalive_expiry=2.0
            ),
        )
        self.gate = asyncio.Semaphore(concurrency)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def post(self, path: str, token: str | None, body: dict[str, Any] | None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.gate:
            r = await self.http.post(path, json=body, headers=headers)
        if r.status_code >= 300:
            raise RuntimeError(f"POST {path} -> {r.status_code}: {r.text[:300]}")
        data: dict[str, Any] = r.json()
        return data

    async def player(self, name: str) -> str:
        token: str = (await self.post("/api/players", None, {"name": name}))["token"]
        return token

    async def room(self, index: int, players: int, options: dict[str, Any], game: str = "slap") -> RoomPlan:
        host = await self.player(f"load{index}-0")
        room = await self.post("/api/rooms", host, {"game": game, "options": options, "public": False})
        code: str = room["code"]
        tokens = [host]
        for seat in range(1, players):
            token = await self.player(f"load{index}-{seat}")
            await self.post(f"/api/rooms/{code}/seats", token, {"seat": seat, "prefs": {}})
            tokens.append(token)
        return RoomPlan(code, tokens)

    async def start(self, code: str, host: str) -> None:
        await self.post(f"/api/rooms/{code}/start", host, None)


# --------------------------------------------------------------------------- the run


@dataclass
class Args:
    rooms: int
    clients: int
    seconds: float
    warmup: float
    grace: float
    url: str | None
    also_urls: list[str]
    processes: int
    redis_url: str | None
    server_pid: int | None
    database_url: str | None
    pin: bool
    compression: str
    client_loop: str
    options: dict[str, Any]
    concurrency: int
    as_json: bool
    quiet: bool


@dataclass
class Result:
    args: Args
    stats: Stats
    seconds: float = 0.0
    server_pid: int | None = None
    server_cpu: tuple[float, float] | None = None
    client_cpu: tuple[float, float] = (0.0, 0.0)
    server_main_thread_cpu: float | None = None
    server_rss_mb: float | None = None
    machine_busy: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


async def gather_limited(coros: list[Coroutine[Any, Any, Any]], limit: int) -> list[Any]:
    """Run at most ``limit`` at a time; the first failure cancels the rest and is raised as is."""
    gate = asyncio.Semaphore(limit)

    async def one(c: Coroutine[Any, Any, Any]) -> Any:
        async with gate:
            return await c

    tasks = [asyncio.ensure_future(one(c)) for c in coros]
    try:
        return await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def drive(
    args: Args, base: str, server_pid: int | None, alive: Callable[[], bool], result: Result
) -> None:
    stats = result.stats
    # With --also-url, processes sharing the rooms (BORDET_REDIS_URL): room i is created on (so
    # held by) process i mod n, and its seat j connects to process (i + j) mod n, round robin.
    bases = [base, *args.also_urls]
    ws_bases = ["ws" + b[len("http") :] for b in bases]
    compression = None if args.compression == "none" else "deflate"
    lobbies = [Lobby(b, args.concurrency) for b in bases]
    lobby = lobbies[0]
    tables: list[Table] = []
    bots: list[Bot] = []
    try:
        t_setup = time.monotonic()
        progress(f"creating {args.rooms} rooms and {args.rooms * args.clients} players over HTTP")
        n = len(bases)
        plans: list[RoomPlan] = await gather_limited(
            [lobbies[i % n].room(i, args.clients, args.options) for i in range(args.rooms)], args.concurrency
        )
        for r, plan in enumerate(plans):
            table = Table(plan.code, stats)

            def restart(code: str = plan.code, host: str = plan.tokens[0]) -> Awaitable[None]:
                return _restart(lobby, code, host, stats)

            for i, token in enumerate(plan.tokens):
                bot = Bot(
                    table,
                    i,
                    token,
                    f"{ws_bases[(r + i) % n]}/ws/rooms/{plan.code}",
                    compression,
                    restart if i == 0 else None,
                )
                bot.at_owner = (r + i) % n == r % n
                table.bots.append(bot)
                bots.append(bot)
            tables.append(table)
        progress(f"connecting {len(bots)} WebSockets")
        await gather_limited([b.open() for b in bots], args.concurrency)
        progress("starting the games")
        await gather_limited([lobby.start(p.code, p.tokens[0]) for p in plans], args.concurrency)
        stats.matches_started += len(plans)
        result.notes.append(
            f"setup: {args.rooms} rooms, {len(bots)} connections, all games started in "
            f"{time.monotonic() - t_setup:.1f} s"
        )

        heap.settle()  # this process's own collector passes would count as server latency
        now = time.perf_counter_ns()
        progress(f"warming up for {args.warmup:g} s")
        stats.window.start = now + int(args.warmup * 1e9)
        stats.window.end = stats.window.start + int(args.seconds * 1e9)
        await _sleep_until(stats.window.start, alive)
        progress(f"measuring for {args.seconds:g} s")
        cpu0 = proc_cpu_seconds(server_pid) if server_pid else None
        main0 = main_thread_cpu_seconds(server_pid) if server_pid else None
        own0 = os.times()
        busy0 = cpu_busy_seconds()
        w0 = time.perf_counter_ns()
        await _sleep_until(stats.window.end, alive)
        cpu1 = proc_cpu_seconds(server_pid) if server_pid else None
        main1 = main_thread_cpu_seconds(server_pid) if server_pid else None
        own1 = os.times()
        busy1 = cpu_busy_seconds()
        w1 = time.perf_counter_ns()
        result.seconds = (w1 - w0) / 1e9
        if cpu0 is not None and cpu1 is not None:
            result.server_cpu = (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1])
        if main0 is not None and main1 is not None:
            result.server_main_thread_cpu = main1 - main0
        result.client_cpu = (own1.user - own0.user, own1.system - own0.system)
        result.machine_busy = {k: busy1[k] - v for k, v in busy0.items() if k in busy1}
        if server_pid:
            result.server_rss_mb = proc_rss_mb(server_pid)
        progress("measured; letting the last actions land, then closing")
        # Grace: the last measured actions still need their frames; new ones are not measured.
        grace_end = time.perf_counter_ns() + int(args.grace * 1e9)
        while time.perf_counter_ns() < grace_end:
            if not any(p.measured for t in tables for p in t.pending):
                break
            await asyncio.sleep(0.05)
        for t in tables:
            t.sweep(time.perf_counter_ns())
    finally:
        for b in bots:
            b.stopping = True
        await asyncio.gather(*(b.close() for b in bots), return_exceptions=True)
        for t in tables:
            t.drain()
        for each in lobbies:
            await each.aclose()


async def _restart(lobby: Lobby, code: str, host: str, stats: Stats) -> None:
    async def go() -> None:
        try:
            await lobby.start(code, host)
            stats.matches_started += 1
        except Exception:
            stats.restart_failures += 1

    task = asyncio.create_task(go())
    _background.add(task)
    task.add_done_callback(_background.discard)


_background: set[asyncio.Task[None]] = set()


async def _sleep_until(t_ns: int, alive: Callable[[], bool]) -> None:
    while True:
        left = (t_ns - time.perf_counter_ns()) / 1e9
        if left <= 0:
            return
        if not alive():
            raise RuntimeError("the server process exited during the run")
        await asyncio.sleep(min(left, 0.25))


def _servers(args: Args, url: str, tmp: str) -> list[ServerProcess]:
    """The server to start, or ``--processes`` of them sharing the rooms through ``--redis-url``."""
    if args.processes == 1:
        return [ServerProcess(database_url=url, log_path=Path(tmp) / "server.log")]
    shared = {
        **SERVER_ENV,
        "BORDET_SECRET": "slap-load-" + secrets.token_hex(16),
        "BORDET_REDIS_URL": args.redis_url or "",
        "BORDET_REDIS_PREFIX": "bordet-slap-load-" + secrets.token_hex(4),
    }
    return [
        ServerProcess(database_url=url, log_path=Path(tmp) / f"server{i}.log", env=dict(shared))
        for i in range(args.processes)
    ]


def run(args: Args) -> Result:
    result = Result(args=args, stats=Stats())
    server: ServerProcess | None = None
    servers: list[ServerProcess] = []
    tmp = tempfile.TemporaryDirectory(prefix="bordet-slap-load-")
    mine = os.sched_getaffinity(0)
    try:
        if args.url is None:
            url = args.database_url or f"sqlite+aiosqlite:///{tmp.name}/bordet.db"
            servers = _servers(args, url, tmp.name)
            server = servers[0]
            cpus = sorted(mine)
            server_cpus = client_cpus = None
            if args.pin and len(cpus) >= 2 and len(servers) == 1:
                server_cpus, client_cpus = {cpus[0]}, set(cpus[1:])
            progress(f"starting {len(servers)} server process(es)")
            for each in servers:
                each.start(server_cpus)
            args.also_urls = [each.base for each in servers[1:]]
            progress(f"server pid {server.pid} listening on {server.base}")
            if len(servers) > 1:
                result.notes.append(
                    f"{len(servers)} processes sharing the rooms through Redis, pids "
                    + ", ".join(str(each.pid) for each in servers)
                    + "; connections dealt round robin; server CPU below: the first process only"
                )
            if client_cpus is not None:
                os.sched_setaffinity(0, client_cpus)
                client_list = ",".join(map(str, sorted(client_cpus)))
                result.notes.append(f"pinning: server on CPU {cpus[0]}, clients on CPU {client_list}")
            else:
                why = "--no-pin" if not args.pin else "one CPU" if len(servers) == 1 else "several servers"
                result.notes.append(f"pinning: none ({why})")
            base = server.base
            result.server_pid = server.pid
            alive: Callable[[], bool] = partial(_all_alive, servers)
            db = "SQLite (temporary file)" if args.database_url is None else _redact(args.database_url)
            result.notes.insert(
                0, f"server: uvicorn subprocess pid {server.pid} on {base}, 1 worker, real clock, {db}"
            )
            result.notes.insert(1, f"code: {code_version()}")
        else:
            base = args.url.rstrip("/")
            result.server_pid = args.server_pid
            alive = _always
            pid = f", pid {args.server_pid}" if args.server_pid else " (CPU not measured: see --server-pid)"
            result.notes.insert(0, f"server: already running at {base}{pid}")
        run_loop(drive(args, base, result.server_pid, alive, result), args.client_loop)
    except BaseException:
        if server is not None and not server.alive() and server.proc is not None:
            print(f"server log tail:\n{server.log_tail()}", file=sys.stderr)
        raise
    finally:
        with contextlib.suppress(Exception):
            os.sched_setaffinity(0, mine)
        for each in servers:
            each.stop()
        tmp.cleanup()
    return result


_quiet = False


def progress(message: str) -> None:
    """A progress line on stderr (stdout keeps only the report), e.g. to find the pid for py-spy."""
    if not _quiet:
        print(f"[slap_load {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _all_alive(servers: list[ServerProcess]) -> bool:
    return all(each.alive() for each in servers)


def _always() -> bool:
    return True


def run_loop(main: Coroutine[Any, Any, None], loop: str) -> None:
    """Run ``main``; Ctrl-C (the Runner's SIGINT handling) or SIGTERM cancels it, so its cleanup runs."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    if loop == "uvloop":
        try:
            import uvloop

            factory = uvloop.new_event_loop
        except ImportError:
            factory = None

    async def guarded() -> None:
        task = asyncio.current_task()
        assert task is not None
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        await main

    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(guarded())


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


# --------------------------------------------------------------------------- report


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def summary(values: list[float]) -> dict[str, float | int | None]:
    s = sorted(values)
    if not s:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    return {
        "n": len(s),
        "p50": round(percentile(s, 50), 3),
        "p95": round(percentile(s, 95), 3),
        "p99": round(percentile(s, 99), 3),
        "max": round(s[-1], 3),
    }


def figures(result: Result) -> dict[str, Any]:
    args, st = result.args, result.stats
    secs = result.seconds or args.seconds
    lat_all = [*st.lat_all["nu"], *st.lat_all["slap"]]
    accepted = sum(st.accepted.values())
    server_cpu = None
    if result.server_cpu is not None:
        user, system = result.server_cpu
        main = result.server_main_thread_cpu
        server_cpu = {
            "user_s": user,
            "sys_s": system,
            "pct_of_core": 100 * (user + system) / secs,
            "main_thread_pct_of_core": None if main is None else 100 * main / secs,
        }
    cu, cs = result.client_cpu
    return {
        "rooms": args.rooms,
        "clients_per_room": args.clients,
        "connections": args.rooms * args.clients,
        "measured_s": secs,
        "warmup_s": args.warmup,
        "compression": args.compression,
        "client_loop": args.client_loop,
        "options": args.options,
        "latency_ms": {
            "all_clients": summary(lat_all),
            "all_clients_nu": summary(st.lat_all["nu"]),
            "all_clients_slap": summary(st.lat_all["slap"]),
            "actor_frame": summary(st.lat_actor),
            "actor_ack": summary(st.lat_ack),
            "actor_ack_at_owner": summary(st.lat_ack_by_route["owner"]),
            "actor_ack_relayed": summary(st.lat_ack_by_route["relayed"]),
        },
        "actions_sent": dict(st.sent),
        "accepted": dict(st.accepted),
        "accepted_per_s": accepted / secs,
        "accepted_per_s_by_type": {k: v / secs for k, v in st.accepted.items()},
        "frames_per_s": st.frames / secs,
        "frame_bytes_avg": st.frame_bytes / st.frames if st.frames else 0,
        "messages_per_s": st.messages / secs,
        "flips_per_s": st.flips / secs,
        "matches_started": st.matches_started,
        "rejects": dict(st.rejects),
        "errors": dict(st.errors),
        "snapshots": dict(st.snapshots),
        "unresolved": st.unresolved,
        "ack_seq_mismatches": st.mismatches,
        "seq_offset_changes": st.offset_changes,
        "seq_gaps": st.seq_gaps,
        "connections_closed_early": st.closed_early,
        "restart_failures": st.restart_failures,
        "server_pid": result.server_pid,
        "client_pid": os.getpid(),
        "server_cpu": server_cpu,
        "server_rss_mb": result.server_rss_mb,
        "client_cpu": {"user_s": cu, "sys_s": cs, "pct_of_core": 100 * (cu + cs) / secs},
        "machine_busy_pct": {k: 100 * v / secs for k, v in result.machine_busy.items()},
        "other_processes_pct_of_core": (
            100 * (result.machine_busy["all"] - cu - cs - sum(result.server_cpu or (0.0, 0.0))) / secs
            if "all" in result.machine_busy and result.server_cpu is not None
            else None
        ),
        "notes": result.notes,
    }


def _counts(counter: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items(), key=lambda kv: -kv[1])) or "none"


def render(f: dict[str, Any]) -> str:
    """The plain-text report."""
    lines = ["Bordet Slap load test", *(f"  {note}" for note in f["notes"])]
    lines.append(
        f"  clients: {f['connections']} WebSockets ({f['rooms']} rooms x {f['clients_per_room']}) in one "
        f"process, pid {f['client_pid']} ({f['client_loop']}), compression {f['compression']}"
    )
    lines.append(f"  window: warm-up {f['warmup_s']:.1f} s, then {f['measured_s']:.2f} s measured")
    options = " ".join(f"{k}={v}" for k, v in f["options"].items())
    lines += textwrap.wrap(options, 106, initial_indent="  options: ", subsequent_indent="    ")
    lines.append("")

    def row(label: str, value: str, detail: str = "") -> None:
        lines.append(f"  {label:<36}{value:>12}   {detail}".rstrip())

    sent = f["actions_sent"]
    row(
        "accepted actions/s",
        f"{f['accepted_per_s']:.1f}",
        ", ".join(f"{k} {v:.1f}/s" for k, v in sorted(f["accepted_per_s_by_type"].items())),
    )
    row("actions sent (measured)", str(sum(sent.values())), _counts(sent))
    row("state frames/s received (all)", f"{f['frames_per_s']:.1f}", f"avg {f['frame_bytes_avg']:.0f} B JSON")
    row("messages/s received, all kinds", f"{f['messages_per_s']:.1f}", "frames + acks, rejects, pings...")
    row("flips/s (all tables)", f"{f['flips_per_s']:.1f}")
    row("rejects by code", str(sum(f["rejects"].values())), _counts(f["rejects"]))
    row("errors by code", str(sum(f["errors"].values())), _counts(f["errors"]))
    lines.append("")
    lines.append(f"  {'latency (ms)':<40}{'n':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}")
    rows = [
        ("send -> effect at last of the table", "all_clients"),
        ("  nu", "all_clients_nu"),
        ("  slap", "all_clients_slap"),
        ("send -> effect frame at the actor", "actor_frame"),
        ("send -> ack at the actor", "actor_ack"),
    ]
    if f["latency_ms"]["actor_ack_relayed"]["n"]:  # --also-url: the cost of the extra hop
        rows += [
            ("  connected to the owner", "actor_ack_at_owner"),
            ("  relayed by another", "actor_ack_relayed"),
        ]
    for label, key in rows:
        s = f["latency_ms"][key]
        cells = "".join(
            f"{'-':>9}" if s[k] is None else f"{s[k]:>9.2f}" for k in ("p50", "p95", "p99", "max")
        )
        lines.append(f"  {label:<40}{s['n']:>8}{cells}")
    lines.append("")
    lines.append("  CPU over the measured window (user + sys, % of one core)")
    sc = f["server_cpu"]
    if sc is not None:
        rss = f", RSS {f['server_rss_mb']:.0f} MB" if f["server_rss_mb"] is not None else ""
        row(
            f"server (pid {f['server_pid']})",
            f"{sc['pct_of_core']:.1f} %",
            f"user {sc['user_s']:.2f} s + sys {sc['sys_s']:.2f} s{rss}",
        )
        if sc["main_thread_pct_of_core"] is not None:
            row(
                "  of which the event-loop thread",
                f"{sc['main_thread_pct_of_core']:.1f} %",
                "the rest: DB threads",
            )
    else:
        row("server", "n/a")
    cc = f["client_cpu"]
    row(
        f"client process (pid {f['client_pid']})",
        f"{cc['pct_of_core']:.1f} %",
        f"user {cc['user_s']:.2f} s + sys {cc['sys_s']:.2f} s",
    )
    busy = f["machine_busy_pct"]
    per_cpu = ", ".join(f"{k} {v:.0f} %" for k, v in busy.items() if k != "all")
    other = f["other_processes_pct_of_core"]
    row("machine, all CPUs busy", f"{busy.get('all', 0.0):.1f} %", per_cpu)
    if other is not None:
        row("other processes (noise)", f"{max(other, 0.0):.1f} %", "busy time not used by server or clients")
    lines.append("")
    lines.append("  checks (expected 0 unless noted)")
    row("ack.seq frame != content match", str(f["ack_seq_mismatches"]))
    row("seq offset between clients moved", str(f["seq_offset_changes"]))
    row("unresolved actions", str(f["unresolved"]))
    row("patch seq gaps", str(f["seq_gaps"]))
    row("snapshots while measuring", str(sum(f["snapshots"].values())), _counts(f["snapshots"]))
    row("connections closed early", str(f["connections_closed_early"]))
    row("matches started (info)", str(f["matches_started"]), f"restart failures {f['restart_failures']}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- command line


def _option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def bounded(kind: type, lo: float, hi: float) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        value = kind(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be between {lo:g} and {hi:g}")
        return value

    return parse


def parse_args(argv: list[str] | None) -> Args:
    parser = argparse.ArgumentParser(
        prog="python -m bench.slap_load",
        description="Load test of Slap tables: scripted WebSocket players, action-to-screen latency.",
    )
    parser.add_argument("--rooms", type=bounded(int, 1, MAX_ROOMS), default=100, help="tables (default 100)")
    parser.add_argument("--clients", type=bounded(int, 2, 4), default=4, help="players per table (default 4)")
    parser.add_argument(
        "--seconds", type=bounded(float, 1, MAX_SECONDS), default=20.0, help="measured window"
    )
    parser.add_argument("--warmup", type=bounded(float, 0, 120), default=5.0, help="seconds before measuring")
    parser.add_argument(
        "--grace",
        type=bounded(float, 0, 30),
        default=3.0,
        help="seconds allowed after the window for the last measured actions",
    )
    parser.add_argument("--url", help="an already running server (loopback only), e.g. http://127.0.0.1:8000")
    parser.add_argument(
        "--also-url",
        dest="also_urls",
        action="append",
        default=[],
        help="with --url: another process sharing the rooms (BORDET_REDIS_URL); repeatable",
    )
    parser.add_argument(
        "--processes",
        type=bounded(int, 1, 8),
        default=1,
        help="start this many server processes sharing the rooms (needs --redis-url, PostgreSQL)",
    )
    parser.add_argument(
        "--redis-url", help="with --processes: the Redis they share, e.g. redis://127.0.0.1:6379/0"
    )
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, to measure its CPU")
    parser.add_argument("--database-url", help="database for the started server (default: temp SQLite file)")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server and clients")
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="permessage-deflate offered by the clients (default deflate, like browsers)",
    )
    parser.add_argument("--client-loop", choices=("uvloop", "asyncio"), default="uvloop")
    parser.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="Slap table option (JSON value), overrides the fast defaults; repeatable",
    )
    parser.add_argument(
        "--concurrency",
        type=bounded(int, 1, 200),
        default=20,
        help="parallel HTTP requests and connects during setup",
    )
    parser.add_argument("--json", dest="as_json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(argv)
    if ns.url is not None:
        parts = urlsplit(ns.url)
        if parts.scheme not in ("http", "https") or not is_loopback_host(parts.hostname):
            parser.error("--url must be http://<loopback address>:<port>")
        if ns.database_url:
            parser.error("--database-url only applies to the server this tool starts")
    if ns.processes > 1 and (ns.url is not None or not ns.redis_url or not ns.database_url):
        parser.error("--processes needs --redis-url and a PostgreSQL --database-url (and no --url)")
    for also in ns.also_urls:
        parts = urlsplit(also)
        if ns.url is None or parts.scheme not in ("http", "https") or not is_loopback_host(parts.hostname):
            parser.error("--also-url needs --url and must be http://<loopback address>:<port>")
    if ns.server_pid is not None and ns.url is None:
        parser.error("--server-pid only applies with --url")
    if ns.database_url:
        check_database_url(ns.database_url)
    options = {**DEFAULT_OPTIONS, **dict(ns.option)}
    return Args(
        rooms=ns.rooms,
        clients=ns.clients,
        seconds=ns.seconds,
        warmup=ns.warmup,
        grace=ns.grace,
        url=ns.url,
        also_urls=[u.rstrip("/") for u in ns.also_urls],
        processes=ns.processes,
        redis_url=ns.redis_url,
        server_pid=ns.server_pid,
        database_url=ns.database_url,
        pin=ns.pin,
        compression=ns.compression,
        client_loop=ns.client_loop,
        options=options,
        concurrency=ns.concurrency,
        as_json=ns.as_json,
        quiet=ns.quiet,
    )


def _on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    global _quiet
    args = parse_args(argv)
    _quiet = args.quiet
    # Outside the event loop (server start-up) SIGTERM behaves like Ctrl-C; inside it cancels the run.
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        result = run(args)
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("slap_load: interrupted; the server was stopped", file=sys.stderr)
        return 130
    except Exception as exc:
        print(f"slap_load failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    f = figures(result)
    print(json.dumps(f, indent=2) if args.as_json else render(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
