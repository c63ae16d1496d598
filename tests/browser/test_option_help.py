"""The options forms in a real browser: each option's help (the server's description) names a
choice by the label the form shows for it, never by its raw value ("starter", "single_round")."""

from __future__ import annotations

import re

from tests.browser.helpers import Table

RAW = re.compile(r'"[A-Za-z0-9_]+"')  # a quoted option value; a quoted call such as "Nu!" is words

HELP_JS = """async () => {
  const { loadGame } = await import('/static/js/games/index.js');
  const { optionsForm } = await import('/static/js/options-form.js');
  const games = await (await fetch('/api/games')).json();
  const out = {};
  for (const game of games) {
    const module = await loadGame(game.id);
    const form = optionsForm(game.id, game.options_schema, {}, { basic: module.basicOptions });
    out[game.id] = [...form.el.querySelectorAll('.help')].map((el) => el.textContent);
  }
  return out;
}"""


async def test_option_help_names_choices_by_their_labels(table: Table) -> None:
    _, page = await table.context()
    table.watch(page, "device")
    await page.goto(table.server.http + "/")
    helps = await page.evaluate(HELP_JS)
    assert set(helps) == {"slap", "leekha", "rummy", "uffda", "kuuduk"}
    raw = {game: [text for text in texts if RAW.search(text)] for game, texts in helps.items()}
    assert raw == {game: [] for game in helps}, "help with raw values"
    nu_mode = next(text for text in helps["slap"] if "presses Nu!" in text and "“Automatic”" in text)
    assert nu_mode.startswith("“The starter presses Nu!”:")
    mode = helps["kuuduk"][0]  # "mode" is Kuuduk's first option
    assert mode.startswith("“Play to a target score”:") and "“One round”:" in mode
