"""Turn alerts in a real browser: the title says "Your turn" when the table starts waiting for the
player (and only then), a tone is generated in the page, the sound switch is remembered on the
device, and a long timer of yours running low changes the title again."""

from __future__ import annotations

from tests.browser.helpers import Player, Table

# Counts the tones the page starts (WebAudio oscillators), without changing what they do.
COUNT_TONES = """
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__tones += 1; return start.apply(this, args); };
"""
MAX_STEPS = 40
TURN = "Your turn · "


async def test_title_says_your_turn_and_a_tone_plays(table: Table) -> None:
    host, code = await table.with_bots("uffda", 2, {"rounds": 1})
    context, page = await table.context(player=host)
    table.watch(page, "Mette")
    await context.add_init_script(COUNT_TONES)
    await page.goto(f"{table.server.http}/r/{code}")
    mine = page.locator(".felt .seat.me.turn")
    await page.locator(".felt .seat.me").wait_for()

    for _ in range(MAX_STEPS):  # the bot's turn first, so the host's turn is a change the page sees
        if not await mine.count():
            break
        # The host's own turn: let the server's turn timer say NEXT for them.
        await table.advance_shown(code, page)
    assert not await mine.count()
    assert not (await page.title()).startswith(TURN)
    tones = await page.evaluate("window.__tones")

    for _ in range(MAX_STEPS):
        if await mine.count():
            break
        await table.advance_shown(code, page)
    await mine.wait_for()
    await page.wait_for_function("(flag) => document.title.startsWith(flag)", arg=TURN)
    assert "UFF-DA!" in await page.title()
    assert await page.evaluate("window.__tones") > tones, "no tone for the turn"
    await table.shot(Player(table, context, page, "Mette"), "your-turn", full=False)


async def test_sound_switch_is_remembered_on_the_device(table: Table) -> None:
    host, code = await table.with_bots("uffda", 2)
    _, page = await table.context(player=host)
    table.watch(page, "Mette")
    await page.goto(f"{table.server.http}/r/{code}")
    switch = page.locator(".table-foot .sound")
    assert await switch.text_content() == "Sound on"
    assert await switch.get_attribute("aria-pressed") == "true"
    await switch.click()
    assert await switch.text_content() == "Sound off"
    assert await switch.get_attribute("aria-pressed") == "false"
    await page.reload()
    assert await page.locator(".table-foot .sound").text_content() == "Sound off"
    assert await page.evaluate("localStorage.getItem('bordet.sound')") == "off"
    # With sound off a turn alert still changes the title but starts no tone (on a page of its
    # own: the table's alert shares the title).
    await page.goto(table.server.http + "/")
    flags = await page.evaluate(
        """async () => {
          const { TurnAlert, setTitle } = await import('/static/js/shell/alerts.js');
          window.__tones = 0;
          const start = OscillatorNode.prototype.start;
          OscillatorNode.prototype.start = function (...a) {
            window.__tones += 1;
            return start.apply(this, a);
          };
          let now = 1000;
          setTitle('Table');
          const alert = new TurnAlert(() => now);
          const out = [document.title];
          alert.update(true, [{ key: 'turn', at: 31000 }]);
          out.push(document.title);
          now = 25000;  // 6 s left of a 30 s timer
          alert.check();
          out.push(document.title);
          alert.update(false, []);
          out.push(document.title);
          alert.destroy();
          return { titles: out, tones: window.__tones };
        }"""
    )
    assert flags["titles"] == ["Table", "Your turn · Table", "Time is running out · Table", "Table"]
    assert flags["tones"] == 0


async def test_a_short_timer_does_not_count_as_running_low(table: Table) -> None:
    _, page = await table.context()
    table.watch(page, "device")
    await page.goto(table.server.http + "/")
    titles = await page.evaluate(
        """async () => {
          const { TurnAlert, setTitle } = await import('/static/js/shell/alerts.js');
          let now = 0;
          setTitle('Table');
          const alert = new TurnAlert(() => now);
          alert.update(true, [{ key: 'nu', at: 2000 }]);  // an automatic Nu! in 2 s is no emergency
          now = 1500;
          alert.check();
          const title = document.title;
          alert.destroy();
          return [title, document.title];
        }"""
    )
    assert titles == ["Your turn · Table", "Table"]
