"""Play a whole game with no server: players choose from the views' legal actions, time moves on.

The same driver serves the generic random-playout tests of every engine, the
engine benchmark and bot-versus-bot matches. It only uses the engine contract:
each step either one seat acts (one of the actions its view lists) or the
clock jumps to the next deadline and the engine ticks.

>>> from app.engines import get_engine
>>> engine = get_engine("slap")
>>> options = engine.options_model.model_validate({"rounds": 1})
>>> game = playout(engine, 2, options, seed="doc", rng=random.Random(1))
>>> game.outcome.finished
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots import Chooser, random_choice
from app.engines.base import JSON, Engine, EngineOptions, Move, Outcome, SeatSetup


@dataclass(frozen=True, slots=True)
class Step:
    """One input of the log: a move, or a tick at ``at`` (``seat`` None)."""

    at: int
    seat: int | None = None
    action: JSON | None = None


@dataclass
class Playout:
    state: Any
    outcome: Outcome
    log: list[Step] = field(default_factory=list)
    views: int = 0


def replay(
    engine: Engine[Any, Any], players: int, options: EngineOptions, seed: str, log: Sequence[Step]
) -> Any:
    state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
    for step in log:
        if step.seat is None:
            state = engine.tick(state, step.at)
        else:
            assert step.action is not None
            state = engine.apply(state, Move(seat=step.seat, action=step.action, at=step.at))
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
    """Play to the end. ``choosers[seat]`` picks for that seat (random by default)."""
    pick = list(choosers) if choosers is not None else [random_choice] * players
    state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
    game = Playout(state=state, outcome=engine.result(state))
    now = 0
    for _ in range(max_steps):
        if engine.result(state).finished:
            break
        wanted: list[tuple[int, JSON]] = []
        for seat in range(players):
            view = engine.view(state, seat)
            game.views += 1
            action = pick[seat](view, rng)
            if action is not None:
                wanted.append((seat, action))
        deadline = engine.next_deadline(state)
        if wanted and (deadline is None or rng.random() < act_probability):
            seat, action = rng.choice(wanted)
            at = now + rng.randint(0, 40)
            if deadline is not None and at > deadline:
                # The room fires a deadline that passed before an action arrived first.
                state = engine.tick(state, deadline)
                game.log.append(Step(at=deadline))
                now = deadline
                continue
            now = at
            state = engine.apply(state, Move(seat=seat, action=action, at=now))
            game.log.append(Step(at=now, seat=seat, action=action))
        elif deadline is not None:
            now = max(now, deadline)
            state = engine.tick(state, now)
            game.log.append(Step(at=now))
        else:
            raise RuntimeError(f"{engine.name}: nobody can act and no deadline is pending")
        if on_step is not None:
            on_step(state)
    else:
        raise RuntimeError(f"{engine.name}: no end after {max_steps} steps")
    game.state = state
    game.outcome = engine.result(state)
    return game
