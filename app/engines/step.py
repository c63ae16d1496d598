"""The one door every input goes through: a player's move, the clock, or the host's end.

Rooms, replays, bots and tests all feed an engine through :func:`step`, so the
checks every game shares live here once: no move after the end, only seated
players move, the action is parsed before anything happens, and a deadline
strictly before an input fires first (the input arrived after it had passed,
even if its tick has not come in yet). A deadline at the input's own
millisecond fires after the input.

>>> from app.engines import get_engine
>>> from app.engines.base import SeatSetup
>>> eng = get_engine("slap")
>>> s = eng.start([SeatSetup()] * 2, eng.options_model.model_validate({"first_starter": 0}), "doc", 0)
>>> eng.next_deadline(s)
2000
>>> s = step(eng, s, Move(0, {"type": "nu"}, 500))
>>> s.phase.value, s.reveal_at
('NU_CALLED', 1100)
>>> step(eng, s, Move(2, {"type": "nu"}, 600))
Traceback (most recent call last):
...
app.engines.base.IllegalAction: You are not seated at this table.
>>> step(eng, s, Tick(1100)).phase.value
'FLIP_OPEN'
>>> step(eng, s, EndEarly(1200))
Traceback (most recent call last):
...
app.engines.base.IllegalAction: A game of Slap cannot be ended early.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from app.engines.base import Engine, IllegalAction, Move


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock reached ``at``: fire every deadline ``<= at``."""

    at: int


@dataclass(frozen=True, slots=True)
class EndEarly:
    """The host ends the match at ``at`` (where the game allows it, e.g. a decided Leekha match)."""

    at: int


@dataclass(frozen=True, slots=True)
class HostEnd:
    """The host ends the game at ``at`` as it stands, whatever the game (scores so far, no winner)."""

    at: int


Input = Move | Tick | EndEarly | HostEnd
"""One entry of a game's input log; replaying a log through :func:`step` rebuilds the game."""

S = TypeVar("S")


def _game_over() -> IllegalAction:
    return IllegalAction("GAME_OVER", "The game is over.")


def _catch_up(engine: Engine[S, Any], state: S, at: int) -> S:
    """Fire every deadline strictly before ``at``; GAME_OVER if one of them ended the game."""
    due = engine.next_deadline(state)
    if due is not None and due < at:
        state = engine.tick(state, at - 1)
        if engine.is_over(state):
            raise _game_over()
    return state


def step(engine: Engine[S, Any], state: S, inp: Input) -> S:
    """The state after one input; on ``IllegalAction`` the given state stays as it was."""
    if isinstance(inp, Tick):
        return engine.tick(state, inp.at)
    if engine.is_over(state):
        raise _game_over()
    if isinstance(inp, EndEarly):
        return engine.end_early(_catch_up(engine, engine.begin_step(state), inp.at), inp.at)
    if isinstance(inp, HostEnd):
        return engine.end_by_host(_catch_up(engine, engine.begin_step(state), inp.at), inp.at)
    seat = inp.seat
    # type() rather than isinstance(): True is an int to Python, not a seat.
    if type(seat) is not int or not 0 <= seat < engine.players(state):
        raise IllegalAction("NOT_SEATED", "You are not seated at this table.")
    action = engine.parse(inp.action)
    state = _catch_up(engine, engine.begin_step(state), inp.at)
    return engine.play(state, inp, action)
