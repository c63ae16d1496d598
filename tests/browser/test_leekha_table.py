"""Leekha in real browsers: the host pairs the 2 vs 2 teams, everyone passes three cards (one
try breaks the colour rule and the server says why), sees what arrived, plays tricks where only
the legal cards are enabled (a forced Leekha among them), has an illegal card refused, sees the
penalty cards each player took, throws in, and reads the scores; and in the lobby the host seats
a bot, which nobody else can.

The deal is the server's secret, so the test reads each player's hand from that player's page
and plans its plays with the engine's own rule functions (a short search finds a line of play
that forces a Leekha). Time only moves through the server's manual clock (it never has to here:
every step is a player's click).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from playwright.async_api import expect

from app.engines.cards import CardId
from app.engines.leekha.deck import LEEKHAS, points_of
from app.engines.leekha.rules import auto_pass, legal_cards, pass_error, play_error, trick_winner
from app.engines.leekha.scoring import decided
from tests.browser.helpers import Player, Table
from tests.integration.client import Client

STATE_JS = """() => {
  const c = document.querySelector('.lk-center');
  const seats = [...document.querySelectorAll('.felt .seat')].sort((a, b) => a.dataset.seat - b.dataset.seat);
  const cards = (sel) => [...document.querySelectorAll(sel)].map((b) => b.dataset.card);
  const leader = document.querySelector('.lk-trick:not(.done) .lk-slot.leader');
  return {
    phase: c ? c.dataset.phase : null,
    round: c ? Number(c.dataset.round) : null,
    played: c ? Number(c.dataset.played) : null,
    turn: c && c.dataset.turn !== undefined ? Number(c.dataset.turn) : null,
    me: Number(document.querySelector('.felt .seat.me')?.dataset.seat),
    hand: cards('.lk-hand .lk-hand-card'),
    legal: cards('.lk-hand .lk-hand-card.legal'),
    dimmed: cards('.lk-hand .lk-hand-card[aria-disabled="true"]'),
    slots: Object.fromEntries([...document.querySelectorAll('.lk-trick:not(.done) .lk-slot')]
      .map((s) => [s.dataset.seat, s.querySelector('[data-card]')?.dataset.card ?? null])),
    leader: leader ? Number(leader.dataset.seat) : null,
    taken: seats.map((s) => [...s.querySelectorAll('.lk-taken [data-card]')].map((x) => x.dataset.card)),
    othersFaceUp: seats.filter((s) => !s.classList.contains('me')).map((s) =>
      s.querySelectorAll('[data-card]').length - s.querySelectorAll('.lk-taken [data-card]').length),
    backs: seats.map((s) => s.querySelectorAll('.lk-fan .card.back').length),
  };
}"""

CARDS_JS = "els => els.map((e) => e.dataset.card)"

Hands = dict[int, list[str]]


def ids(cards: Sequence[str]) -> tuple[CardId, ...]:
    """Card ids as the rule functions type them (the pages give plain strings)."""
    return tuple(CardId(c) for c in cards)


def right(seat: int) -> int:
    return (seat + 3) % 4


def trick_order(slots: dict[str, str | None], leader: int | None) -> list[str]:
    """The current trick in play order (the leader first, then to the right)."""
    if leader is None:
        return []
    out, seat = [], leader
    for _ in range(4):
        card = slots.get(str(seat))
        if card is None:
            break
        out.append(card)
        seat = right(seat)
    return out


def leekha_forced(hand: list[str], trick: list[str]) -> bool:
    legal = legal_cards(ids(hand), ids(trick))
    return bool(trick) and set(legal) <= set(LEEKHAS) and len(legal) < len(hand)


def plan_forced_leekha(
    hands: Hands, starter: int, max_tricks: int = 3, budget: int = 60_000
) -> list[str] | None:
    """Cards to play, from the first lead, until a follower must drop a Leekha (that card last)."""
    nodes = 0

    def order(cards: tuple[str, ...]) -> list[str]:
        # High yellows and blues first: those force the Leekhas under them.
        return sorted(cards, key=lambda c: (c[0] not in "YB", -int(c[1:])))

    def dfs(hands: Hands, trick: list[tuple[int, str]], turn: int, done: int) -> list[str] | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return None
        cards = [c for _, c in trick]
        if trick:
            legal = legal_cards(ids(hands[turn]), ids(cards))
            if leekha_forced(hands[turn], cards):
                return [legal[0]]
        elif done >= max_tricks:
            return None
        else:
            legal = ids(hands[turn])
        for card in order(legal):
            after = {**hands, turn: [c for c in hands[turn] if c != card]}
            played = [*trick, (turn, card)]
            if len(played) == 4:
                if set(LEEKHAS) <= {c for _, c in played}:
                    continue  # a 37 would end the round
                rest = dfs(after, [], trick_winner([(seat, CardId(c)) for seat, c in played]), done + 1)
            else:
                rest = dfs(after, played, right(turn), done)
            if rest is not None:
                return [card, *rest]
        return None

    return dfs(hands, [], starter, 0)


def plan_decided(hands: Hands, starter: int, max_tricks: int = 4, budget: int = 100_000) -> list[str] | None:
    """Cards to play from the first lead until, after a trick, one player has lost whatever
    happens (Free for All with the loss limit at 1: the early-end test of rules 4.5)."""
    nodes = 0

    def order(cards: tuple[str, ...]) -> list[str]:
        return sorted(cards, key=lambda c: (c[0] not in "YBR", -int(c[1:])))

    def dfs(
        hands: Hands, trick: list[tuple[int, str]], turn: int, done: int, pts: list[int], leekha_taken: bool
    ) -> list[str] | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return None
        if not trick and done:
            if decided((0,) * 4, tuple(pts), not leekha_taken, "ffa", 1) is not None:
                return []
            if done >= max_tricks:
                return None
        cards = [c for _, c in trick]
        legal = legal_cards(ids(hands[turn]), ids(cards)) if trick else ids(hands[turn])
        for card in order(legal):
            after = {**hands, turn: [c for c in hands[turn] if c != card]}
            played = [*trick, (turn, card)]
            if len(played) < 4:
                rest = dfs(after, played, right(turn), done, pts, leekha_taken)
            else:
                won = {c for _, c in played}
                if set(LEEKHAS) <= won:
                    continue  # a 37 would end the round
                winner = trick_winner([(seat, CardId(c)) for seat, c in played])
                gained = [*pts]
                gained[winner] += sum(points_of(c) for c in won)
                rest = dfs(after, [], winner, done + 1, gained, leekha_taken or bool(won & set(LEEKHAS)))
            if rest is not None:
                return [card, *rest]
        return None

    return dfs(hands, [], starter, 0, [0] * 4, False)


class Seat:
    """A browser player and the seat its page marks as "me"."""

    def __init__(self, player: Player, seat: int) -> None:
        self.p = player
        self.seat = seat

    @property
    def page(self) -> Any:
        return self.p.page

    async def state(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.page.evaluate(STATE_JS)
        return result

    def card(self, card: str) -> Any:
        return self.page.locator(f'.lk-hand .lk-hand-card[data-card="{card}"]')

    async def press(self, card: str, phone: bool, dimmed: bool = False) -> None:
        """Click (or tap) a card of the hand; a dimmed card still reaches the server, which says why not."""
        button = self.card(card)
        await (button.tap(force=dimmed) if phone else button.click(force=dimmed))


async def open_teams_table(table: Table) -> list[Player]:
    """Ana (the host), Bo, Cy and Di (on a phone) in a 2 vs 2 room, seated in that order."""
    people = [await table.api.player(n) for n in ("Ana", "Bo", "Cy", "Di")]
    room = await table.api.create_room(people[0]["token"], "leekha", {"mode": "teams"})
    code = room["code"]
    for p in people[1:]:
        await table.api.sit(p["token"], code)
    url = f"{table.server.http}/r/{code}"
    return [await table.open_as(p, url, phone=(p["name"] == "Di")) for p in people]


async def all_phase(seats: list[Seat], phase: str, played: int | None = None) -> None:
    sel = f'.lk-center[data-phase="{phase}"]' + (f'[data-played="{played}"]' if played is not None else "")
    await asyncio.gather(*(s.page.locator(sel).wait_for() for s in seats))


async def test_four_players_pair_teams_pass_play_forced_cards_throw_in_and_read_the_scores(
    table: Table,
) -> None:
    table.prefix = "leekha"
    players = await open_teams_table(table)
    ana, bo, _, di = players

    # The host pairs Ana with Bo; the server seats teammates opposite (Ana 1, Bo 3).
    panel = ana.page.locator(".lk-teams-panel")
    await expect(panel).to_contain_text("Team A Ana & Cy")
    await expect(bo.page.locator(".lk-teams-panel")).to_contain_text("Team B Bo & Di")
    await expect(bo.page.get_by_label("Partner of Ana")).to_be_hidden()
    await ana.page.get_by_label("Partner of Ana").select_option(label="Bo")
    await ana.page.get_by_role("button", name="Seat the teams").click()
    for p in players:
        await expect(p.page.locator(".lk-teams-panel")).to_contain_text("Team A Ana & Bo")
        await expect(p.page.locator(".lk-teams-panel")).to_contain_text("Team B Cy & Di")
    await expect(bo.page.locator('.lobby-seat[data-seat="2"]')).to_contain_text("Bo")
    await table.shot(ana, "lobby-teams")
    await table.shot(di, "lobby-teams-phone")

    await ana.page.get_by_role("button", name="Start game").click()
    seats = [Seat(p, -1) for p in players]
    await all_phase(seats, "PASS_SELECT")
    seats = [Seat(p, (await p.page.evaluate(STATE_JS))["me"]) for p in players]
    assert [s.seat for s in seats] == [0, 2, 1, 3]
    by_seat = {s.seat: s for s in seats}
    names = {s.seat: s.p.name for s in seats}
    phone = {s.seat: s.p is di for s in seats}
    await expect(ana.page.locator(".lk-teams")).to_have_text("Team A: Ana and Bo · Team B: Cy and Di")
    await expect(ana.page.locator('.felt .seat[data-seat="1"] .lk-team')).to_have_text("Team B")

    # Own cards face up, the others' only as backs.
    hands: Hands = {}
    for s in seats:
        st = await s.state()
        assert len(st["hand"]) == 13 and st["othersFaceUp"] == [0, 0, 0], st
        assert [n for i, n in enumerate(st["backs"]) if i != s.seat] == [13, 13, 13]
        hands[s.seat] = st["hand"]
    await expect(ana.page.get_by_text("Choose 3 cards to pass to Di")).to_be_visible()
    await table.shot(ana, "pass")
    assert await di.page.evaluate("document.documentElement.scrollWidth") <= 375

    # A pass that empties a colour one must keep: marked, then refused by the server with its reason.
    def empties_colour(hand: list[str], combo: tuple[str, ...]) -> bool:
        err = pass_error(ids(hand), ids(combo))
        return err is not None and err.code == "PASS_EMPTIES_COLOUR"

    bad = next(
        (
            (s, combo)
            for s in seats
            for combo in combinations(hands[s.seat], 3)
            if empties_colour(hands[s.seat], combo)
        ),
        None,
    )
    assert bad is not None, "some hand has a colour it may not give away"
    s, combo = bad
    for card in combo[:2]:
        await s.press(card, phone[s.seat], dimmed=True)
    await expect(s.card(combo[2])).to_have_attribute("aria-disabled", "true")
    await s.press(combo[2], phone[s.seat], dimmed=True)
    await expect(s.page.get_by_text("These three break the colour rule.")).to_be_visible()
    await table.shot(s.p, "pass-bad")
    await s.page.get_by_role("button", name="Pass 3 cards").click()
    err = pass_error(ids(hands[s.seat]), ids(combo))
    assert err is not None
    await s.p.toast(err.message)
    for card in combo:
        await s.press(card, phone[s.seat], dimmed=True)
    await expect(s.page.get_by_text("0 cards chosen")).to_be_visible()

    passes = {seat: list(auto_pass(ids(hand))) for seat, hand in hands.items()}
    for s in seats:
        for card in passes[s.seat]:
            await s.press(card, phone[s.seat])
            await expect(s.card(card)).to_have_attribute("aria-pressed", "true")
        await s.page.get_by_role("button", name="Pass 3 cards").click()
        if s is not seats[-1]:  # the last pass moves everyone on to the cards received
            await expect(s.page.locator(".lk-pass")).to_contain_text("You pass")

    # What arrived: the left neighbour's three cards, shown and marked in the hand.
    await all_phase(seats, "PASS_REVEAL")
    for s in seats:
        got = await s.page.locator(".lk-reveal [data-card]").evaluate_all(CARDS_JS)
        assert sorted(got) == sorted(passes[(s.seat + 1) % 4]), (s.seat, got)
        await expect(s.page.locator(".lk-hand .lk-hand-card.fresh")).to_have_count(3)
        hands[s.seat] = (await s.state())["hand"]
    await expect(ana.page.get_by_text("From Cy you received:")).to_be_visible()
    await table.shot(ana, "received")
    await table.shot(di, "received-phone")
    for s in seats:
        await s.page.get_by_role("button", name="Ready to play").click()
    await all_phase(seats, "PLAY", 0)

    starter = (await seats[0].state())["turn"]
    plan = plan_forced_leekha(hands, starter)
    planned = plan is not None
    taken: dict[int, list[str]] = {i: [] for i in range(4)}
    rejected = forced_seen = False
    played = 0
    while plan or played < 8:
        st = await seats[0].state()
        turn = st["turn"]
        me = by_seat[turn]
        mine = await me.state()
        trick = trick_order(mine["slots"], mine["leader"])
        hand = mine["hand"]
        legal = legal_cards(ids(hand), ids(trick))
        # Only what the server lists is enabled; the rest is dimmed.
        assert sorted(mine["legal"]) == sorted(legal), (mine, trick)
        assert sorted(mine["dimmed"]) == sorted(set(hand) - set(legal))
        if trick:
            await expect(me.page.locator(".lk-note")).to_have_text(f"Led by {names[mine['leader']]}")
        if not rejected and mine["dimmed"]:
            wrong = mine["dimmed"][0]
            await me.press(wrong, phone[turn], dimmed=True)
            why = play_error(ids(hand), ids(trick), CardId(wrong))
            assert why is not None
            await me.p.toast(why.message)
            await table.shot(me.p, "illegal-card")
            rejected = True
        if leekha_forced(hand, trick):
            forced_seen = True
            if len(legal) == 1:
                await expect(me.page.locator(".lk-status")).to_contain_text("Forced: you must play the")
                await expect(me.card(legal[0])).to_have_class(re.compile(r"\bforced\b"))
            await table.shot(me.p, "forced")
        if plan:
            card = plan.pop(0)
        else:  # the lowest card that does not complete a 37 (that would end the round here)
            safe = [c for c in legal if not set(LEEKHAS) <= {*trick, c}]
            if not safe:
                break
            card = min(safe, key=lambda c: int(c[1:]))
        assert card in legal
        await me.press(card, phone[turn])
        played += 1
        await all_phase(seats, "PLAY", played)
        if len(trick) == 3:
            cards = [*trick, card]
            leader = mine["leader"]
            order = [leader, right(leader), right(right(leader)), right(right(right(leader)))]
            winner = trick_winner(list(zip(order, ids(cards), strict=True)))
            taken[winner] += [c for c in cards if points_of(c)]
            st = await seats[0].state()
            assert sorted(st["taken"][winner]) == sorted(taken[winner]), st["taken"]
            await expect(ana.page.locator(".lk-note")).to_contain_text("took the last trick")
            if played == 4:
                await table.shot(di, "trick-phone")
        if not plan and played % 4 == 0 and played >= 8:
            break
    assert rejected, "an illegal card was tried"
    assert forced_seen or not planned, "the planned line forces a Leekha"

    # The player on turn throws in (two clicks): the round ends and the scores show.
    turn = (await seats[0].state())["turn"]
    thrower = by_seat[turn]
    button = thrower.page.get_by_role("button", name="Throw in")
    await button.click()
    await expect(button).to_have_text("Throw in: take every point left?")
    await button.click()
    await all_phase(seats, "ROUND_END")
    scores = ana.page.locator(".scores")
    await expect(scores).to_have_attribute("open", "")
    await expect(scores.locator("tbody tr")).to_contain_text("Round 1 (thrown in)")
    points = [sum(points_of(c) for c in taken[i]) for i in range(4)]
    points[turn] = 36 - sum(points) + points[turn]
    totals = re.compile(r"Total\s*" + r"\s*".join(map(str, points)))
    await expect(scores.locator("tfoot")).to_have_text(totals)
    await expect(ana.page.locator(".lk-result")).to_contain_text("threw in and took")
    await expect(di.page.get_by_role("button", name="Next round")).to_be_visible()
    await table.shot(ana, "round-over")
    await table.shot(di, "round-over-phone")
    assert await di.page.evaluate("document.documentElement.scrollWidth") <= 375
    for s in seats:
        await s.page.get_by_role("button", name="Next round").click()
    await all_phase(seats, "PASS_SELECT")
    await expect(ana.page.locator(".lk-header")).to_have_text("Round 2 · 2 vs 2 · loses at 101")


async def test_the_host_seats_bots_nobody_else_can_and_a_bot_stands_in_for_a_player_gone_too_long(
    table: Table,
) -> None:
    table.prefix = "leekha-bots"
    people = [await table.api.player(n) for n in ("Ana", "Bo")]
    code = (await table.api.create_room(people[0]["token"], "leekha"))["code"]
    await table.api.sit(people[1]["token"], code)
    url = f"{table.server.http}/r/{code}"
    ana = await table.open_as(people[0], url)
    bo = await table.open_as(people[1], url, phone=True)
    await expect(ana.page.get_by_role("button", name=re.compile(r"Add a bot"))).to_have_count(2)
    await expect(bo.page.locator(".lobby-seat", has_text="Ana")).to_be_visible()
    await expect(bo.page.get_by_role("button", name=re.compile(r"Add a bot"))).to_have_count(0)

    await ana.page.get_by_role("button", name="Add a bot (Seat 3)").click()
    seat3 = '.lobby-seat[data-seat="2"]'
    for p in (ana, bo):
        await expect(p.page.locator(f"{seat3}.bot .tags")).to_have_text("bot")
    await expect(ana.page.get_by_role("button", name=re.compile(r"Add a bot"))).to_have_count(1)
    await table.shot(ana, "lobby")
    await table.shot(bo, "lobby-phone")

    # The host removes the bot like anyone else: the chair is free again.
    remove = ana.page.locator(seat3).get_by_role("button", name=re.compile("Remove"))
    await remove.click()
    await remove.click()
    await expect(ana.page.locator(seat3)).to_contain_text("Free seat")
    await expect(bo.page.locator(seat3)).to_contain_text("Free seat")

    # Two bots fill the table; at the table they are marked, and once Bo has been gone past the
    # seat hold (two minutes of room time) a bot plays for him, and everyone sees so.
    await ana.page.get_by_role("button", name="Add a bot (Seat 3)").click()
    await ana.page.get_by_role("button", name="Add a bot (Seat 4)").click()
    await ana.page.get_by_role("button", name="Start game").click()
    for p in (ana, bo):
        await p.page.locator('.lk-center[data-phase="PASS_SELECT"]').wait_for()
        await expect(p.page.locator('.felt .seat[data-seat="2"] .lk-bot')).to_have_text("bot")
    await bo.context.close()
    await expect(ana.page.locator('.felt .seat[data-seat="1"] .lk-bot')).to_be_hidden()
    await table.advance_ms(121_000)
    await expect(ana.page.locator('.felt .seat[data-seat="1"] .lk-bot')).to_have_text("bot playing for Bo")
    await table.shot(ana, "standin")


async def deal_a_decidable_round(
    table: Table,
) -> tuple[str, list[dict[str, Any]], dict[int, Client], list[str]]:
    """Free for All with the loss limit at 1, played to the first trick by WebSocket clients, until
    a deal has a line of play after which one player has lost for certain (most deals do)."""
    for _ in range(8):
        people = [await table.api.player(n) for n in ("Ana", "Bo", "Cy", "Di")]
        code = (await table.api.create_room(people[0]["token"], "leekha", {"limit": 1}))["code"]
        for p in people[1:]:
            await table.api.sit(p["token"], code)
        await table.api.start(people[0]["token"], code)
        clients = {i: await Client(table.server.ws, code, p["token"]).open() for i, p in enumerate(people)}
        for c in clients.values():
            give = list(auto_pass(ids(c.game["hand"])))
            assert (await c.act({"type": "submit_pass", "cards": give}))["type"] == "ack"
        for c in clients.values():
            await c.until(lambda v: v["game"]["phase"] == "PASS_REVEAL")
            assert (await c.act({"type": "ack"}))["type"] == "ack"
        for c in clients.values():
            await c.until(lambda v: v["game"]["phase"] == "PLAY")
        hands = {i: list(c.game["hand"]) for i, c in clients.items()}
        plan = plan_decided(hands, clients[0].game["turn"])
        if plan is not None:
            return code, people, clients, plan
        for c in clients.values():
            await c.close()
    raise AssertionError("no decidable deal in 8 tries")


async def test_the_host_ends_a_decided_match_at_once_and_the_scores_say_who_lost(table: Table) -> None:
    table.prefix = "leekha-end"
    code, people, clients, plan = await deal_a_decidable_round(table)
    url = f"{table.server.http}/r/{code}"
    ana = await table.open_as(people[0], url)
    bo = await table.open_as(people[1], url, phone=True)
    for n, card in enumerate(plan, 1):
        seat = clients[0].game["turn"]
        assert (await clients[seat].act({"type": "play_card", "card": card}))["type"] == "ack"
        await clients[0].until(lambda v, n=n: v["game"]["tricks_done"] * 4 + len(v["game"]["trick"]) == n)
    await clients[0].until(lambda v: v["game"]["decided"] is not None)
    loser = people[clients[0].game["decided"]["seat"]]["name"]

    banner = f"{loser} can no longer stay under 1: the match is decided."
    await expect(ana.page.get_by_role("alert").filter(has_text=banner)).to_be_visible()
    await expect(bo.page.get_by_role("alert").filter(has_text=banner)).to_contain_text(
        "The host can end the match now."
    )
    await expect(bo.page.get_by_role("button", name="End the match now")).to_have_count(0)
    await table.shot(ana, "decided")
    await table.shot(bo, "decided-phone")
    await ana.page.get_by_role("button", name="End the match now").click()
    for p in (ana, bo):
        await p.page.locator('.lk-center[data-phase="MATCH_END"]').wait_for()
        await expect(p.page.locator(".lk-result")).to_contain_text("The host ended the match early.")
        await expect(p.page.locator(".lk-result")).to_contain_text(f"{loser} lost the match.")
        await expect(p.page.locator(".scores tbody tr")).to_contain_text("Round 1 (ended early)")
        await expect(p.page.get_by_text("Final scores", exact=True)).to_be_visible()
    await expect(ana.page.get_by_role("button", name="Play again")).to_be_visible()
    await table.shot(bo, "ended-phone")
    for c in clients.values():
        await c.close()
