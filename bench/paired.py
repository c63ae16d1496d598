"""This checkout and another git revision under the same load at the same time: CPU per action, side by side.

On a shared machine a server's CPU per action drifts by 10 % and more from one minute to the next,
more than most single changes save, so runs one after the other cannot tell a 5 % saving from the
noise. Here this checkout (as it is, uncommitted changes included) and ``--base`` (a temporary git
worktree of it) each run ``bench.fanout --only bordet`` at once: both servers pinned to the first
CPU, both load generators to the others, so whatever the machine does meanwhile happens to both.
Each pair of runs gives this checkout's CPU per 1,000 accepted actions/s over the base's; the
median of those ratios is the figure. No pass or fail.

The two servers share one core, so ``--rate`` is what each gets and both together must leave the
core some room (700 each at 1,000 connections is about 90 % of it here); their latencies are those
of a shared core, not of one server alone (``bench.fanout`` gives those).

``--base-python`` runs the base (its load generator and its server) with another interpreter, a
virtual environment with ``requirements-dev.lock`` installed: with ``--base HEAD`` that compares
one interpreter with another on the same code. ``--compiled`` builds the base's hot modules with mypyc
too (``tools/native.py build`` in its worktree), for when this checkout runs compiled (``make native``):
a change to what is compiled, or to those modules, then shows as the image would run it.

    .venv/bin/python -m bench.paired --base HEAD~1           # 3 pairs at 700 actions/s each
    .venv/bin/python -m bench.paired --base main --runs 5 --rate 500
    .venv/bin/python -m bench.paired --base HEAD --base-python ../venv-3.12/bin/python
    make native && .venv/bin/python -m bench.paired --base HEAD --compiled --rate 600
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.fanout import SEATS
from bench.slap_load import ROOT, app_build, bounded

CPU_KEY = "server_cpu_pct_per_1000_actions_per_s"


@dataclass(frozen=True)
class Args:
    base: str
    base_python: str
    rate: float
    runs: int
    connections: int
    warmup: float
    seconds: float
    as_json: bool
    compiled: bool = False


def git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done.stdout.strip()


def python_version(python: str) -> str:
    """The version of the interpreter ``python`` (the base's: its checkout may predate the key
    ``bench.fanout`` now reports it in)."""
    done = subprocess.run(
        [python, "-c", "import platform; print(platform.python_version())"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{python}: {done.stderr.strip() or done.returncode}")
    return done.stdout.strip()


@contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """A checkout of ``ref`` in a temporary directory, removed again afterwards."""
    with tempfile.TemporaryDirectory(prefix="bordet-paired-") as tmp:
        path = Path(tmp) / "base"
        git("worktree", "add", "--detach", "--quiet", str(path), ref)
        try:
            yield path
        finally:
            git("worktree", "remove", "--force", str(path))


def compile_checkout(checkout: Path, python: str) -> None:
    """Build ``checkout``'s hot modules with mypyc in place, with its own build tool."""
    done = subprocess.run(
        [python, "tools/native.py", "build"],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"compiling the base failed ({done.returncode}):\n{(done.stderr or done.stdout)[-3000:]}"
        )


