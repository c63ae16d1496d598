"""Rummy's game state: plain frozen data the engine replaces, never mutates.

Every collection is a tuple, so a new state shares what it did not change
with the old one (a draft step touches the draft, not the hands or the score
history), which keeps ``apply`` cheap without any deep copy.

During a turn, ``table`` and ``hands`` stay as they were at its start (the
rules' T0 and H0); the work in progress is ``draft``, and the player's working
hand is H0 minus the draft's cards. A commit, a draw or the timeout writes
the result back at the end of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.engines.cards import CardId
from app.engines.rng import Rng
from app.engines.rummy.melds import Table
from app.engines.rummy.options import RummyOptions


class Phase(StrEnum):
    """Where the match stands (rules 3.7)."""

    TURN = "TURN"
    TURN_RESULT = "TURN_RESULT"
    ROUND_OVER = "ROUND_OVER"
    MATCH_OVER = "MATCH_OVER"


class TurnEnd(StrEnum):
    """How a turn ended (rules 3.4, 3.6)."""

    COMMIT = "commit"
    DRAW = "draw"
    PASS = "pass"
    TIMEOUT_COMMIT = "timeout_commit"
    """The clock ran out on a valid draft; it was committed (3.6 step 1)."""
    TIMEOUT_SALVAGE = "timeout_salvage"
    """The draft's valid sets were kept, the rest went back to the hand (step 2)."""
    TIMEOUT_RESTORE = "timeout_restore"
    """The table was put back and the player drew (step 3)."""


class RoundEnd(StrEnum):
    OUT = "out"
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """The public summary of the last turn, for the event log and the
    "announcement" of joker exchanges (rules 3.5). ``drawn`` is private: a view
    shows its ids to the drawer only; ``returned`` counts hand cards the
    timeout took back off the table."""

    turn_id: int
    seat: int
    end: TurnEnd
    at: int
    played: tuple[CardId, ...]
    drawn: tuple[CardId, ...]
    returned: int
    rebuilt: int
    new_sets: int
    jokers_exchanged: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One row of the score table; tuples indexed by seat."""

    round: int
    end: RoundEnd
    winners: tuple[int, ...]
    cards: tuple[int, ...]
    values: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RummyState:
    """Everything about a match; per-seat tuples are indexed by seat.

    ``seat`` is the player whose turn it is (in TURN; in later phases, whose
    turn it was). ``deadline`` is the turn's deadline as players see it in TURN
    (the timeout fires ``commit_grace_ms`` later) and the end of the pause in
    TURN_RESULT and ROUND_OVER. ``pool[0]`` is the top of the pool. ``undo``
    holds earlier drafts of this turn, the latest last. ``passes`` is the
    rules' ``passes_in_row`` (3.8); ``timeouts`` counts each seat's turns in a
    row ended by the clock (the away mark).
    """

    options: RummyOptions
    rng: Rng
    phase: Phase
    round: int
    round_starter: int
    match_started_at: int
    turn_id: int
    seat: int
    turn_started_at: int
    deadline: int | None
    pool: tuple[CardId, ...]
    hands: tuple[tuple[CardId, ...], ...]
    table: Table
    draft: Table
    undo: tuple[Table, ...]
    opened: tuple[bool, ...]
    passes: int
    timeouts: tuple[int, ...]
    last: TurnRecord | None
    history: tuple[RoundRecord, ...]
    totals: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.hands)

    def away(self, seat: int) -> bool:
        after = self.options.afk_after
        return after > 0 and self.timeouts[seat] >= after

    def working_hand(self, seat: int) -> tuple[CardId, ...]:
        """The seat's hand as it stands now: minus the cards its draft placed."""
        hand = self.hands[seat]
        if self.phase is not Phase.TURN or seat != self.seat or self.draft is self.table:
            return hand
        placed = {c for m in self.draft for c in m.cards}
        return tuple(c for c in hand if c not in placed)
