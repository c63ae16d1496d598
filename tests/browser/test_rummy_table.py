"""Rummy in real browsers: three players (one on a phone) draft by drag and drop, by taps and by
keys, watch each other's draft live, get an invalid table rejected with its reasons, undo to the
start of the turn, draw, let the clock run out, open with 40 points, and finish on the scoreboard.

The deal is the server's secret, so the test reads each player's hand from the page and looks
for a legal opening there (drawing until one turns up). Time moves only by the manual room clock.
"""

from __future__ import annotations

import json
import re
from itertools import combinations
from typing import Any

from playwright.async_api import expect

from tests.browser.helpers import Player, Table
from tests.integration.client import Client

OPENING = 40

STATE_JS = """() => {
  const r = document.querySelector('.rummy');
  const ids = (el) => [...el.querySelectorAll('[data-card]')].map((c) => c.dataset.card);
  return {
    phase: r ? r.dataset.phase : null,
    turnId: r ? Number(r.dataset.turnId) : null,
    turn: r && r.dataset.turn !== '' ? Number(r.dataset.turn) : null,
    me: Number(document.querySelector('.felt .seat.me')?.dataset.seat ?? -1),
    hand: ids(document.querySelector('.rummy-hand') || document.createElement('div')),
    sets: [...document.querySelectorAll('.rummy-set')].map(ids),
    ok: [...document.querySelectorAll('.rummy-set')].map((s) => s.dataset.ok === 'true'),
    shown: ids(document.body),
  };
}"""

SETS_JS = "(want) => JSON.stringify([...document.querySelectorAll('.rummy-set')].map((s) =>"
SETS_JS += " [...s.querySelectorAll('[data-card]')].map((c) => c.dataset.card))) === want"


# --- finding an opening in a hand (the test's own small solver) -------------------------------


def _number(card: str) -> int:
    return int(card[1:3])


