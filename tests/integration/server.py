"""A real uvicorn server in a subprocess, on a free port, with its own database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.integration.forkserver import Forked, template

ROOT = Path(__file__).resolve().parents[2]

#: Servers are forks of a template that has their libraries imported (``tests.integration.forkserver``:
#: about 2 s less per start); ``BORDET_TEST_FORK=0``, or a system without ``fork``, starts each anew.
FORK = hasattr(os, "fork") and os.environ.get("BORDET_TEST_FORK", "1") != "0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    database_url: str
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | Forked | None = None
    log_path: Path | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "BORDET_SECRET": "integration-test-secret",
            "BORDET_TEST_CLOCK": "1",
            # Test tables move far faster than people; the flood test sets the real limits back.
            "BORDET_RATE_PER_S": "100000",
            "BORDET_RATE_BURST": "100000",
            "BORDET_RESYNC_PER_S": "100000",
            "BORDET_RESYNC_BURST": "100000",
            # Every test player, room and socket comes from 127.0.0.1; the limit tests set them low.
            "BORDET_PLAYERS_PER_MIN": "100000",
            "BORDET_ROOMS_PER_MIN": "100000",
            "BORDET_ROOMS_PER_HOST": "100000",
            "BORDET_SOCKETS_PER_ADDRESS": "100000",
            **self.env,
        }
        uvicorn = [
            "app.main:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-level",
            "warning",
            "--ws-max-size",
            "1048576",
            "--ws-per-message-deflate",
            "false",
        ]
        if FORK:
            self.proc = template().spawn(uvicorn, env, ROOT, self.log_path)
        else:
            log_file = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
            command = [sys.executable, "-m", "uvicorn", *uvicorn]
            self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log_file, stderr=log_file)
        # Polling for readiness waits for a process to boot; it synchronises nothing under test.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {self.log_path}")
            try:
                if httpx.get(self.http + "/api/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()  # not left running behind a failed test
        raise RuntimeError("server did not become healthy")

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flush; what is on disk is all there is."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def reborn(self) -> ServerProcess:
        """Another server on the same database, port and log (after ``kill``), started."""
        again = ServerProcess(self.database_url, self.port, dict(self.env), log_path=self.log_path)
        again.start()
        return again

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
