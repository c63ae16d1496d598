"""Leaving and ending a running game in real browsers: Leave (asked first) hands the seat to a bot
and the player takes it back, the host ends the game (asked first) or removes a player who left,
and in a two-player game a player resigns."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from tests.browser.helpers import Player, Table


def answer_confirm(player: Player, accept: bool) -> None:
    """The next confirm dialog on this page is answered ``accept`` (and its question kept)."""

    async def answer(dialog: Any) -> None:
        if dialog.type != "confirm":
            player.table.problems.append(f"{player.name}: unexpected {dialog.type} dialog")
        await (dialog.accept() if accept else dialog.dismiss())

    player.page.once("dialog", answer)


async def running_slap(table: Table, names: list[str]) -> tuple[str, list[dict[str, Any]], list[Player]]:
    people = [await table.api.player(n) for n in names]
    code = (await table.api.create_room(people[0]["token"], "slap", {"rounds": 1}))["code"]
    for p in people[1:]:
        await table.api.sit(p["token"], code)
    players = [await table.open_as(p, f"{table.server.http}/r/{code}") for p in people[:2]]
    await table.api.start(people[0]["token"], code)
    await table.all_phase(players, "AWAIT_NU", 0)
    return code, people, players


async def test_a_player_leaves_after_a_confirm_a_bot_plays_the_seat_and_they_take_it_back(
    table: Table,
) -> None:
    code, _, (ana, bo) = await running_slap(table, ["Ana", "Bo", "Cy"])
    leave = bo.page.get_by_role("button", name="Leave table")
    answer_confirm(bo, accept=False)
    await leave.click()
    await expect(leave).to_be_visible()
    assert (await table.room(code))["seats"][1]["left"] is False, "a dismissed confirm changes nothing"

    answer_confirm(bo, accept=True)
    await leave.click()
    await bo.page.wait_for_url(f"{table.server.http}/")
    await expect(ana.page.locator('.felt .seat[data-seat="1"] .tags')).to_contain_text("bot playing for Bo")
    await expect(ana.page.get_by_role("button", name="Remove Bo")).to_be_visible()
    await table.shot(ana, "host-sees-left-seat")

    await bo.page.goto(f"{table.server.http}/r/{code}")
    await expect(bo.page.get_by_text("You left this game; a bot plays your seat.")).to_be_visible()
    await table.shot(bo, "left-player-back")
    await bo.page.get_by_role("button", name="Take my seat back").click()
    await expect(bo.page.get_by_role("button", name="Leave table")).to_be_visible()
    await expect(ana.page.get_by_role("button", name="Remove Bo")).to_be_hidden()
    seat = (await table.room(code))["seats"][1]
    assert (seat["left"], seat["standin"]) == (False, False)


async def test_the_host_ends_the_game_after_a_confirm_and_everyone_sees_who_ended_it(table: Table) -> None:
    code, _, (ana, bo) = await running_slap(table, ["Ana", "Bo"])
    await expect(bo.page.get_by_role("button", name="End game")).to_have_count(0)
    end = ana.page.get_by_role("button", name="End game")
    answer_confirm(ana, accept=False)
    await end.click()
    assert (await table.room(code))["status"] == "playing", "a dismissed confirm changes nothing"

    answer_confirm(ana, accept=True)
    await end.click()
    for who in (ana, bo):
        await expect(
            who.page.get_by_text("The host ended the game; the scores so far stand.")
        ).to_be_visible()
        await expect(who.page.get_by_role("button", name="Leave table")).to_have_count(0)
    await table.shot(bo, "ended-by-host")
    result = (await table.room(code))["match"]["result"]
    assert result["detail"]["stopped"]["by"] == "host" and result["winners"] == []


async def test_the_host_removes_a_player_who_left(table: Table) -> None:
    code, (_, bo_http, _), (ana, _bo) = await running_slap(table, ["Ana", "Bo", "Cy"])
    r = await table.api.call("POST", f"/api/rooms/{code}/leave", bo_http["token"])
    assert r.status_code == 204
    remove = ana.page.get_by_role("button", name="Remove Bo")
    answer_confirm(ana, accept=True)
    await remove.click()
    await expect(remove).to_have_count(0)
    assert (await table.room(code))["seats"][1]["removed"] is True


async def test_in_a_two_player_game_a_player_resigns_and_the_other_sees_the_win(table: Table) -> None:
    code, _, (ana, bo) = await running_slap(table, ["Ana", "Bo"])
    answer_confirm(bo, accept=True)
    await bo.page.get_by_role("button", name="Resign").click()
    await expect(ana.page.get_by_text("Bo resigned; Ana wins.")).to_be_visible()
    await table.shot(ana, "resigned")
    assert (await table.room(code))["match"]["result"]["winners"] == [0]
