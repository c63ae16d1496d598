"""Running a benchmark the way a person does: its module in a child process, its figures as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def bench_json(module: str, *args: str) -> dict[str, Any]:
    """``python -m <module> --json <args>`` from the repository root; its figures, or a failed
    assertion with the end of what it wrote to stderr."""
    done = subprocess.run(
        [sys.executable, "-m", module, "--json", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures
