"""Slap in real browsers: share the link, sit, start, Nu!, flip, slap, win a trick, see the scores.

Time moves only through the server's manual clock: a test reveals the cards by moving the room to
its next deadline, and lets 212 ms pass before a slap by moving it exactly that much. Who wins a
race of several slaps depends on the real reaction times the browsers measure, so the tests that
check a winner's pile let one player slap alone.
"""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.browser.helpers import Player, Table

MS = re.compile(r"(\d+) ms")
AFTER = r"\d+ ms after the flip"


async def open_table(
    table: Table, *, names: list[str], options: dict[str, object]
) -> tuple[str, list[Player]]:
    """Players made over HTTP (seated in order, the first is the host), each in a browser."""
    people = [await table.api.player(n) for n in names]
    room = await table.api.create_room(people[0]["token"], "slap", options)
    code = room["code"]
    for p in people[1:]:
        await table.api.sit(p["token"], code)
    players = [await table.open_as(p, f"{table.server.http}/r/{code}") for p in people]
    await table.api.start(people[0]["token"], code)
    await table.all_phase(players, "AWAIT_NU", 0)
    return code, players


async def close_race(table: Table, code: str, players: list[Player], flip: int) -> None:
    """After the slaps: the race closes at its deadline (or already has, if nobody else could win)."""
    await table.step_until(code, players[0], "FLIP_RESULT")
    await table.all_phase(players, "FLIP_RESULT", flip)


async def test_two_browsers_share_the_link_sit_start_and_slap_until_a_trick_and_the_scores(
    table: Table,
) -> None:
    table.prefix = "slap2"
    ana = await table.open("Ana")
    await ana.page.get_by_text("Slap options").wait_for()
    await table.shot(ana, "home")
    code = await table.create_room(ana, rounds=1, first_seat=1)
    await expect(ana.page.get_by_role("status").filter(has_text="Waiting for players")).to_be_visible()
    await table.shot(ana, "lobby-waiting")

    link = await ana.page.get_by_label("Invite friends with this link").input_value()
    assert link == f"{table.server.http}/r/{code}"
    bo = await table.open("Bo", url=link)
    await bo.sit(2, colour="Blue")
    await ana.page.locator('.lobby-seat[data-seat="1"]', has_text="Bo").wait_for()
    await expect(ana.page.get_by_text("Everyone here? Start the game.")).to_be_visible()
    await expect(bo.page.get_by_text("Waiting for Ana to start the game.")).to_be_visible()
    await table.shot(ana, "lobby-ready")
    await ana.page.get_by_role("button", name="Start game").click()

    players = [ana, bo]
    await table.all_phase(players, "AWAIT_NU", 0)
    await expect(ana.page.locator("#conn")).to_have_attribute("data-state", "online")
    assert await ana.nu.is_visible() and not await bo.nu.is_visible(), "only the starter gets Nu!"
    await expect(bo.page.get_by_text("Ana calls Nu!")).to_be_visible()
    await expect(ana.page.locator(".timer", has_text="Automatic Nu! in")).to_be_visible()
    await table.shot(ana, "await-nu")

    flip, cards = await table.flip_until(code, players, pair=True)
    assert (await bo.state())["cards"] == cards, "both screens show the same flip"
    await table.shot(bo, "flip-open")

    # Bo slaps with the mouse 212 ms (room clock) after the reveal.
    await table.advance_ms(212)
    await bo.slap_button.click()
    await expect(bo.slap_button).to_have_attribute("aria-disabled", "true")
    await table.shot(ana, "slapped")
    await close_race(table, code, players, flip)
    ruling = ana.page.locator(".ruling")
    await expect(ruling).to_contain_text("Bo wins the trick.")
    await expect(ruling.locator("li.win")).to_contain_text("Bo")
    await expect(ruling.locator("li.win")).to_contain_text(MS)
    await expect(ana.page.locator(".log-list")).to_contain_text(
        re.compile(r"Bo slapped first, \d+ ms after the flip, and takes the trick\.")
    )
    state = await ana.state()
    assert state["piles"] == [9, 11], state
    await expect(ana.page.locator('.felt .seat[data-seat="1"] .seat-stats')).to_contain_text("11 cards")
    await table.shot(ana, "trick")

    # Nobody slaps any more: the round runs to its time limit and the score table appears.
    room = await table.room(code)
    before = await ana.state()
    await table.advance_until(code, room["match"]["started_at"] + 300_000)
    await ana.wait_changed(before)
    await table.step_until(code, ana, "ROUND_OVER")
    scores = ana.page.locator(".scores")
    await expect(scores).to_have_attribute("open", "")
    await expect(scores.locator("tbody tr")).to_have_count(1)
    await expect(scores.locator("tbody tr")).to_contain_text("Round 1 (time limit)")
    await expect(scores.locator("tfoot")).to_have_text(re.compile(r"Total\s*2\s*6"))
    await expect(bo.page.locator(".timer", has_text="Final scores in")).to_be_visible()
    await table.shot(ana, "round-over")

    await table.step_until(code, ana, "MATCH_OVER")
    await expect(ana.page.get_by_text("Bo won the match!")).to_be_visible()
    await expect(ana.page.get_by_text("Final scores", exact=True)).to_be_visible()
    await expect(ana.page.locator(".log-list")).to_contain_text("Match over: Bo won with 6 points.")
    await expect(ana.page.get_by_role("button", name="Play again")).to_be_visible()
    await table.shot(bo, "match-over")
    await ana.page.get_by_role("button", name="Verify the deal (seed revealed)").click()
    dialog = ana.page.get_by_role("dialog")
    await expect(dialog).to_contain_text("It matches")
    room = await table.room(code)
    await expect(dialog.locator("code.seed")).to_have_text(room["match"]["seed"])
    await expect(dialog.locator("code.hash").first).to_have_text(room["match"]["seed_hash"])
    await table.shot(ana, "verify", full=False)


