"""Each engine's protocol declaration (``Engine.protocol``, app/engines/protocol.py) matches the engine:
its real views, its ``legal`` lists, its phases, its parser and the rule codes in its source; and the
document renders each game."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from app.bots import random_player_for
from app.bots.playout import playout
from app.engines import ENGINES
from app.engines.base import IllegalAction
from tools.protocol_doc import render
from tools.protocol_doc.games import COMMON_RULE_CODES, heading, shape_cell
from tools.protocol_doc.scan import engine_source_paths, illegal_action_sites

PLAYERS = {"slap": (2, 4), "leekha": (4,), "rummy": (2, 4), "uffda": (2, 4), "kuuduk": (2, 4)}


class Seen:
    """What the views of a few random games showed."""

    def __init__(self) -> None:
        self.keys: set[tuple[str, ...]] = set()
        self.nested: dict[str, set[tuple[str, ...]]] = defaultdict(set)
        self.phases: set[str] = set()
        self.legal: list[dict[str, Any]] = []


@pytest.fixture(scope="module", params=sorted(ENGINES))
def game(request: pytest.FixtureRequest) -> tuple[str, Seen]:
    name: str = request.param
    engine, seen = ENGINES[name], Seen()

    def watching(chooser: Any) -> Any:
        def choose(view: dict[str, Any], rng: random.Random) -> Any:
            seen.keys.add(tuple(view))
            seen.phases.add(view["phase"])
            seen.legal.extend(view["legal"])
            for key, value in view.items():
                if isinstance(value, dict):
                    seen.nested[key].add(tuple(value))
                elif isinstance(value, list) and value and isinstance(value[0], dict):
                    seen.nested[key + "[]"].update(tuple(item) for item in value)
            return chooser(view, rng)

        return choose

    for players in PLAYERS[name]:
        options = engine.options_model.model_validate({})
        choosers = [watching(random_player_for(name)) for _ in range(players)]
        playout(engine, players, options, f"decl-{players}", random.Random(players), choosers=choosers)
    return name, seen


def test_every_game_declares_its_protocol() -> None:
    assert set(PLAYERS) == set(ENGINES)
    for engine in ENGINES.values():
        assert engine.protocol.actions and engine.protocol.view and engine.protocol.phases


def test_view_keys_are_the_declared_ones(game: tuple[str, Seen]) -> None:
    name, seen = game
    assert seen.keys == {tuple(ENGINES[name].protocol.view)}


def test_nested_keys_are_the_declared_ones(game: tuple[str, Seen]) -> None:
    name, seen = game
    for key, keys in ENGINES[name].protocol.nested.items():
        assert seen.nested[key] == {tuple(keys)}, key


def test_phases_seen_are_declared(game: tuple[str, Seen]) -> None:
    name, seen = game
    assert seen.phases and seen.phases <= set(ENGINES[name].protocol.phases)


def test_every_legal_action_has_a_declared_shape(game: tuple[str, Seen]) -> None:
    name, seen = game
    declared = {a.kind: a for a in ENGINES[name].protocol.actions}
    kinds = set()
    for action in seen.legal:
        shape = declared.get(action["type"])
        assert shape is not None, f"{name} lists an undeclared action {action}"
        assert shape.in_legal
        fields = {f.name for f in shape.fields}
        required = {f.name for f in shape.fields if not f.optional}
        assert required <= set(action) - {"type"} <= fields, (action, shape)
        kinds.add(action["type"])
    assert kinds == {a.kind for a in declared.values() if a.in_legal}, "declared kinds never offered"


def test_every_declared_action_parses(game: tuple[str, Seen]) -> None:
    """The engine's parser knows every declared kind (an undeclared one is UNKNOWN_ACTION)."""
    name, seen = game
    offered = {a["type"]: a for a in seen.legal if "<" not in str(a)}
    engine = ENGINES[name]
    for action in offered.values():
        engine.parse(action)  # raises IllegalAction if the shape were wrong
    assert offered


def test_rule_codes_match_the_engine_source(game: tuple[str, Seen]) -> None:
    name, _ = game
    paths = engine_source_paths(name)
    sites = illegal_action_sites(paths)
    raised = {s.code for s in sites if s.code is not None}
    declared = set(ENGINES[name].protocol.rule_codes)
    missing = raised - declared - set(COMMON_RULE_CODES)
    assert not missing, f"{name} raises codes its declaration lacks: {sorted(missing)}"
    source = "".join(Path(p).read_text(encoding="utf-8") for p in paths)
    stale = {code for code in declared if f'"{code}"' not in source}
    assert not stale, f"{name} declares codes its source never names: {sorted(stale)}"


def test_the_scan_sees_helper_and_keyword_forms(tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    source.write_text(
        "from app.engines import base\n"
        "def bad(m):\n    return base.IllegalAction('A_CODE', m)\n"
        "def worse(c):\n    raise IllegalAction(code=c, message='x')\n"
        "raise IllegalAction(message=f'{1}', code='B_CODE')\n",
        encoding="utf-8",
    )
    sites = illegal_action_sites([source])
    assert sorted((s.code or "?", s.message) for s in sites) == [
        ("?", "x"),
        ("A_CODE", "{m}"),
        ("B_CODE", "{1}"),
    ]


def test_the_document_has_a_section_per_game_with_every_declared_item() -> None:
    doc = render()
    for engine in ENGINES.values():
        start = doc.index(f"## {heading(engine)}\n")
        section = doc[start : doc.index("\n## ", start + 3)]
        p = engine.protocol
        for action in p.actions:
            assert shape_cell(action.shape()) in section
        for key in (*p.view, *p.phases, *p.rule_codes):
            assert f"| `{key}` |" in section, (engine.name, key)
        for option in engine.options_model.model_fields:
            assert f"| `{option}` |" in section, (engine.name, option)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_parser_knows_exactly_the_declared_kinds(name: str) -> None:
    engine = ENGINES[name]
    for action in engine.protocol.actions:
        try:
            engine.parse({"type": action.kind})  # fields missing: BAD_ACTION at most
        except IllegalAction as exc:
            assert exc.code != "UNKNOWN_ACTION", (name, action.kind)
    with pytest.raises(IllegalAction) as refused:
        engine.parse({"type": "not_a_move"})
    assert refused.value.code == "UNKNOWN_ACTION"
