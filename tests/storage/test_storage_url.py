"""Choosing the storage backend from a database URL (storage.url): which backend, which
SQLite file, which options reach it, and URLs in messages without their password."""

from __future__ import annotations

import pytest

from storage import redact, storage_for
from storage.postgres import PostgresStorage
from storage.sqlite import SqliteStorage
from storage.url import is_postgres, sqlite_path


def test_postgresql_and_postgres_schemes_in_any_case_and_padding_are_postgres():
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://u@h/db")
    assert is_postgres("  POSTGRESQL://u@h/db ")
    assert not is_postgres("sqlite:///x.db") and not is_postgres("x.db")
    assert not is_postgres("my-postgresql://u@h/db")  # the scheme begins the URL


def test_sqlite_paths_from_urls_and_plain_paths():
    assert sqlite_path("sqlite:///x.db") == "x.db"
    assert sqlite_path("sqlite:////srv/x.db") == "/srv/x.db"
    assert sqlite_path("  SQLite:///x.db  ") == "x.db"
    assert sqlite_path("sqlite:///") == ":memory:" and sqlite_path("sqlite:///:memory:") == ":memory:"
    assert sqlite_path("data/tabula.db") == "data/tabula.db"
    assert sqlite_path(" tabula.db ") == "tabula.db"


def test_a_sqlite_url_without_three_slashes_is_refused_with_the_form_to_use():
    with pytest.raises(ValueError, match=r"three slashes .* sqlite:///tabula.db, not 'sqlite://x.db'"):
        sqlite_path("sqlite://x.db")


def test_an_unknown_scheme_is_refused_without_its_password():
    with pytest.raises(ValueError) as e:
        sqlite_path("mysql://root:hunter2@h/db")
    assert str(e.value) == (
        "unknown database URL 'mysql://root:***@h/db': use postgresql://... , sqlite:///FILE or a file path"
    )


def test_storage_for_gives_each_backend_only_its_own_options():
    lite = storage_for(" sqlite:///t.db ", busy_timeout_ms=7, migrate_to=3, read_only=True, max_connections=2)
    assert isinstance(lite, SqliteStorage)
    assert (lite.path, lite.busy_timeout_ms, lite.migrate_to, lite.read_only) == ("t.db", 7, 3, True)
    pg = storage_for(" postgresql://u@h/db ", busy_timeout_ms=7, max_connections=2, migrate_to=3, read_only=True)
    assert isinstance(pg, PostgresStorage)
    assert (pg.url, pg.max_connections, pg.migrate_to, pg.read_only) == ("postgresql://u@h/db", 2, 3, True)


def test_an_option_neither_backend_knows_is_refused_not_dropped():
    with pytest.raises(TypeError, match="application_name"):
        storage_for("postgresql://u@h/db", application_name="tabula")


def test_redact_hides_only_the_password():
    assert redact("postgresql://tabula:s3cr:et@db.example:5432/t") == "postgresql://tabula:***@db.example:5432/t"
    assert redact("postgresql://tabula@db.example:5432/t") == "postgresql://tabula@db.example:5432/t"
    assert redact("sqlite:///x.db") == "sqlite:///x.db"
