"""Ending a game from outside its rules: the host ends it as it stands, or a player resigns.

Every game can be stopped, so this lives once, around the game's own engine
(:func:`stoppable`), instead of in each of them. A stopped game is the game's
state as it stood plus who stopped it and when; it is over, has no deadline and
no legal move, and its result keeps the scores so far. Both ways in are logged
inputs through :func:`~app.engines.step.step`: the host's ``HostEnd`` and a
seat's move ``{"type": "resign"}``, so replaying the log stops the game again
at the same point.

>>> from app.engines.base import Move, SeatSetup
>>> from app.engines.step import HostEnd, step
>>> eng = stoppable(get_engine("slap"))
>>> s = eng.start([SeatSetup()] * 2, eng.options_model.model_validate({}), "doc", 0)
>>> s = step(eng, s, Move(1, {"type": "resign"}, 100))
>>> eng.is_over(s), eng.result(s).winners, eng.result(s).detail["stopped"]
(True, (0,), {'by': 'resign', 'seat': 1, 'at': 100})
>>> eng.result(step(eng, eng.start([SeatSetup()] * 2, eng.options_model.model_validate({}), "doc", 0),
...     HostEnd(50))).detail["stopped"]
{'by': 'host', 'at': 50}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engines import get_engine
from app.engines.base import JSON, Engine, IllegalAction, Move, Outcome, SeatSetup

RESIGN = {"type": "resign"}
"""The action a seat sends to resign a two-player game (the other seat wins)."""


@dataclass(frozen=True, slots=True)
class Resign:
    """The parsed resignation (the seat is the move's)."""


@dataclass(frozen=True, slots=True)
class Stopped:
    """A game ended from outside its rules: ``state`` as it stood, ``resigned`` the seat that resigned
    (None: the host ended it), at room time ``at``."""

    state: Any
    at: int
    resigned: int | None = None

    def to_json(self) -> JSON:
        if self.resigned is None:
            return {"by": "host", "at": self.at}
        return {"by": "resign", "seat": self.resigned, "at": self.at}


class Stoppable(Engine[Any, Any]):
    """``inner``'s rules, plus the host's end and resigning; see the module doc."""

    def __init__(self, inner: Engine[Any, Any]) -> None:
        self.inner = inner

    def start(self, seats: Sequence[SeatSetup], options: Any, seed: str, now: int) -> Any:
        return self.inner.start(seats, options, seed, now)

    def players(self, state: Any) -> int:
        return self.inner.players(_game(state))

    def is_over(self, state: Any) -> bool:
        return isinstance(state, Stopped) or self.inner.is_over(state)

    def parse(self, action: object) -> Any:
        if isinstance(action, dict) and action.get("type") == RESIGN["type"]:
            if action != RESIGN:
                raise IllegalAction("BAD_ACTION", 'Resigning takes no fields: send {"type": "resign"}.')
            return Resign()
        return self.inner.parse(action)

    def play(self, state: Any, move: Move, action: Any) -> Any:
        if isinstance(action, Resign):
            if self.inner.players(state) != 2:
                raise IllegalAction(
                    "NOT_TWO_PLAYERS", "Only a two-player game can be resigned; leave the table instead."
                )
            return Stopped(state, move.at, resigned=move.seat)
        return self.inner.play(state, move, action)

    def end_by_host(self, state: Any, at: int) -> Any:
        return Stopped(state, at)

    def tick(self, state: Any, now: int) -> Any:
        return state if isinstance(state, Stopped) else self.inner.tick(state, now)

    def next_deadline(self, state: Any) -> int | None:
        return None if isinstance(state, Stopped) else self.inner.next_deadline(state)

    def view(self, state: Any, seat: int | None) -> JSON:
        return self.views(state, (seat,))[seat]

    def views(self, state: Any, seats: Sequence[int | None]) -> dict[int | None, JSON]:
        if not isinstance(state, Stopped):
            return self.inner.views(state, seats)
        # The game's own views as it stood (hiding what it hid), with nothing left to do.
        stopped = state.to_json()
        views = {}
        for seat, inner in self.inner.views(state.state, seats).items():
            view = views[seat] = {**inner, "stopped": stopped}
            if "legal" in view:
                view["legal"] = []
        return views

    def result(self, state: Any) -> Outcome:
        if not isinstance(state, Stopped):
            return self.inner.result(state)
        so_far = self.inner.result(state.state)
        # Ended by the host: nobody won. Resigned (two players): the other seat won.
        winners = () if state.resigned is None else (1 - state.resigned,)
        detail = {**so_far.detail, "stopped": state.to_json()}
        return Outcome(finished=True, scores=so_far.scores, winners=winners, detail=detail)

    def stimuli(self, state: Any) -> tuple[str, ...]:
        return () if isinstance(state, Stopped) else self.inner.stimuli(state)

    def has_races(self) -> bool:
        return self.inner.has_races()

    def rulings(self, state: Any) -> Sequence[JSON]:
        return self.inner.rulings(_game(state))

    def team_seats(self, options: Any) -> tuple[tuple[int, ...], ...] | None:
        return self.inner.team_seats(options)

    def end_early(self, state: Any, at: int) -> Any:
        return self.inner.end_early(state, at)

    def begin_step(self, state: Any) -> Any:
        return self.inner.begin_step(state)

    def hidden_cards(self, state: Any, seat: int) -> list[Any] | None:
        return self.inner.hidden_cards(_game(state), seat)


def _game(state: Any) -> Any:
    return state.state if isinstance(state, Stopped) else state


_WRAPPED: dict[str, Stoppable] = {}


def stoppable(engine: Engine[Any, Any]) -> Stoppable:
    """``engine`` as rooms and replays run it: the same game, which the host can end and a seat resign."""
    wrapped = _WRAPPED.get(engine.name)
    if wrapped is None or wrapped.inner is not engine:
        # The game's class attributes (name, seats, options model, protocol) on a class of its own.
        attrs = {
            "name": engine.name,
            "title": engine.title,
            "min_players": engine.min_players,
            "max_players": engine.max_players,
            "options_model": engine.options_model,
            "prefs_model": engine.prefs_model,
            "protocol": engine.protocol,
        }
        cls = type(f"Stoppable{type(engine).__name__}", (Stoppable,), attrs)
        wrapped = _WRAPPED[engine.name] = cls(engine)
    return wrapped


def game_engine(name: str) -> Stoppable:
    """The engine a room runs the game ``name`` with (and replays its log with)."""
    return stoppable(get_engine(name))