def _melds(hand: list[str]) -> list[tuple[int, list[str]]]:
    """Groups and runs this hand can lay, with at most one joker and two numbered cards each."""
    jokers = [c for c in hand if c.startswith("J")]
    one: dict[tuple[str, int], str] = {}
    for c in sorted(hand):
        if not c.startswith("J"):
            one.setdefault((c[0], _number(c)), c)
    out: list[tuple[int, list[str]]] = []
    for n in range(1, 14):
        naturals = [one[(col, n)] for col in "RBYK" if (col, n) in one]
        for size in (3, 4):
            for k in range(2, min(size, len(naturals)) + 1):
                if size - k <= min(1, len(jokers)):
                    out += [(n * size, [*combo, *jokers[: size - k]]) for combo in combinations(naturals, k)]
    for col in "RBYK":
        for start in range(1, 12):
            for length in range(3, 15 - start):
                cards = [one.get((col, start + i)) for i in range(length)]
                gaps = cards.count(None)
                if gaps <= min(1, len(jokers)) and length - gaps >= 2:
                    spare = iter(jokers)
                    out.append((length * (2 * start + length - 1) // 2, [c or next(spare) for c in cards]))
    return sorted(out, key=lambda m: -m[0])


def find_opening(hand: list[str], need: int = OPENING) -> list[list[str]] | None:
    """Disjoint sets worth ``need`` points, as few as possible (each set in the order it lies)."""
    melds = _melds(hand)
    best: list[list[str]] | None = None

    def search(start: int, used: frozenset[str], total: int, chosen: list[list[str]]) -> None:
        nonlocal best
        if total >= need:
            if best is None or len(chosen) < len(best):
                best = list(chosen)
            return
        if len(chosen) >= 4 or (best is not None and len(chosen) + 1 >= len(best)):
            return
        for i in range(start, len(melds)):
            value, cards = melds[i]
            if used.isdisjoint(cards):
                search(i + 1, used | set(cards), total + value, [*chosen, cards])

    search(0, frozenset(), 0, [])
    return best


# --- reading and driving the table ------------------------------------------------------------


async def state(p: Player) -> dict[str, Any]:
    result: dict[str, Any] = await p.page.evaluate(STATE_JS)
    return result


async def wait_sets(p: Player, sets: list[list[str]]) -> None:
    await p.page.wait_for_function(SETS_JS, arg=json.dumps(sets, separators=(",", ":")))


async def wait_turn(players: list[Player], turn_id: int) -> None:
    for p in players:
        await p.page.locator(f'.rummy[data-phase="TURN"][data-turn-id="{turn_id}"]').wait_for()


def in_hand(p: Player, card: str) -> Any:
    return p.page.locator(f'.rummy-hand [data-card="{card}"]')


def on_table(p: Player, card: str) -> Any:
    return p.page.locator(f'.rummy-set [data-card="{card}"]')


def seat_of(p: Player, seat: int) -> Any:
    return p.page.locator(f'.felt .seat[data-seat="{seat}"] .seat-stats')


def button(p: Player, name: str) -> Any:
    return p.page.get_by_role("button", name=name, exact=True)


async def put(p: Player, how: str, card: Any, target: Any) -> None:
    """One card to one place, the way this player plays: mouse drag, finger taps or keys."""
    if how == "drag":
        await card.drag_to(target)
    elif how == "tap":
        await card.tap()
        await target.tap()
    else:
        await card.focus()
        await p.page.keyboard.press("Enter")
        await target.focus()
        await p.page.keyboard.press("Enter")


async def lay(p: Player, how: str, sets: list[list[str]], before: list[list[str]]) -> None:
    """Lay new sets after the ``before`` ones, card by card, waiting for the server each time."""
    shown = [list(s) for s in before]
    for new in sets:
        shown.append([])
        for k, card in enumerate(new):
            target = button(p, "New set") if k == 0 else button(p, f"Add to set {len(shown)}")
            await put(p, how, in_hand(p, card), target)
            shown[-1].append(card)
            await wait_sets(p, shown)


async def draw(table: Table, code: str, p: Player, players: list[Player]) -> None:
    turn_id = (await state(p))["turnId"]
    await button(p, "Draw a card").click()
    await p.page.locator('.rummy[data-phase="TURN_RESULT"]').wait_for()
    await table.advance(code)
    await wait_turn(players, turn_id + 1)


async def test_three_players_draft_live_by_drag_taps_and_keys_open_and_finish(table: Table) -> None:
    table.prefix = "rummy3"
    people = [await table.api.player(n) for n in ("Ana", "Bo", "Cy")]
    code = (await table.api.create_room(people[0]["token"], "rummy", {"rounds": 1}))["code"]
    for person in people[1:]:
        await table.api.sit(person["token"], code)
    url = f"{table.server.http}/r/{code}"
    ana = await table.open_as(people[0], url)
    bo = await table.open_as(people[1], url, phone=True)
    cy = await table.open_as(people[2], url)
    players = [ana, bo, cy]
    await table.api.start(people[0]["token"], code)
    await wait_turn(players, 1)
    seats = {p.name: (await state(p))["me"] for p in players}
    assert sorted(seats.values()) == [0, 1, 2]
    by_seat = {seats[p.name]: p for p in players}

    # Everyone holds 14 cards of their own and sees nobody else's.
    hands = {p.name: (await state(p))["hand"] for p in players}
    for p in players:
        assert len(hands[p.name]) == 14
        others = {c for q in players if q is not p for c in hands[q.name]}
        assert others.isdisjoint((await state(p))["shown"]), f"{p.name} sees someone else's cards"
    await expect(seat_of(ana, seats["Bo"])).to_contain_text("14 cards")
    await expect(bo.page.locator(".rummy-opening")).to_contain_text("at least 40 points")

    done: set[str] = set()
    opened: str | None = None
    for _ in range(60):
        now = await state(ana)
        p = by_seat[now["turn"]]
        watchers = [q for q in players if q is not p]
        turn_id = now["turnId"]
        hand = (await state(p))["hand"]
        # Legal moves: only the active player has the turn's controls.
        await expect(button(p, "End turn")).to_be_enabled()
        await expect(button(p, "Undo")).to_be_disabled()
        for q in watchers:
            await expect(button(q, "End turn")).to_be_hidden()

        if p is ana and "drag" not in done:
            done.add("drag")
            await expect(ana.page.locator(".timer", has_text="Your turn ends in")).to_contain_text(
                re.compile(r"\d:\d\d")
            )
            await expect(bo.page.locator(".timer", has_text="Ana's turn ends in")).to_be_visible()
            a, b = hand[0], hand[5]
            await put(ana, "drag", in_hand(ana, a), button(ana, "New set"))
            # Dropped on the right half of the set's card: after it.
            await in_hand(ana, b).drag_to(on_table(ana, a), target_position={"x": 30, "y": 20})
            for q in players:
                await wait_sets(q, [[a, b]])  # the others watch the draft as it is made
            await expect(cy.page.locator(".rummy-set")).to_have_attribute("data-ok", "false")
            await expect(cy.page.locator(".rummy-status")).to_contain_text(
                "Ana is building the table: 2 cards"
            )
            await table.shot(cy, "draft-watched")
            await button(ana, "End turn").click()
            problems = ana.page.locator(".rummy-problems")
            await expect(problems.get_by_role("alert")).to_contain_text(
                "Not accepted: Set 1 needs at least 3 cards."
            )
            await expect(ana.page.locator(".rummy-set .set-problems")).to_contain_text(
                "needs at least 3 cards"
            )
            await expect(bo.page.locator(".rummy-set .set-problems")).to_contain_text(
                "needs at least 3 cards"
            )
            await table.shot(ana, "rejected")
            await button(ana, "Undo").click()
            await wait_sets(ana, [[a]])
            await button(ana, "Start over").click()
            for q in players:
                await wait_sets(q, [])
            assert sorted((await state(ana))["hand"]) == sorted(hand), "back to the start of the turn"
            await expect(ana.page.get_by_text("No sets on the table yet.")).to_be_visible()
            await draw(table, code, ana, players)
            drawn = sorted(set((await state(ana))["hand"]) - set(hand))
            assert len(drawn) == 1
            await expect(ana.page.locator(".log-list")).to_contain_text("You drew ")
            await expect(cy.page.locator(".log-list")).to_contain_text("Ana drew a card.")
            await expect(seat_of(cy, seats["Ana"])).to_contain_text("15 cards")
            continue

        if p is bo and "tap" not in done:
            done.add("tap")
            a, b = hand[1], hand[8]
            await put(bo, "tap", in_hand(bo, a), button(bo, "New set"))
            await wait_sets(bo, [[a]])
            await put(bo, "tap", in_hand(bo, b), on_table(bo, a))  # a tap on a set's card: before it
            for q in players:
                await wait_sets(q, [[b, a]])
            await expect(bo.page.locator(".timer", has_text="Your turn ends in")).to_be_visible()
            await expect(ana.page.locator(".timer", has_text="Bo's turn ends in")).to_be_visible()
            assert await bo.scroll_width() <= 375
            await table.shot(bo, "draft-phone")
            await put(bo, "tap", on_table(bo, a), button(bo, "Back to hand"))
            for q in players:
                await wait_sets(q, [[b]])
            await button(bo, "Draw a card").tap()
            await bo.page.locator('.rummy[data-phase="TURN_RESULT"]').wait_for()
            await table.advance(code)
            await wait_turn(players, turn_id + 1)
            assert len((await state(bo))["hand"]) == 15
            assert (await state(ana))["sets"] == []
            continue

        if p is cy and "keys" not in done:
            done.add("keys")
            a, b = hand[2], hand[9]
            await put(cy, "keys", in_hand(cy, a), button(cy, "New set"))
            await wait_sets(cy, [[a]])
            await put(cy, "keys", in_hand(cy, b), button(cy, "Add to set 1"))
            await wait_sets(cy, [[a, b]])
            await on_table(cy, b).focus()
            await cy.page.keyboard.press("Enter")
            await cy.page.keyboard.press("ArrowLeft")  # a picked-up card moves within its set
            for q in players:
                await wait_sets(q, [[b, a]])
            await expect(on_table(cy, b)).to_have_attribute("aria-pressed", "true")  # still held
            await cy.page.keyboard.press("Escape")
            await expect(on_table(cy, b)).to_have_attribute("aria-pressed", "false")
            await put(cy, "keys", on_table(cy, a), button(cy, "Back to hand"))
            await wait_sets(bo, [[b]])
            await button(cy, "Start over").focus()
            await cy.page.keyboard.press("Enter")
            await wait_sets(cy, [])
            await button(cy, "Draw a card").focus()
            await cy.page.keyboard.press("Enter")
            await cy.page.locator('.rummy[data-phase="TURN_RESULT"]').wait_for()
            await table.advance(code)
            await wait_turn(players, turn_id + 1)
            continue

        opening = find_opening(hand) if len(done) == 3 else None
        if opening is None:
            await draw(table, code, p, players)
            continue

        # A valid opening of 40 or more, laid the way this player plays, then committed.
        how = {"Ana": "drag", "Bo": "tap", "Cy": "keys"}[p.name]
        await lay(p, how, opening, [])
        for q in watchers:
            await wait_sets(q, opening)
        await expect(p.page.locator(".rummy-status")).to_contain_text("The table is valid")
        await expect(p.page.locator(".rummy-opening")).to_contain_text(re.compile(r"\d+ of 40 points"))
        await table.shot(p, "opening-ready")
        await button(p, "End turn").click()
        await p.page.locator('.rummy[data-phase="TURN_RESULT"]').wait_for()
        played = sum(len(s) for s in opening)
        for q in watchers:
            await expect(q.page.locator(".log-list")).to_contain_text(
                re.compile(rf"{p.name} played {played} cards \({len(opening)} new sets?\) and opened\.")
            )
            await expect(q.page.locator(".rummy-other", has_text=re.compile("✓ Opened"))).to_have_count(1)
        await expect(p.page.locator(".rummy-opening")).to_contain_text("You have opened")
        assert (await state(watchers[0]))["ok"] == [True] * len(opening)
        assert len((await state(p))["hand"]) == len(hand) - played
        await table.shot(watchers[0], "opened")
        await table.shot(bo, "opened-phone")
        assert await bo.scroll_width() <= 375
        opened = p.name
        await table.advance(code)
        await wait_turn(players, turn_id + 1)
        break
    assert opened is not None and done == {"drag", "tap", "keys"}

    # The next player starts a set, then lets the two minutes run out (the room clock jumps to the
    # deadline): one card makes no set, so the table goes back as it was and they draw a card.
    now = await state(ana)
    p = by_seat[now["turn"]]
    await expect(p.page.locator(".timer", has_text="Your turn ends in")).to_be_visible()
    table_before = (await state(p))["sets"]
    hand = (await state(p))["hand"]
    how = {"Ana": "drag", "Bo": "tap", "Cy": "keys"}[p.name]
    await put(p, how, in_hand(p, hand[0]), button(p, "New set"))
    for q in players:
        await wait_sets(q, [*table_before, [hand[0]]])
    await table.advance(code)
    for q in players:
        await expect(q.page.locator(".log-list")).to_contain_text(
            "Time ran out: the table goes back as it was and "
            + ("you draw " if q is p else f"{p.name} draws 1 card.")
        )
        await wait_sets(q, table_before)
    assert len((await state(p))["hand"]) == len(hand) + 1
    await table.shot(p, "timed-out")
    await table.advance(code)
    await wait_turn(players, now["turnId"] + 1)

    # The rest of the round, quickly: every turn a draw over the protocol until the pool is empty
    # and nobody can play; the lowest hand wins the (only) round and the browsers show the scores.
    clients = {
        seat: await Client(table.server.ws, code, people[i]["token"]).open()
        for i, seat in enumerate(seats[n] for n in ("Ana", "Bo", "Cy"))
    }
    try:
        for _ in range(200):
            watcher = clients[0]
            await watcher.until(lambda v: v["game"]["phase"] in ("TURN", "MATCH_OVER"))
            game = watcher.game
            if game["phase"] == "MATCH_OVER":
                break
            mover = clients[game["turn"]]
            await mover.until(
                lambda v, t=game["turn_id"]: v["game"]["turn_id"] == t and bool(v["game"]["legal"])
            )
            reply = await mover.act({"type": "draw", "turn_id": game["turn_id"]})
            assert reply["type"] == "ack", reply
            if mover.game["phase"] == "TURN_RESULT":
                await table.advance(code)
            await watcher.until(
                lambda v, t=game["turn_id"]: v["game"]["turn_id"] > t or v["game"]["phase"] == "MATCH_OVER"
            )
        assert clients[0].game["phase"] == "MATCH_OVER"
        winners = clients[0].game["winners"]
    finally:
        for client in clients.values():
            await client.close()

    names = [by_seat[s].name for s in range(3)]
    won = " and ".join(names[s] for s in winners)
    for p in players:
        await p.page.locator('.rummy[data-phase="MATCH_OVER"]').wait_for()
        scores = p.page.locator(".scores")
        await expect(scores).to_have_attribute("open", "")
        await expect(scores.locator("tbody tr")).to_contain_text("Round 1 (blocked)")
        await expect(p.page.get_by_text("Final scores", exact=True)).to_be_visible()
        await expect(p.page.locator(".rummy-status")).to_contain_text(f"{won} won the match!")
    await expect(ana.page.locator(".log-list")).to_contain_text("Match over:")
    await expect(bo.page.locator(".log-list")).to_contain_text("Bo passed: the pool is empty.")
    assert await bo.scroll_width() <= 375
    await table.shot(ana, "match-over")
    await table.shot(bo, "match-over-phone")
