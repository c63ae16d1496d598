"""Collection rules for the whole repository (the tests' own fixtures are in tests/conftest.py).

With the hot modules compiled in place (`make native`), pytest's doctest collection would import
each one's extension where it expects the source, and stop on the mismatch. Their doctests run in
the pure build (the README's test command on a checkout without `make native`, as in CI's first
pass); here they are left out, and the header says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app import native


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix == ".py" and native.compiled_beside(collection_path):
        return True
    return None


def pytest_report_header(config: pytest.Config) -> str | None:
    compiled = native.compiled_modules()
    if not compiled:
        return None
    return (
        f"{len(compiled)} modules of app/ run compiled (make native): their doctests are not collected "
        "in this run (make native-clean to run them)"
    )
