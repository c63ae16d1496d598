"""Playwright for Python driving Debian's Chromium (never a downloaded browser build).

Every test gets a real server on a manual room clock (``server``, ``api`` from the integration
suite) and a ``table`` helper that opens browser contexts as players. The helper watches every
page: a console error, an uncaught exception or a request to any host but the test server fails
the test. Screenshots go to ``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import Table
from tests.integration.client import Api
from tests.integration.conftest import api, server, sqlite_url  # noqa: F401
from tests.integration.server import ServerProcess

CHROMIUM = os.environ.get("BORDET_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM} (Debian package 'chromium')")
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        await browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
async def table(
    browser: Any,
    server: ServerProcess,  # noqa: F811
    api: Api,  # noqa: F811
    artifacts: Path,
    request: pytest.FixtureRequest,
) -> AsyncIterator[Table]:
    helper = Table(browser, server, api, artifacts, prefix=request.node.name.removeprefix("test_"))
    yield helper
    problems = list(helper.problems)
    await helper.close()
    assert problems == [], "the pages logged errors or left the test server:\n" + "\n".join(problems)
