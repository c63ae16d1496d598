"""The minimal page proves the loop end to end: create, share the link, sit, start, Nu!, slap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.integration.client import Api
from tests.integration.server import ServerProcess


async def open_as(browser: Any, url: str, name: str, errors: list[str], server: ServerProcess) -> Any:
    context = await browser.new_context()
    page = await context.new_page()
    page.on("dialog", lambda dialog: dialog.accept(name))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on(
        "request",
        lambda req: (
            errors.append(f"outside request {req.url}")
            if not req.url.startswith(server.http) and not req.url.startswith(server.ws)
            else None
        ),
    )
    await page.goto(url)
    return page


async def test_two_browsers_create_join_start_and_slap(
    browser: Any, server: ServerProcess, api: Api, artifacts: Path
) -> None:
    errors: list[str] = []
    ana = await open_as(browser, server.http + "/", "Ana", errors, server)
    await ana.get_by_role("button", name="Create a Slap room").click()
    await ana.wait_for_url("**/r/*")
    code = ana.url.rsplit("/", 1)[1]
    await ana.get_by_text("Ana").first.wait_for()

    bo = await open_as(browser, ana.url, "Bo", errors, server)
    await bo.get_by_role("button", name="Sit here").first.click()
    await ana.get_by_text("Bo").first.wait_for()
    await ana.get_by_role("button", name="Start").click()
    await ana.get_by_text("Round 1/3").wait_for()
    await bo.get_by_text("Round 1/3").wait_for()

    # Whoever is the starter presses Nu!; the reveal comes at the room's deadline.
    for page in (ana, bo):
        nu = page.get_by_role("button", name="Nu!")
        if await nu.is_enabled():
            await nu.click()
            break
    await ana.get_by_text("nu called").wait_for()
    await api.advance_to_next_deadline(code)
    await bo.get_by_text("flip open").wait_for()
    assert await bo.locator(".card:not(.back)").count() == 2
    await bo.screenshot(path=str(artifacts / "minimal-flip-open.png"))

    await bo.keyboard.press("Space")
    await bo.get_by_role("button", name="SLAP").and_(bo.locator("[disabled]")).wait_for()
    await ana.screenshot(path=str(artifacts / "minimal-after-slap.png"))
    assert errors == []
