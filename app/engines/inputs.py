"""Checks for untrusted client actions, shared by every engine's ``parse``.

An action arrives as decoded JSON from a client and is never trusted: it must
be an object with a string ``type``, whole numbers must be real ints (``True``
is an int to Python, not to us) and anything wrong is refused with a
``BAD_ACTION`` (a malformed action) or ``UNKNOWN_ACTION`` (a type the game
does not have) :class:`~app.engines.base.IllegalAction`.

>>> action, kind = action_kind({"type": "draw"})
>>> kind
'draw'
>>> action_kind(["draw"])
Traceback (most recent call last):
...
app.engines.base.IllegalAction: An action must be an object.
>>> is_whole_number(3, 0, 9), is_whole_number(True, 0, 9), is_whole_number(3.0, 0, 9)
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engines.base import IllegalAction


def bad_action(message: str) -> IllegalAction:
    """The error for a malformed action (raise it).

    >>> bad_action("An action needs a type.").code
    'BAD_ACTION'
    """
    return IllegalAction("BAD_ACTION", message)


def unknown_action(game: str, kind: str) -> IllegalAction:
    """The error for an action type ``game`` does not have (raise it); long names are cut to 40 characters.

    >>> str(unknown_action("Rummy", "fold"))
    "Rummy has no action called 'fold'."
    """
    return IllegalAction("UNKNOWN_ACTION", f"{game} has no action called {kind[:40]!r}.")


def action_kind(action: object) -> tuple[Mapping[str, Any], str]:
    """The action as a mapping and its ``type``; ``BAD_ACTION`` unless it is an object with a string type."""
    if not isinstance(action, Mapping):
        raise bad_action("An action must be an object.")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise bad_action("An action needs a type.")
    return action, kind


def is_whole_number(value: object, low: int, high: int) -> bool:
    """Whether ``value`` is an int (not a bool, not a float) from ``low`` to ``high``."""
    # type() rather than isinstance(): True is an int to Python, not to us.
    return type(value) is int and low <= value <= high
