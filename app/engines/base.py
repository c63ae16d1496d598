"""The engine contract every game implements.

An engine is a pure rules core: no asyncio, no I/O, no clock reads, no global
``random``. Time arrives as integer milliseconds of the room clock and chance
comes from the seeded RNG that the state owns (:mod:`app.engines.rng`).

The same seed, options and input log always rebuild the same state; that is
how crash recovery and replays work.

>>> err = IllegalAction("NOT_STARTER", "Only the starter can call Nu!")
>>> err.code, str(err)
('NOT_STARTER', 'Only the starter can call Nu!')
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

JSON = dict[str, Any]


class IllegalAction(Exception):
    """The one error an engine raises for a move the rules do not allow.

    ``code`` is stable (clients and tests match on it); ``message`` is for the
    player. The state passed to the engine is untouched when this is raised.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class Move:
    """One player's input as the room hands it to the engine (and as it is logged).

    ``at`` is the server arrival time in room-clock ms. ``rtt`` is the round
    trip the room measured for that player's connection (None when unknown);
    engines that judge reaction races use it through :mod:`app.engines.race`.
    """

    seat: int
    action: Mapping[str, Any]
    at: int
    rtt: int | None = None


class EngineOptions(BaseModel):
    """Base of every engine's options model: strict, JSON-schema friendly."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """What the lobby knows about a seat when the game starts (e.g. a chosen colour)."""

    prefs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result record of a game, finished or not (python-chess style).

    ``scores`` is indexed by seat; ``winners`` lists the winning seats (several
    on a shared win); ``detail`` is engine-specific JSON (per-round tables...).
    """

    finished: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()
    detail: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "finished": self.finished,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "detail": self.detail,
        }


S = TypeVar("S")
# Options only flow into an engine, hence contravariant.
OptionsT = TypeVar("OptionsT", bound=EngineOptions, contravariant=True)


class Engine(Protocol, Generic[S, OptionsT]):
    """The surface rooms, bots, replays and the UI shell rely on.

    Rules for implementers:

    * ``apply`` and ``tick`` return the new state; on ``IllegalAction`` the
      given state is unchanged (validate before mutating, or copy what you change).
    * ``tick(state, now)`` fires every deadline ``<= now``; ``next_deadline``
      gives the earliest pending one. A room calls ``tick`` exactly when the
      deadline is reached and logs it like any move.
    * ``view(state, seat)`` returns JSON-ready data that seat may see; ``None``
      is a spectator. Hidden cards never appear in it, not even as ids. It
      contains ``"legal"``: the actions that seat may take now.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[EngineOptions]]

    def start(self, seats: Sequence[SeatSetup], options: OptionsT, seed: str, now: int) -> S: ...

    def apply(self, state: S, move: Move) -> S: ...

    def tick(self, state: S, now: int) -> S: ...

    def next_deadline(self, state: S) -> int | None: ...

    def view(self, state: S, seat: int | None) -> JSON: ...

    def result(self, state: S) -> Outcome: ...


def seed_hash(seed: str) -> str:
    """The public commitment to a deal: ``sha256(seed)`` in hex.

    >>> seed_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode()).hexdigest()
