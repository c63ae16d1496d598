"""Rummy's table options (rules 3.3): the lobby renders this model as its form.

The field descriptions end up in the JSON schema, so they are written for the
host choosing options.

>>> RummyOptions().turn_ms, RummyOptions().opening_min
(120000, 40)
>>> from pydantic import ValidationError
>>> try:
...     RummyOptions(turn_ms=10_000)
... except ValidationError:
...     print("too short")
too short
"""

from __future__ import annotations

from pydantic import Field

from app.engines.base import EngineOptions


class RummyOptions(EngineOptions):
    """Table options for Rummy; times are integer milliseconds."""

    turn_ms: int = Field(
        120_000, ge=30_000, le=300_000, description="Length of a turn (the rules say two minutes)."
    )
    commit_grace_ms: int = Field(
        500,
        ge=0,
        le=5_000,
        description="A play arriving up to this long after the turn's deadline still counts (network delay).",
    )
    between_turns_ms: int = Field(
        800, ge=0, le=10_000, description="Pause after a turn before the next player's clock starts."
    )
    opening_min: int = Field(
        40,
        ge=0,
        le=200,
        description="Points a player's first play must reach, from new sets of their own cards "
        "(official Rummikub: 30).",
    )
    joker_hand_value: int = Field(
        25, ge=0, le=100, description="Minus points for a joker left in a hand (official Rummikub: 30)."
    )
    timeout_draw: int = Field(
        1,
        ge=1,
        le=5,
        description="Cards drawn when the time runs out and nothing could be kept on the table "
        "(official Rummikub: 3).",
    )
    round_end_pause_ms: int = Field(
        8_000, ge=0, le=600_000, description="How long the scoreboard shows before the next round is dealt."
    )
    rounds: int = Field(
        3, ge=1, le=10, description="Rounds per match; totals are compared after the last one."
    )
    match_minutes: int = Field(
        0,
        ge=0,
        le=600,
        description="0 = play the number of rounds above. Otherwise the match lasts this many minutes "
        "instead: the round running when the time is up is the last.",
    )
    afk_after: int = Field(
        2,
        ge=0,
        le=10,
        description="After this many turns in a row ended by the clock, a player is marked away and gets "
        "short turns until they act again (0 = never).",
    )
    away_turn_ms: int = Field(
        10_000, ge=1_000, le=300_000, description="Length of a turn for a player marked away."
    )
