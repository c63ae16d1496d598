"""Slap's game state: plain frozen data the engine replaces, never mutates.

Every collection is a tuple, so a new state shares whatever it did not change
with the old one (a flip touches the piles and the table, not the score
history); that keeps ``apply`` cheap without any deep copy, and the old state
stays valid for a room that rejects a move or a replay that compares.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.engines.cards import CardId
from app.engines.race import Claim
from app.engines.rng import Rng
from app.engines.slap.options import SlapOptions


class Phase(StrEnum):
    """Where the flip cycle stands (rules 3.3)."""

    ROUND_SETUP = "ROUND_SETUP"
    """Transient: piles are dealt and AWAIT_NU follows at the same instant; never stored."""
    AWAIT_NU = "AWAIT_NU"
    NU_CALLED = "NU_CALLED"
    FLIP_OPEN = "FLIP_OPEN"
    RACE = "RACE"
    FLIP_RESULT = "FLIP_RESULT"
    ROUND_OVER = "ROUND_OVER"
    MATCH_OVER = "MATCH_OVER"


class FlipKind(StrEnum):
    """How a flip closed (rules 3.7)."""

    TRICK = "TRICK"
    NO_PAIR = "NO_PAIR"
    UNCLAIMED = "UNCLAIMED"


class EndKind(StrEnum):
    """Why a round ended (rules 3.8)."""

    NORMAL = "NORMAL"
    STALL = "STALL"
    TIME = "TIME"


@dataclass(frozen=True, slots=True)
class ClosedFlip:
    """The public record of the last closed flip, for the result screen.

    ``claims`` are the race's claims (winner first) for a trick, the false
    slaps for a no-pair flip, and empty for an unclaimed pair. ``pairs`` lists
    the numbers that matched. Card ids are deliberately absent: once a flip
    closes its cards are face down in somebody's pile.
    """

    flip: int
    kind: FlipKind
    winner: int | None
    tied: tuple[int, ...]
    claims: tuple[Claim, ...]
    pairs: tuple[int, ...]
    reveal_at: int
    closed_at: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One row of the score table, all tuples indexed by seat."""

    round: int
    end: EndKind
    counts: tuple[int, ...]
    placement: tuple[int, ...]
    penalties: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlapState:
    """Everything about a match; per-seat tuples are indexed by seat.

    ``piles[seat][0]`` is the top card. ``table`` holds one card per seat while
    a flip is open (FLIP_OPEN, RACE) and is empty otherwise. ``slaps`` are this
    flip's slaps in the order they were applied. ``deadline`` is the single
    pending deadline of the phase (rules 3.9). ``flip`` counts flips across the
    match and grows when Nu! is called; 0 means none yet.
    """

    options: SlapOptions
    colours: tuple[str, ...]
    rng: Rng
    phase: Phase
    round: int
    round_starter: int
    round_started_at: int
    starter: int
    flip: int
    reveal_at: int | None
    deadline: int | None
    piles: tuple[tuple[CardId, ...], ...]
    table: tuple[CardId, ...]
    has_pair: bool
    slaps: tuple[Claim, ...]
    penalties: tuple[int, ...]
    last: ClosedFlip | None
    history: tuple[RoundRecord, ...]
    totals: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.colours)

    def has_slapped(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.slaps)
