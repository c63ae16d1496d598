"""A game's input log is the game: replaying it through ``step`` from the seed shows every seat the same.

Random games of every engine and player count are played by the generic
driver; for each one the log, the result and every view (each seat and the
spectator) after every input are stored, as views are what players saw. The
log is then replayed through :func:`app.engines.step.step` and every stored
view and the result must come back byte for byte.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from app.bots import random_player_for
from app.bots.playout import playout
from app.engines import ALL_ENGINES
from app.engines.base import SeatSetup
from app.engines.step import step
from tests.engines.test_every_engine import fast_options

GAMES_PER_CASE = 20


def views_of(engine: Any, state: Any, players: int) -> list[bytes]:
    return [orjson.dumps(engine.view(state, seat)) for seat in [None, *range(players)]]


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_replaying_a_log_reproduces_every_view_and_the_result(name: str) -> None:
    engine = ALL_ENGINES[name]
    options = engine.options_model.model_validate(fast_options(name))
    for players in range(engine.min_players, engine.max_players + 1):
        for game_no in range(GAMES_PER_CASE):
            seed = f"replay-{name}-{players}-{game_no}"
            seen: list[list[bytes]] = []

            def record(state: Any, seen: list[list[bytes]] = seen, players: int = players) -> None:
                seen.append(views_of(engine, state, players))

            choosers = [random_player_for(name)] * players
            rng = random.Random(f"{seed}-driver")
            game = playout(engine, players, options, seed, rng, choosers, on_step=record)
            assert game.outcome.finished and len(seen) == len(game.log)

            state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
            for index, inp in enumerate(game.log):
                state = step(engine, state, inp)
                assert views_of(engine, state, players) == seen[index], (seed, index, inp)
            assert engine.result(state) == game.outcome
            assert orjson.dumps(engine.result(state).to_json()) == orjson.dumps(game.outcome.to_json())
