"""Kuuduk's table options (rules 5): the lobby renders this model as its form.

The number of players is not an option: it is the number of seated players
(2 to 8, the engine's ``min_players``/``max_players``).

>>> KuudukOptions().target, KuudukOptions().mode, KuudukOptions().stall_turns, KuudukOptions().void_rounds
(15, 'points', 0, 3)
>>> from pydantic import ValidationError
>>> try:
...     KuudukOptions(target=5)
... except ValidationError:
...     print("a target must be at least one won round's worth")
a target must be at least one won round's worth
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.engines.base import EngineOptions


class KuudukOptions(EngineOptions):
    """Table options for Kuuduk; times are integer milliseconds."""

    mode: Literal["points", "single_round"] = Field(
        "points",
        description='"points": rounds until somebody reaches the target; '
        '"single_round": the first player to win a round wins the game.',
    )
    target: int = Field(
        15,
        ge=6,
        le=1000,
        description="Points mode: the game ends after the round in which somebody reaches this total "
        "(the rulebook suggests 15, or 20, 25, 30 for a longer game). The highest total wins; "
        "players tied at the top play one more round.",
    )
    max_rounds: int = Field(
        30,
        ge=1,
        le=500,
        description="Points mode safety limit: after this many scored rounds the highest total wins "
        "(a tie at the top plays one more round).",
    )
    stall_turns: int = Field(
        0,
        ge=0,
        le=10_000,
        description="A round in which this many turns in a row pass without a card laid is void and "
        "dealt again (0 = 10 turns per player taking part in the round).",
    )
    void_rounds: int = Field(
        3,
        ge=1,
        le=100,
        description="After this many void (stalled) rounds in a row the game ends: the highest total "
        "among the players of the round wins, and players tied at the top share the win.",
    )
    turn_ms: int = Field(
        90_000,
        ge=0,
        le=3_600_000,
        description="Turn timer (0 = none), 90 s unless the host changes it, so one idle player cannot "
        "stall the table. When it runs out the server draws (or passes) and discards for the player; it "
        "never lays, swipes or switches (decision 24).",
    )
    round_pause_ms: int = Field(
        8000,
        ge=0,
        le=600_000,
        description="How long the round's result stays on screen before the next deal.",
    )
    first_dealer: Literal["random"] | Annotated[int, Field(ge=0, le=7)] = Field(
        "random",
        description='Dealer of round 1: "random", or a seat number. '
        "The deal then moves one seat to the left each round.",
    )
