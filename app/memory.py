"""Giving freed memory back to the system.

Python frees the objects of a room put away at once, but the C allocator keeps the pages for
reuse, so the process's resident size does not fall after thousands of rooms leave memory.
On glibc, ``malloc_trim`` returns the free pages at the top and in the middle of the heap.
Elsewhere (musl, macOS) this does nothing: the memory is still reused for the next rooms.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable


@functools.cache
def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def give_back() -> bool:
    """Return the allocator's free pages to the system; False where that is not possible."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
