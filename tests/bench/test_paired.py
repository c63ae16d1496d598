"""``bench.paired``: this checkout and a git revision under the same load at once, over real servers."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path
from shlex import quote

import pytest

from bench.paired import compile_checkout, parse_args
from bench.slap_load import app_build
from tests.bench.runs import ROOT, bench_json


def test_a_pair_runs_both_checkouts_and_compares_their_cpu_per_action(tmp_path: Path) -> None:
    # The base's interpreter: this one, behind a script that notes what it was asked to run.
    calls = tmp_path / "calls"
    base_python = tmp_path / "python"
    script = f'echo "$@" >> {quote(str(calls))}\nexec {quote(sys.executable)} "$@"\n'
    base_python.write_text(f"#!/bin/sh\n{script}")
    base_python.chmod(0o755)
    figures = bench_json(
        "bench.paired",
        *("--base", "HEAD", "--runs", "1", "--connections", "40", "--rate", "40"),
        *("--warmup", "0.5", "--seconds", "1.5", "--base-python", str(base_python)),
    )
    (pair,) = figures["pairs"]
    assert figures["this_python"] == figures["base_python"] == platform.python_version()
    assert "-m bench.fanout --only bordet" in calls.read_text()  # the base ran with --base-python
    for side in ("this", "base"):
        assert pair[side]["accepted_per_s"] > 0
        assert pair[side]["server_cpu_pct_per_1000_actions_per_s"] > 0
        assert not pair[side]["errors"]
    assert pair["cpu_ratio"] == pytest.approx(
        pair["this"]["server_cpu_pct_per_1000_actions_per_s"]
        / pair["base"]["server_cpu_pct_per_1000_actions_per_s"]
    )
    assert figures["median_cpu_ratio"] == pair["cpu_ratio"]
    assert figures["base"].startswith("HEAD (")
    # The base's checkout was a temporary worktree, and is gone again.
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "bordet-paired-" not in worktrees


def test_connections_come_in_whole_tables() -> None:
    with pytest.raises(SystemExit):
        parse_args(["--connections", "42"])


def test_a_base_python_that_cannot_run_is_refused_before_any_run(tmp_path: Path) -> None:
    for python in (tmp_path / "no-such-python", tmp_path):
        with pytest.raises(SystemExit):
            parse_args(["--base-python", str(python)])


def test_a_revision_git_does_not_know_is_refused_before_any_run() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.paired", "--base", "no-such-revision-anywhere"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "no-such-revision-anywhere" in done.stderr


def test_compiled_pairs_need_this_checkout_compiled_too() -> None:
    if app_build() == "pure Python":
        with pytest.raises(SystemExit):
            parse_args(["--compiled"])
    else:  # make native was run here: the base is then compiled as well
        assert parse_args(["--compiled"]).compiled


def test_a_base_that_does_not_compile_is_refused_with_the_builds_own_words(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "native.py").write_text("import sys\nsys.exit('mypyc: app/diff.py: error')\n")
    with pytest.raises(SystemExit, match=r"(?s)compiling the base failed.*app/diff.py: error"):
        compile_checkout(tmp_path, sys.executable)
