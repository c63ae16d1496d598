"""Choosing and normalising the database URL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from app.db import DEFAULT_DATABASE_URL, database_url, normalize_url
from app.db.store import _pg_server_settings


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://u:p@h:5432/db", "postgresql+asyncpg://u:p@h:5432/db"),
        ("postgresql://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgresql+asyncpg://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("sqlite:///./x.db", "sqlite+aiosqlite:///./x.db"),
        ("sqlite:////abs/x.db", "sqlite+aiosqlite:////abs/x.db"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite:///x.db"),
    ],
)
def test_normalize_url(given: str, expected: str) -> None:
    assert normalize_url(given) == expected


def test_default_url_creates_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url() == DEFAULT_DATABASE_URL == "sqlite+aiosqlite:///./data/bordet.db"
    assert (tmp_path / "data").is_dir()


def test_env_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "postgres://bordet@db/bordet")
    assert database_url() == "postgresql+asyncpg://bordet@db/bordet"
    assert not (tmp_path / "data").exists()

    target = tmp_path / "deep" / "er" / "game.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{target}")
    assert database_url() == f"sqlite+aiosqlite:///{target}"
    assert target.parent.is_dir()


def test_pg_options_become_server_settings() -> None:
    url, settings = _pg_server_settings(
        make_url("postgresql+asyncpg://u@h/db?options=-csearch_path%3Dgame%20-c%20statement_timeout%3D5000")
    )
    assert settings == {"search_path": "game", "statement_timeout": "5000"}
    assert "options" not in url.query
    with pytest.raises(ValueError):
        _pg_server_settings(make_url("postgresql+asyncpg://u@h/db?options=--bogus"))
