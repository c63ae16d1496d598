"""Checks the engine tests share: JSON-ready views, the views of every seat, cards a view shows, log replay.

>>> assert_json_ready({"a": [1, "b", None, True]})
>>> cards_shown(re.compile(r"\\bG\\d\\d\\b"), {"hand": ["G07", "R01"], "top": "G12"}) == {"G07", "G12"}
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from app.engines.base import Engine, Link, Timing
from app.engines.cards import CardId
from app.engines.step import Input, step

T = TypeVar("T")

Log = Iterable[Input]
"""A playout's inputs in order: a ``Move``, a ``Tick`` or an ``EndEarly``."""


def assert_json_ready(value: Any) -> None:
    """Only plain JSON types all the way down: str-keyed dicts, lists, str, int, bool, None (no enums).

    >>> assert_json_ready({"seats": (1, 2)})
    Traceback (most recent call last):
    ...
    AssertionError: (1, 2)
    """
    if isinstance(value, dict):
        assert all(isinstance(k, str) for k in value)
        for item in value.values():
            assert_json_ready(item)
    elif isinstance(value, list):
        for item in value:
            assert_json_ready(item)
    else:
        assert value is None or type(value) in (str, int, bool), value


def ids(*cards: str) -> tuple[CardId, ...]:
    """Card ids written as plain strings in a test."""
    return tuple(CardId(card) for card in cards)


def known(value: T | None) -> T:
    """``value``, which the test expects to be set (a deadline, the last closed flip, a verdict...)."""
    assert value is not None, "expected a value, found None"
    return value


def due(engine: Engine[Any, Any], state: Any) -> int:
    """The state's next deadline, which the test expects there to be."""
    deadline = engine.next_deadline(state)
    assert deadline is not None, "no deadline pending"
    return deadline


def all_views(engine: Any, state: Any, players: int) -> list[Any]:
    """The spectator's view (seat None) first, then every seat's."""
    return [engine.view(state, seat) for seat in [None, *range(players)]]


def cards_shown(card_pattern: re.Pattern[str], view: Mapping[str, Any]) -> set[str]:
    """Every card id a view shows anywhere, as found by ``card_pattern`` in its JSON text."""
    return set(card_pattern.findall(json.dumps(view)))


def same_links(players: int, rtt: int, sent: Mapping[str, int], jitter: int = 0) -> Timing:
    """The timing a room hands over when every seat is connected over the same link (``rtt``,
    ``jitter``) and was written each live stimulus at ``sent[key]``: what a race test gives a move.

    >>> same_links(2, 40, {"flip:1": 10_000}).link(1)
    Link(rtt=40, jitter=0, sent={'flip:1': 10000}, verified=None, unverifiable=False)
    """
    return Timing(tuple(Link(rtt, jitter, dict(sent)) for _ in range(players)))


def replay_log(engine: Engine[Any, Any], seats: Any, options: Any, seed: str, start: int, log: Log) -> Any:
    """Rebuild a game from its seed and input log, every input through :func:`step`."""
    state = engine.start(seats, options, seed, start)
    for inp in log:
        state = step(engine, state, inp)
    return state
