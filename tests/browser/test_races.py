"""Races on links the server cannot verify, in real browsers (static/js/shell/races.js).

The browsers reach the test server over loopback and the server trusts no proxy there, so no
connection has a round trip its client cannot delay (app/realtime/round_trip.py): the host is told
in the lobby, and a ruling says whose link was not verified.
"""

from __future__ import annotations

from playwright.async_api import expect

from tests.browser.helpers import Table
from tests.browser.test_slap_table import close_race


async def test_the_host_is_told_and_the_ruling_says_link_not_verified(table: Table) -> None:
    table.prefix = "races"
    people = [await table.api.player(n) for n in ("Ana", "Bo")]
    room = await table.api.create_room(people[0]["token"], "slap", {"rounds": 1})
    code = room["code"]
    await table.api.sit(people[1]["token"], code)
    ana, bo = [await table.open_as(p, f"{table.server.http}/r/{code}") for p in people]
    note = ana.page.locator(".links-note")
    await expect(note).to_contain_text("Races are judged by each player's own reported link")
    await expect(note).to_contain_text("Ana, Bo")
    await expect(bo.page.locator(".links-note")).to_be_hidden()  # only the host decides
    await table.shot(ana, "lobby-note")

    await table.api.start(people[0]["token"], code)
    players = [ana, bo]
    await table.all_phase(players, "AWAIT_NU", 0)
    flip, _cards = await table.flip_until(code, players, pair=True)
    await table.advance_ms(212)
    await bo.slap_button.click()
    # The server has the slap once it is no longer legal for Bo; only then may the race close.
    await expect(bo.slap_button).to_have_attribute("aria-disabled", "true")
    await close_race(table, code, players, flip)
    ruling = ana.page.locator(".ruling")
    await expect(ruling).to_contain_text("Bo wins the trick.")
    await expect(ruling.locator(".unverified")).to_have_text("Bo: link not verified.")
    await table.shot(ana, "ruling")
