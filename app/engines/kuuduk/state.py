"""Kuuduk's game state: plain frozen data the engine replaces, never mutates.

Every collection is a tuple (or a frozenset), so a new state shares whatever
it did not change with the old one and two states compare by value: a replay
of the same inputs gives an equal state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.engines.kuuduk.deck import CardId
from app.engines.kuuduk.layout import Layout
from app.engines.kuuduk.options import KuudukOptions
from app.engines.rng import Rng

HAND_LIMIT = 3


class Phase(StrEnum):
    """Where the game stands (rules 3.1)."""

    TURN = "TURN"
    ROUND_END = "ROUND_END"
    GAME_OVER = "GAME_OVER"


class Step(StrEnum):
    """The two steps of a turn (rules 3.2)."""

    ACQUIRE = "ACQUIRE"
    PLAY = "PLAY"


class Direction(StrEnum):
    """``cw`` passes the turn to the left (seat + 1), ``ccw`` to the right."""

    CW = "cw"
    CCW = "ccw"

    def flipped(self) -> Direction:
        return Direction.CCW if self is Direction.CW else Direction.CW


@dataclass(frozen=True, slots=True)
class Event:
    """One public thing that happened, for the UI's event log.

    ``kind`` is the action (``draw``, ``pass``, ``take_discard``, ``lay``,
    ``discard``, ``swipe``, ``switch``) or a table event (``refill``,
    ``timeout``, ``round_won``, ``round_void``, ``deal``, ``game_over``).
    ``card`` is the played card (the swipe or Switch card for those), ``taken``
    the laid card a swipe moved from the ``victim``'s ``from_slot``; ``slot``
    where a card went down; ``rearranged`` whether laid cards moved with it;
    ``direction`` the new direction after a Switch; ``count`` the size of a
    refilled draw pile, the round number of a deal, the turns of a void round
    or the number of winners. The dealer is the ``seat`` of a deal. Never a
    hidden card: a drawn card is not named.
    """

    kind: str
    seat: int | None = None
    card: CardId | None = None
    slot: int | None = None
    victim: int | None = None
    from_slot: int | None = None
    taken: CardId | None = None
    rearranged: bool = False
    direction: Direction | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One row of the score table; per-seat tuples cover every seat (0 for seats not in the round).

    ``winner`` is None for a void (stalled) round. ``counted`` says whether the
    scores went into the totals (not for void and tie-break rounds).
    """

    round: int
    seats: tuple[int, ...]
    tiebreak: bool
    winner: int | None
    laid: tuple[int, ...]
    held: tuple[int, ...]
    scores: tuple[int, ...]
    counted: bool
    turns: int


@dataclass(frozen=True, slots=True)
class KuudukState:
    """Everything about a game; per-seat tuples are indexed by seat.

    ``seats`` are the seats taking part in the dealt round (all of them, or the
    tied ones in a tie-break round). ``draw_pile[0]`` is the top card;
    ``discard[-1]`` is the top of the discard pile. ``turn``/``step`` say who
    acts and how; ``restarted`` marks a turn restarted by Switch (it must draw);
    ``drawn`` is the card drawn this turn while it is in the hand. ``turns``
    counts the round's finished turns and ``stall`` the finished turns since a
    card was last laid. ``deadline`` is the turn timer (TURN) or the end of the
    pause (ROUND_END). ``next_seats``/``next_tiebreak`` describe the round that
    follows a ROUND_END. ``last`` holds the events of the latest transition.
    """

    options: KuudukOptions
    players: int
    rng: Rng
    phase: Phase
    round: int
    seats: tuple[int, ...]
    tiebreak: bool
    dealer: int
    direction: Direction
    turn: int
    step: Step
    restarted: bool
    drawn: CardId | None
    hands: tuple[tuple[CardId, ...], ...]
    layouts: tuple[Layout, ...]
    draw_pile: tuple[CardId, ...]
    discard: tuple[CardId, ...]
    turns: int
    stall: int
    laid_this_turn: bool
    deadline: int | None
    history: tuple[RoundRecord, ...]
    totals: tuple[int, ...]
    next_seats: tuple[int, ...]
    next_tiebreak: bool
    winners: tuple[int, ...]
    last: tuple[Event, ...]

    @property
    def stall_limit(self) -> int:
        """Rules 3.11: ``stall_turns``, by default 10 per player taking part in the round."""
        return self.options.stall_turns or 10 * len(self.seats)

    @property
    def can_draw(self) -> bool:
        """Whether ``draw`` can supply a card, refilling from the discard pile if needed (rules 3.9)."""
        return bool(self.draw_pile) or len(self.discard) > 1

    @property
    def void_streak(self) -> int:
        """How many rounds in a row, counting back from the latest, were void (rules 3.11)."""
        streak = 0
        for record in reversed(self.history):
            if record.winner is not None:
                break
            streak += 1
        return streak

    @property
    def scored_rounds(self) -> int:
        return sum(1 for r in self.history if r.counted)
