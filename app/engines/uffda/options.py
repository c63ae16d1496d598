"""UFF-DA!'s table options (rules section 7): the lobby renders this model as its form.

The class docstring and the field descriptions end up in the JSON schema, so
they are written for the host choosing options.

>>> UffdaOptions().rounds, UffdaOptions().penalties, UffdaOptions().turn_seconds
(10, True, 60)
>>> from pydantic import ValidationError
>>> try:
...     UffdaOptions(max_credit_ms=500, race_window_ms=200)
... except ValidationError as exc:
...     print("at least max_credit_ms + tie_margin_ms (510)" in str(exc))
True
"""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import Field, model_validator

from app.engines import race_settings
from app.engines.base import EngineOptions

Ms = Annotated[int, Field(ge=0, le=600_000)]


class UffdaOptions(EngineOptions):
    """Table options for UFF-DA!; times are integer milliseconds unless the name says seconds."""

    rounds: int = Field(
        10,
        ge=1,
        le=10,
        description="Rounds to play (1-10). Round r always uses the r-1/r-1 centre double and a 5 x r bonus, "
        "so a shorter game plays the first rounds of the full one.",
    )
    penalties: bool = Field(
        True,
        description="COIN! and UFF-DA! penalty calls. Off = the official 'ignore penalties' agreement: "
        "owed coins are placed automatically and every UFF-DA! counts as said.",
    )
    assist: bool = Field(
        False,
        description="Beginner help: everyone's screen highlights missed COIN and UFF-DA! calls that can "
        "still be caught.",
    )
    turn_seconds: int = Field(
        60,
        ge=0,
        le=3600,
        description="Turn timer in seconds (0 = no timer). On timeout the server draws or passes for the "
        "player, places an owed coin and says NEXT; it plays a card only when the rules force one.",
    )
    round_end_pause_ms: Ms = Field(8000, description="How long the round's scores stay on screen.")
    race_window_ms: Ms = Field(
        race_settings.RACE_WINDOW_MS,
        description="A call race closes as soon as no player who has not called could still win; at the "
        "latest this long after the first call (at least max_credit_ms + tie_margin_ms).",
    )
    max_credit_ms: Ms = Field(
        race_settings.MAX_CREDIT_MS,
        description="Most network time any call is forgiven (round trip, jitter and one frame).",
    )
    tie_margin_ms: Ms = Field(
        race_settings.TIE_MARGIN_MS,
        description="Calls this close together are a tie: the caller nearest clockwise to the penalised "
        "player wins.",
    )
    latency_compensation: bool = Field(
        True,
        description="Judge calls by each player's reaction time, checked against their measured network; "
        "off = by arrival order.",
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        race_settings.check_window(self.race_window_ms, self.max_credit_ms, self.tie_margin_ms)
        return self

    @property
    def linger_ms(self) -> int:
        """How long a mistake stays callable after a NEXT that closed its window without the
        players' links (the turn timer's, an old log): a call made before it may still be in
        flight (rules 5.3)."""
        return self.max_credit_ms if self.latency_compensation else 0
