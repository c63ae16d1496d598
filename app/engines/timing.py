"""Deadline catch-up: the one tick loop the timed engines share.

A server ticks an engine whenever it likes, possibly late. Every transition
that fell due by ``now`` must still fire, in order, and each one is stamped
with the deadline that fired it, not ``now``, so a late tick lands exactly
where a punctual one would.

>>> fired = []
>>> def fire(state: int, at: int) -> int:
...     fired.append(at)
...     return state + 1
>>> deadline_of = lambda state: 100 * (state + 1) if state < 3 else None
>>> catch_up(0, 250, fire, deadline_of), fired
(2, [100, 200])
>>> catch_up(0, 50, fire, deadline_of)
0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

S = TypeVar("S")


def catch_up(state: S, now: int, fire: Callable[[S, int], S], deadline_of: Callable[[S], int | None]) -> S:
    """Fire every deadline that is due by ``now``, each stamped with its own time.

    ``deadline_of`` gives the state's next deadline (None: nothing is timed);
    ``fire(state, at)`` runs the transition due at ``at``. The state comes back
    unchanged (the same object) when nothing is due.
    """
    deadline = deadline_of(state)
    while deadline is not None and deadline <= now:
        state = fire(state, deadline)
        deadline = deadline_of(state)
    return state
