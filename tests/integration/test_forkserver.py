"""Test servers forked from the template are real, separate processes with their own settings."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest

from tests.integration.server import FORK, ServerProcess

pytestmark = pytest.mark.skipif(not FORK, reason="servers are started anew (BORDET_TEST_FORK=0 or no fork)")


def _server(tmp_path: Path, name: str, **env: str) -> ServerProcess:
    server = ServerProcess(
        database_url=f"sqlite+aiosqlite:///{tmp_path / name}.db", log_path=tmp_path / f"{name}.log", env=env
    )
    server.start()
    return server


def test_each_forked_server_reads_its_own_environment(tmp_path: Path) -> None:
    open_metrics = _server(tmp_path, "open")
    guarded = _server(tmp_path, "guarded", BORDET_METRICS_TOKEN="s3cret")
    try:
        assert open_metrics.proc is not None and guarded.proc is not None
        assert open_metrics.proc.pid != guarded.proc.pid != os.getpid()
        assert httpx.get(open_metrics.http + "/metrics").status_code == 200
        assert httpx.get(guarded.http + "/metrics").status_code in (401, 403)
    finally:
        open_metrics.stop()
        guarded.stop()


def test_a_stopped_server_reports_that_it_ended(tmp_path: Path) -> None:
    server = _server(tmp_path, "stopped")
    assert server.proc is not None and server.proc.poll() is None
    server.stop()
    assert server.proc.poll() is not None


def test_a_killed_server_reports_the_signal_and_its_socket_is_gone(tmp_path: Path) -> None:
    server = _server(tmp_path, "killed")
    server.kill()
    assert server.proc is not None and server.proc.returncode == -signal.SIGKILL
    with pytest.raises(httpx.ConnectError):
        httpx.get(server.http + "/api/health", timeout=2.0)
