"""A fast ``dataclasses.replace`` for frozen, slotted dataclasses (the states of every engine).

``dataclasses.replace`` goes through ``__init__`` and its keyword handling;
this copies the slots straight across and sets the changed ones, about three
times faster, which matters on a path that runs for every move.

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

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

_SLOTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _slots(cls: type) -> tuple[tuple[str, Any], ...]:
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = tuple((f.name, cls.__dict__[f.name]) for f in fields(cls))
        _SLOTS[cls] = slots
    return slots


def evolve(obj: T, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes``; ``obj`` is left as it was."""
    cls = type(obj)
    new = object.__new__(cls)
    for name, slot in _slots(cls):
        slot.__set__(new, changes.pop(name) if name in changes else slot.__get__(obj, cls))
    if changes:
        raise TypeError(f"{cls.__name__} has no field {', '.join(changes)}")
    return new
