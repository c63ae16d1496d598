"""Idle cost: many connections in rooms of four that do nothing but answer clock-sync pings.

Run with ``python -m bench.fanout --idle`` (or ``python -m bench.fanout_idle``); ``--help`` for the rest.

It starts Bordet the way ``bench.fanout`` does (``bench.slap_load``'s ``ServerProcess``, pinned to the
first CPU, a temporary SQLite file, every abuse limit raised through ``bench.fanout.server_env``),
creates ``--connections / 4`` Rummy rooms of four seated players over HTTP, connects every seat
(``bench.fanout.BordetLink``: applies every frame, answers every ping) and, with ``--started``, starts
the games (five-minute turns: nobody's clock runs out inside the window). After ``--settle`` seconds
(the first pings of a link come in a quick burst) it measures the server over ``--seconds``: CPU
(% of one core, and per 1,000 connections), RSS before connecting, once connected and at the end,
and the pings answered per second. This process raises its soft file-descriptor limit to the hard
one first (the server inherits it); a run asking for more connections than that allows stops
before starting and says how many it can reach.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.fanout import (
    SEATS,
    BordetLink,
    Table,
    bordet_tables,
    pinned_server,
    raise_fd_limit,
    run_queue_wait_s,
    say,
    server_env,
    wait_for,
)
from bench.slap_load import (
    ServerProcess,
    bounded,
    check_database_url,
    code_version,
    cpu_busy_seconds,
    proc_cpu_seconds,
    proc_rss_mb,
    run_loop,
)
from bench.soak import exit_code, log_problems

MAX_CONNECTIONS = 20_000
SPARE_FDS = 200
"""Descriptors a process needs besides its connections (the database, logs, HTTP setup)."""


@dataclass
class Args:
    connections: int
    seconds: float
    settle: float
    started: bool
    database_url: str | None
    pin: bool
    concurrency: int
    as_json: bool


@dataclass
class Result:
    connections: int
    notes: list[str] = field(default_factory=list)
    server_pid: int = 0
    rss_start_mb: float | None = None
    rss_connected_mb: float | None = None
    rss_end_mb: float | None = None
    seconds: float = 0.0
    server_cpu_s: float = 0.0
    server_wait_s: float = 0.0
    client_cpu_s: float = 0.0
    machine_busy_s: float = 0.0
    pings: int = 0
    closed_early: int = 0
    closed_early_codes: dict[str, int] = field(default_factory=dict)
    """How many of those the server closed with each close code ("none": without a close frame)."""


def gone(link: BordetLink) -> bool:
    return link.task is not None and link.task.done()


def links_of(tables: list[Table]) -> list[BordetLink]:
    return [link for t in tables for link in t.links if isinstance(link, BordetLink)]


async def idle(args: Args, server: ServerProcess, result: Result) -> None:
    rooms = args.connections // SEATS
    games = "started" if args.started else "not started"
    say(f"idle: {rooms} rooms, {args.connections} connections (games {games})")
    t0 = time.monotonic()
    tables = await bordet_tables(server.base, rooms, args.concurrency, start=args.started)
    links = links_of(tables)
    try:
        # A link the server closed (1013 try again, when it is too busy) never gets a snapshot.
        await wait_for(
            lambda: all(link.view is not None or gone(link) for link in links), "snapshots", 300, server.alive
        )
        refused = sum(table.refused_hellos for table in tables)
        again = f" ({refused} hellos refused with 1011 and sent again, as a browser does)" if refused else ""
        result.notes.append(f"setup: {len(links)} connections open in {time.monotonic() - t0:.1f} s{again}")
        say(f"idle: connected; settling {args.settle:g} s, then measuring {args.seconds:g} s")
        await asyncio.sleep(args.settle)
        result.rss_connected_mb = proc_rss_mb(server.pid)
        pings0 = sum(link.pings for link in links)
        cpu0, own0, busy0 = sum(proc_cpu_seconds(server.pid)), os.times(), cpu_busy_seconds()["all"]
        wait0 = run_queue_wait_s(server.pid)
        w0 = time.monotonic()
        end = w0 + args.seconds
        while time.monotonic() < end:
            if not server.alive():
                raise RuntimeError("the server exited while idle")
            await asyncio.sleep(min(1.0, end - time.monotonic()))
        result.seconds = time.monotonic() - w0
        result.server_cpu_s = sum(proc_cpu_seconds(server.pid)) - cpu0
        result.server_wait_s = run_queue_wait_s(server.pid) - wait0
        own1 = os.times()
        result.client_cpu_s = own1.user + own1.system - own0.user - own0.system
        result.machine_busy_s = cpu_busy_seconds()["all"] - busy0
        result.pings = sum(link.pings for link in links) - pings0
        result.rss_end_mb = proc_rss_mb(server.pid)
    finally:
        await asyncio.gather(*(link.close() for link in links), return_exceptions=True)
        result.closed_early = sum(link.closed_early for link in links)
        codes = Counter(str(link.close_code or "none") for link in links if link.closed_early)
        result.closed_early_codes = dict(sorted(codes.items()))


def run(args: Args) -> Result:
    result = Result(connections=args.connections)
    limit = raise_fd_limit()
    if args.connections + SPARE_FDS > limit:
        raise RuntimeError(
            f"{args.connections} connections need {args.connections + SPARE_FDS} file descriptors "
            f"per process; the hard limit here is {limit}: at most {limit - SPARE_FDS} connections"
        )
    result.notes += [f"code: {code_version()}", f"file descriptors: soft limit raised to {limit}"]
    with tempfile.TemporaryDirectory(prefix="bordet-fanout-idle-") as tmp:
        server = ServerProcess(
            database_url=args.database_url or f"sqlite+aiosqlite:///{tmp}/bordet.db",
            log_path=Path(tmp) / "server.log",
            env=server_env(args.connections // SEATS),
        )
        with pinned_server(server, args.pin, result.notes):
            result.server_pid = server.pid
            result.rss_start_mb = proc_rss_mb(server.pid)
            run_loop(idle(args, server, result), "uvloop")
        errors, tracebacks = log_problems(server.log_path)
        result.notes.append(f"server log: {errors} ERROR lines, {tracebacks} Traceback lines")
    return result


def figures(r: Result) -> dict[str, Any]:
    per_k = r.connections / 1000
    secs = r.seconds or 1.0
    cpu = 100 * r.server_cpu_s / secs
    added = None
    if r.rss_start_mb is not None and r.rss_end_mb is not None:
        added = (r.rss_end_mb - r.rss_start_mb) / per_k
    return {
        "connections": r.connections,
        "rooms": r.connections // SEATS,
        "measured_s": r.seconds,
        "server_pid": r.server_pid,
        "server_cpu_pct": cpu,
        "server_cpu_pct_per_1000_connections": cpu / per_k,
        "rss_start_mb": r.rss_start_mb,
        "rss_connected_mb": r.rss_connected_mb,
        "rss_end_mb": r.rss_end_mb,
        "rss_mb_per_1000_connections": None if r.rss_end_mb is None else r.rss_end_mb / per_k,
        "rss_added_mb_per_1000_connections": added,
        "server_waiting_for_cpu_pct": 100 * r.server_wait_s / secs,
        "pings_per_s": r.pings / secs,
        "client_cpu_pct": 100 * r.client_cpu_s / secs,
        "other_processes_cpu_pct": max(
            0.0, 100 * (r.machine_busy_s - r.server_cpu_s - r.client_cpu_s) / secs
        ),
        "connections_closed_early": r.closed_early,
        "connections_closed_early_codes": r.closed_early_codes,
        "notes": r.notes,
    }


def render(f: dict[str, Any]) -> str:
    def mb(v: float | None) -> str:
        return "-" if v is None else f"{v:.0f} MB"

    added = f["rss_added_mb_per_1000_connections"]
    return "\n".join(
        [
            f"Idle cost: {f['connections']} connections in {f['rooms']} rooms of {SEATS}, clock sync only, "
            f"{f['measured_s']:.1f} s measured",
            *(f"  {n}" for n in f["notes"]),
            f"  server CPU            {f['server_cpu_pct']:6.1f} % of one core, "
            f"{f['server_cpu_pct_per_1000_connections']:.2f} % per 1,000 connections; its threads waited "
            f"for a CPU {f['server_waiting_for_cpu_pct']:.0f} % of the time (busy machine)",
            f"  server RSS            {mb(f['rss_start_mb'])} before connecting, {mb(f['rss_connected_mb'])} "
            f"connected, {mb(f['rss_end_mb'])} at the end",
            f"  RSS per 1,000 conns   {f['rss_mb_per_1000_connections']:.1f} MB in all, "
            + ("-" if added is None else f"{added:.1f} MB added by the connections"),
            f"  pings answered        {f['pings_per_s']:.0f}/s",
            f"  load generator CPU    {f['client_cpu_pct']:.1f} % "
            f"(other processes {f['other_processes_cpu_pct']:.0f} %)",
            f"  closed early          {f['connections_closed_early']}"
            + "".join(f", {n} with {code}" for code, n in f["connections_closed_early_codes"].items()),
        ]
    )


def parse_args(argv: list[str] | None) -> Args:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fanout --idle",
        description="Idle connections in rooms of four: server CPU and RSS.",
    )
    parser.add_argument("--connections", type=bounded(int, SEATS, MAX_CONNECTIONS), default=10_000)
    parser.add_argument("--seconds", type=bounded(float, 1, 600), default=60.0, help="measured")
    parser.add_argument("--settle", type=bounded(float, 0, 120), default=10.0, help="before measuring")
    parser.add_argument(
        "--started", action="store_true", help="start the games (else rooms stay in the lobby)"
    )
    parser.add_argument("--database-url", help="the server's database (default: a temporary SQLite file)")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server and clients")
    parser.add_argument("--concurrency", type=bounded(int, 1, 200), default=8, help="parallel setup")
    parser.add_argument("--json", dest="as_json", action="store_true", help="the figures as JSON")
    ns = parser.parse_args(argv)
    if ns.connections % SEATS:
        parser.error(f"--connections must be a multiple of {SEATS}")
    if ns.database_url:
        check_database_url(ns.database_url)
    return Args(
        connections=ns.connections,
        seconds=ns.seconds,
        settle=ns.settle,
        started=ns.started,
        database_url=ns.database_url,
        pin=ns.pin,
        concurrency=ns.concurrency,
        as_json=ns.as_json,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)

    def work() -> None:
        f = figures(run(args))
        print(json.dumps(f, indent=2) if args.as_json else render(f))

    return exit_code("fanout --idle", work)


if __name__ == "__main__":
    sys.exit(main())
