"""Play a whole game with no server: players choose from the views' legal actions, time moves on.

The same driver serves the generic random-playout tests of every engine, the
engine benchmark and bot-versus-bot matches. It only uses the engine contract:
each step either one seat acts (one of the actions its view lists) or the
clock jumps to the next deadline and the engine ticks. Every input goes
through :func:`app.engines.step.step` and into the game's log, so
:func:`replay` rebuilds the game from its seed.

>>> from app.engines import get_engine
>>> engine = get_engine("slap")
>>> options = engine.options_model.model_validate({"rounds": 1})
>>> game = playout(engine, 2, options, seed="doc", rng=random.Random(1))
>>> game.outcome.finished
True
>>> replay(engine, 2, options, "doc", game.log) == game.state
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots import Chooser, random_player_for
from app.engines.base import JSON, Engine, EngineOptions, Move, Outcome, SeatSetup
from app.engines.step import Input, Tick, step


@dataclass
class Playout:
    """A finished game: its last state and result, its input log and how many views the players read."""

    state: Any
    outcome: Outcome
    log: list[Input] = field(default_factory=list)
    views: int = 0


def replay(
    engine: Engine[Any, Any], players: int, options: EngineOptions, seed: str, log: Sequence[Input]
) -> Any:
    """Rebuild a game from its seed and input log (started at 0 with no seat prefs), through :func:`step`."""
    state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
    for inp in log:
        state = step(engine, state, inp)
    return state


def playout(
    engine: Engine[Any, Any],
    players: int,
    options: EngineOptions,
    seed: str,
    rng: random.Random,
    choosers: Sequence[Chooser] | None = None,
    act_probability: float = 0.7,
    max_steps: int = 200_000,
    on_step: Callable[[Any], None] | None = None,
) -> Playout:
    """Play to the end. ``choosers[seat]`` picks for that seat (the game's random player by default:
    where a view lists kinds of action, not moves, a random pick from ``legal`` could be refused)."""
    pick = list(choosers) if choosers is not None else [random_player_for(engine.name)] * players
    state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
    game = Playout(state=state, outcome=engine.result(state))
    now = 0
    for _ in range(max_steps):
        if engine.is_over(state):
            break
        wanted: list[tuple[int, JSON]] = []
        for seat in range(players):
            view = engine.view(state, seat)
            game.views += 1
            action = pick[seat](view, rng)
            if action is not None:
                wanted.append((seat, action))
        deadline = engine.next_deadline(state)
        inp: Input
        if wanted and (deadline is None or rng.random() < act_probability):
            seat, action = rng.choice(wanted)
            at = now + rng.randint(0, 40)
            # The room fires a deadline that passed before an action arrived first.
            inp = Tick(deadline) if deadline is not None and at > deadline else Move(seat, action, at)
        elif deadline is not None:
            inp = Tick(max(now, deadline))
        else:
            raise RuntimeError(f"{engine.name}: nobody can act and no deadline is pending")
        state = step(engine, state, inp)
        game.log.append(inp)
        now = inp.at
        if on_step is not None:
            on_step(state)
    else:
        raise RuntimeError(f"{engine.name}: no end after {max_steps} steps")
    game.state = state
    game.outcome = engine.result(state)
    return game