def fanout(checkout: Path, args: Args, python: str = sys.executable) -> subprocess.Popen[str]:
    """``bench.fanout --only bordet`` of ``checkout``, started now (``python``, that code)."""
    command = [
        python,
        "-m",
        "bench.fanout",
        "--only",
        "bordet",
        "--json",
        "--quiet",
        "--rates",
        f"{args.rate:g}",
        "--connections",
        str(args.connections),
        "--warmup",
        f"{args.warmup:g}",
        "--seconds",
        f"{args.seconds:g}",
    ]
    return subprocess.Popen(command, cwd=checkout, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def figures_of(proc: subprocess.Popen[str], name: str) -> dict[str, Any]:
    """The rate's figures of one finished ``bench.fanout`` run."""
    out, err = proc.communicate(timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"bench.fanout of {name} failed ({proc.returncode}):\n{err[-3000:]}")
    rates: list[dict[str, Any]] = json.loads(out)["targets"]["bordet"]["rates"]
    return rates[0]


def pair(base: Path, args: Args) -> dict[str, Any]:
    """One run of each checkout at the same time."""
    running = {"this": fanout(ROOT, args), "base": fanout(base, args, args.base_python)}
    try:
        runs = {name: figures_of(proc, name) for name, proc in running.items()}
    finally:  # one run failed: the other (and its server) is not left running
        for proc in running.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    this, other = runs["this"][CPU_KEY], runs["base"][CPU_KEY]
    return {
        "this": runs["this"],
        "base": runs["base"],
        "cpu_ratio": None if this is None or not other else this / other,
    }


def run(args: Args) -> dict[str, Any]:
    base_commit = git("rev-parse", "--short", args.base)
    this_commit = git("rev-parse", "--short", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    pythons = platform.python_version(), python_version(args.base_python)
    with worktree(args.base) as base:
        if args.compiled:
            compile_checkout(base, args.base_python)
        base_build = app_build(base)  # a fresh worktree is pure Python, whatever this checkout runs
        pairs = [pair(base, args) for _ in range(args.runs)]
    ratios = [p["cpu_ratio"] for p in pairs if p["cpu_ratio"] is not None]
    return {
        "this": this_commit + (" with uncommitted changes" if dirty else "") + f", {app_build()}",
        "base": f"{args.base} ({base_commit}, {base_build})",
        "this_python": pythons[0],
        "base_python": pythons[1],
        "rate": args.rate,
        "connections": args.connections,
        "pairs": pairs,
        "median_cpu_ratio": statistics.median(ratios) if ratios else None,
    }


def render(f: dict[str, Any]) -> str:
    lines = [
        f"This checkout ({f['this']}, Python {f['this_python']}) beside {f['base']} "
        f"(Python {f['base_python']}), both at once on one core: "
        f"{f['rate']:g} actions/s each, {f['connections']} connections each",
        f"  {'pair':>4} {'cpu%/ka this':>13} {'cpu%/ka base':>13} {'ratio':>6} "
        f"{'p50 this':>9} {'p50 base':>9} {'p99 this':>9} {'p99 base':>9}",
    ]
    for i, p in enumerate(f["pairs"], 1):
        this, base = p["this"], p["base"]
        lines.append(
            f"  {i:>4} {_num(this[CPU_KEY], '13.2f')} {_num(base[CPU_KEY], '13.2f')} "
            f"{_num(p['cpu_ratio'], '6.3f')} "
            f"{_num(this['latency_ms']['p50'], '9.1f')} {_num(base['latency_ms']['p50'], '9.1f')} "
            f"{_num(this['latency_ms']['p99'], '9.1f')} {_num(base['latency_ms']['p99'], '9.1f')}"
        )
    lines += [
        f"  median CPU per 1,000 actions/s, this / base: {_num(f['median_cpu_ratio'], '.3f')}",
        "  cpu%/ka: server CPU, % of one core, per 1,000 accepted actions/s",
        "  latencies: ms from intended send time to the last of the 4 seats, on a core the two servers share",
    ]
    return "\n".join(lines)


def _num(value: float | None, fmt: str) -> str:
    return "-".rjust(len(format(0.0, fmt))) if value is None else format(value, fmt)


def parse_args(argv: list[str]) -> Args:
    parser = argparse.ArgumentParser(
        prog="python -m bench.paired",
        description="This checkout and a git revision under the same fan-out load at once: CPU per action.",
    )
    parser.add_argument("--base", default="HEAD", help="the git revision to compare with (default HEAD)")
    parser.add_argument(
        "--base-python",
        default=sys.executable,
        help="the interpreter of the base's run (default: this one), with requirements-dev.lock installed",
    )
    parser.add_argument("--rate", type=bounded(float, 1, 5000), default=700.0, help="actions/s, each")
    parser.add_argument("--runs", type=bounded(int, 1, 9), default=3, help="pairs of runs")
    parser.add_argument("--connections", type=bounded(int, SEATS, 4000), default=1000)
    parser.add_argument("--warmup", type=bounded(float, 0, 30), default=3.0)
    parser.add_argument("--seconds", type=bounded(float, 0.5, 60), default=15.0, help="measured per run")
    parser.add_argument("--json", dest="as_json", action="store_true", help="the figures as JSON")
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="compile the base's hot modules too (this checkout: make native)",
    )
    ns = parser.parse_args(argv)
    if ns.compiled and app_build() == "pure Python":
        parser.error("--compiled compares compiled code: run `make native` in this checkout first")
    if ns.connections % SEATS:
        parser.error(f"--connections must be a multiple of {SEATS}")
    if not os.access(ns.base_python, os.X_OK) or os.path.isdir(ns.base_python):
        parser.error(f"--base-python {ns.base_python}: not an interpreter that can be run")
    # Absolute, as the base runs in its own worktree; not resolved, which would leave a venv's symlink.
    python = os.path.abspath(ns.base_python)
    return Args(
        ns.base, python, ns.rate, ns.runs, ns.connections, ns.warmup, ns.seconds, ns.as_json, ns.compiled
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    f = run(args)
    print(json.dumps(f, indent=2) if args.as_json else render(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
