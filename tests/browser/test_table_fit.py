"""Every game at 2, 4, 5 and 8 seats (each game's own maximum where lower), on a 1280 by 800 laptop
and a 375 by 812 phone: the seats never overlap, the page never scrolls sideways, and the acting player's hand
and the buttons of their step (and the race buttons) are on screen as the table opens.

The host plays seat 1 with bots in the other chairs; the same player is open on both devices. The
room runs on the manual clock, so the bots move only when the test fires the room's next deadline,
until the host's page shows that it is their move. One server and one browser serve every case.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.browser.conftest import ARGS, ARTIFACTS, CHROMIUM
from tests.browser.helpers import PHONE as PHONE_740
from tests.browser.helpers import Player, Table
from tests.integration.client import Api
from tests.integration.server import ServerProcess

pytestmark = pytest.mark.asyncio(loop_scope="module")

LAPTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {**PHONE_740, "viewport": {"width": 375, "height": 812}}
MAX_STEPS = 60

# What shows the host may act now, and what must then be on screen (every visible match).
ACTING = {
    "slap": ".seat.me .slap-target",
    "leekha": ".seat.me .lk-pass:not([hidden]) button, .seat.me.turn",
    "rummy": ".seat.me.turn",
    "uffda": ".seat.me.turn",
    "kuuduk": ".seat.me.turn",
}
HAND = {"leekha": ".lk-hand", "rummy": ".rummy-hand", "uffda": ".uf-hand", "kuuduk": ".kd-hand"}
CONTROLS = {
    "slap": ".seat.me .slap-target, .seat.me .nu",
    "leekha": ".seat.me .lk-pass button, .seat.me .lk-steps button, .seat.me .lk-reveal button",
    "rummy": ".rummy-actions button",
    "uffda": ".uf-actions button, .uf-say, .uf-calls button",
    "kuuduk": ".kd-actions button",
}
OPTIONS: dict[str, dict[str, Any]] = {"slap": {"first_starter": 0}}
CASES = [
    ("slap", 2),
    ("slap", 4),
    ("leekha", 4),
    ("rummy", 2),
    ("rummy", 4),
    ("uffda", 2),
    ("uffda", 4),
    ("uffda", 5),
    ("uffda", 8),
    ("kuuduk", 2),
    ("kuuduk", 4),
    ("kuuduk", 5),
    ("kuuduk", 8),
]

FIT_JS = """([hand, controls]) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const seats = [...document.querySelectorAll('.felt .seat')]
    .map((el) => ({ seat: el.dataset.seat, box: box(el) }));
  const overlaps = [];
  for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++) {
    const [a, b] = [seats[i].box, seats[j].box];
    const across = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
    const down = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
    if (across > 0.5 && down > 0.5) overlaps.push([seats[i].seat, seats[j].seat]);
  }
  const off = (el) => {
    const [l, t, r, b] = box(el);
    return l < -0.5 || t < -0.5 || r > vw + 0.5 || b > vh + 0.5;
  };
  const name = (el) => el.className + ' ' + (el.textContent || '').trim().slice(0, 20);
  const outside = (sel) => sel
    ? [...document.querySelectorAll(sel)].filter(shown).filter(off)
      .map((el) => name(el) + ' @' + box(el).map(Math.round))
    : [];
  const handEl = hand ? document.querySelector(hand) : null;
  return {
    seats: seats.length,
    overlaps,
    scrollX: document.documentElement.scrollWidth - vw,
    scrollY: window.scrollY,
    handShown: hand ? Boolean(handEl && shown(handEl) && handEl.children.length) : true,
    outside: [...outside(hand), ...outside(controls)],
    controls: controls ? [...document.querySelectorAll(controls)].filter(shown).length : 0,
  };
}"""


# A toast as a refused move shows it; then: is it on screen, and is every control whose middle was
# in sight before still in sight (one under your seat's bar is covered by the bar, toast or not)?
TOAST_JS = """async () => {
  const { toast } = await import('/static/js/shell/toasts.js');
  const inSight = (c) => {
    const b = c.getBoundingClientRect();
    const top = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return top !== null && (c === top || c.contains(top));
  };
  const controls = [...document.querySelectorAll('button, select, input, a[href]')]
    .filter((c) => c.getClientRects().length && inSight(c));
  const el = toast('That card cannot go there.');
  const r = el.getBoundingClientRect();
  const shown = r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  const covers = controls.filter((c) => !inSight(c))
    .map((c) => c.className + ' ' + (c.textContent || '').trim().slice(0, 20));
  el.remove();
  return { shown, covers };
}"""


@pytest.fixture(scope="module")
def fit_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    where = tmp_path_factory.mktemp("fit")
    url = f"sqlite+aiosqlite:///{where / 'bordet.db'}"
    server = ServerProcess(database_url=url, log_path=where / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def fit_browser() -> AsyncIterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (Debian package 'chromium')")
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        await browser.close()


@pytest_asyncio.fixture(loop_scope="module")
async def fit_table(
    fit_browser: Any, fit_server: ServerProcess, request: pytest.FixtureRequest
) -> AsyncIterator[Table]:
    ARTIFACTS.mkdir(exist_ok=True)
    api = Api(fit_server.http)
    callspec = getattr(request.node, "callspec", None)
    prefix = "fit-" + (callspec.id if callspec else request.node.name)
    helper = Table(fit_browser, fit_server, api, ARTIFACTS, prefix=prefix)
    yield helper
    problems = list(helper.problems)
    await helper.close()
    await api.aclose()
    assert problems == [], "the pages logged errors or left the test server:\n" + "\n".join(problems)


async def until_acting(table: Table, code: str, who: Player, game: str) -> None:
    """Fire the room's deadlines (the bots' moves) until the host's page offers them a move."""
    acting = who.page.locator(ACTING[game])
    await who.page.locator(".felt .seat.me").wait_for()
    for _ in range(MAX_STEPS):
        if await acting.count():
            return
        await table.advance_shown(code, who.page)
    raise AssertionError(f"{game}: the host never got a move in {MAX_STEPS} deadlines")


@pytest.mark.parametrize(("game", "seats"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
async def test_table_fits_laptop_and_phone(fit_table: Table, game: str, seats: int) -> None:
    host, code = await fit_table.with_bots(game, seats, OPTIONS.get(game))
    url = f"{fit_table.server.http}/r/{code}"
    laptop = await fit_table.open_as(host, url, device=LAPTOP)
    phone = await fit_table.open_as(host, url, device=PHONE)
    await until_acting(fit_table, code, laptop, game)
    for device, who in (("laptop", laptop), ("phone", phone)):
        await who.page.locator(ACTING[game]).first.wait_for()
        await who.page.evaluate("window.scrollTo(0, 0)")
        fit = await who.page.evaluate(FIT_JS, [HAND.get(game), CONTROLS[game]])
        await fit_table.shot(who, device, full=False)
        where = f"{game} at {seats} seats on the {device}"
        assert fit["seats"] == seats, where
        assert fit["overlaps"] == [], f"{where}: seat boxes overlap {fit['overlaps']}"
        assert fit["scrollX"] <= 0, f"{where}: the page scrolls {fit['scrollX']} px sideways"
        assert fit["handShown"], f"{where}: no hand shown"
        assert fit["controls"] > 0, f"{where}: no step button shown"
        assert fit["outside"] == [], f"{where}: off screen: {fit['outside']}"
        covered = await who.page.evaluate(TOAST_JS)
        assert covered["shown"], f"{where}: the toast is not on screen"
        assert covered["covers"] == [], f"{where}: a toast covers {covered['covers']}"
