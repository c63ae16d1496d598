"""A real server per test (fresh counters), from the integration fixtures."""

from __future__ import annotations

from tests.integration.conftest import api, server, sqlite_url  # noqa: F401
