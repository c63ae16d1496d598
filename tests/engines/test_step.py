"""The one input door (``app.engines.step``): the checks every game shares, once for every engine."""

from __future__ import annotations

import ast
import contextlib
import random
from pathlib import Path
from typing import Any

import pytest

from app.bots import random_player_for
from app.bots.playout import playout
from app.engines import ALL_ENGINES
from app.engines.base import Engine, IllegalAction, Move, SeatSetup
from app.engines.leekha import ENGINE as LEEKHA
from app.engines.leekha import Phase as LeekhaPhase
from app.engines.step import EndEarly, Tick, step
from tests.engines.test_every_engine import fast_options

NAMES = sorted(ALL_ENGINES)
ENGINES_DIR = Path(__file__).resolve().parents[2] / "app" / "engines"


def options_for(name: str) -> Any:
    """Short matches, and Kuuduk with its turn timer so every game starts with a deadline."""
    extra = {"turn_ms": 30_000} if name == "kuuduk" else {}
    return ALL_ENGINES[name].options_model.model_validate({**fast_options(name), **extra})


def started(name: str) -> tuple[Engine[Any, Any], Any]:
    engine = ALL_ENGINES[name]
    return engine, engine.start([SeatSetup()] * engine.min_players, options_for(name), f"step-{name}", 0)


def some_move(engine: Engine[Any, Any], state: Any, at: int) -> Move:
    """A move some seat's view offers now (as the game's random player picks it)."""
    rng = random.Random(7)
    for seat in range(engine.players(state)):
        action = random_player_for(engine.name)(engine.view(state, seat), rng)
        if action is not None:
            return Move(seat, action, at)
    raise AssertionError(f"{engine.name}: nobody may act at the start")


def refused(engine: Engine[Any, Any], state: Any, inp: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        step(engine, state, inp)
    return info.value.code


@pytest.mark.parametrize("name", NAMES)
def test_no_move_and_no_early_end_after_the_game_is_over(name: str) -> None:
    engine = ALL_ENGINES[name]
    players = engine.min_players
    choosers = [random_player_for(name)] * players
    game = playout(engine, players, options_for(name), f"over-{name}", random.Random(1), choosers)
    assert engine.is_over(game.state)
    at = game.log[-1].at + 1
    with pytest.raises(IllegalAction) as info:
        step(engine, game.state, Move(0, {"type": "anything"}, at))
    assert (info.value.code, info.value.message) == ("GAME_OVER", "The game is over.")
    assert refused(engine, game.state, EndEarly(at)) == "GAME_OVER"
    assert step(engine, game.state, Tick(at + 10**9)) == game.state


@pytest.mark.parametrize("name", NAMES)
def test_only_a_seated_player_moves(name: str) -> None:
    engine, state = started(name)
    move = some_move(engine, state, 10)
    for seat in (-1, engine.players(state), True, "0", None):
        assert refused(engine, state, Move(seat, move.action, 10)) == "NOT_SEATED", seat  # type: ignore[arg-type]


@pytest.mark.parametrize("name", NAMES)
def test_an_action_must_be_an_object_with_a_known_type(name: str) -> None:
    engine, state = started(name)
    for action in (["draw"], "nu", None, 3, {"kind": "draw"}):
        assert refused(engine, state, Move(0, action, 10)) == "BAD_ACTION", action  # type: ignore[arg-type]
    assert refused(engine, state, Move(0, {"type": "fly"}, 10)) == "UNKNOWN_ACTION"


@pytest.mark.parametrize("name", NAMES)
def test_a_deadline_before_a_move_fires_first_and_one_at_its_millisecond_after_it(name: str) -> None:
    engine, state = started(name)
    due = engine.next_deadline(state)
    assert due is not None
    played_on: list[Any] = []

    class Spy(type(engine)):  # type: ignore[misc]
        """The same rules, noting the state each move is played on."""

        def play(self, state: Any, move: Move, action: Any) -> Any:
            played_on.append(state)
            return super().play(state, move, action)

    spy = Spy()
    for at in (due, due + 1):
        move = some_move(engine, state, at)
        # The move may be stale after the deadline; what it was played on is the point.
        with contextlib.suppress(IllegalAction):
            step(spy, state, move)
    fresh = engine.begin_step(state)
    assert played_on[0] == fresh  # at the deadline's millisecond: the move comes first
    assert played_on[1] == engine.tick(fresh, due) != fresh  # a millisecond later: the deadline first


@pytest.mark.parametrize("name", [n for n in NAMES if n != "leekha"])
def test_a_game_without_an_early_end_refuses_it(name: str) -> None:
    engine, state = started(name)
    with pytest.raises(IllegalAction) as info:
        step(engine, state, EndEarly(10))
    assert info.value.code == "NO_EARLY_END"
    assert info.value.message == f"A game of {engine.title} cannot be ended early."


def test_leekha_ends_a_decided_match_early_through_end_early() -> None:
    options = options_for("leekha")
    rng = random.Random(3)
    for game_no in range(40):
        seed = f"early-{game_no}"
        state = LEEKHA.start([SeatSetup()] * 4, options, seed, 0)
        game = playout(LEEKHA, 4, options, seed, rng, [random_player_for("leekha")] * 4)
        # Walk the same game again and end it at the first moment it is decided.
        for inp in game.log:
            state = step(LEEKHA, state, inp)
            if LEEKHA.view(state, None)["decided"] is not None and not LEEKHA.is_over(state):
                ended = step(LEEKHA, state, EndEarly(inp.at))
                assert ended.phase is LeekhaPhase.MATCH_END
                assert ended.verdict is not None and ended.verdict.early
                assert LEEKHA.result(ended).finished
                return
    pytest.fail("no random Leekha match was ever decided early")


def test_leekha_refuses_an_early_end_before_the_match_is_decided() -> None:
    engine, state = started("leekha")
    assert refused(engine, state, EndEarly(10)) == "NOT_DECIDED"


def _engine_modules() -> list[Path]:
    return sorted(p for p in ENGINES_DIR.rglob("*.py") if p.name != "__init__.py" or p.parent != ENGINES_DIR)


def test_no_engine_looks_up_a_capability_with_getattr_or_defines_its_own_apply() -> None:
    offenders = []
    for path in _engine_modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
                offenders.append(f"{path.name}:{node.lineno} getattr")
            if isinstance(node, ast.ClassDef) and node.name != "Engine":
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "apply":
                        offenders.append(f"{path.name}:{item.lineno} {node.name}.apply")
    assert not offenders


@pytest.mark.parametrize("name", NAMES)
def test_every_engine_subclasses_the_engine_base(name: str) -> None:
    engine = ALL_ENGINES[name]
    assert isinstance(engine, Engine) and type(engine).apply is Engine.apply
