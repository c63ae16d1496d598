"""A finished match replayed in a real browser: linked from a table's end and the home page, stepped."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from tests.browser.helpers import Table
from tests.integration.finished import play_a_match

PLAY_WAIT_MS = 120_000
"""Playing every step at the fastest speed: the page's own timer, not the test, sets the pace."""


async def who(table: Table, token: str) -> dict[str, Any]:
    r = await table.api.call("GET", "/api/players/me", token)
    assert r.status_code == 200
    return {**r.json(), "token": token}


async def test_a_finished_slap_match_is_stepped_through_to_its_end(table: Table) -> None:
    match = await play_a_match(table.server, table.api, "slap")
    events = (await table.api.call("GET", f"/api/matches/{match.id}/events?limit=1000")).json()["events"]
    last = len(events)
    ruled_step = next(i + 1 for i, e in enumerate(events) if e["rulings"])
    ruling = next(e for e in events if e["rulings"])["rulings"][0]
    ana = await table.open_as(await who(table, match.tokens[0]), f"{table.server.http}/r/{match.code}")
    page = ana.page

    # The end of the game links to its replay.
    link = page.get_by_role("link", name="Watch the replay")
    await expect(link).to_have_attribute("href", f"/m/{match.id}")
    await link.click()
    await expect(page).to_have_url(f"{table.server.http}/m/{match.id}")
    await expect(page.get_by_role("heading", name=f"Slap · match {match.id}")).to_be_visible()
    status = page.locator(".replay-step")
    await expect(status).to_have_text(f"Step 0 of {last}")
    await expect(page.get_by_text("The deal, before anyone moved.")).to_be_visible()

    await page.get_by_role("button", name="Step forward").click()
    await expect(status).to_have_text(f"Step 1 of {last}")
    await page.get_by_role("button", name="Step back").click()
    await expect(status).to_have_text(f"Step 0 of {last}")
    await page.get_by_role("button", name="Last step").click()
    await expect(status).to_have_text(f"Step {last} of {last}")
    await expect(page.locator(".table-sub")).to_contain_text("game over")
    await page.get_by_role("button", name="First step").click()
    await expect(status).to_have_text(f"Step 0 of {last}")

    # A race's ruling is shown with its inputs (every claim with its timing).
    await page.get_by_label("Go to step").fill(str(ruled_step))
    await expect(status).to_have_text(f"Step {ruled_step} of {last}")
    winner = ["Ana", "Bo", "Cy"][ruling["winner"]]
    await expect(page.get_by_text(f"Race {ruling['race']}: {winner} won.")).to_be_visible()
    await expect(page.locator(".replay-ruling pre")).to_contain_text('"claims"')
    await table.shot(ana, "ruling")

    # As Bo saw it, played to the end at the fastest speed.
    await page.get_by_label("Seen by").select_option(label="Bo (seat 2)")
    await expect(status).to_have_text(f"Step {ruled_step} of {last}")
    await page.get_by_role("button", name="First step").click()
    await page.get_by_label("Speed").select_option(index=2)  # the fastest
    await page.get_by_role("button", name="Play", exact=True).click()
    await expect(page.get_by_role("button", name="Pause", exact=True)).to_be_visible()
    await expect(status).to_have_text(f"Step {last} of {last}", timeout=PLAY_WAIT_MS)
    await expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
    await expect(page.locator(".table-sub")).to_contain_text("game over")
    await table.shot(ana, "end")

    # The home page lists the match and opens its replay.
    await page.goto(f"{table.server.http}/")
    mine = page.locator(".my-matches").get_by_role("link", name=f"Slap · room {match.code}")
    await expect(mine).to_have_attribute("href", f"/m/{match.id}")
    await mine.click()
    await expect(status).to_have_text(f"Step 0 of {last}")


async def test_a_running_match_has_no_replay_page(table: Table) -> None:
    people = [await table.api.player(n) for n in ("Ana", "Bo")]
    room = await table.api.create_room(people[0]["token"], "slap", {})
    await table.api.sit(people[1]["token"], room["code"])
    started = await table.api.start(people[0]["token"], room["code"])
    ana = await table.open_as(people[0], f"{table.server.http}/m/{started['match']['id']}")
    await expect(ana.page.get_by_role("alert")).to_contain_text("still being played")
    # The browser reports the refused request itself; that one is expected, nothing else.
    refused = [p for p in table.problems if "status of 409" in p]
    assert len(refused) == 1
    table.problems.remove(refused[0])
