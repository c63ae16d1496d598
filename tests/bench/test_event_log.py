"""``bench.event_log``: a short run on a real SQLite file, and the appenders' own floor."""

from __future__ import annotations

from pathlib import Path

from app.db import migrate
from bench.event_log import NoDatabase, Run, drive, measure


async def test_a_short_run_logs_appends_in_batches(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    await migrate(url)
    run = await measure(url, "sqlite", "max", rooms=5, seconds=0.2, rate=100)
    assert run.appends > 0 and 0 < run.batches <= run.appends
    assert run.row().startswith("sqlite     max")


async def test_the_floor_appends_without_a_database() -> None:
    run = await drive(NoDatabase(), [1, 2], Run("none", "paced"), seconds=0.1, rate=1000)
    assert run.appends > 0 and run.batches == 0
