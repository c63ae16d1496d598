"""Project-wide test setup.

Tests that need PostgreSQL, Redis or Chromium skip with a clear reason on a
machine without them. CI sets BORDET_REQUIRE_SERVICES=1, and then such a skip
fails instead, so a green CI run means every one of those tests really ran.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REQUIRE_SERVICES = os.environ.get("BORDET_REQUIRE_SERVICES", "") not in {"", "0", "false"}
SERVICE_SKIP = re.compile(r"postgres|redis|chromium", re.IGNORECASE)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    report = outcome.get_result()
    if not (REQUIRE_SERVICES and report.skipped):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if SERVICE_SKIP.search(reason):
        report.outcome = "failed"
        report.longrepr = f"skipped for a missing service, but BORDET_REQUIRE_SERVICES=1: {reason}"


BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test under tests/browser ``browser`` (``-m "not browser"`` leaves them out)."""
    for item in items:
        if item.path.is_relative_to(BROWSER_TESTS):
            item.add_marker(pytest.mark.browser)
