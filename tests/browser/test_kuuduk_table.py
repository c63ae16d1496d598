"""Kuuduk in real browsers: three players (one on a phone) play one round through the table.

The server draws the deal's seed, so nothing here assumes a deal: every move is chosen from the
``legal`` list the acting player's page was sent (the table keeps it in ``data-legal``) and then
made through the table's own buttons: clicked, tapped on the phone, or (some of Bo's lays) with
the keyboard alone. The players steer towards
the moments the test checks (draw, lay, discard, picking up, a swipe with a target, a Switch, a
rearranging lay, an illegal try) and, once all have happened, towards winning the round.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from tests.browser.helpers import Player, Table

MAX_ACTIONS = 320
PASS_AT = 6
MOMENTS = {"draw", "lay", "discard", "take_discard", "swipe", "switch", "rearrange", "reject"}
WORD = "kuuduk"
PLACEMENT_ERRORS = re.compile(
    r"share neither colour nor dots|next to one of your cards|only a swipe can make a gap|takes a"
)

STATE_JS = """() => {
  const kd = document.querySelector('.kd');
  if (!kd) return null;
  const seats = [...document.querySelectorAll('.felt .seat')].sort((a, b) => a.dataset.seat - b.dataset.seat);
  const d = kd.dataset;
  return {
    key: [d.phase, d.step ?? '', d.turn ?? '', d.round].join('|'),
    phase: d.phase, step: d.step ?? null, turn: d.turn === undefined ? null : Number(d.turn),
    direction: d.direction, busy: d.busy === 'true', legal: JSON.parse(d.legal || '[]'),
    me: Number(document.querySelector('.felt .seat.me')?.dataset.seat ?? -1),
    hand: [...document.querySelectorAll('.seat.me .kd-hcard')].map((b) => b.dataset.card),
    drawn: document.querySelector('.seat.me .kd-hcard.drawn')?.dataset.card ?? null,
    rows: seats.map((s) => [...s.querySelectorAll('.kd-row:not(.tiny) > .kd-slot')]
      .map((li) => li.dataset.card ?? null)),
    backs: seats.map((s) => s.querySelectorAll('.kd-backs .kd-back').length),
    faces: seats.map((s) => s.querySelectorAll('.kd-hand [data-card], .kd-backs [data-card]').length),
    discard: document.querySelector('.kd-discard [data-card]')?.dataset.card ?? null,
  };
}"""


def is_full(action: dict[str, Any]) -> bool:
    return isinstance(action.get("placement"), list)


def target_slot(action: dict[str, Any], card: str) -> int:
    placement = action["placement"]
    return placement if isinstance(placement, int) else placement.index(card) + 1


def illegal_try(state: dict[str, Any]) -> tuple[str, int] | None:
    """A hand letter card and an empty slot of its letter that ``legal`` does not list for it."""
    row = state["rows"][state["me"]]
    for card in state["hand"]:
        if card[0] not in "kud":
            continue
        allowed = {target_slot(a, card) for a in state["legal"] if a["type"] == "lay" and a["card"] == card}
        for i, letter in enumerate(WORD):
            if letter == card[0] and row[i] is None and i + 1 not in allowed:
                return card, i + 1
    return None


def choose(state: dict[str, Any], done: set[str]) -> dict[str, Any]:
    """The move to make: first the moments not seen yet, then whatever gets nearer a won round.

    Until every moment has happened the players draw (to see more cards) and keep their black
    cards for their moment; then they shed cards by passing and lay down as much as they can.
    """
    kinds: dict[str, list[dict[str, Any]]] = {}
    for a in state["legal"]:
        kinds.setdefault(a["type"], []).append(a)
    covered = MOMENTS - {"reject"} <= done
    laid = sum(1 for c in state["rows"][state["me"]] if c)
    hand = len(state["hand"])
    if state["step"] == "ACQUIRE":
        if "take_discard" in kinds and ("take_discard" not in done or covered or "draw" not in kinds):
            return ([a for a in kinds["take_discard"] if is_full(a)] or kinds["take_discard"])[0]
        if covered and "pass" in kinds and hand and hand + laid >= PASS_AT:
            return kinds["pass"][0]
        return (kinds.get("draw") or kinds["pass"])[0]
    if "switch" not in done and "switch" in kinds:
        return kinds["switch"][0]
    takes = [a for a in kinds.get("swipe", []) if "victim" in a]
    if "swipe" not in done and takes:
        return takes[0]
    lays = kinds.get("lay", [])
    if lays:
        return ([a for a in lays if is_full(a) and "rearrange" not in done] or lays)[0]
    if covered and takes:
        return takes[0]
    keep = {"switch", "swipe"} - done

    def worth(a: dict[str, Any]) -> int:
        card = a["card"]
        if card[0] in "kud":
            return 1
        return 2 if ("switch" if card.startswith("switch") else "swipe") in keep else 0

    return min(kinds["discard"], key=lambda a: (worth(a), a["card"] != state["drawn"]))


class Game:
    def __init__(self, table: Table, players: list[Player], phone: Player) -> None:
        self.table = table
        self.players = players
        self.phone = phone
        self.keyboard = players[1]
        self.by_seat: dict[int, Player] = {}
        self.done: set[str] = set()
        self.keyboard_lays = 0

    async def state(self, p: Player) -> dict[str, Any]:
        result: dict[str, Any] = await p.page.evaluate(STATE_JS)
        return result

    async def wait(self, p: Player, key: str, same: bool) -> dict[str, Any]:
        handle = await p.page.wait_for_function(
            f"([key, same]) => {{ const s = ({STATE_JS})();"
            " return s && !s.busy && (s.key === key) === same ? s : null; }",
            arg=[key, same],
        )
        result: dict[str, Any] = await handle.json_value()
        return result

    async def settle(self, p: Player, key: str) -> dict[str, Any]:
        """Wait until ``p`` shows the table moment ``key`` with no action of its own pending."""
        return await self.wait(p, key, True)

    async def changed(self, p: Player, key: str) -> dict[str, Any]:
        """Wait until ``p`` shows another table moment than ``key``."""
        return await self.wait(p, key, False)

    async def press(self, p: Player, locator: Any) -> None:
        if p is self.phone:
            await locator.tap()
        else:
            await locator.click()

    def own_target(self, p: Player, slot: int) -> Any:
        return p.page.locator(f'.seat.me .kd-target[data-slot="{slot}"]')

    async def perform(self, p: Player, state: dict[str, Any], a: dict[str, Any]) -> None:
        """Make move ``a`` through the table's buttons, checking that the table marks it as allowed."""
        page = p.page
        kind = a["type"]
        if kind in ("draw", "pass"):
            await self.press(p, page.get_by_role("button", name=kind.capitalize(), exact=True))
            return
        if kind == "take_discard":
            await self.press(p, page.get_by_role("button", name="Pick up", exact=True))
            target = self.own_target(p, target_slot(a, state["discard"]))
            await expect(target).to_have_attribute("data-kind", "move" if self.moves(state, a) else "lay")
            await self.press(p, target)
            return
        card = page.locator(f'.seat.me .kd-hcard[data-card="{a["card"]}"]')
        first_lay = next(x for x in state["legal"] if x["type"] == kind and x.get("card") == a["card"])
        if p is self.keyboard and kind == "lay" and a == first_lay:
            # Keyboard only: Enter picks the card and moves the focus to its first marked slot.
            await card.focus()
            await page.keyboard.press("Enter")
            target = self.own_target(p, target_slot(a, a["card"]))
            await expect(target).to_be_focused()
            await page.keyboard.press("Enter")
            self.keyboard_lays += 1
            return
        await self.press(p, card)
        if kind not in self.done:
            await expect(card).to_have_attribute("aria-pressed", "true")
        if kind == "lay":
            target = self.own_target(p, target_slot(a, a["card"]))
            await expect(target).to_have_attribute("data-kind", "move" if self.moves(state, a) else "lay")
            await self.press(p, target)
        elif kind == "discard":
            await self.press(p, page.locator(".kd-actions button", has_text="Discard:"))
        elif kind == "switch":
            await self.press(p, page.get_by_role("button", name="Play Switch"))
        else:  # a swipe with its target (``choose`` never swipes without one: a discard does that)
            taken = state["rows"][a["victim"]][a["slot"] - 1]
            victim = page.locator(f'.seat[data-seat="{a["victim"]}"] .kd-target[data-slot="{a["slot"]}"]')
            await expect(victim).to_have_attribute("data-kind", "take")
            if "swipe" not in self.done:
                await self.table.shot(p, "swipe-choose")
            await self.press(p, victim)
            await expect(page.locator(".kd-status")).to_contain_text("at once")
            await self.press(p, self.own_target(p, target_slot(a, taken)))

    @staticmethod
    def moves(state: dict[str, Any], a: dict[str, Any]) -> bool:
        row = state["rows"][state["me"]]
        return is_full(a) and any(
            old is not None and old != new for old, new in zip(row, a["placement"], strict=True)
        )

    async def try_illegal(self, p: Player, state: dict[str, Any], card: str, slot: int) -> None:
        """Click a slot the table does not mark as allowed: the server refuses and says why."""
        page = p.page
        await self.press(p, page.locator(f'.seat.me .kd-hcard[data-card="{card}"]'))
        target = self.own_target(p, slot)
        await expect(target).to_have_attribute("data-kind", "try")
        await self.press(p, target)
        toast = page.get_by_role("alert").filter(has_text=PLACEMENT_ERRORS)
        await expect(toast).to_be_visible()
        await self.table.shot(p, "rejected", full=False)
        after = await self.settle(p, state["key"])
        assert after["rows"] == state["rows"] and sorted(after["hand"]) == sorted(state["hand"])
        for other in self.players:
            if other is not p:
                assert not await other.page.get_by_role("alert").count(), "only the sender sees its reject"
        await toast.get_by_role("button", name="Dismiss").click()
        self.done.add("reject")

    async def check(
        self, p: Player, before: dict[str, Any], a: dict[str, Any], after: dict[str, Any]
    ) -> None:
        """What everybody sees after move ``a`` of the player at seat ``me``."""
        me = before["me"]
        kind = a["type"]
        if kind in ("lay", "take_discard"):
            card = a.get("card") or before["discard"]
            row = after["rows"][me]
            assert row[target_slot(a, card) - 1] == card
            if is_full(a):
                assert row == a["placement"], "the row is rearranged as the lay said"
            if kind == "take_discard":
                assert len(after["hand"]) == len(before["hand"]), "a picked-up card goes straight down"
        if kind in self.done and not self.moves(before, a):
            return  # the first of each kind is enough to watch from another screen
        watcher = next(o for o in self.players if o is not p)
        seen = await self.settle(watcher, after["key"])
        assert seen["rows"] == after["rows"], "every screen shows the same rows"
        if kind == "draw" and "draw" not in self.done:
            assert after["drawn"] and len(after["hand"]) == len(before["hand"]) + 1
            await expect(p.page.locator(".seat.me .kd-hcard.drawn")).to_contain_text("new")
            assert seen["backs"][me] == len(after["hand"]), "the others see one more card back, not its face"
        if kind == "discard" and "discard" not in self.done:
            assert seen["discard"] == a["card"]
            await expect(watcher.page.locator(".log-list")).to_contain_text(" discards ")
        if kind == "swipe" and "victim" in a:
            taken = before["rows"][a["victim"]][a["slot"] - 1]
            assert after["rows"][a["victim"]][a["slot"] - 1] is None
            assert taken in after["rows"][me]
            assert seen["discard"] == a["card"], "the swipe card is the discard top"
            log = watcher.page.locator(".log-list")
            await expect(log).to_contain_text(re.compile(r"plays Swipe \w+: takes"))
        if kind == "switch":
            assert after["direction"] != before["direction"] and seen["direction"] == after["direction"]
            assert after["turn"] == me and after["step"] == "ACQUIRE"
            await expect(p.page.locator(".kd-status")).to_contain_text("Your turn starts again")
            await expect(p.page.get_by_role("button", name="Pass", exact=True)).to_be_hidden()
            await expect(watcher.page.locator(".kd-dir")).to_contain_text(
                "to the right" if after["direction"] == "ccw" else "to the left"
            )

    async def moment(self, p: Player, a: dict[str, Any], before: dict[str, Any]) -> None:
        names = {a["type"]} if a["type"] != "swipe" or "victim" in a else set()
        if (a["type"] in ("lay", "take_discard") and self.moves(before, a)) or (
            a["type"] == "swipe" and "victim" in a and self.moves(before, a)
        ):
            names.add("rearrange")
        for name in sorted((names & MOMENTS) - self.done):
            self.done.add(name)
            await self.table.shot(p, f"after-{name}")
            if p is not self.phone and name in ("swipe", "switch"):
                await self.table.shot(self.phone, f"after-{name}-phone")

    async def play(self) -> dict[str, Any]:
        for p in self.players:
            self.by_seat[(await self.state(p))["me"]] = p
        shown_by = self.players[0]
        state = await self.state(shown_by)
        for _ in range(MAX_ACTIONS):
            if state["phase"] == "GAME_OVER":
                return state
            if state["phase"] != "TURN":
                await self.table.advance(self.code)  # the next deal after a void round
                state = await self.changed(shown_by, state["key"])
                continue
            p = self.by_seat[state["turn"]]
            if p is not shown_by:
                state = await self.settle(p, state["key"])
            if state["step"] == "PLAY" and "reject" not in self.done and (tried := illegal_try(state)):
                await self.try_illegal(p, state, *tried)
            a = choose(state, self.done)
            if a["type"] == "lay" and self.moves(state, a):
                await self.preview_shown(p, a)
            await self.perform(p, state, a)
            after = await self.changed(p, state["key"])
            await self.check(p, state, a, after)
            await self.moment(p, a, state)
            state, shown_by = after, p
        raise AssertionError(f"no round won in {MAX_ACTIONS} moves; seen {sorted(self.done)}")

    async def preview_shown(self, p: Player, a: dict[str, Any]) -> None:
        """Before a rearranging lay, the table shows the row as it will be."""
        if "rearrange" in self.done:
            return
        await self.press(p, p.page.locator(f'.seat.me .kd-hcard[data-card="{a["card"]}"]'))
        preview = p.page.locator(".seat.me .kd-preview")
        await expect(preview).to_be_visible()
        await expect(preview).to_contain_text("Your row after this lay")
        await self.table.shot(p, "rearrange-preview")
        await self.press(p, p.page.get_by_role("button", name="Cancel"))
        await expect(preview).to_be_hidden()

    code = ""


