"""``bench.paired``: this checkout and a git revision under the same load at once, over real servers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.paired import parse_args
from tests.bench.runs import ROOT, bench_json


def test_a_pair_runs_both_checkouts_and_compares_their_cpu_per_action() -> None:
    figures = bench_json(
        "bench.paired",
        *("--base", "HEAD", "--runs", "1", "--connections", "40", "--rate", "40"),
        *("--warmup", "0.5", "--seconds", "1.5"),
    )
    (pair,) = figures["pairs"]
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
