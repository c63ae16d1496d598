"""Test servers forked from one process that has the server's libraries imported already.

A test server used to be ``python -m uvicorn app.main:app`` from scratch: about 2.2 s of its 2.5-3.4 s
start were imports, paid by every test that starts a server (hundreds in the suite). Here each test
process keeps one template process (started on first use) that imports the libraries once; each
server is a fork of it that sets its own environment and runs uvicorn's command line, so it is still
a real uvicorn process on its own port, database and log. Everything is imported before the fork but
``app.main``, which builds its app from the environment when it is imported (each server has its own);
no other module of ``app`` reads the environment before it is called.

The servers are the template's children, not the test's, so :class:`Forked` asks the template for
their exit status (the template reaps them as they end).

Run as ``python -m tests.integration.forkserver``, it is the template: it reads one JSON request a
line on stdin and answers one JSON line on stdout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Libraries every server imports anyway, besides ``app``'s own modules.
PRELOAD = (
    "fastapi",
    "fastapi.routing",
    "starlette.applications",
    "pydantic",
    "sqlalchemy",
    "sqlalchemy.orm",
    "sqlalchemy.ext.asyncio",
    "sqlalchemy.dialects.sqlite.aiosqlite",
    "sqlalchemy.dialects.postgresql.asyncpg",
    "alembic.command",
    "alembic.config",
    "alembic.runtime.migration",
    "alembic.operations",
    "uvicorn.main",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.protocols.websockets.websockets_sansio_impl",
    "uvloop",
    "websockets",
    "orjson",
    "aiosqlite",
    "asyncpg",
    "redis.asyncio",
    "prometheus_client",
)


class Forked:
    """A forked server, handled like ``subprocess.Popen``: ``pid``, ``poll``, ``wait``, signals."""

    def __init__(self, template: Template, pid: int) -> None:
        self._template = template
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._template.status(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        # Polling an exit, as ``Popen.wait`` with a timeout does; it synchronises nothing under test.
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0.0)
            time.sleep(0.02)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Template:
    """The test process's template (one per process; see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "tests.integration.forkserver"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._ask({"ping": True})

    def _ask(self, request: dict[str, Any]) -> Any:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        with self._lock:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the test servers' template exited with {self._proc.wait()}")
        return json.loads(line)["answer"]

    def alive(self) -> bool:
        return self._proc.poll() is None

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path | None) -> Forked:
        """A server running ``argv`` (uvicorn's command line) in ``cwd`` with exactly ``env``, its
        output appended to ``log`` (or dropped)."""
        pid = self._ask({"argv": argv, "env": env, "cwd": str(cwd), "log": None if log is None else str(log)})
        return Forked(self, int(pid))

    def status(self, pid: int) -> int | None:
        """``pid``'s exit code once it has ended (negative: the signal that ended it), else None."""
        code = self._ask({"status": pid})
        return None if code is None else int(code)


_template: Template | None = None


def template() -> Template:
    """This process's template, started on first use (and again if it died)."""
    global _template
    if _template is None or not _template.alive():
        _template = Template()
    return _template


# --- the template process ------------------------------------------------------------------


def _serve() -> None:
    import importlib
    import pkgutil

    import app

    for name in PRELOAD:
        importlib.import_module(name)
    for module in pkgutil.walk_packages(app.__path__, "app."):
        if module.name != "app.main":
            importlib.import_module(module.name)
    ended: dict[int, int] = {}

    def reap(signum: int, frame: object) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            ended[pid] = os.waitstatus_to_exitcode(status)

    signal.signal(signal.SIGCHLD, reap)
    while line := sys.stdin.readline():
        request = json.loads(line)
        if "status" in request:
            reap(signal.SIGCHLD, None)
            # Told once: ``Forked`` keeps the code, so the template keeps only servers still running.
            answer: Any = ended.pop(int(request["status"]), None)
        elif "argv" in request:
            answer = _fork(request)
        else:
            answer = True
        sys.stdout.write(json.dumps({"answer": answer}) + "\n")
        sys.stdout.flush()


def _fork(request: dict[str, Any]) -> int:
    sys.stdout.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        if request["cwd"] not in sys.path:
            sys.path.insert(0, request["cwd"])
        stdin = os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin, 0)
        log = request["log"]
        out = (
            os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            if log
            else os.open(os.devnull, os.O_WRONLY)
        )
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(stdin)
        os.close(out)
        sys.stdin = open(0)  # noqa: SIM115 (the process's own, for its life)
        sys.stdout = open(1, "w", buffering=1)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1)  # noqa: SIM115
        sys.argv = ["uvicorn", *request["argv"]]
        from uvicorn.main import main

        try:
            main()
            code = 0
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    _serve()
