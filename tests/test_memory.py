"""Freed memory goes back to the system where the C library allows it."""

from __future__ import annotations

import platform

import pytest

from app.memory import give_back


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_freed_memory_is_given_back_on_glibc() -> None:
    garbage = [{"seat": i, "name": "x" * 100} for i in range(100_000)]
    del garbage
    assert give_back() is True
