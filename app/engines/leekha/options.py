"""Leekha's table options (rules section 5): the lobby renders this model as its form.

>>> LeekhaOptions().limit, LeekhaOptions().mode
(101, 'ffa')
>>> from pydantic import ValidationError
>>> try:
...     LeekhaOptions(mode="solo")
... except ValidationError:
...     print("rejected")
rejected
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.engines.base import EngineOptions

Ms = Annotated[int, Field(ge=0, le=3_600_000)]


class LeekhaOptions(EngineOptions):
    """Table options for Leekha; times are integer milliseconds."""

    mode: Literal["ffa", "teams"] = Field(
        "ffa",
        description='"ffa": four individual players; "teams": 2 vs 2, teammates sit opposite '
        "(seats 1 and 3 against seats 2 and 4).",
    )
    limit: int = Field(
        101,
        ge=1,
        le=1000,
        description="The loss limit: a player whose total reaches it loses. The rules fix 101; "
        "change it only to test.",
    )
    reveal_ms: Ms = Field(
        5000,
        description="How long the three received cards are shown before the first trick "
        "(play starts earlier once all four players confirm).",
    )
    turn_ms: Ms = Field(
        90000,
        description="Time to choose the cards to pass and to play each card; when it runs out the "
        "server plays the lowest legal card (0 = no timer).",
    )
    scoreboard_ms: Ms = Field(
        10000,
        description="How long the scores stay on show between rounds "
        "(the next deal comes earlier once all four players confirm).",
    )
