"""Leekha's game state: plain frozen data the engine replaces, never mutates.

Every collection is a tuple, so a new state shares whatever did not change
with the old one (a card play touches one hand and the trick, not the score
history): ``apply`` stays cheap without any deep copy, and the old state stays
valid for a room that rejects a move or a replay that compares.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.engines.cards import CardId
from app.engines.leekha.options import LeekhaOptions
from app.engines.rng import Rng

Hand = tuple[CardId, ...]


class Phase(StrEnum):
    """Where the match stands (rules 3.1)."""

    PASS_SELECT = "PASS_SELECT"
    PASS_REVEAL = "PASS_REVEAL"
    PLAY = "PLAY"
    ROUND_END = "ROUND_END"
    MATCH_END = "MATCH_END"


class EndReason(StrEnum):
    """How a round ended (rules 3.2)."""

    COMPLETE = "complete"
    RULE37 = "rule37"
    THROW_IN = "throw_in"
    EARLY_END = "early_end"


class EventKind(StrEnum):
    """What just happened, for the UI's event log (view key ``last``)."""

    DEAL = "deal"
    PASS = "pass"
    PASSED = "passed"
    ACK = "ack"
    PLAY_STARTED = "play_started"
    PLAY = "play"
    TRICK = "trick"
    RULE37 = "rule37"
    THROW_IN = "throw_in"
    EARLY_END = "early_end"


@dataclass(frozen=True, slots=True)
class Event:
    """The last thing that happened. ``card`` is only ever a card played face up;
    ``auto`` marks an action the server took for a seat whose timer ran out."""

    kind: EventKind
    at: int
    seat: int | None = None
    card: CardId | None = None
    winner: int | None = None
    points: int | None = None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A completed trick: ``cards`` as (seat, card) in play order."""

    cards: tuple[tuple[int, CardId], ...]
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One row of the score table; tuples are indexed by seat."""

    round: int
    starter: int
    end: EndReason
    points: tuple[int, ...]
    totals: tuple[int, ...]
    bl_taker: int | None
    sl_taker: int | None
    tricks: int


@dataclass(frozen=True, slots=True)
class Verdict:
    """How the match ended: the losing seats (one seat, or a team), and every seat's
    place (1 = best; the losers hold the last place)."""

    losers: tuple[int, ...]
    places: tuple[int, ...]
    early: bool = False


@dataclass(frozen=True, slots=True)
class LeekhaState:
    """Everything about a match; per-seat tuples are indexed by seat (0-3).

    ``hands`` are kept in display order. ``passes[s]`` is seat s's pass choice
    (None until it submits) and ``received[s]`` the three cards it got, once the
    passes happened. ``trick`` is the current trick as (seat, card) in play
    order. ``captured`` are the cards each seat won this round, ``discarded``
    the cards a 37, a throw-in or an early end took out of play unseen. ``scores``
    are the cumulative scores before the current round's points (those are
    ``round_pts``; they are added at the round's end). ``acked`` is used by the
    reveal and by the scoreboard between rounds. ``deadline`` is the one
    pending deadline of the phase.
    """

    options: LeekhaOptions
    rng: Rng
    phase: Phase
    round: int
    starter: int
    hands: tuple[Hand, ...]
    passes: tuple[Hand | None, ...]
    received: tuple[Hand, ...]
    acked: tuple[bool, ...]
    trick: tuple[tuple[int, CardId], ...]
    turn: int | None
    tricks_done: int
    round_pts: tuple[int, ...]
    captured: tuple[Hand, ...]
    discarded: Hand
    bl_taker: int | None
    sl_taker: int | None
    end_reason: EndReason | None
    last_trick: TrickRecord | None
    last: Event | None
    deadline: int | None
    scores: tuple[int, ...]
    history: tuple[RoundRecord, ...]
    verdict: Verdict | None

    @property
    def led_colour(self) -> str | None:
        return self.trick[0][1][0] if self.trick else None

    @property
    def live(self) -> tuple[int, ...]:
        """Cumulative score plus this round's points so far (meaningful before the round ends)."""
        return tuple(a + b for a, b in zip(self.scores, self.round_pts, strict=True))
