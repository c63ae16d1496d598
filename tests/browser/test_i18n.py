"""Dansk and suomi in real browsers, and "How to play".

Every key of the English table has Danish and Finnish text with the same placeholders, and every
error code the server can send (the code tables of docs/protocol.md, and every code raised in app/,
found by reading the source) has the client's own text in all three languages. A Danish browser
(navigator.languages) plays a Slap round against a bot, a Finnish one (chosen with the header's
switch) a Leekha round against three bots, each asserting translated text and ``<html lang>``. The
rules dialog opens from the home page, the lobby and a running table, and closes at the table
without leaving it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from playwright.async_api import expect

from app.engines.cards import CardId
from app.engines.leekha.rules import auto_pass
from app.realtime.messages import CLOSE_CODES, Code
from app.static_assets import Assets
from tests.browser.helpers import Player, Table

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
PROTOCOL = ROOT / "docs" / "protocol.md"
LANGUAGES = ("en", "da", "fi")
GAMES = ("slap", "leekha", "rummy", "uffda", "kuuduk")
CODE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")
RAISERS = {"IllegalAction", "RoomError", "RateLimited", "coded_body", "_Refused"}
"""Calls whose first argument is the code of an error answer."""
PLACEHOLDER = re.compile(r"\{(\w+)\}")

TABLES_JS = """async ([games, url, modules]) => {
  const i18n = await import(url['js/i18n.js']);
  for (const m of modules) await import(m);  // every module that adds English strings
  const help = await import(url['js/shell/help.js']);
  const out = { en: i18n.strings.en, rules: {}, ruleGames: Object.keys(help.RULE_GAMES) };
  for (const lang of ['da', 'fi']) out[lang] = (await import(url[`js/i18n/${lang}.js`])).default;
  for (const lang of ['en', 'da', 'fi']) {
    out.rules[lang] = {};
    for (const g of games) out.rules[lang][g] = await help.rulesOf(g, lang);
  }
  return out;
}"""


def documented_codes() -> set[str]:
    """The first column of every code table in docs/protocol.md (a close code n as CLOSE_n)."""
    codes: set[str] = set()
    inside = False
    for line in PROTOCOL.read_text(encoding="utf-8").splitlines():
        if line.startswith(("| Code |", "| Close code |")):
            inside = True
        elif inside and line.startswith("| `"):
            first = line.split("|")[1].strip().strip("`")
            codes.add(f"CLOSE_{first}" if first.isdigit() else first)
        elif not line.startswith("|"):
            inside = False
    return codes


def versioned_urls() -> dict[str, str]:
    """Each static file's URL as the pages name it (``?v=``): a module imports i18n.js by that URL,
    and a bare ``/static/js/i18n.js`` would be a second copy whose table those modules never fill."""
    assets = Assets(ROOT / "static")
    return {rel: f"/static/{rel}?v={asset.version}" for rel, asset in assets.files.items()}


def string_modules(url: dict[str, str]) -> list[str]:
    """The client modules that register English strings of their own (addStrings)."""
    static = ROOT / "static"
    found = [p for p in (static / "js").rglob("*.js") if 'addStrings("en"' in p.read_text(encoding="utf-8")]
    return sorted(url[p.relative_to(static).as_posix()] for p in found)


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
        return node.value
    return None


def raised_codes() -> set[str]:
    """Every code app/ can answer with: the transport codes and close codes; the first argument of
    each error raised (a literal, a module constant or ``*`` of a constant tuple, ``Code.X``, or a
    name an enclosing ``if`` has compared with a literal); every literal ``code=`` and
    ``{"code": ...}``; and the module constants beside each IllegalAction subclass (Rummy's table
    problems become reject codes). A raise it cannot read fails the test."""
    codes = {c.value for c in Code} | {f"CLOSE_{n}" for n in CLOSE_CODES}
    trees = {
        p: ast.parse(p.read_text(encoding="utf-8")) for p in APP.rglob("*.py") if p.name != "protocol_doc.py"
    }
    constants: dict[str, str] = {}
    node: ast.AST
    for tree in trees.values():
        for stmt in tree.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                # NAME = ("CODE", "message") is passed on as *NAME.
                first = (
                    stmt.value.elts[0]
                    if isinstance(stmt.value, ast.Tuple) and stmt.value.elts
                    else stmt.value
                )
                literal = _literal(first)
                if literal is not None:
                    constants[stmt.targets[0].id] = literal
    unresolved: list[str] = []
    for path, tree in trees.items():
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        if any(
            isinstance(n, ast.ClassDef) and any(getattr(b, "id", None) == "IllegalAction" for b in n.bases)
            for n in ast.walk(tree)
        ):
            codes |= {v for n in tree.body if isinstance(n, ast.Assign) and (v := _literal(n.value))}
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, item in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code" and (code := _literal(item)):
                        codes.add(code)
            if not isinstance(node, ast.Call):
                continue
            codes |= {code for kw in node.keywords if kw.arg == "code" and (code := _literal(kw.value))}
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in RAISERS or not node.args:
                continue
            arg = node.args[0]
            arg = arg.value if isinstance(arg, ast.Starred) else arg
            if (code := _literal(arg)) is not None:
                codes.add(code)
            elif isinstance(arg, ast.Attribute) and getattr(arg.value, "id", None) == "Code":
                codes.add(arg.attr)
            elif isinstance(arg, ast.Attribute):
                continue  # exc.code: passes on a code raised elsewhere
            elif isinstance(arg, ast.Name) and arg.id in constants:
                codes.add(constants[arg.id])
            elif isinstance(arg, ast.Name) and (code := _compared(arg.id, node, parents)):
                codes.add(code)
            else:
                unresolved.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert unresolved == [], f"cannot tell which code these raise: {unresolved}"
    return codes


def _compared(name: str, node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str | None:
    """The literal an enclosing ``if name == "CODE":`` compares ``name`` with."""
    while node in parents:
        node = parents[node]
        test = getattr(node, "test", None) if isinstance(node, ast.If) else None
        if (
            isinstance(test, ast.Compare)
            and getattr(test.left, "id", None) == name
            and isinstance(test.ops[0], ast.Eq)
            and (code := _literal(test.comparators[0]))
        ):
            return code
    return None


def placeholders(text: Any) -> set[str]:
    forms = text.values() if isinstance(text, dict) else [text]
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


async def test_every_key_and_every_code_the_server_can_send_has_text_in_every_language(table: Table) -> None:
    documented, raised = documented_codes(), raised_codes()
    assert {"BAD_JSON", "NOT_STARTER", "ROOM_FULL", "CLOSE_4001"} <= documented
    assert {"MUST_FOLLOW_COLOUR", "BRANCH_PROTECTED", "SET_TOO_SHORT", "DATABASE_UNREACHABLE"} <= raised
    _, page = await table.context()
    table.watch(page, "checker")
    await page.goto(table.server.http + "/")
    url = versioned_urls()
    modules = string_modules(url)
    assert url["js/shell/leaving.js"] in modules
    tables: dict[str, Any] = await page.evaluate(TABLES_JS, [list(GAMES), url, modules])
    assert "leave.resign" in tables["en"], "the strings a module adds are not in the table read"

    en = tables["en"]
    for lang in ("da", "fi"):
        other = tables[lang]
        assert sorted(set(en) - set(other)) == [], f"keys with no {lang} text"
        assert sorted(set(other) - set(en)) == [], f"{lang} keys nobody uses"
        wrong = [k for k in en if placeholders(en[k]) != placeholders(other[k])]
        assert wrong == [], f"{lang} texts whose placeholders differ from English"
        plural = [k for k, v in other.items() if isinstance(v, dict) and not {"one", "other"} <= set(v)]
        assert plural == [], f"{lang} plurals without both forms"
    for lang in LANGUAGES:
        silent = sorted(c for c in documented | raised if f"code.{c}" not in tables[lang])
        assert silent == [], f"codes with no {lang} text"

    # A rules page for every game in every language, the same shape in each.
    assert tables["ruleGames"] == list(GAMES)
    games = (await table.api.http.get("/api/games")).json()
    assert sorted(g["id"] for g in games) == sorted(GAMES)
    for game in GAMES:
        shapes = set()
        for lang in LANGUAGES:
            book = tables["rules"][lang][game]
            assert book["goal"] and book["example"][1], (lang, game)
            shapes.add(
                (len(book["parts"]), tuple(len(lines) for _, lines in book["parts"]), len(book["example"][1]))
            )
        assert len(shapes) == 1, f"{game}: the three rules pages say different amounts"


async def test_a_danish_browser_plays_a_slap_round_against_a_bot_in_danish(table: Table) -> None:
    table.prefix = "i18n-da"
    ana = await table.api.player("Ana")
    code = (
        await table.api.create_room(
            ana["token"], "slap", {"rounds": 1, "first_starter": 1, "round_time_limit_s": 20}
        )
    )["code"]
    await table.api.sit(ana["token"], code, 0)
    r = await table.api.call("POST", f"/api/rooms/{code}/bots", ana["token"], json={"seat": 1})
    assert r.status_code == 201, r.text
    player = await table.open_as(ana, f"{table.server.http}/r/{code}", locale="da-DK")
    page = player.page
    assert await page.evaluate("navigator.languages") == ["da-DK", "da"]
    await expect(page.locator("html")).to_have_attribute("lang", "da")
    await expect(page.get_by_role("button", name="Sådan spiller du")).to_be_visible()
    await expect(page.get_by_label("Sprog")).to_have_value("da")
    await page.get_by_role("button", name="Start spillet").click()
    await player.wait_phase("AWAIT_NU", 0)
    await expect(page.locator(".table-sub")).to_have_text("Runde 1 af 1")
    await expect(page.locator(".table-hint")).to_contain_text("Bank kun, når to vendte kort viser samme tal")

    # Not Ana's call: the server refuses with NOT_STARTER and the page says so in Danish.
    await page.keyboard.press("n")
    await player.toast("Kun starteren kan sige Nu!")
    await table.step_until(code, player, "FLIP_OPEN")
    slap = page.get_by_role("button", name="BANK!")
    await slap.click()
    await expect(slap).to_have_attribute("aria-disabled", "true")
    await table.shot(player, "flip")
    for _ in range(400):
        if (await table.room(code))["status"] == "finished" or not await nudge(table, code):
            break
    else:
        raise AssertionError("the round did not end")
    await expect(page.locator(".scores .final")).to_have_text("Slutstilling")
    await expect(page.locator(".log")).to_contain_text("Nu! Vending 1.")
    await expect(page.locator(".felt .seat.me .seat-stats")).to_contain_text(re.compile(r"\d+ kort"))
    await expect(page.get_by_role("button", name="Tjek givningen (frøet er afsløret)")).to_be_visible()
    text = await page.locator("main").inner_text()
    for english in ("Round", "cards", "Final scores", "Verify the deal"):
        assert english not in text, f"English left on the Danish page: {english!r}"
    assert "-" not in await page.locator(".score-table").inner_text(), "a hyphen where a minus sign belongs"
    await table.shot(player, "over")


LEEKHA_JS = """() => {
  const c = document.querySelector('.lk-center');
  const cards = (sel) => [...document.querySelectorAll(sel)].map((b) => b.dataset.card);
  return {
    phase: c ? c.dataset.phase : null,
    turn: c && c.dataset.turn !== undefined ? Number(c.dataset.turn) : null,
    played: c ? Number(c.dataset.played) : null,
    me: Number(document.querySelector('.felt .seat.me')?.dataset.seat),
    passing: Boolean(document.querySelector('.lk-hand.passing')),
    hand: cards('.lk-hand .lk-hand-card'),
    legal: cards('.lk-hand .lk-hand-card.legal'),
  };
}"""
ANA_MAY_ACT_JS = f"""() => {{
  const s = ({LEEKHA_JS})();
  return s.phase === 'ROUND_END' || s.phase === 'MATCH_END' || s.passing
    || (s.phase === 'PLAY' && s.turn === s.me && s.legal.length > 0);
}}"""


async def nudge(table: Table, code: str) -> bool:
    """Move the room to its next deadline; False when it has none (it waits for a person)."""
    r = await table.api.http.post("/api/_test/clock", json={"room": code, "next_deadline": True})
    if r.status_code == 409 and r.json()["code"] == "NO_DEADLINE":
        return False
    r.raise_for_status()
    return True


async def test_a_finnish_player_switches_the_language_and_plays_a_leekha_round_against_bots(
    table: Table,
) -> None:
    table.prefix = "i18n-fi"
    ana = await table.api.player("Ana")
    # No turn timer: the clock can be moved freely and never plays a card for Ana.
    code = (await table.api.create_room(ana["token"], "leekha", {"turn_ms": 0}))["code"]
    await table.api.sit(ana["token"], code, 0)
    for seat in (1, 2, 3):
        r = await table.api.call("POST", f"/api/rooms/{code}/bots", ana["token"], json={"seat": seat})
        assert r.status_code == 201, r.text
    player = await table.open_as(ana, f"{table.server.http}/r/{code}")
    page = player.page
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await page.get_by_label("Language").select_option("fi")  # the page reloads in Finnish
    await expect(page.locator("html")).to_have_attribute("lang", "fi")
    await page.reload()  # remembered on this device
    await expect(page.locator("html")).to_have_attribute("lang", "fi")
    await page.get_by_role("button", name="Näin pelataan").click()
    await expect(page.get_by_role("dialog")).to_contain_text("Sakkokortit: sininen +2 on Iso Leekha")
    await page.get_by_role("button", name="Sulje").click()
    await page.get_by_role("button", name="Aloita peli").click()
    await page.locator(".lk-center").wait_for()

    passed = plays = 0
    for _ in range(600):
        state: dict[str, Any] = await page.evaluate(LEEKHA_JS)
        if state["phase"] in ("ROUND_END", "MATCH_END"):
            break
        if state["passing"]:
            await expect(page.locator(".table-hint")).to_contain_text(
                "Viimeistä punaista tai vihreää korttiasi"
            )
            for card in auto_pass(tuple(CardId(c) for c in state["hand"])):
                await page.locator(f'.lk-hand .lk-hand-card[data-card="{card}"]').click()
            await page.get_by_role("button", name="Anna 3 korttia").click()
            await expect(page.locator(".lk-hand.passing")).to_have_count(0)
            passed += 1
        elif state["phase"] == "PLAY" and state["turn"] == state["me"] and state["legal"]:
            await expect(page.locator(".table-hint")).to_contain_text(
                re.compile("Tunnusta avattua väriä|Voit avata")
            )
            await page.locator(f'.lk-hand .lk-hand-card[data-card="{state["legal"][0]}"]').click()
            await page.wait_for_function(
                "n => Number(document.querySelector('.lk-center').dataset.played) !== n", arg=state["played"]
            )
            plays += 1
        elif not await nudge(table, code):
            await page.wait_for_function(ANA_MAY_ACT_JS)
    else:
        raise AssertionError("the round did not end")
    assert passed == 1 and 1 <= plays <= 13  # a 37 or a throw-in can end the round before its 13th trick
    await expect(page.locator(".lk-center")).to_contain_text("Kierros 1 päättyi.")
    await expect(page.locator(".log")).to_contain_text(re.compile(r"Kierros 1 päättyi: Ana [+\u2212]?\d+"))
    await expect(page.locator(".log")).to_contain_text(re.compile(r"vie tikin ja \d+ (pisteen|pistettä)\."))
    assert not re.search(r"\b1 pistettä", await page.locator(".log").inner_text()), (
        "the Finnish singular after 1"
    )
    text = await page.locator("main").inner_text()
    for english in ("Round", "Your hand", "points", "Scores"):
        assert english not in text, f"English left on the Finnish page: {english!r}"
    await table.shot(player, "round-over")


async def test_the_rules_open_from_home_lobby_and_table_and_close_without_leaving_the_table(
    table: Table,
) -> None:
    table.prefix = "rules"
    ana = await table.api.player("Ana")
    context, page = await table.context(player=ana)
    table.watch(page, "Ana")
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    await page.goto(table.server.http + "/")
    await page.locator(".rules-panel").get_by_role("button", name="Kuuduk").click()
    dialog = page.get_by_role("dialog", name="How to play Kuuduk")
    await expect(dialog).to_contain_text("but she still holds a d: she has not won")
    await page.keyboard.press("Escape")
    await expect(dialog).to_have_count(0)

    code = (await table.api.create_room(ana["token"], "uffda", {}))["code"]
    await table.api.sit(ana["token"], code, 0)
    r = await table.api.call("POST", f"/api/rooms/{code}/bots", ana["token"], json={"seat": 1})
    assert r.status_code == 201, r.text
    await page.goto(f"{table.server.http}/r/{code}")
    await page.locator(".lobby").get_by_role("button", name="How to play").click()
    await expect(page.get_by_role("dialog", name="How to play UFF-DA!")).to_contain_text("Bo owes a coin")
    await page.get_by_role("button", name="Close").click()
    await page.get_by_role("button", name="Start game").click()
    await page.locator(".table-shell").wait_for()
    url = page.url
    await page.evaluate("document.querySelector('.table-shell').dataset.kept = 'yes'")
    opened = len(sockets)

    await page.get_by_role("button", name="How to play UFF-DA! (opens over the table)").click()
    dialog = page.get_by_role("dialog", name="How to play UFF-DA!")
    await expect(dialog).to_be_visible()
    await expect(dialog).to_contain_text("Worked example: when a coin is owed")
    await table.advance(code)  # the game goes on underneath
    await table.shot(Player(table, context, page, "Ana"), "over-the-table", full=False)
    await dialog.get_by_role("button", name="Close").click()
    await expect(dialog).to_have_count(0)
    assert page.url == url
    await expect(page.locator('.table-shell[data-kept="yes"]')).to_have_count(1)
    await expect(page.locator("#conn")).to_have_attribute("data-state", "online")
    assert len(sockets) == opened, "the table's connection was not reopened"
