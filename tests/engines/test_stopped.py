"""Every game can be ended by the host as it stands, or resigned with two players: the stopped game
is over, shows each seat what it showed before (nothing more), keeps the scores so far, and its log
rebuilds it exactly."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from app.bots import random_player_for
from app.bots.playout import playout
from app.engines import ALL_ENGINES
from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.step import HostEnd, Input, Tick, step
from app.engines.stopped import Stopped, game_engine
from tests.engines.test_every_engine import fast_options


def halfway(name: str, players: int) -> tuple[Any, list[Input], Any]:
    """The room engine of ``name``, the first half of a random game's log, and the state it leads to."""
    engine = game_engine(name)
    options = engine.options_model.model_validate(fast_options(name))
    seed = f"stopped-{name}-{players}"
    log = playout(
        engine, players, options, seed, random.Random(seed), [random_player_for(name)] * players
    ).log
    state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
    half = list(log[: len(log) // 2])
    for inp in half:
        state = step(engine, state, inp)
    return engine, half, state


def rebuilt(engine: Any, players: int, log: list[Input], seed_of: str) -> Any:
    options = engine.options_model.model_validate(fast_options(engine.name))
    state = engine.start([SeatSetup() for _ in range(players)], options, seed_of, 0)
    for inp in log:
        state = step(engine, state, inp)
    return state


def last_at(log: list[Input]) -> int:
    return max((inp.at for inp in log), default=0)


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_the_host_ends_any_game_as_it_stands_with_the_scores_so_far(name: str) -> None:
    players = ALL_ENGINES[name].min_players
    engine, half, before = halfway(name, players)
    at = last_at(half) + 1
    ended = step(engine, before, HostEnd(at))
    assert isinstance(ended, Stopped) and engine.is_over(ended) and engine.next_deadline(ended) is None
    assert engine.stimuli(ended) == ()
    outcome = engine.result(ended)
    so_far = engine.inner.result(ended.state)
    assert outcome.finished and outcome.winners == () and outcome.scores == so_far.scores
    assert outcome.detail["stopped"] == {"by": "host", "at": at}
    for seat in [None, *range(players)]:
        shown = engine.view(ended, seat)
        assert shown["legal"] == [] and shown["stopped"] == {"by": "host", "at": at}
        as_it_stood = engine.inner.view(ended.state, seat)
        assert {k: v for k, v in shown.items() if k not in ("legal", "stopped")} == {
            k: v for k, v in as_it_stood.items() if k != "legal"
        }, "a stopped game shows each seat what the game showed it, nothing more"
    again = rebuilt(engine, players, [*half, HostEnd(at)], f"stopped-{name}-{players}")
    assert orjson.dumps(engine.result(again).to_json()) == orjson.dumps(outcome.to_json())
    assert engine.view(again, 0) == engine.view(ended, 0)


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_a_stopped_game_takes_no_more_moves_and_its_clock_changes_nothing(name: str) -> None:
    engine, half, before = halfway(name, ALL_ENGINES[name].min_players)
    ended = step(engine, before, HostEnd(last_at(half) + 1))
    assert step(engine, ended, Tick(10**9)) is ended
    for inp in (Move(0, {"type": "resign"}, 10**9), HostEnd(10**9)):
        with pytest.raises(IllegalAction) as refused:
            step(engine, ended, inp)
        assert refused.value.code == "GAME_OVER"


@pytest.mark.parametrize("name", sorted(n for n, e in ALL_ENGINES.items() if e.min_players == 2))
def test_in_a_two_player_game_the_seat_that_resigns_loses(name: str) -> None:
    engine, half, before = halfway(name, 2)
    at = last_at(half) + 1
    resigned = step(engine, before, Move(0, {"type": "resign"}, at))
    outcome = engine.result(resigned)
    assert outcome.finished and outcome.winners == (1,)
    assert outcome.detail["stopped"] == {"by": "resign", "seat": 0, "at": at}


@pytest.mark.parametrize("name", sorted(n for n, e in ALL_ENGINES.items() if e.max_players > 2))
def test_resigning_with_more_than_two_players_is_refused(name: str) -> None:
    engine, half, before = halfway(name, max(3, ALL_ENGINES[name].min_players))
    with pytest.raises(IllegalAction) as refused:
        step(engine, before, Move(1, {"type": "resign"}, last_at(half) + 1))
    assert refused.value.code == "NOT_TWO_PLAYERS"


def test_a_resignation_with_extra_fields_is_a_bad_action() -> None:
    engine = game_engine("slap")
    with pytest.raises(IllegalAction) as refused:
        engine.parse({"type": "resign", "seat": 1})
    assert refused.value.code == "BAD_ACTION"
