"""Fixtures shared by the test modules: ``backend`` and ``pg_schema`` (tests/backends.py)."""

pytest_plugins = ("tests.backends",)
