"""Home, lobby and connection in real browsers: open rooms, join by code, host controls, a phone
in portrait without sideways scrolling, and reconnecting after the server went away."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from playwright.async_api import expect

from app.engines.slap.engine import assign_colours
from app.rooms.patch import apply_patch
from tests.browser.helpers import Table
from tests.integration.server import ServerProcess

UNITS_JS = Path(__file__).with_name("client_units.js")


async def test_home_lists_open_rooms_joins_by_code_and_the_host_removes_a_watcher(table: Table) -> None:
    table.prefix = "lobby"
    cy = await table.api.player("Cy")
    listed = (await table.api.create_room(cy["token"]))["code"]
    ana = await table.open("Ana")
    await expect(ana.page.get_by_role("link", name=re.compile(listed))).to_be_visible()
    private = await table.create_room(ana, public=False)

    eve = await table.open("Eve")
    await expect(eve.page.get_by_role("link", name=re.compile(listed))).to_be_visible()
    await expect(eve.page.get_by_role("link", name=re.compile(private))).to_have_count(0)
    await table.shot(eve, "home")
    await eve.page.get_by_label("Room code or link").fill(private.lower())
    await eve.page.get_by_role("button", name="Join", exact=True).click()
    await eve.page.wait_for_url(f"**/r/{private}")
    await expect(eve.page.locator(".spectators")).to_contain_text("Eve (you)")
    await expect(eve.page.get_by_text("Waiting for players: 1 seated")).to_be_visible()
    await expect(ana.page.locator(".spectators")).to_contain_text("Eve")
    await expect(eve.page.get_by_role("button", name="Start game")).to_have_count(0)
    await eve.page.get_by_role("button", name="Copy link").click()
    await expect(
        eve.page.get_by_role("status").filter(has_text=re.compile("Link copied|Copy the selected link"))
    ).to_be_visible()
    await table.shot(ana, "host")

    # The host removes the watcher (two clicks: the first one asks to confirm).
    remove = ana.page.locator(".spectators li", has_text="Eve").get_by_role("button")
    await remove.click()
    await expect(remove).to_have_text("Remove Eve?")
    await remove.click()
    await expect(eve.page.get_by_text("The host removed you from this room.")).to_be_visible()
    await expect(eve.page.locator("#conn")).to_have_attribute("data-state", "closed")
    await expect(ana.page.locator(".spectators")).not_to_contain_text("Eve")
    await table.shot(eve, "removed")

    # Listed now: Eve finds it on the start page; a pasted link joins too, and she can leave again.
    await ana.page.get_by_label("Listed in “Open rooms”").check()
    await eve.page.get_by_role("link", name="Back to the start page").click()
    await eve.page.get_by_role("button", name="Refresh").click()
    await expect(eve.page.get_by_role("link", name=re.compile(private))).to_be_visible()
    await eve.page.get_by_label("Room code or link").fill(f"{table.server.http}/r/{listed}")
    await eve.page.get_by_role("button", name="Join", exact=True).click()
    await eve.page.wait_for_url(f"**/r/{listed}")
    await eve.page.get_by_role("button", name="Take a seat").click()
    await expect(eve.page.locator(".lobby-seat.me")).to_contain_text("Eve")
    await eve.page.get_by_role("button", name="Leave room").click()
    await eve.page.wait_for_url(table.server.http + "/")
    await expect(eve.page.get_by_role("heading", name="Card games with friends")).to_be_visible()


async def test_a_phone_in_portrait_never_scrolls_sideways(table: Table) -> None:
    table.prefix = "phone"
    di = await table.open("Di", phone=True)
    await di.page.get_by_text("Slap options").click()
    await di.page.get_by_text("More options").click()
    assert await di.scroll_width() <= 375
    await table.shot(di, "home")
    code = await table.create_room(di, rounds=1, first_seat=1)
    assert await di.scroll_width() <= 375
    for name in ("Ana", "Bo", "Cyprianus Maximilian Longname"):
        p = await table.api.player(name)
        await table.api.sit(p["token"], code)
        await table.present(code, p)  # at the table but idle: the round runs to its time limit
    await expect(di.page.locator(".lobby-seat .name", has_text="Cyprianus")).to_be_visible()
    await di.page.get_by_text("Table options").click()
    assert await di.scroll_width() <= 375
    await table.shot(di, "lobby")

    await di.page.get_by_role("button", name="Start game").click()
    await di.wait_phase("AWAIT_NU", 0)
    assert await di.scroll_width() <= 375
    await di.nu.tap()
    await di.wait_phase("NU_CALLED", 1)
    await table.advance(code)
    await di.wait_phase("FLIP_OPEN", 1)
    assert await di.scroll_width() <= 375
    await table.shot(di, "table")
    await di.slap_button.tap()
    await expect(di.slap_button).to_have_attribute("aria-disabled", "true")
    await table.step_until(code, di, "FLIP_RESULT")
    assert await di.scroll_width() <= 375

    room = await table.room(code)
    before = await di.state()
    await table.advance_until(code, room["match"]["started_at"] + 300_000)
    await di.wait_changed(before)
    await table.step_until(code, di, "ROUND_OVER")
    await expect(di.page.locator(".scores")).to_have_attribute("open", "")
    assert await di.scroll_width() <= 375
    await table.shot(di, "scores")
    await table.step_until(code, di, "MATCH_OVER")
    await di.page.get_by_role("button", name="Verify the deal (seed revealed)").tap()
    await expect(di.page.get_by_role("dialog")).to_contain_text("It matches")
    assert await di.scroll_width() <= 375
    await table.shot(di, "verify", full=False)


async def test_the_page_reconnects_and_resyncs_after_the_server_restarts(
    table: Table, server: ServerProcess
) -> None:
    table.prefix = "reconnect"
    people = [await table.api.player(n) for n in ("Ana", "Bo")]
    code = (await table.api.create_room(people[0]["token"], "slap", {"rounds": 1, "first_starter": 0}))[
        "code"
    ]
    await table.api.sit(people[1]["token"], code)
    ana = await table.open_as(people[0], f"{table.server.http}/r/{code}")
    await table.api.start(people[0]["token"], code)
    await ana.wait_phase("AWAIT_NU", 0)
    await ana.nu.click()
    await ana.wait_phase("NU_CALLED", 1)
    await table.advance(code)
    await ana.wait_phase("FLIP_OPEN", 1)
    before = await ana.state()

    server.kill()
    conn = ana.page.locator("#conn")
    await expect(conn).to_have_attribute("data-state", "reconnecting")
    await expect(conn).to_contain_text("Connection lost, retrying in")
    await table.shot(ana, "lost", full=False)
    reborn = ServerProcess(database_url=server.database_url, port=server.port, log_path=server.log_path)
    reborn.start()
    try:
        await expect(conn).to_have_attribute("data-state", "online", timeout=20_000)
        await ana.wait_phase(before["phase"], before["flip"])
        assert await ana.state() == before
        await table.shot(ana, "back", full=False)
        await table.step_until(code, ana, "FLIP_RESULT")  # and the table plays on
    finally:
        reborn.stop()
    # While the server was down Chromium logged every refused WebSocket; that, and only that, was expected.
    table.problems[:] = [p for p in table.problems if not re.search(r"WebSocket connection to .* failed", p)]


async def test_the_client_modules_patch_hash_and_assign_colours_like_the_server(table: Table) -> None:
    """Pure client pieces, run in the browser and checked against the server's own Python."""
    _, page = await table.context()
    table.watch(page, "units")
    await page.goto(table.server.http + "/")
    result = await page.evaluate(UNITS_JS.read_text(encoding="utf-8"))
    doc = {"room": {"seats": [{"n": 1}, {"n": 2}], "a/b": 0, "m~n": 0}, "game": {"legal": []}}
    ops: list[dict[str, Any]] = [
        {"op": "replace", "path": "/room/seats/1/n", "value": 5},
        {"op": "add", "path": "/game/legal/-", "value": {"type": "slap"}},
        {"op": "replace", "path": "/room/a~1b", "value": 1},
        {"op": "remove", "path": "/room/m~0n"},
        {"op": "add", "path": "/room/seats/0", "value": None},
    ]
    assert result["next"] == apply_patch(doc, ops)
    assert result["unchanged"] == '{"room":{"seats":[{"n":1},{"n":2}],"a/b":0,"m~n":0},"game":{"legal":[]}}'
    assert result["shared"] is True
    assert result["errors"] == [True, True, True, True]
    for text, (subtle, fallback) in zip(result["texts"], result["hashes"], strict=True):
        assert subtle == fallback == hashlib.sha256(text.encode()).hexdigest(), text
    assert result["colours"] == list(assign_colours(["B", None, "B", "y"]))
    assert result["form"] == {
        "read": {"mode": "b", "seat": "random", "n": 5, "on": True, "pts": [6, 2]},
        "changed": {"seat": 2},
        "selects": [2, 5],
    }
    conn = result["connection"]
    assert conn["first"] == {"type": "hello", "token": "tok"}, "the token goes in the first frame only"
    assert conn["seen"] == [[1, "join"], [2, "patch"], [6, "resync"], [8, "resync"]]
    assert conn["resyncs"] == 2, "one resync per gap or bad patch, none while waiting"
    assert conn["pong"] == [3, 5000, "number", "number"]
    low, high = conn["clock"]
    assert low - 1e-6 <= 123456.5 <= high + 1e-6, "countdowns use the server's offset"
    assert conn["action"] == {"type": "nu"} and conn["reply"] == "NOT_STARTER"
    assert conn["replies"] == ["NOT_STARTER"]
    assert conn["states"][-1] == ["reconnecting", True] and conn["retry"] is True
    assert ["online", False] in conn["states"]