async def test_three_browsers_play_a_round_of_kuuduk_from_the_legal_moves_to_the_scores(table: Table) -> None:
    table.prefix = "kuuduk"
    people = [await table.api.player(n) for n in ("Ana", "Bo", "Cy")]
    options = {"mode": "single_round", "first_dealer": 2}
    room = await table.api.create_room(people[0]["token"], "kuuduk", options)
    code = room["code"]
    for person in people[1:]:
        await table.api.sit(person["token"], code)
    link = f"{table.server.http}/r/{code}"
    ana = await table.open_as(people[0], link)
    bo = await table.open_as(people[1], link)
    cy = await table.open_as(people[2], link, phone=True)
    players = [ana, bo, cy]
    await table.api.start(people[0]["token"], code)
    for p in players:
        await p.page.locator('.kd[data-phase="TURN"]').wait_for()
    game = Game(table, players, cy)
    game.code = code

    # The deal: your three cards face up, the others' as backs; only Ana (left of the dealer) may act.
    first = await game.state(ana)
    assert first["turn"] == 0 and first["step"] == "ACQUIRE" and first["direction"] == "cw"
    for p in players:
        s = await game.settle(p, first["key"])
        assert len(s["hand"]) == 3 and all(card for card in s["hand"])
        assert [n for i, n in enumerate(s["backs"]) if i != s["me"]] == [3, 3]
        assert [n for i, n in enumerate(s["faces"]) if i != s["me"]] == [0, 0], "no face of another hand"
        assert s["rows"] == [[None] * 6] * 3
        assert s["discard"], "one card is turned up"
    await expect(ana.page.get_by_role("button", name="Draw", exact=True)).to_be_visible()
    await expect(bo.page.get_by_role("button", name="Draw", exact=True)).to_have_count(0)
    await expect(cy.page.locator(".kd-status")).to_contain_text("Ana is drawing or picking up")
    await expect(cy.page.locator(".kd-dir")).to_contain_text("Play goes to the left")
    await expect(cy.page.locator('.felt .seat[data-seat="0"] .seat-stats')).to_contain_text("your left")
    await expect(ana.page.locator('.felt .seat[data-seat="2"] .seat-stats')).to_contain_text("dealer")
    await table.shot(ana, "deal")
    await table.shot(cy, "deal-phone")

    end = await game.play()
    assert game.done >= MOMENTS, sorted(MOMENTS - game.done)
    assert game.keyboard_lays, "Bo laid at least one card with the keyboard alone"

    # The round is won: the round scores (+1 per laid card, -1 per held card) and the final table.
    for p in players:
        s = await game.settle(p, end["key"])
        assert s["phase"] == "GAME_OVER"
    ends = await game.state(ana)
    laid = [sum(1 for c in row if c) for row in ends["rows"]]
    held = [len(ends["hand"]) if seat == 0 else ends["backs"][seat] for seat in range(3)]
    totals = [laid[s] - held[s] for s in range(3)]
    champion = totals.index(max(totals))
    assert laid[champion] == 6 and held[champion] == 0, "the winner spelled k-u-u-d-u-k with an empty hand"
    scores = ana.page.locator(".scores")
    await expect(scores).to_have_attribute("open", "")
    await expect(scores.locator("tbody tr").last).to_contain_text(
        f"{laid[0]} laid \N{MINUS SIGN} {held[0]} held"
    )
    # The table writes numbers with a true minus sign (static/js/i18n.js), as the row above.
    shown = [str(n).replace("-", "\N{MINUS SIGN}") for n in totals]
    await expect(scores.locator("tfoot")).to_have_text(
        re.compile(r"Total\s*" + r"\s*".join(re.escape(n) for n in shown))
    )
    champ_name = ["Ana", "Bo", "Cy"][champion]
    await expect(ana.page.get_by_text("Final scores", exact=True)).to_be_visible()
    await expect(bo.page.locator(".kd-status")).to_have_text(f"{champ_name} won the game!")
    await expect(cy.page.locator(".log-list")).to_contain_text(f"{champ_name} completes k-u-u-d-u-k and wins")
    await expect(cy.page.locator(".kd-result li.win")).to_contain_text(f"{champ_name} +6 (6 laid, 0 held)")
    assert await cy.scroll_width() <= 375, "no sideways scrolling on the phone"
    await table.shot(ana, "game-over")
    await table.shot(cy, "game-over-phone")
