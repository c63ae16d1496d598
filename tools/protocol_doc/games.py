"""One section per game, rendered from the engine's own declaration (``Engine.protocol``) and models."""

from __future__ import annotations

import json
from typing import Any

from app.engines.base import Engine
from app.engines.protocol import GameProtocol
from tools.protocol_doc.markdown import _cell, _json_block, _table

COMMON_RULE_CODES: dict[str, str] = {
    "BAD_ACTION": "The action is malformed: not an object, no `type`, a field missing, unknown or out of "
    "its bounds (the message says which).",
    "UNKNOWN_ACTION": "The game has no action of that `type`.",
    "GAME_OVER": "The game is over: no more moves.",
    "NOT_SEATED": "The seat is not at this table (the room answers the transport `NOT_SEATED` first).",
    "BAD_PLAYER_COUNT": "From the start call: the game cannot be played by that many (the lobby normally "
    "answers `NOT_ENOUGH_PLAYERS` first).",
    "NO_EARLY_END": "From the host's `end_match`: this game cannot be ended early.",
}
"""Codes every game shares, raised by ``app/engines/step.py``, ``inputs.py`` and ``seats.py``."""


def anchor(title: str) -> str:
    """The GitHub anchor of a heading ``title``."""
    kept = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def shape_cell(shape: str) -> str:
    """An action's shape as a table cell: in code, with ``|`` escaped (a table splits on it even there).

    >>> print(shape_cell('{"to": <"hand" | "new">}'))
    `{"to": <"hand" \\| "new">}`
    """
    return "`" + shape.replace("|", "\\|") + "`"


def heading(engine: Engine[Any, Any]) -> str:
    return f"{engine.title} (`{engine.name}`)"


def _options(engine: Engine[Any, Any]) -> str:
    props = engine.options_model.model_json_schema()["properties"]
    rows = (
        (f"`{name}`", f"`{json.dumps(prop.get('default'))}`", _cell(prop.get("description", "")))
        for name, prop in props.items()
    )
    return _table(["Option", "Default", "Meaning"], rows)


def _prefs(engine: Engine[Any, Any]) -> str:
    props = engine.prefs_model.model_json_schema().get("properties", {})
    if not props:
        return "No seat preferences: take a seat with `prefs: {}`."
    rows = ((f"`{name}`", _cell(prop.get("description", ""))) for name, prop in props.items())
    return "Seat preferences (`prefs` of `POST /api/rooms/{code}/seats`):\n\n" + _table(
        ["Pref", "Meaning"], rows
    )


def _actions(p: GameProtocol) -> str:
    rows = [
        (
            f"`{a.kind}`",
            _cell(a.when),
            shape_cell(a.shape()) + ("" if a.in_legal else " (never in `legal`)"),
            _cell(" ".join([a.meaning, *(f"`{f.name}`: {f.meaning}" for f in a.fields if f.meaning)])),
        )
        for a in p.actions
    ]
    return _table(["Action", "When", "Shape", "Meaning"], rows)


def game_section(engine: Engine[Any, Any], example_view: dict[str, Any] | None = None) -> str:
    p = engine.protocol
    parts = [
        f"## {heading(engine)}",
        "",
        f"{p.summary} {engine.min_players} to {engine.max_players} players.",
        "",
        "Actions, sent as the `action` of an `action` frame (fields marked optional may be left out; "
        "the view's `legal` lists the actions you may send now, ready to send unless a value is a "
        '`"<...>"` placeholder to fill in):',
        "",
        _actions(p),
        "",
        f"Card ids: {p.card_ids}",
        "",
        f"The game view (`view.game`) has these keys:\n\n{_keyed(p.view)}",
    ]
    for key, keys in p.nested.items():
        what = f"Each entry of `{key[:-2]}`" if key.endswith("[]") else f"`{key}`, when set,"
        parts += ["", f"{what} has these keys:", "", _keyed(keys)]
    parts += ["", f"Phases (`phase`):\n\n{_keyed(p.phases)}"]
    if p.notes:
        parts += ["", p.notes]
    if example_view is not None:
        parts += ["", "Seat 0's view of an open flip:", "", _json_block(example_view)]
    codes = [
        (f"`{c}`", "HTTP 422 from the start call" if c in p.start_codes else "reject", _cell(m))
        for c, m in p.rule_codes.items()
    ]
    parts += [
        "",
        "Rule codes (besides the [common ones](#game-rule-codes-every-game)):",
        "",
        _table(["Code", "Sent as", "Meaning"], codes),
        "",
        "Table options (`room.options`, set in the lobby):",
        "",
        _options(engine),
        "",
        _prefs(engine),
        "",
    ]
    return "\n".join(parts)


def _keyed(mapping: Any) -> str:
    return _table(["Key", "Meaning"], ((f"`{k}`", _cell(v)) for k, v in mapping.items()))


def common_codes_section() -> str:
    rows = ((f"`{code}`", _cell(meaning)) for code, meaning in COMMON_RULE_CODES.items())
    return f"""\
## Game rule codes, every game

Each game's engine refuses moves its rules do not allow with a code; during a game it comes back as a
`reject` of the action (its `message` is for the player; some carry a `detail` object with the
reasons). These codes are shared by every game; each game's own follow in its section.

{_table(["Code", "Meaning"], rows)}
"""
