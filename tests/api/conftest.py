"""One real server (uvicorn subprocess, temp SQLite, manual clock) shared by the lobby API tests.

Every test makes its own players and rooms, so they do not see each other's state
except in the public room list, where tests only look for rooms they created.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.conftest import api  # noqa: F401  (function-scoped `Api` on the `server` below)
from tests.integration.server import ServerProcess


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Overrides the per-test server of tests/integration: one boot for the whole package."""
    tmp = tmp_path_factory.mktemp("api-server")
    proc = ServerProcess(database_url=f"sqlite+aiosqlite:///{tmp / 'bordet.db'}", log_path=tmp / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()
