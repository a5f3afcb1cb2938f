"""``tabula migrate``: copy a SQLite database to PostgreSQL and verify every session by replay."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

from games.core.english import count


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "migrate", help="copy the SQLite database to PostgreSQL, verified by replay",
        description="Copy every session, seat, action, snapshot, follower, reminder, user preference and "
                    "server setting from a SQLite file to an empty PostgreSQL database, then check that "
                    "every session arrived identical and replays from its seed to the same state. "
                    "Stop the bot first.")
    p.add_argument("--from", dest="source", default=None, metavar="FILE",
                   help="the SQLite database (default: $TABULA_DB or tabula.db)")
    p.add_argument("--to", dest="target", default=None, metavar="URL",
                   help="the PostgreSQL database, postgresql://user@host/db (default: $TABULA_DATABASE)")
    p.set_defaults(func=run)
    return p


async def _migrate(source: str, target: str) -> int:
    from storage import SqliteStorage, redact
    from storage.copy import CopyError, copy_sqlite_to_postgres
    from storage.postgres import PostgresStorage

    async with SqliteStorage(source) as src, PostgresStorage(target) as dst:
        try:
            report = await copy_sqlite_to_postgres(src, dst, progress=print)
        except CopyError as e:
            print(f"tabula migrate: {e}.", file=sys.stderr)
            return 2
    print(f"{source} -> {redact(target)}: {report.sessions} sessions, {count(report.actions, 'action')}, "
          f"{report.users} user preferences, {report.guilds} server settings.")
    print(f"Replayed {report.replayed} started sessions on the copy.")
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    print("VERIFIED: every session arrived identical." if report.ok else "NOT VERIFIED")
    return 0 if report.ok else 1


def run(args: argparse.Namespace) -> int:
    from bot.host.settings import HostSettings
    from storage import file_problem, is_postgres
    from storage.url import sqlite_path

    settings = HostSettings()
    source = args.source or settings.db
    target = args.target or settings.database
    if not target or not is_postgres(target):
        print("tabula migrate: name the PostgreSQL database with --to postgresql://... "
              "(or TABULA_DATABASE).", file=sys.stderr)
        return 2
    problem = file_problem(source)
    if problem:
        print(f"tabula migrate: {problem}.", file=sys.stderr)
        return 2
    source = sqlite_path(source)
    if not os.path.exists(source):
        print(f"No database at {source}.", file=sys.stderr)
        return 2
    return asyncio.run(_migrate(source, target))
