"""UFF-DA! calls in a real browser: COIN! and UFF-DA! fire on the press itself (pointerdown), once,
and from the keyboard (C and U name the player who last gave cause); your own UFF-DA! stays said
when pressed again until you take it back; on your own screen your moves read "You play ... on
your own branch"."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.browser.helpers import Table

MAX_STEPS = 40
BOT_NEXT_JS = """() => [...document.querySelectorAll('.log-list li')]
  .some((li) => li.textContent.startsWith('Ada (bot)') && li.textContent.includes('NEXT'))"""


class Sent:
    """The calls a page sends over its room socket, as the server receives them."""

    def __init__(self, page: Any) -> None:
        self.calls: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        page.on("websocket", lambda ws: ws.on("framesent", self.frame))

    def frame(self, payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "action" and msg["action"].get("type") == "call":
            self.calls.append(msg["action"])
            self.changed.set()

    async def until(self, n: int) -> None:
        while len(self.calls) < n:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 10)
            except TimeoutError:
                raise AssertionError(f"{n} calls expected, sent: {self.kinds()}") from None

    def kinds(self) -> list[tuple[str, int]]:
        return [(c["kind"], c["target"]) for c in self.calls]


async def test_calls_fire_on_press_and_from_keys(table: Table) -> None:
    host, code = await table.with_bots("uffda", 2, {"rounds": 1, "penalties": True})
    _, page = await table.context(player=host)
    table.watch(page, "Mette")
    sent = Sent(page)
    await page.goto(f"{table.server.http}/r/{code}")
    await page.locator(".felt .seat.me").wait_for()
    for _ in range(MAX_STEPS):  # until the bot has said NEXT: a COIN! has someone to name
        if await page.evaluate(BOT_NEXT_JS):
            break
        await table.advance_shown(code, page)
    assert await page.evaluate(BOT_NEXT_JS)

    coin = page.locator('.seat[data-seat="1"] .uf-shout.coin')
    box = await coin.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.mouse.down()  # pressed, not released: the call is already on its way
    await sent.until(1)
    await page.mouse.up()  # the release's click is not a second call
    await page.keyboard.press("u")
    await sent.until(2)
    await page.keyboard.press("c")
    await sent.until(3)  # in order: a call sent on the release would stand before the keys' calls
    assert sent.kinds() == [("COIN", 1), ("UFFDA", 1), ("COIN", 1)]
    assert all(isinstance(c.get("reaction_ms"), int) for c in sent.calls)

    say = page.locator(".uf-say")
    await say.click()
    await say.click()  # a second press keeps it said
    assert await say.get_attribute("aria-pressed") == "true"
    await page.get_by_role("button", name="Take it back").click()
    assert await say.get_attribute("aria-pressed") == "false"


async def test_own_moves_read_you_on_your_own_screen(table: Table) -> None:
    _, page = await table.context()
    table.watch(page, "device")
    await page.goto(table.server.http + "/")
    texts = await page.evaluate(
        """async () => {
          const game = (await import('/static/js/games/uffda.js')).default;
          const names = ['Mette', 'Ada'];
          const branches = [{ owner: 0, cards: [] }, { owner: 1, cards: [] }];
          const g = (you, last) => ({ you, branches, last });
          const play = (seat, branch) => ({ seq: 2, kind: 'play', seat, card: '3-8', branch, on: -1,
            side: 0 });
          const prev = { last: [{ seq: 1, kind: 'next', seat: 1 }] };
          return [
            game.events(prev, g(0, [play(0, 0)]), names)[0],
            game.events(prev, g(0, [play(1, 0)]), names)[0],
            game.events(prev, g(1, [play(0, 0)]), names)[0],
          ];
        }"""
    )
    assert texts == [
        "You play 3|8 on your own branch.",
        "Ada plays 3|8 on your branch.",
        "Mette plays 3|8 on Mette\N{RIGHT SINGLE QUOTATION MARK}s branch.",
    ]
