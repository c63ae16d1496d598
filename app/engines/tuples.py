"""Copy-with-one-change helpers for the frozen states every engine keeps.

States are frozen, slotted dataclasses holding per-seat tuples; a move never
changes one in place but builds the next state from it. Two helpers cover
that: :func:`replace_at` for one entry of a tuple and :func:`evolve` for some
fields of a dataclass.

>>> replace_at((1, 2, 3), 1, 9)
(1, 9, 3)
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of ``items`` with one entry replaced (per-seat tuples in frozen states).

    >>> replace_at(("a", "b"), 0, "z")
    ('z', 'b')
    """
    return (*items[:index], value, *items[index + 1 :])


_SLOTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _slots(cls: type) -> tuple[tuple[str, Any], ...]:
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = tuple((f.name, cls.__dict__[f.name]) for f in fields(cls))
        _SLOTS[cls] = slots
    return slots


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen, slotted dataclass ``obj`` with ``changes``; ``obj`` is left as it was.

    A fast ``dataclasses.replace``: that one goes through ``__init__`` and its
    keyword handling; this copies the slots straight across and sets the
    changed ones, about three times faster, which matters on a path that runs
    for every move.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class P:
    ...     x: int
    ...     y: int
    >>> evolve(P(1, 2), y=5)
    P(x=1, y=5)
    >>> evolve(P(1, 2), z=5)
    Traceback (most recent call last):
    ...
    TypeError: P has no field z
    """
    cls = type(obj)
    new = object.__new__(cls)
    for name, slot in _slots(cls):
        slot.__set__(new, changes.pop(name) if name in changes else slot.__get__(obj, cls))
    if changes:
        raise TypeError(f"{cls.__name__} has no field {', '.join(changes)}")
    return new
