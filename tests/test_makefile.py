"""The Makefile refuses a Python older than 3.11 with what to install, and replaces a venv such a Python made.

Each test runs the real ``make`` on the project's Makefile with stand-in interpreters in a temp folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OLD_PYTHON = '#!/bin/sh\n[ "$1" = "--version" ] && echo "Python 3.9.2"\nexit 1\n'

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


def _make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=60
    )


def test_an_old_python_is_refused_with_what_to_install(tmp_path: Path) -> None:
    python = _script(tmp_path / "python3", OLD_PYTHON)
    venv = tmp_path / "venv"
    run = _make(f"PYTHON={python}", f"VENV={venv}", f"{venv}/.installed")
    assert run.returncode != 0
    assert "Python 3.11 or newer" in run.stderr and "Python 3.9.2" in run.stderr
    assert "python3-venv" in run.stderr
    assert not venv.exists()


def test_a_venv_made_by_an_old_python_is_made_again(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _script(venv / "bin" / "python", OLD_PYTHON)
    run = _make(f"VENV={venv}", "-n", f"{venv}/.installed")
    assert "making it again" in run.stdout
    assert not venv.exists()
    assert re.search(r"-m venv \S*venv", run.stdout), run.stdout


@pytest.mark.parametrize(
    "target",
    [
        "bench-engines",
        "bench-diff",
        "bench-load",
        "bench-fairness",
        "bench-soak",
        "bench-idle-rooms",
        "bench-startup",
    ],
)
def test_every_bench_target_runs_a_bench_module_with_the_venv_python(target: str) -> None:
    run = _make("-n", "-W", ".venv/.installed", target, "BENCH_ARGS=--help")
    assert run.returncode == 0, run.stderr
    command = run.stdout.strip().splitlines()[-1]
    module = re.fullmatch(r"\.venv/bin/python -m (bench\.\w+)(?: [\w-]+)? --help", command)
    assert module, command
    assert (ROOT / (module.group(1).replace(".", "/") + ".py")).is_file()
