"""Engine speed without a server: complete random games per second, and the median cost of what
the room does per accepted action without any I/O: the ``step``, the views of every seat and a
spectator (built together), and each view's patch against the one before it, encoded.

    python -m bench.engines                 # every registered game, every player count, ~2 s each
    python -m bench.engines --game slap --seconds 5

No pass/fail: it prints figures for a person to read.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

import orjson

from app.bots import Chooser, random_player_for
from app.bots.playout import playout
from app.engines import ALL_ENGINES
from app.engines.base import Engine, Move, SeatSetup
from app.engines.step import step
from app.rooms.diff import Shared, diff_shared


def random_players(engine: Engine[Any, Any], players: int) -> list[Chooser]:
    return [random_player_for(engine.name)] * players


def games_per_second(engine: Engine[Any, Any], players: int, seconds: float) -> tuple[float, float]:
    """Random games played to the end per second, and inputs per game."""
    options = engine.options_model.model_validate({})
    games = steps = 0
    rng = random.Random(1)
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or games == 0:
        game = playout(engine, players, options, f"bench-{games}", rng, random_players(engine, players))
        games += 1
        steps += len(game.log)
    elapsed = time.perf_counter() - started
    return games / elapsed, steps / games


@dataclass(frozen=True, slots=True)
class StepCost:
    """Median µs of what a room does per accepted move, part by part."""

    apply: float
    """``step``: the move parsed and applied."""
    views: float
    """``Engine.views`` of every seat and a spectator, built together as the room builds them."""
    patches: float
    """Each view diffed against the one before it (``diff_shared``, as ``Frames.broadcast`` does)
    and the ops encoded as JSON."""

    @property
    def total(self) -> float:
        return self.apply + self.views + self.patches


def step_cost(engine: Engine[Any, Any], players: int, samples: int = 2000) -> StepCost:
    """The median cost of each part of one accepted move, over moves of random games."""
    options = engine.options_model.model_validate({})
    rng = random.Random(2)
    keys: list[int | None] = [*range(players), None]
    parts: tuple[list[float], list[float], list[float]] = ([], [], [])
    game_no = 0
    while len(parts[0]) < samples:
        game = playout(engine, players, options, f"apply-{game_no}", rng, random_players(engine, players))
        game_no += 1
        state = engine.start([SeatSetup() for _ in range(players)], options, f"apply-{game_no - 1}", 0)
        last = engine.views(state, keys)
        for inp in game.log:
            if not isinstance(inp, Move):
                state = step(engine, state, inp)
                last = engine.views(state, keys)
                continue
            t0 = time.perf_counter()
            state = step(engine, state, inp)
            t1 = time.perf_counter()
            views = engine.views(state, keys)
            t2 = time.perf_counter()
            shared: Shared = {}
            for key in keys:
                orjson.dumps(diff_shared(last[key], views[key], shared))
            t3 = time.perf_counter()
            last = views
            for part, spent in zip(parts, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                part.append(spent * 1e6)
    return StepCost(*(statistics.median(part) for part in parts))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=sorted(ALL_ENGINES), action="append", help="only these games")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and player count")
    args = parser.parse_args()
    names = args.game or sorted(ALL_ENGINES)
    print(
        f"{'game':<8} {'players':>7} {'games/s':>9} {'inputs/game':>12}"
        f" {'apply µs':>9} {'views µs':>9} {'patches µs':>11} {'sum':>7}"
    )
    for name in names:
        engine = ALL_ENGINES[name]
        for players in range(engine.min_players, engine.max_players + 1):
            rate, inputs = games_per_second(engine, players, args.seconds)
            cost = step_cost(engine, players)
            print(
                f"{name:<8} {players:>7} {rate:>9.1f} {inputs:>12.0f}"
                f" {cost.apply:>9.1f} {cost.views:>9.1f} {cost.patches:>11.1f} {cost.total:>7.1f}"
            )


if __name__ == "__main__":
    main()