async def test_four_browsers_slap_by_touch_click_and_space_with_penalties_and_scores(table: Table) -> None:
    table.prefix = "slap4"
    ana = await table.open("Ana")
    code = await table.create_room(ana)
    link = f"{table.server.http}/r/{code}"
    bo = await table.open("Bo", url=link)
    await bo.sit(2, colour="Pink")
    cy = await table.open("Cy", url=link)
    await cy.sit(3, colour="Green")
    di = await table.open("Di", url=link, phone=True)
    await di.sit(4, colour="Blue")

    # The host changes the options in the lobby; everyone's (read-only) form follows.
    await ana.page.get_by_text("Table options").click()
    await ana.page.get_by_label("Rounds", exact=True).fill("1")
    await ana.page.get_by_label("First to call Nu!").select_option(label="Seat 1")
    await ana.page.get_by_role("button", name="Save options").click()
    await di.page.get_by_text("Table options").click()
    await expect(di.page.get_by_label("Rounds", exact=True)).to_have_value("1")
    await expect(di.page.get_by_label("Rounds", exact=True)).to_be_disabled()
    await expect(ana.page.locator(".lobby-seat .swatch")).to_have_count(4)
    await table.shot(ana, "lobby")
    await table.shot(di, "lobby-phone")
    await ana.page.get_by_role("button", name="Start game").click()
    players = [ana, bo, cy, di]
    await table.all_phase(players, "AWAIT_NU", 0)
    await table.shot(di, "await-nu-phone")
    state = await di.state()
    assert state["me"] == "3" and state["turn"] == "0"

    # A pair: Di taps the target on her phone 180 ms after the reveal; Bo clicks 1 ms later.
    flip, _ = await table.flip_until(code, players, pair=True)
    await table.shot(di, "flip-open-phone")
    await table.shot(ana, "flip-open")
    await table.advance_ms(180)
    await di.slap_button.tap()
    await expect(di.slap_button).to_have_attribute("aria-disabled", "true")
    await table.advance_ms(1)
    await bo.slap_button.click()
    await expect(bo.slap_button).to_have_attribute("aria-disabled", "true")
    await close_race(table, code, players, flip)
    claims = ana.page.locator(".ruling .claims li")
    await expect(claims).to_have_count(2)
    winner = (await ana.page.locator(".ruling li.win .who").inner_text()).split(". ", 1)[1]
    assert winner in ("Di", "Bo")
    # A tie (within the margin) is drawn by lot, and the log says so.
    await expect(ana.page.locator(".log-list")).to_contain_text(
        re.compile(rf"{winner} (slapped first, {AFTER},|\({AFTER}\) won the draw) and takes")
    )
    piles = (await ana.state())["piles"]
    winner_seat = 3 if winner == "Di" else 1
    assert piles == [13 if seat == winner_seat else 9 for seat in range(4)], piles
    await table.shot(di, "trick-phone")
    await table.shot(ana, "trick")

    # On a flip without a pair Cy slaps anyway, with the space bar: one penalty point.
    await table.advance(code)
    await table.all_phase(players, "AWAIT_NU")
    flip, _ = await table.flip_until(code, players, pair=False)
    await table.advance_ms(300)
    await cy.page.keyboard.press("Space")
    await expect(ana.page.locator('.felt .seat[data-seat="2"] .seat-stats')).to_contain_text("1 penalty")
    await expect(cy.page.locator(".log-list")).to_contain_text("Cy slapped without a pair")
    await table.shot(ana, "false-slap")
    await table.advance(code)
    await table.all_phase(players, "FLIP_RESULT", flip)
    await expect(ana.page.locator(".ruling")).to_contain_text("No pair")
    await expect(ana.page.locator(".ruling")).to_contain_text("+1 penalty")

    room = await table.room(code)
    before = await ana.state()
    await table.advance_until(code, room["match"]["started_at"] + 300_000)
    await ana.wait_changed(before)
    await table.step_until(code, di, "ROUND_OVER")
    await expect(ana.page.locator(".scores tbody tr")).to_contain_text("9 cards · 4 pts \N{MINUS SIGN} 1")
    totals = ["4", "4", "3", "4"]
    totals[winner_seat] = "6"
    await expect(ana.page.locator(".scores tfoot")).to_have_text(
        re.compile(r"Total\s*" + r"\s*".join(totals))
    )
    await expect(di.page.locator(f'.felt .seat[data-seat="{winner_seat}"] .seat-stats')).to_contain_text(
        "6 pts"
    )
    assert await di.scroll_width() <= 375
    await table.shot(di, "round-over-phone")
    await table.shot(ana, "round-over")


