"""The seats no person plays: bots the host seated, and stand-ins for players gone too long.

A bot is a seat like any other: its moves go through the room's one path
(engine, event log, broadcast), so a replay needs no bot. What the bot adds is
only *when* and *what*: it looks at its seat's view, and if it wants to act it
"thinks" for a while on the room clock before acting, so people can follow the
table. At the due time it looks again (the table may have moved on) and acts on
what it sees then.

A person whose connections are all gone keeps the seat for the seat-hold time;
then a bot stands in for them until they come back. Everything here runs inside
the room's actor and reads time only as the room-clock ``now`` it is given.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from app.bots import Chooser, bot_for
from app.engines.base import JSON

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BotPace:
    """How long bots think (room-clock ms, uniformly in ``think_ms``) and how long a seat is held."""

    think_ms: tuple[int, int] = (700, 1500)
    seat_hold_ms: int = 120_000


@dataclass
class BotSeats:
    game: str
    pace: BotPace
    room: str = ""
    """The room's code, for its log lines."""
    rng: random.Random = field(default_factory=random.Random)
    bots: set[int] = field(default_factory=set)
    """Seats the host gave to a bot."""
    standins: set[int] = field(default_factory=set)
    """Seats whose person has been gone past the seat hold."""
    away: dict[int, int] = field(default_factory=dict)
    """Seat → room time its person's last connection went (until they return or a bot stands in)."""
    due: dict[int, int] = field(default_factory=dict)
    """Seat → room time its bot acts."""
    _chooser: Chooser | None = None
    _planned_for: object = None

    @property
    def chooser(self) -> Chooser:
        if self._chooser is None:
            self._chooser = bot_for(self.game)
        return self._chooser

    def begin(self, bots: Iterable[int], away: Iterable[int], now: int, standins: Iterable[int] = ()) -> None:
        """A game begins (or is recovered): seats of bots, people not connected as of ``now``, and
        seats a stand-in plays from the start (their player left, or was removed)."""
        self.bots = set(bots)
        self.standins = set(standins) - self.bots
        self.due.clear()
        self.away = {seat: now for seat in away if seat not in self.bots and seat not in self.standins}
        self._planned_for = None

    def end(self) -> None:
        self.bots.clear()
        self.standins.clear()
        self.away.clear()
        self.due.clear()
        self._planned_for = None

    def active(self) -> bool:
        """Anything to do: a bot seat, a stand-in, or a seat being held."""
        return bool(self.bots or self.standins or self.away)

    def playing(self) -> set[int]:
        return self.bots | self.standins

    def gone(self, seat: int, now: int) -> None:
        if seat not in self.bots and seat not in self.standins:
            self.away.setdefault(seat, now)

    def stand_in(self, seat: int) -> None:
        """The seat's person left the table: a stand-in plays it from now on, without a seat hold."""
        if seat not in self.bots:
            self.away.pop(seat, None)
            self.standins.add(seat)
            self._planned_for = None

    def back(self, seat: int) -> bool:
        """The person is connected again; True if a stand-in hands the seat back."""
        self.away.pop(seat, None)
        if seat in self.standins:
            self.standins.discard(seat)
            self.due.pop(seat, None)
            return True
        return False

    def deadline(self) -> int | None:
        times = list(self.due.values())
        times.extend(since + self.pace.seat_hold_ms for since in self.away.values())
        return min(times, default=None)

    def take_over(self, now: int) -> list[int]:
        """Seats whose hold ran out by ``now``: a bot stands in from now on."""
        expired = sorted(s for s, since in self.away.items() if since + self.pace.seat_hold_ms <= now)
        for seat in expired:
            del self.away[seat]
            self.standins.add(seat)
        if expired:
            self._planned_for = None
        return expired

    def ready(self, now: int) -> list[int]:
        """Seats whose thinking time is over, in seat order (each is planned again afterwards)."""
        seats = sorted(s for s, at in self.due.items() if at <= now and s in self.playing())
        for seat in seats:
            del self.due[seat]
        if seats:
            self._planned_for = None
        return seats

    def choose(self, view: JSON) -> JSON | None:
        try:
            return self.chooser(view, self.rng)
        except Exception:  # a bot's bug must not stop the table: that bot just does not move
            log.exception("room=%s %s bot failed to choose", self.room, self.game)
            return None

    def plan(self, state: object, view_of: Callable[[int], JSON], now: int) -> None:
        """After the state changed: every bot that wants to act and is not thinking yet starts to."""
        if state is self._planned_for:
            return
        self._planned_for = state
        low, high = self.pace.think_ms
        for seat in sorted(self.playing()):
            if seat in self.due:
                continue
            if self.choose(view_of(seat)) is not None:
                self.due[seat] = now + self.rng.randint(low, high)
