"""Slap's table options (rules 3.2): the lobby renders this model as its form.

The class docstring and the field descriptions end up in the JSON schema, so
they are written for the host choosing options.

>>> SlapOptions().race_window_ms
210
>>> from pydantic import ValidationError
>>> try:
...     SlapOptions(max_credit_ms=500, race_window_ms=200)
... except ValidationError as exc:
...     print("at least max_credit_ms + tie_margin_ms (510)" in str(exc))
True
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from app.engines import race_settings
from app.engines.base import EngineOptions, SeatPrefs

Ms = Annotated[int, Field(ge=0, le=600_000)]
Points = Annotated[int, Field(ge=0, le=100)]


class SlapPrefs(SeatPrefs):
    """What a Slap player picks when taking a seat."""

    colour: Literal["Y", "G", "P", "B"] | None = Field(
        None, description="The colour of your cards: Y, G, P or B (taken colours go to the first free one)."
    )


class SlapOptions(EngineOptions):
    """Table options for Slap; times are integer milliseconds."""

    rounds: int = Field(
        3, ge=1, le=10, description="Rounds per match; totals are compared after the last one."
    )
    first_starter: Literal["random"] | Annotated[int, Field(ge=0, le=3)] = Field(
        "random",
        description='Who calls the first "Nu!" of round 1: "random", or a seat number (e.g. the youngest). '
        "Later rounds move one seat clockwise.",
    )
    nu_mode: Literal["starter", "auto"] = Field(
        "starter",
        description='"starter": the starter presses Nu! (the server calls it if they wait too long); '
        '"auto": the server always calls it.',
    )
    nu_auto_ms: Ms = Field(
        2000, description="Starter mode: the server calls Nu! for the starter after this long."
    )
    auto_nu_ms: Ms = Field(1000, description="Auto mode: pause before the server calls Nu!.")
    nu_lead_ms: Ms = Field(600, description='Time between "Nu!" and the cards turning over.')
    # At least 1 ms: every flip cycle then takes time, so a tick always ends.
    no_pair_window_ms: Annotated[int, Field(ge=1, le=600_000)] = Field(
        1500, description="How long a flip without a pair stays on the table."
    )
    pair_timeout_ms: Ms = Field(
        15000, description="A pair nobody slaps goes back to its players after this long (0 = wait forever)."
    )
    race_window_ms: Ms = Field(
        race_settings.RACE_WINDOW_MS,
        description="A race closes as soon as no player who has not slapped could still win; at the "
        "latest this long after the first slap (at least max_credit_ms + tie_margin_ms).",
    )
    max_credit_ms: Ms = Field(
        race_settings.MAX_CREDIT_MS,
        description="Most network time any slap is forgiven (round trip, jitter and one frame).",
    )
    tie_margin_ms: Ms = Field(
        race_settings.TIE_MARGIN_MS,
        description="Reaction times this close together are a tie, settled by a random draw.",
    )
    latency_compensation: bool = Field(
        True,
        description="Judge slaps by each player's reaction time, checked against their measured network; "
        "off = by arrival order.",
    )
    trick_pause_ms: Ms = Field(1500, description="How long a won trick stays on screen.")
    nopair_pause_ms: Ms = Field(300, description="Pause after a flip without a winner.")
    round_time_limit_s: Annotated[int, Field(ge=0, le=86_400)] = Field(
        300, description="A round ends at the first flip closing after this many seconds (0 = no limit)."
    )
    round_end_pause_ms: Ms = Field(8000, description="How long the scoreboard shows between rounds.")
    placement_points: tuple[Points, Points, Points, Points] = Field(
        (6, 4, 2, 0), description="Round points for most cards, second most, third most and fourth."
    )
    two_player_stall_points: tuple[Points, Points] = Field(
        (6, 2),
        description="Two players, round ended by a stall or the time limit: points for more and fewer cards.",
    )
    tie_policy: Literal["shared"] = Field(
        "shared", description="Players with equal card counts share the better place."
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        race_settings.check_window(self.race_window_ms, self.max_credit_ms, self.tie_margin_ms)
        for points in (self.placement_points, self.two_player_stall_points):
            if list(points) != sorted(points, reverse=True):
                raise ValueError("points must not grow with a worse place")
        return self
