"""UFF-DA!'s game state: plain frozen data the engine replaces, never mutates.

Every collection is a tuple, so a new state shares whatever it did not change
with the old one (a play touches one hand and one branch, not the piles or the
score history); that keeps ``apply`` cheap without any deep copy, and the old
state stays valid for a room that rejects a move or a replay that compares.

Board addressing (rules 3.1): a branch's cards are kept in the order they were
played; every card hangs off an *anchor* ``(on, side)``: ``on`` is the index of
the card it touches in the same branch (``-1`` = the centre double) and
``side`` is 0, or 0/1 for the two sides of a double. An open end is named by
the same anchor, so a play names ``(branch, on, side)`` and the name of an end
never changes while it stays open.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.engines.cards import CardId
from app.engines.race import Claim, Ruling
from app.engines.rng import Rng
from app.engines.uffda.options import UffdaOptions

Scalar = int | str | bool | None
Info = tuple[tuple[str, Scalar | tuple[int, ...]], ...]


class Phase(StrEnum):
    PLAY = "PLAY"
    ROUND_OVER = "ROUND_OVER"
    """The round's scores are on screen; the next round is dealt at ``resume_at``."""
    GAME_OVER = "GAME_OVER"


class Step(StrEnum):
    """Where the active player's turn stands (rules 4.4)."""

    OPEN = "OPEN"
    AFTER_DRAW = "AFTER_DRAW"
    FOLLOW_UP = "FOLLOW_UP"
    FOLLOW_UP_DRAWN = "FOLLOW_UP_DRAWN"
    DONE = "DONE"


class Kind(StrEnum):
    """The two mistakes a call can catch (rules 5)."""

    COIN = "COIN"
    UFFDA = "UFFDA"


@dataclass(frozen=True, slots=True)
class End:
    """An open end of ``value``, anchored at ``(on, side)`` of its branch."""

    value: int
    on: int
    side: int = 0


@dataclass(frozen=True, slots=True)
class Placement:
    """A card on a branch, attached at the anchor ``(on, side)``."""

    card: CardId
    on: int
    side: int = 0


@dataclass(frozen=True, slots=True)
class Branch:
    """A player's branch (``owner`` = seat) or the community branch (``owner`` None).

    ``ends`` are the ends open for normal play; while a double is active on
    this branch its sides (and the ends its fills made) live in
    :class:`ActiveDouble` instead, until it is complete.
    """

    owner: int | None
    cards: tuple[Placement, ...]
    ends: tuple[End, ...]
    coin: bool

    @property
    def started(self) -> bool:
        return bool(self.cards)


@dataclass(frozen=True, slots=True)
class ActiveDouble:
    """The one double laid across a branch whose two sides are not both filled (rules 3.3).

    ``card`` is its index in the branch, ``pos`` where its two ends go into the
    branch's ``ends`` once complete, ``fills[k]`` the end the fill of side k
    made (None while unfilled), ``layer`` the seat that laid it.
    """

    branch: int
    card: int
    value: int
    pos: int
    fills: tuple[End | None, End | None]
    layer: int

    def open_sides(self) -> tuple[int, ...]:
        return tuple(k for k in (0, 1) if self.fills[k] is None)


@dataclass(frozen=True, slots=True)
class Turn:
    """The active player's turn (rules 4.3). ``no`` counts turns within the round, from 1."""

    seat: int
    no: int
    step: Step
    started_at: int
    deadline: int | None
    drawn: CardId | None = None
    drew: bool = False
    drew_under_double: bool = False
    played_any: bool = False
    played_own: bool = False

    @property
    def owes_coin_if_off(self) -> bool:
        """Rules 4.6 without the coin test: drew, outside a double, and played nothing."""
        return self.drew and not self.drew_under_double and not self.played_any


@dataclass(frozen=True, slots=True)
class Call:
    """One claim in a penalty race. A claim by the offender is their late declaration."""

    claim: Claim
    give_card: CardId | None = None
    uffda: bool = False


