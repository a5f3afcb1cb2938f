"""The PostgreSQL tests never turn into silent skips: only "no server answers" skips them, and in CI
(``CI=true``) not even that."""

from __future__ import annotations

import socket

import pytest

from tests import backends


@pytest.fixture
def probe_at(monkeypatch: pytest.MonkeyPatch):
    def at(url: str) -> None:
        monkeypatch.setattr(backends, "PG_URL", url)
        monkeypatch.setattr(backends, "_reachable", False)  # probe again

    return at


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_server_skips_outside_ci(probe_at, monkeypatch) -> None:
    probe_at(f"postgresql://root@127.0.0.1:{_closed_port()}/test")
    monkeypatch.delenv("CI", raising=False)
    assert "no PostgreSQL server" in (backends.postgres_unavailable() or "")
    with pytest.raises(pytest.skip.Exception):
        backends.skip_without_postgres()


@pytest.mark.parametrize("value", ["true", "1", "yes"])
def test_no_server_fails_in_ci(probe_at, monkeypatch, value) -> None:
    probe_at(f"postgresql://root@127.0.0.1:{_closed_port()}/test")
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="CI must run the PostgreSQL tests"):
        backends.skip_without_postgres()


def test_a_server_that_refuses_the_tests_is_an_error_not_a_skip(probe_at, monkeypatch) -> None:
    """A server that answers but refuses (unknown role, missing database) is misconfigured: raised."""
    monkeypatch.setattr(backends, "_reachable", False)
    backends.skip_without_postgres()  # the real server must be there (skips outside CI without one)
    probe_at("postgresql://no_such_role_for_tabula@127.0.0.1:5432/test")
    with pytest.raises(RuntimeError, match="answered but refused the tests"):
        backends.postgres_unavailable()
