"""Choose the storage backend from a database URL (``TABULA_DATABASE``).

- ``postgresql://user:password@host:port/database`` (or ``postgres://``): PostgreSQL,
  for several bot processes (shards) on one database. Query parameters are server
  settings, e.g. ``?search_path=tabula``.
- ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``, ``sqlite:///:memory:``,
  or a plain file path: SQLite, the embedded default.
"""

from __future__ import annotations

import re
from typing import Any

from .base import Storage

_PG = re.compile(r"^postgres(ql)?://", re.IGNORECASE)


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return bool(_PG.match(url.strip()))


def sqlite_path(url: str) -> str:
    """The SQLite file of ``url``: ``sqlite:///x.db`` -> ``x.db``, ``sqlite:////srv/x.db`` ->
    ``/srv/x.db``; a plain path is returned as it is. Raises ValueError for another scheme."""
    url = url.strip()
    if url.lower().startswith("sqlite:"):
        rest = url[len("sqlite:"):]
        if not rest.startswith("///"):
            raise ValueError(f"a SQLite URL has three slashes before the path: sqlite:///tabula.db, not {url!r}")
        return rest[3:] or ":memory:"
    if "://" in url:
        raise ValueError(f"unknown database URL {redact(url)!r}: use postgresql://... , sqlite:///FILE or a file path")
    return url


def storage_for(url: str, **options: Any) -> Storage:
    """An unopened ``Storage`` for ``url``. ``options`` go to the backend's constructor
    (``busy_timeout_ms`` is used by SQLite only; pool sizes by PostgreSQL only; ``read_only=True``
    opens without migrating or writing, for audits)."""
    if is_postgres(url):
        from .postgres import PostgresStorage

        pg = {k: v for k, v in options.items() if k != "busy_timeout_ms"}
        return PostgresStorage(url.strip(), **pg)
    from .sqlite import SqliteStorage

    lite = {k: v for k, v in options.items() if k in ("busy_timeout_ms", "migrate_to", "read_only")}
    return SqliteStorage(sqlite_path(url), **lite)


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for messages and logs)."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def file_problem(url: str, *, write: bool = False) -> str | None:
    """One line saying why the SQLite file of ``url`` cannot be used, or None when it can
    (a PostgreSQL URL, ``:memory:``, an existing readable file, writable too with ``write=True``,
    or a new file in an existing writable folder). Looks only; opens and creates nothing."""
    import os

    if is_postgres(url):
        return None
    try:
        path = sqlite_path(url)
    except ValueError as e:
        return str(e)
    if path == ":memory:":
        return None
    if not path:
        return "the database path is empty: name a file, e.g. --db tabula.db"
    if os.path.isdir(path):
        return f"{path} is a folder, not a database file: name a file in it, e.g. {os.path.join(path, 'tabula.db')}"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(path):
        if not os.path.isdir(folder):
            return f"the folder {folder} for the database {path} does not exist: create it first or name another file"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot create the database {path}: the folder {folder} is not writable"
        return None
    if not os.path.isfile(path):
        return f"{path} is not a regular file: name a database file"
    if not os.access(path, os.R_OK):
        return f"cannot read the database {path}: permission denied"
    if write and not (os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)):
        return (f"cannot write to the database {path}: permission denied (the file and its folder "
                f"{folder} must be writable)")
    return None
