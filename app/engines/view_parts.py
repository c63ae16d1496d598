"""View parts that keep their identity while what they show does not change.

A view is rebuilt after every move, and the room diffs it against the last
one sent. The diff passes over a part that is the very same object in both
views without looking inside it, so a part built through a memo (one JSON
object per distinct value) costs nothing to diff while it is unchanged: a
move changes one seat of four, one round of the score table, one claim.

Views are read-only (the room diffs, encodes and sends them, never edits
them), so sharing one object between views, seats and rooms is safe.

>>> tuple_json((3, 1)) is tuple_json((3, 1))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from app.engines.base import JSON

T = TypeVar("T")


@lru_cache(maxsize=1 << 12)
def tuple_json(items: tuple[Any, ...]) -> list[Any]:
    """A hand, the totals, the winners: a tuple of JSON scalars as a (shared) list."""
    return list(items)


@lru_cache(maxsize=1 << 11)  # a score table per live room, and Kuuduk's last events
def each_json(build: Callable[[T], JSON], items: tuple[T, ...]) -> list[JSON]:
    """``build`` (itself a memo) of each item, as one shared list: a score table changes once a round.

    >>> each_json(str, (1, 2)) is each_json(str, (1, 2))
    True
    """
    return [build(item) for item in items]


def check_viewers(seats: Sequence[int | None], players: int) -> None:
    """Refuse a view for a seat that is not at the table (None: a spectator)."""
    for seat in seats:
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at this {players}-player table")
