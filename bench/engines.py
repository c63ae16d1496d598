"""Engine speed without a server: complete random games per second, and the median cost of one
``step`` plus ``view`` for every seat (what the room does per accepted action).

    python -m bench.engines                 # every registered game, every player count, ~2 s each
    python -m bench.engines --game slap --seconds 5

No pass/fail: it prints figures for a person to read.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from app.bots import Chooser, random_player_for
from app.bots.playout import playout
from app.engines import ALL_ENGINES
from app.engines.base import Engine, Move, SeatSetup
from app.engines.step import step


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


def apply_and_views_us(engine: Engine[Any, Any], players: int, samples: int = 2000) -> float:
    """Median µs of one accepted move plus the views of all seats and a spectator."""
    options = engine.options_model.model_validate({})
    rng = random.Random(2)
    timings: list[float] = []
    game_no = 0
    while len(timings) < samples:
        game = playout(engine, players, options, f"apply-{game_no}", rng, random_players(engine, players))
        game_no += 1
        state = engine.start([SeatSetup() for _ in range(players)], options, f"apply-{game_no - 1}", 0)
        for inp in game.log:
            if not isinstance(inp, Move):
                state = step(engine, state, inp)
                continue
            t0 = time.perf_counter()
            state = step(engine, state, inp)
            for seat in [*range(players), None]:
                engine.view(state, seat)
            timings.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=sorted(ALL_ENGINES), action="append", help="only these games")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and player count")
    args = parser.parse_args()
    names = args.game or sorted(ALL_ENGINES)
    print(f"{'game':<8} {'players':>7} {'games/s':>9} {'inputs/game':>12} {'apply+views µs (median)':>24}")
    for name in names:
        engine = ALL_ENGINES[name]
        for players in range(engine.min_players, engine.max_players + 1):
            rate, inputs = games_per_second(engine, players, args.seconds)
            cost = apply_and_views_us(engine, players)
            print(f"{name:<8} {players:>7} {rate:>9.1f} {inputs:>12.0f} {cost:>24.1f}")


if __name__ == "__main__":
    main()
