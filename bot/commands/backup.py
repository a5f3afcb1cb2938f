"""``tabula backup PATH``: a consistent copy of the database (SQLite online backup)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("backup", help="copy the database safely while the bot runs",
                       description="Write a consistent copy of the database to PATH (SQLite online backup).")
    p.add_argument("path", help="where to write the copy (an existing file is replaced)")
    p.add_argument("--db", default=None, help="database file (default: $TABULA_DB or tabula.db)")
    p.set_defaults(func=run)
    return p


def database_path(db: str | None) -> str:
    """The database named by ``--db`` (a file or a database URL) or the settings
    (``TABULA_DATABASE``, else ``TABULA_DB``)."""
    if db:
        return db
    from bot.host.settings import HostSettings

    return HostSettings().database_url()


def missing(db: str) -> bool:
    """True (after saying so) when ``db`` is a SQLite file that does not exist or cannot be used
    (a folder, an unreadable file, a missing folder)."""
    from storage import file_problem, is_postgres

    problem = file_problem(db)
    if problem:
        print(f"{problem}.", file=sys.stderr)
        return True
    if is_postgres(db) or os.path.exists(db):
        return False
    print(f"No database at {db}.", file=sys.stderr)
    return True


def damage_message(db: str, error: BaseException) -> str:
    """One line for a database file that cannot be read (not SQLite, or damaged)."""
    from storage.sqlite import ForeignDatabaseError

    reason = getattr(error, "reason", None) or str(error)
    if isinstance(error, ForeignDatabaseError):
        return f"{db} is not a Tabula database: {reason}."
    return (f"{db} is not a Tabula database or is damaged: {reason}; restore a backup with: "
            f"cp BACKUP.db {db} (backups are made with tabula backup).")


def is_damage(error: BaseException) -> bool:
    """Whether ``error`` says the database file is unreadable (rather than busy or missing)."""
    import sqlite3

    from storage.sqlite import DamagedDatabaseError

    return isinstance(error, DamagedDatabaseError) or (
        isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.OperationalError))


def run_on_database(db: str, work: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """Run ``work()`` (a command's coroutine reading ``db``) to its exit code; a database file
    that cannot be read is answered with one line on standard error and exit code 1 (``db``
    must have passed :func:`missing` first). Any other error propagates."""
    try:
        return asyncio.run(work())
    except Exception as e:
        if not is_damage(e):
            raise
        print(damage_message(db, e), file=sys.stderr)
        return 1


async def _backup(db: str, path: str) -> None:
    from storage import SqliteStorage

    async with SqliteStorage(db, read_only=True) as st:  # a backup never writes to the database
        await st.backup(path)


#: Files SQLite keeps beside a database: its write-ahead log, shared memory and rollback journal.
SIDE_FILES = ("-wal", "-shm", "-journal")


def side_file(path: str) -> bool:
    """Whether ``path`` names one of SQLite's files beside a database (``tabula.db-wal`` ...):
    never a database itself, and overwriting one loses committed games."""
    return path.endswith(SIDE_FILES)


def copy_problems(path: str) -> list[str]:
    """What ``storage.audit`` finds wrong in the finished copy at ``path`` (empty when sound)."""
    from storage.audit import audit_file

    try:
        lines, rows = audit_file(path)
    except Exception as e:  # noqa: BLE001 - an unreadable copy is itself the finding
        return [str(e)]
    return [line for line in lines if line != "ok"] + rows


def run(args: argparse.Namespace) -> int:
    db = database_path(args.db)
    from storage import is_postgres

    if is_postgres(db):
        print("Back up a PostgreSQL database with pg_dump, e.g.: pg_dump -Fc -f tabula.dump DBNAME", file=sys.stderr)
        return 2
    for name, what in ((db, "--db"), (args.path, "the backup")):
        if side_file(name):
            print(f"{name} is one of SQLite's files beside a database (write-ahead log, shared memory or "
                  f"journal), not a database: {what} must name the .db file itself, and overwriting such a "
                  f"file loses committed games.", file=sys.stderr)
            return 2
    if missing(db):
        return 2
    if os.path.abspath(db) == os.path.abspath(args.path):
        print("The backup must go to another file than the database.", file=sys.stderr)
        return 2
    folder = os.path.dirname(os.path.abspath(args.path))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        print(f"Cannot create the folder {folder} for the backup: {e.strerror}.", file=sys.stderr)
        return 2
    tmp = f"{args.path}.partial"
    try:
        if os.path.exists(tmp):
            os.remove(tmp)
        asyncio.run(_backup(db, tmp))
        os.replace(tmp, args.path)
    except Exception as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        if is_damage(e):
            print(damage_message(db, e), file=sys.stderr)
            return 1
        if isinstance(e, OSError):
            print(f"Cannot write the backup to {args.path}: {e.strerror or e}.", file=sys.stderr)
            return 2
        raise
    problems = copy_problems(args.path)
    if problems:
        print(f"Copied {db} to {args.path}, but the copy is damaged, so the database is too "
              f"({len(problems)} problem(s); run tabula db check --db {db}):", file=sys.stderr)
        for line in problems[:10]:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"Backed up {db} to {args.path} ({os.path.getsize(args.path)} bytes); the copy was checked.")
    return 0
