"""A returning player's browser loads the app from its cache: a repeat visit of a room link asks the
server for the page only (a 304 when it has not changed), and the first visit comes compressed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.repeat_visit import first_and_repeat
from tests.integration.client import Api
from tests.integration.server import ServerProcess

STATIC = Path(__file__).resolve().parents[2] / "static"


async def test_a_repeat_visit_of_a_room_link_fetches_only_the_page(
    browser: Any, server: ServerProcess, api: Api
) -> None:
    ana = await api.player("Ana")
    code = (await api.create_room(ana["token"], "slap", public=False))["code"]
    first, repeat = await first_and_repeat(browser, f"{server.http}/r/{code}", ana, ".lobby")

    fetched = [f.path for f in first.from_server()]
    assert fetched[0] == f"/r/{code}" and len(fetched) > 10, fetched
    assert all(p.startswith("/static/") for p in fetched[1:]), fetched
    assert [f.path for f in repeat.from_server()] == [f"/r/{code}"], (
        "the repeat visit fetched more than the page"
    )
    assert len(repeat.from_cache()) == len(fetched) - 1, "every file of the first visit came from the cache"
    assert [f.status for f in repeat.from_server()] == [304], "the page was revalidated, not sent again"
    files = [f for f in first.from_server() if f.path.startswith("/static/")]
    raw = sum((STATIC / f.path.removeprefix("/static/")).stat().st_size for f in files)
    assert sum(f.bytes for f in files) < raw * 0.6, "the first visit's files came compressed"