async def test_a_reload_mid_game_restores_the_same_table(table: Table) -> None:
    table.prefix = "reload"
    code, (ana, bo) = await open_table(table, names=["Ana", "Bo"], options={"rounds": 1, "first_starter": 0})
    await ana.nu.click()
    await table.all_phase([ana, bo], "NU_CALLED", 1)
    await table.advance(code)
    await table.all_phase([ana, bo], "FLIP_OPEN", 1)
    await table.advance_ms(150)
    await bo.slap_button.click()
    await expect(bo.slap_button).to_have_attribute("aria-disabled", "true")
    before = await bo.state()
    await table.shot(bo, "before")

    await bo.page.reload()
    await bo.wait_phase(before["phase"], before["flip"])
    await expect(bo.page.locator("#conn")).to_have_attribute("data-state", "online")
    after = await bo.state()
    assert after == before
    await expect(bo.slap_button).to_have_attribute("aria-disabled", "true")
    await table.shot(bo, "after")

    # The reloaded page keeps playing: the flip closes on both screens, alike.
    await table.step_until(code, bo, "FLIP_RESULT")
    await table.all_phase([ana, bo], "FLIP_RESULT", 1)
    assert (await ana.state())["piles"] == (await bo.state())["piles"]

    # Someone opening the link now watches: the same table, no SLAP target, no seat of their own.
    eve = await table.open_as(await table.api.player("Eve"), f"{table.server.http}/r/{code}")
    await eve.wait_phase("FLIP_RESULT", 1)
    assert (await eve.state())["piles"] == (await bo.state())["piles"]
    await expect(eve.slap_button).to_have_count(0)
    await expect(eve.page.locator(".table-sub")).to_contain_text("watching")
    await expect(ana.page.locator(".watchers")).to_contain_text("Watching: Eve")
    await table.shot(eve, "spectator")


async def test_rejected_actions_show_the_server_message(table: Table) -> None:
    table.prefix = "reject"
    code, (ana, bo) = await open_table(table, names=["Ana", "Bo"], options={"rounds": 1, "first_starter": 0})
    # Bo is not the starter; the N key still asks the server, which refuses with its reason.
    await bo.page.keyboard.press("n")
    toast = await bo.toast("Only the starter can call Nu!")
    await table.shot(bo, "not-starter", full=False)
    assert (await bo.state())["phase"] == "AWAIT_NU"
    await toast.get_by_role("button", name="Dismiss").click()
    await expect(toast).to_be_hidden()

    await ana.nu.click()
    await table.all_phase([ana, bo], "NU_CALLED", 1)
    await table.advance(code)
    await table.all_phase([ana, bo], "FLIP_OPEN", 1)
    await bo.slap_button.click()
    await expect(bo.slap_button).to_have_attribute("aria-disabled", "true")
    await bo.page.keyboard.press("Space")  # a second slap on the same flip
    await bo.toast("You already slapped this flip.")
    await table.shot(bo, "already-slapped", full=False)
    assert not await ana.page.get_by_role("alert").count(), "only the sender sees its reject"
