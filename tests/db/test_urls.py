"""Choosing and normalising the database URL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from app.db import DEFAULT_DATABASE_URL, database_url, normalize_url
from app.db.store import _pg_libpq_params, _pg_server_settings, create_engine
from tests.db.conftest import _pg_admin


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


def _plain_pg_url(base: str, query: str) -> str:
    """The admin URL as a managed host hands one out: no driver in the scheme, libpq options after ``?``."""
    return make_url(base).set(drivername="postgresql").render_as_string(hide_password=False) + "?" + query


async def _ssl_in_use(url: str) -> tuple[bool, str]:
    engine = create_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            row = (
                await conn.execute(
                    text("SELECT ssl, current_setting('ssl') FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                )
            ).one()
    finally:
        await engine.dispose()
    return bool(row[0]), str(row[1])


@pytest.mark.postgres
async def test_sslmode_disable_url_connects_without_tls() -> None:
    base, admin = await _pg_admin()
    await admin.dispose()
    in_use, _server_ssl = await _ssl_in_use(_plain_pg_url(base, "sslmode=disable"))
    assert in_use is False


@pytest.mark.postgres
async def test_sslmode_require_url_uses_tls_or_says_the_server_has_none() -> None:
    base, admin = await _pg_admin()
    await admin.dispose()
    _in_use, server_ssl = await _ssl_in_use(_plain_pg_url(base, "sslmode=disable"))
    url = _plain_pg_url(base, "sslmode=require&application_name=bordet-test")
    if server_ssl == "on":
        assert (await _ssl_in_use(url))[0] is True
    else:
        # Refused by the server for lack of TLS, not by the driver for an unknown keyword.
        with pytest.raises(ConnectionError, match="SSL"):
            await _ssl_in_use(url)


def test_libpq_params_go_to_the_asyncpg_dsn() -> None:
    url, dsn = _pg_libpq_params(
        make_url("postgresql+asyncpg://u@h/db?sslmode=verify-full&sslrootcert=%2Fca.pem&options=-cx%3D1")
    )
    assert dsn == "postgresql://?sslmode=verify-full&sslrootcert=%2Fca.pem"
    assert dict(url.query) == {"options": "-cx=1"}
    plain = make_url("postgresql+asyncpg://u@h/db")
    assert _pg_libpq_params(plain) == (plain, None)


async def test_a_sqlite_file_keeps_a_small_pool_of_connections_with_small_page_caches(tmp_path: Path) -> None:
    # Each pooled aiosqlite connection is a thread with a page cache of its own: memory that a
    # long-running server kept growing while SQLite still wrote one transaction at a time.
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    try:
        assert (engine.pool.size(), engine.pool._max_overflow) == (4, 4)  # type: ignore[attr-defined]
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA cache_size"))).scalar_one() == -1024
    finally:
        await engine.dispose()
