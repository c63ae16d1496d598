"""Browser players for the tests: real contexts clicking the real UI, reading the table from the DOM.

The table's state is read from what the page shows (the Slap view sets ``data-phase`` and
``data-flip`` on its centre, ``data-card`` on face-up cards and ``data-pile`` on piles). Time
only moves when a test moves the server's manual clock, so nothing here sleeps.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from tests.integration.client import Api, Client
from tests.integration.server import ServerProcess

DESKTOP: dict[str, Any] = {"viewport": {"width": 1180, "height": 860}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 375, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
WAIT_MS = 30_000
"""How long a page may take to show what a test waits for. A wait returns as soon as it holds, so this
only bounds a failure. 10 s failed a Leekha table's twelfth card once, on a machine running the
whole suite at 1.6-2.3 times its usual time (2026-12-07), and passed in 20 s in the run before."""
# What a table shows, but for its countdowns: a deadline that fired changes it.
SHOWN_JS = "() => [...document.querySelectorAll('.felt, .log-list')].map((e) => e.textContent).join('|')"

STATE_JS = """() => {
  const slap = document.querySelector('.slap');
  const seats = [...document.querySelectorAll('.felt .seat')]
    .sort((a, b) => a.dataset.seat - b.dataset.seat);
  return {
    phase: slap ? slap.dataset.phase : null,
    flip: slap ? Number(slap.dataset.flip) : null,
    cards: seats.map((s) => s.querySelector('.slot [data-card]')?.dataset.card ?? null),
    piles: seats.map((s) => Number(s.querySelector('.pile')?.dataset.pile)),
    names: seats.map((s) => s.querySelector('.seat-head .name').textContent),
    stats: seats.map((s) => s.querySelector('.seat-stats').textContent),
    me: document.querySelector('.felt .seat.me')?.dataset.seat ?? null,
    turn: document.querySelector('.felt .seat.turn')?.dataset.seat ?? null,
  };
}"""


def has_pair(cards: list[str | None]) -> bool:
    numbers = [int(c[1:]) for c in cards if c]
    return any(n > 1 for n in Counter(numbers).values())


class Player:
    def __init__(self, table: Table, context: Any, page: Any, name: str) -> None:
        self.table = table
        self.context = context
        self.page = page
        self.name = name
        self.seat: str | None = None

    @property
    def nu(self) -> Any:
        return self.page.get_by_role("button", name="Nu!", exact=True)

    @property
    def slap_button(self) -> Any:
        return self.page.get_by_role("button", name="SLAP!")

    async def state(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.page.evaluate(STATE_JS)
        return result

    async def wait_phase(self, phase: str, flip: int | None = None) -> None:
        selector = f'.slap[data-phase="{phase}"]'
        if flip is not None:
            selector += f'[data-flip="{flip}"]'
        await self.page.locator(selector).wait_for()

    async def wait_changed(self, before: dict[str, Any]) -> dict[str, Any]:
        """Wait until the phase or flip shown differs from ``before``."""
        await self.page.wait_for_function(
            "([phase, flip]) => { const s = document.querySelector('.slap');"
            " return s && (s.dataset.phase !== phase || Number(s.dataset.flip) !== flip); }",
            arg=[before["phase"], before["flip"]],
        )
        return await self.state()

    async def scroll_width(self) -> int:
        width: int = await self.page.evaluate("document.documentElement.scrollWidth")
        return width

    async def sit(self, seat: int, colour: str | None = None) -> None:
        """Take a seat from the lobby (seat numbers as shown: 1-based), then maybe pick a colour."""
        await self.page.get_by_role("button", name=re.compile(rf"(Sit|Move) here \(Seat {seat}\)")).click()
        await self.page.locator(f'.lobby-seat.me[data-seat="{seat - 1}"]').wait_for()
        if colour:
            await self.pick_colour(colour)

    async def pick_colour(self, colour: str) -> None:
        await self.page.get_by_role("button", name=colour).click()
        await self.page.locator(".swatch-btn[aria-pressed=true]", has_text=colour).wait_for()

    async def toast(self, text: str) -> Any:
        toast = self.page.get_by_role("alert").filter(has_text=text)
        await toast.wait_for()
        return toast


class Table:
    """Opens players (one browser context each) and moves the room clock."""

    def __init__(self, browser: Any, server: ServerProcess, api: Api, artifacts: Path, prefix: str) -> None:
        self.browser = browser
        self.server = server
        self.api = api
        self.artifacts = artifacts
        self.prefix = prefix
        self.problems: list[str] = []
        self.contexts: list[Any] = []
        self.allowed = (server.http + "/", server.ws + "/", "data:")
        self.sockets: list[tuple[Client, asyncio.Task[None]]] = []

    def watch(self, page: Any, who: str) -> None:
        def console(msg: Any) -> None:
            if msg.type == "error":
                self.problems.append(f"{who}: console error: {msg.text}")

        def request(req: Any) -> None:
            if not req.url.startswith(self.allowed):
                self.problems.append(f"{who}: request outside the server: {req.url}")

        def websocket(ws: Any) -> None:
            if not ws.url.startswith(self.server.ws + "/ws/rooms/"):
                self.problems.append(f"{who}: websocket outside the server: {ws.url}")

        page.on("console", console)
        page.on("pageerror", lambda exc: self.problems.append(f"{who}: uncaught {exc}"))
        page.on("request", request)
        page.on("websocket", websocket)

    async def context(
        self,
        phone: bool = False,
        player: dict[str, Any] | None = None,
        locale: str | None = None,
        device: dict[str, Any] | None = None,
    ) -> tuple[Any, Any]:
        """A new device; ``locale`` sets the browser's languages (navigator.languages), e.g. "da-DK";
        ``device``: other context options."""
        options = {**(device or (PHONE if phone else DESKTOP)), **({"locale": locale} if locale else {})}
        context = await self.browser.new_context(**options)
        if locale:  # the page reads navigator.languages at its first line: make it so before any script
            languages = json.dumps([locale, locale.split("-")[0]])
            await context.add_init_script(
                f"Object.defineProperty(Navigator.prototype, 'languages', {{ get: () => {languages} }});"
            )
        context.set_default_timeout(WAIT_MS)
        if player is not None:  # a player made over HTTP: its token is already on this device
            stored = json.dumps({"id": player["id"], "name": player["name"], "token": player["token"]})
            await context.add_init_script(f"localStorage.setItem('bordet.player', {json.dumps(stored)})")
        self.contexts.append(context)
        page = await context.new_page()
        return context, page

    async def open(self, name: str, url: str | None = None, phone: bool = False) -> Player:
        """A new device: open the page and pick a display name."""
        context, page = await self.context(phone)
        self.watch(page, name)
        await page.goto(url or self.server.http + "/")
        await page.get_by_label("Your name").fill(name)
        await page.get_by_role("button", name="Continue").click()
        return Player(self, context, page, name)

    async def open_as(
        self,
        player: dict[str, Any],
        url: str,
        phone: bool = False,
        locale: str | None = None,
        device: dict[str, Any] | None = None,
    ) -> Player:
        """A device that already has this (HTTP-made) player's token (``device``: other context options)."""
        context, page = await self.context(phone, player, locale, device)
        self.watch(page, player["name"])
        await page.goto(url)
        return Player(self, context, page, player["name"])

    async def create_room(
        self, host: Player, *, rounds: int | None = None, first_seat: int | None = None, public: bool = True
    ) -> str:
        """Create a Slap room from the home page's form; returns the room code."""
        page = host.page
        await page.get_by_text("Slap options").wait_for()
        if not await page.locator("details.options[open]").count():
            await page.get_by_text("Slap options").click()
        if rounds is not None:
            await page.get_by_label("Rounds", exact=True).fill(str(rounds))
        if first_seat is not None:
            await page.get_by_label("First to call Nu!").select_option(label=f"Seat {first_seat}")
        if not public:
            await page.get_by_label("List this room in").uncheck()
        await self.shot(host, "home-create")
        await page.get_by_role("button", name="Create room").click()
        await page.wait_for_url("**/r/*")
        await page.locator(".lobby").wait_for()
        code: str = page.url.rsplit("/", 1)[1]
        return code

    async def shot(self, who: Player, name: str, full: bool = True) -> None:
        await who.page.screenshot(path=str(self.artifacts / f"{self.prefix}-{name}.png"), full_page=full)

    # --- the manual room clock ------------------------------------------------

    async def advance(self, code: str) -> None:
        await self.api.advance_to_next_deadline(code)

    async def with_bots(
        self, game: str, seats: int, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], str]:
        """A started room made over HTTP: its host "Mette" in seat 1, bots in the other seats."""
        host = await self.api.player("Mette")
        code: str = (await self.api.create_room(host["token"], game, options))["code"]
        await self.api.sit(host["token"], code, 0)
        for seat in range(1, seats):
            r = await self.api.call("POST", f"/api/rooms/{code}/bots", host["token"], json={"seat": seat})
            assert r.status_code == 201, r.text
        await self.api.start(host["token"], code)
        return host, code

    async def advance_shown(self, code: str, page: Any) -> None:
        """Fire the room's next deadline (a bot's move or a step) and wait until ``page`` shows it."""
        before = await page.evaluate(SHOWN_JS)
        await self.advance(code)
        await page.wait_for_function(f"(before) => ({SHOWN_JS})() !== before", arg=before)

    async def advance_ms(self, ms: int) -> None:
        r = await self.api.http.post("/api/_test/clock", json={"ms": ms})
        r.raise_for_status()

    async def advance_until(self, code: str, until: int) -> None:
        await self.api.advance_to(code, until)

    async def room(self, code: str) -> dict[str, Any]:
        r = await self.api.http.get(f"/api/rooms/{code}")
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    # --- game driving -------------------------------------------------------

    async def all_phase(self, players: list[Player], phase: str, flip: int | None = None) -> None:
        await asyncio.gather(*(p.wait_phase(phase, flip) for p in players))

    async def flip_until(
        self, code: str, players: list[Player], *, pair: bool = True, max_flips: int = 150
    ) -> tuple[int, list[str | None]]:
        """Nu! (by the starter's button, now and then by the server), reveal, and repeat until a flip
        with (or without) a pair shows; returns its number and cards, the flip open on every page."""
        for n in range(max_flips):
            state = await players[0].state()
            assert state["phase"] == "AWAIT_NU", state
            flip = state["flip"] + 1
            starter = await self.seated(players, state["turn"])
            if starter is None or n % 4 == 3:
                await self.advance(code)  # the server calls Nu! for the starter
            else:
                await starter.nu.click()
            await players[0].wait_phase("NU_CALLED", flip)
            if n == 0:
                await self.all_phase(players, "NU_CALLED", flip)
                await self.shot(players[0], "nu-called")
            await self.advance(code)  # the reveal
            await players[0].wait_phase("FLIP_OPEN", flip)
            cards = (await players[0].state())["cards"]
            if has_pair(cards) == pair:
                await self.all_phase(players, "FLIP_OPEN", flip)
                return flip, cards
            await self.advance(code)  # the flip closes (no pair; or a pair nobody slapped)
            await players[0].wait_phase("FLIP_RESULT", flip)
            await self.advance(code)  # and the next one can be called
            await self.all_phase(players, "AWAIT_NU", flip)
        raise AssertionError(f"no flip with pair={pair} in {max_flips} flips")

    async def seated(self, players: list[Player], seat: str | None) -> Player | None:
        """The browser player at this seat (as its page marks "me"), if any."""
        for p in players:
            if p.seat is None:
                p.seat = (await p.state())["me"]
            if seat is not None and p.seat == seat:
                return p
        return None

    async def step_until(self, code: str, watcher: Player, phase: str, limit: int = 12) -> dict[str, Any]:
        """Fire the room's deadlines one by one until ``watcher`` shows ``phase``."""
        state = await watcher.state()
        for _ in range(limit):
            if state["phase"] == phase:
                return state
            await self.advance(code)
            state = await watcher.wait_changed(state)
        raise AssertionError(f"{phase} not reached; last {state}")

    async def present(self, code: str, player: dict[str, Any]) -> Client:
        """A player connected without a browser who never acts (so no bot stands in for them)."""
        client = await Client(self.server.ws, code, player["token"]).open()

        async def read_forever() -> None:
            while True:
                await client.recv()

        self.sockets.append((client, asyncio.create_task(read_forever())))
        return client

    async def close(self) -> None:
        for client, reader in self.sockets:
            reader.cancel()
            await client.close()
        for context in self.contexts:
            await context.close()
