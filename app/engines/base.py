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
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from app.engines.protocol import GameProtocol

JSON = dict[str, Any]


class IllegalAction(Exception):
    """The one error an engine raises for a move the rules do not allow.

    ``code`` is stable (clients and tests match on it); ``message`` is for the
    player; ``detail`` optionally structures the reasons for clients (sent in the
    reject as is). The state passed to the engine is untouched when this is raised.
    """

    def __init__(self, code: str, message: str, detail: JSON | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class Link:
    """What the room measured of one seat's connection, as a reaction race needs it.

    ``rtt`` is the connection's round trip (the smallest recent clock-sync sample)
    and ``jitter`` its jitter band (a high percentile minus that minimum), both in
    ms and None until measured. ``sent`` maps each live stimulus (a key from the
    engine's ``stimuli``) to the room-clock time the frame first carrying it was
    written to this seat's socket. ``verified`` is the round trip and jitter
    allowance (ms) the client could not delay: its TCP connection as the
    server's kernel or a trusted proxy measured it (:data:`app.engines.race.Verified`);
    ``unverifiable`` says the room knows there is none for this connection (a
    proxy that forwards none). Both are logged only when set, so older logs
    replay as they were.
    """

    rtt: int | None = None
    jitter: int | None = None
    sent: Mapping[str, int] = field(default_factory=dict)
    verified: tuple[int, int] | None = None
    unverifiable: bool = False

    def to_json(self) -> JSON:
        data: JSON = {"rtt": self.rtt, "jitter": self.jitter, "sent": dict(self.sent)}
        if self.verified is not None:
            data["verified"] = list(self.verified)
        if self.unverifiable:
            data["unverifiable"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Link:
        sent = data.get("sent") or {}
        verified = data.get("verified")
        return cls(
            rtt=_opt_int(data.get("rtt")),
            jitter=_opt_int(data.get("jitter")),
            sent={str(k): int(v) for k, v in sent.items()},
            verified=None if verified is None else (int(verified[0]), int(verified[1])),
            unverifiable=bool(data.get("unverifiable", False)),
        )


@dataclass(frozen=True, slots=True)
class Timing:
    """The server's timing inputs for a move made while a race stimulus was live.

    ``links`` is indexed by seat: the claimer's entry is the connection the move
    came through, the others the seat's connection (None for a seat with none).
    Everything a race ruling uses is here or in the move itself, so replaying
    the logged move reproduces the ruling.
    """

    links: tuple[Link | None, ...]

    def link(self, seat: int) -> Link | None:
        return self.links[seat] if 0 <= seat < len(self.links) else None

    def to_json(self) -> JSON:
        return {"links": [None if link is None else link.to_json() for link in self.links]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Timing:
        return cls(tuple(None if x is None else Link.from_json(x) for x in data.get("links") or ()))


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True, slots=True)
class Move:
    """One player's input as the room hands it to the engine (and as it is logged).

    ``at`` is the server arrival time in room-clock ms. ``rtt`` is the round
    trip the room measured for that player's connection (None when unknown).
    ``timing`` is set when the move was made while the engine reported a live
    race stimulus (see ``stimuli`` below); engines that judge reaction races use
    both through :mod:`app.engines.race`.

    >>> m = Move(1, {"type": "slap", "flip": 3}, 1200, 40, Timing((None, Link(40, 3, {"flip:3": 1010}))))
    >>> m.timing.link(1).sent
    {'flip:3': 1010}
    """

    seat: int
    action: Mapping[str, Any]
    at: int
    rtt: int | None = None
    timing: Timing | None = None


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


class SeatPrefs(BaseModel):
    """Base of every engine's per-seat preferences (what a player picks when taking a seat).

    The room validates a seat's prefs with the engine's ``prefs_model`` and hands
    them to ``start`` as the plain mapping ``SeatSetup.prefs``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)


class NoPrefs(SeatPrefs):
    """The prefs of a game that offers none: only ``{}`` validates.

    >>> NoPrefs.model_validate({}).model_dump()
    {}
    """


S = TypeVar("S")
# Options only flow into an engine, hence contravariant.
OptionsT = TypeVar("OptionsT", bound=EngineOptions, contravariant=True)


class Engine(ABC, Generic[S, OptionsT]):
    """The surface rooms, bots, replays and the UI shell rely on; every game subclasses it.

    Every input goes through one door, :func:`app.engines.step.step` (``apply``
    is that door for a move): it refuses moves after the end and from unseated
    seats, has the engine ``parse`` the untrusted action, fires any deadline that
    passed before the move arrived and only then hands the move to ``play``. So
    an engine only writes the rules of its game.

    Rules for implementers:

    * ``play``, ``tick`` and ``end_early`` return the new state; on
      ``IllegalAction`` the given state is unchanged (validate before mutating,
      or copy what you change).
    * ``tick(state, now)`` fires every deadline ``<= now``; ``next_deadline``
      gives the earliest pending one. A room calls ``tick`` exactly when the
      deadline is reached and logs it like any move.
    * ``view(state, seat)`` returns JSON-ready data that seat may see; ``None``
      is a spectator. Hidden cards never appear in it, not even as ids. It
      contains ``"legal"``: the actions that seat may take now.

    The optional capabilities have defaults here (a game without them keeps
    them): ``views`` for building several seats' views at once,
    ``stimuli``/``rulings`` for reaction races, ``team_seats`` for team games,
    ``end_early`` for a host's early end of a decided match, ``end_by_host``
    for ending any game as it stands and ``begin_step`` for engines that keep
    a per-input log.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[EngineOptions]]
    prefs_model: ClassVar[type[SeatPrefs]] = NoPrefs
    protocol: ClassVar[GameProtocol]
    """What clients need to know: actions, view keys, phases, card ids, rule codes (docs/protocol.md)."""

    # -- what every game implements ------------------------------------------------

    @abstractmethod
    def start(self, seats: Sequence[SeatSetup], options: OptionsT, seed: str, now: int) -> S:
        """The state at the first deal (``IllegalAction("BAD_OPTIONS"...)`` for options the seats defeat)."""

    @abstractmethod
    def players(self, state: S) -> int:
        """How many seats the game has; a move's seat must be from 0 to this minus one."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Whether the game has ended (no move, tick or early end changes it any more)."""

    @abstractmethod
    def parse(self, action: object) -> Any:
        """Validate an untrusted client action (decoded JSON) into the engine's own action value.

        Raises ``IllegalAction`` ``BAD_ACTION`` or ``UNKNOWN_ACTION`` (see
        :mod:`app.engines.inputs`); it looks at nothing but the action.
        """

    @abstractmethod
    def play(self, state: S, move: Move, action: Any) -> S:
        """The rules for one parsed move.

        Only :func:`~app.engines.step.step` calls it, after checking that the
        game is not over and the seat is valid, and after firing every deadline
        strictly before ``move.at``; ``action`` is what ``parse`` returned.
        """

    @abstractmethod
    def tick(self, state: S, now: int) -> S: ...

    @abstractmethod
    def next_deadline(self, state: S) -> int | None: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON: ...

    @abstractmethod
    def result(self, state: S) -> Outcome: ...

    # -- the one door ------------------------------------------------------------------

    def apply(self, state: S, move: Move) -> S:
        """Apply one player's move: ``step(self, state, move)``."""
        from app.engines.step import step  # step.py builds on this module

        return step(self, state, move)

    # -- capabilities with defaults --------------------------------------------------

    def views(self, state: S, seats: Sequence[int | None]) -> dict[int | None, JSON]:
        """The views of several seats at once, each equal to ``view(state, seat)`` (the room builds
        every connected seat's after each turn). A game whose views share a large public part
        builds it once and puts the same objects in each view, so the room diffs it once too."""
        return {seat: self.view(state, seat) for seat in seats}

    def stimuli(self, state: S) -> tuple[str, ...]:
        """Keys of the race stimuli now live (e.g. ``"flip:7"`` while Slap's flip 7 is face up).

        The room notes, per connection, when the frame first showing each one
        was written, and hands those times to every move made while one is live
        (``Move.timing``). No races: none.
        """
        return ()

    def has_races(self) -> bool:
        """Whether the game has reaction races at all (a game that names ``stimuli`` says so here
        too): the clock sync of its seats is kept fresher (:mod:`app.realtime.ping_schedule`)."""
        return False

    def rulings(self, state: S) -> Sequence[JSON]:
        """The rulings of recently closed races, each with its inputs (the room logs every new one)."""
        return ()

    def team_seats(self, options: OptionsT) -> tuple[tuple[int, ...], ...] | None:
        """The seats of each team with these options (None: everyone plays for themselves)."""
        return None

    def hidden_cards(self, state: S, seat: int) -> list[Any] | None:
        """The cards only ``seat`` holds out of sight (None: no such cards), shown in the replay of a
        finished match. By default the ``hand`` of the seat's view; a game whose seats hold face-down
        cards nobody sees, not even their owner (Slap's piles), says so itself."""
        hand = self.view(state, seat).get("hand")
        return list(hand) if isinstance(hand, list) else None

    def end_early(self, state: S, at: int) -> S:
        """The host ends the match at ``at`` (only through ``step``'s ``EndEarly``, which
        fires the deadlines before ``at`` first); games that allow it override this."""
        raise IllegalAction("NO_EARLY_END", f"A game of {self.title} cannot be ended early.")

    def end_by_host(self, state: S, at: int) -> S:
        """The host ends the game as it stands (``step``'s ``HostEnd``); rooms run every game
        through :func:`app.engines.stopped.stoppable`, which gives every game this."""
        raise IllegalAction("NO_HOST_END", f"This {self.title} table cannot be ended by the host.")

    def begin_step(self, state: S) -> S:
        """Called by ``step`` before a move or early end (and before its deadline catch-up).

        An engine that logs what one input did (UFF-DA!'s events and rulings)
        starts a fresh log here, so what the catch-up fired and what the move
        did are reported together. The default changes nothing.
        """
        return state


def seed_hash(seed: str) -> str:
    """The public commitment to a deal: ``sha256(seed)`` in hex.

    >>> seed_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode()).hexdigest()