@dataclass(frozen=True, slots=True)
class Offence:
    """A catchable mistake (rules 5.2-5.3).

    ``turn`` is the turn it belongs to: it can be caught until the NEXT that
    ends turn ``turn + 1``; ``closes_at`` is that NEXT's time once it came: a
    call counts if the arbiter puts it before then, and calls made earlier may
    still be in flight until ``expires_at``. ``created_at`` is when the mistake
    became visible, the race stimulus the calls' reaction times count from.
    ``calls`` is the race, open until ``race_deadline``.
    """

    id: int
    kind: Kind
    offender: int
    turn: int
    created_at: int
    closes_at: int | None = None
    expires_at: int | None = None
    calls: tuple[Call, ...] = ()
    race_deadline: int | None = None

    @property
    def declaration(self) -> Call | None:
        return next((c for c in self.calls if c.claim.seat == self.offender), None)

    @property
    def deadline(self) -> int | None:
        """When the engine must act on it: judge its race, or drop it once no call can come."""
        return self.race_deadline if self.race_deadline is not None else self.expires_at


@dataclass(frozen=True, slots=True)
class Judged:
    """A penalty race the engine closed in the latest step, kept for the room's audit log.

    ``offence`` is the mistake as it stood when judged (its calls are the
    race's claims); ``outcome`` is ``caught``, ``saved`` (the late
    declaration won) or ``void`` (no caller still held two cards); ``ruling``
    is the arbiter's, None for a void race.
    """

    offence: Offence
    closed_at: int
    outcome: str
    ruling: Ruling | None


@dataclass(frozen=True, slots=True)
class Event:
    """One public log entry for the UI. ``secret`` (a card id) is shown only to ``secret_to``."""

    seq: int
    at: int
    kind: str
    seat: int | None
    info: Info = ()
    secret: CardId | None = None
    secret_to: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One row of the score table, tuples indexed by seat. ``winner`` None = terminated round."""

    round: int
    center: int
    dealer: int
    winner: int | None
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UffdaState:
    """Everything about a game; per-seat tuples are indexed by seat.

    ``branches`` holds the player branches (index = owner seat) then the
    community branch. ``piles[k][0]`` is the top of draw pile k. ``first_draw``
    is the public face-up dealer draw before round 1 (one row per draw, None
    for seats not drawing). ``last`` holds the events of the latest step;
    ``seq`` numbers events across the game. ``judged`` holds the penalty races
    the latest step closed (for the audit log, like ``last``).

    ``recent`` holds the public events of the turn in play and the one before
    it, the only turns whose mistakes can still be caught (rules 5.3): what a
    player at the table remembers, for views and bots to notice mistakes from.
    ``previous`` is the turn before this one (None at a round's start), whose
    public facts (drew, played, drew under a double) decide a forgotten coin.
    ``released[seat]`` is the turn of the seat's latest release that left it
    one card, said UFF-DA! or not (0: none this round); it opens the seat's
    late declaration to its own view without telling whether one is owed.
    """

    options: UffdaOptions
    rng: Rng
    phase: Phase
    round: int
    dealer: int
    first_draw: tuple[tuple[CardId | None, ...], ...]
    hands: tuple[tuple[CardId, ...], ...]
    piles: tuple[tuple[CardId, ...], tuple[CardId, ...]]
    branches: tuple[Branch, ...]
    double: ActiveDouble | None
    turn: Turn
    offences: tuple[Offence, ...]
    next_offence: int
    resume_at: int | None
    history: tuple[RoundRecord, ...]
    totals: tuple[int, ...]
    last: tuple[Event, ...]
    seq: int
    judged: tuple[Judged, ...] = ()
    recent: tuple[Event, ...] = ()
    previous: Turn | None = None
    released: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def center(self) -> int:
        return self.round - 1

    @property
    def community(self) -> int:
        return len(self.hands)

    @property
    def piles_empty(self) -> bool:
        return not self.piles[0] and not self.piles[1]
