"""Run the storage and host tests on both backends: SQLite, and PostgreSQL when a server is
reachable (``TABULA_TEST_POSTGRES``, default ``postgresql://root@127.0.0.1:5432/test``).

A module opts in with ``pytestmark = pytest.mark.usefixtures("backend")`` (the fixtures are
registered by tests/conftest.py); its tests then run once per backend. ``tests.host_helpers.make_storage``
opens the current backend: on PostgreSQL every test gets its own schema (created for the test
and dropped after it), and a file path names the same schema again within one test, so a
"restart" reopens the same database.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

PG_URL = os.environ.get("TABULA_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")

_reachable: str | None | bool = False  # False: not probed yet; None: reachable; str: why not


def _cannot_connect(error: BaseException) -> bool:
    """Whether ``error`` means "no server answers there" (refused, unknown host, timeout), as
    opposed to a server that answered and refused us (bad password, missing database...)."""
    import asyncpg

    return isinstance(error, OSError | TimeoutError | asyncpg.CannotConnectNowError)


def in_ci() -> bool:
    """Whether the suite runs in continuous integration (``CI`` set to a true value), where the
    PostgreSQL tests must run: a missing server fails them instead of skipping them."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def postgres_unavailable() -> str | None:
    """None when the test PostgreSQL server answers, else why not (probed once per run).

    Only "cannot connect" is a reason to skip; any other failure of the probe (authentication,
    a missing database, a broken driver) is raised, so a misconfigured server never turns the
    PostgreSQL tests into silent skips. In CI (``in_ci``) not even a missing server is: the
    test fails with the reason."""
    global _reachable
    if _reachable is False:
        import asyncpg

        async def probe() -> None:
            conn = await asyncpg.connect(PG_URL, timeout=5)
            await conn.close()

        failure: list[BaseException] = []

        def run() -> None:  # in a thread: the caller may be inside an event loop
            try:
                asyncio.run(probe())
            except Exception as e:  # noqa: BLE001 - sorted out below
                failure.append(e)

        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
        if failure and not _cannot_connect(failure[0]):
            raise RuntimeError(f"the test PostgreSQL server at {PG_URL} answered but refused the tests: "
                               f"{type(failure[0]).__name__}: {failure[0]}") from failure[0]
        _reachable = (f"no PostgreSQL server at {PG_URL} ({type(failure[0]).__name__}: {failure[0]})"
                      if failure else None)
    return _reachable  # type: ignore[return-value]


def skip_without_postgres() -> None:
    """Skip the calling test when no PostgreSQL server answers; in CI, fail it instead."""
    reason = postgres_unavailable()
    if reason:
        if in_ci():
            pytest.fail(f"{reason}; CI must run the PostgreSQL tests (.ci/run starts a server)", pytrace=False)
        pytest.skip(reason)


def with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


class Backend:
    """The backend a test runs on: ``name`` is "sqlite" or "postgresql"."""

    def __init__(self, name: str, admin: Any = None) -> None:
        self.name = name
        self.admin = admin
        self.schemas: dict[str, str] = {}
        self._fresh = 0

    @property
    def is_postgres(self) -> bool:
        return self.name == "postgresql"

    async def url_for(self, path: str) -> str:
        """SQLite: ``path`` itself. PostgreSQL: the URL of this test's schema for ``path``
        (``":memory:"`` gives a new schema every time)."""
        if not self.is_postgres:
            return path
        key = path
        if path == ":memory:":
            self._fresh += 1
            key = f":memory:{self._fresh}"
        if key not in self.schemas:
            schema = f"tabula_test_{uuid.uuid4().hex[:12]}"
            await self.admin.execute(f"CREATE SCHEMA {schema}")
            self.schemas[key] = schema
        return with_search_path(PG_URL, self.schemas[key])

    async def drop(self) -> None:
        for schema in self.schemas.values():
            await self.admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        self.schemas.clear()


CURRENT: Backend = Backend("sqlite")


@pytest.fixture(params=["sqlite", "postgresql"])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """Runs the test on SQLite, then on PostgreSQL (skipped, with the reason, without a server)."""
    global CURRENT
    if request.param == "sqlite":
        CURRENT = Backend("sqlite")
        yield CURRENT
        return
    skip_without_postgres()
    import asyncpg

    admin = await asyncpg.connect(PG_URL)
    be = CURRENT = Backend("postgresql", admin)
    try:
        yield be
    finally:
        CURRENT = Backend("sqlite")
        try:
            await be.drop()
        finally:
            await admin.close()


@pytest.fixture
async def pg_schema() -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL schema's URL for one test (skipped without a server; failed in CI)."""
    skip_without_postgres()
    import asyncpg

    admin = await asyncpg.connect(PG_URL)
    schema = f"tabula_test_{uuid.uuid4().hex[:12]}"
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_search_path(PG_URL, schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()
