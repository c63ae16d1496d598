"""Collection rules for the whole repository (the tests' own fixtures are in tests/conftest.py).

With the hot modules compiled in place (`make native`), pytest's doctest collection would import
each one's extension where it expects the source, and stop on the mismatch. Their doctests run in
the pure build (the README's test command on a checkout without `make native`, as in CI's first
pass); here they are left out, and the header says so.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

import pytest

_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _compiled(source: Path) -> bool:
    return any(source.with_name(source.stem + suffix).exists() for suffix in _SUFFIXES)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix == ".py" and _compiled(collection_path):
        return True
    return None


def pytest_report_header(config: pytest.Config) -> str | None:
    app = Path(config.rootpath, "app")
    compiled = sorted(str(p.relative_to(config.rootpath)) for p in app.rglob("*.py") if _compiled(p))
    if not compiled:
        return None
    return (
        f"{len(compiled)} modules of app/ run compiled (make native): their doctests are not collected "
        "in this run (make native-clean to run them)"
    )
