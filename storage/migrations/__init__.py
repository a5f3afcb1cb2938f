"""Numbered schema migrations ``NNNN_name.sql``, applied in order (SQLite: ``PRAGMA
user_version``; PostgreSQL: the same numbers in ``postgresql/``)."""

from __future__ import annotations

import re
from importlib import resources

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def read(package: str) -> list[tuple[int, str, str]]:
    """The migrations shipped in ``package``: (number, file name, SQL), sorted by number.

    Raises RuntimeError when the numbers do not run 1, 2, 3... without gaps."""
    found = []
    for entry in resources.files(package).iterdir():
        m = MIGRATION_NAME.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    for i, (n, name, _) in enumerate(found, start=1):
        if n != i:
            raise RuntimeError(f"migration {name} is out of sequence: expected number {i:04d}")
    return found
