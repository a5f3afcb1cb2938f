"""``tabula db check`` and ``tabula db info``: look after the database."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from .backup import damage_message, database_path, is_damage, missing


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("db", help="check or describe the database", description="Look after the database.")
    p.add_argument("--db", default=None, help="database file (default: $TABULA_DB or tabula.db)")
    actions = p.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check", help="integrity check, and replay every started session against its snapshots",
        description="SQLite integrity and foreign-key checks and every row read back, then replay every "
                    "started session from its log and compare it with the stored snapshots, whose turn it "
                    "is and the outcome. Sessions saved under another version of their game's rules whose logs "
                    "no longer replay are listed apart (OLD RULES). Writes nothing.")
    check.add_argument("--db", default=argparse.SUPPRESS, help="database file")
    check.set_defaults(func=run_check)
    info = actions.add_parser("info", help="schema version and how many sessions of each status")
    info.add_argument("--db", default=argparse.SUPPRESS, help="database file")
    info.set_defaults(func=run_info)
    return p


def _existing(args: argparse.Namespace) -> str | None:
    db = database_path(args.db)
    return None if missing(db) else db


async def _check(db: str) -> int:
    from storage import storage_for
    from storage.replay import check_database

    async with storage_for(db, read_only=True) as st:
        report = await check_database(st)
    if report.integrity == ["ok"]:
        print("integrity_check: ok")
    else:
        print(f"integrity_check and rows read back: {len(report.integrity)} problem(s)")
        for line in report.integrity:
            print(f"PROBLEM: {line}")
    print(f"foreign keys: {'ok' if not report.foreign_keys else '; '.join(report.foreign_keys)}")
    print(f"sessions replayed (active, finished, abandoned): {report.sessions_checked}")
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    if report.old_rules:
        print(f"{len(report.old_rules)} saved under other rules (their logs no longer replay under the rules "
              "this version plays; they are kept, not damaged):")
        for line in report.old_rules:
            print(f"OLD RULES: {line}")
    print("OK" if report.ok else "FAILED")
    return 0 if report.ok else 1


def run_check(args: argparse.Namespace) -> int:
    db = _existing(args)
    if db is None:
        return 2
    try:
        return asyncio.run(_check(db))
    except Exception as e:
        if not is_damage(e):
            raise
        print(f"PROBLEM: {damage_message(db, e)}")
        print("FAILED")
        return 1


async def _info(db: str) -> int:
    from storage import SCHEMA_VERSION, redact, storage_for

    async with storage_for(db, read_only=True) as st:
        version = await st.schema_version()
        by_status = {s: await st.sessions_with_status(s) for s in ("lobby", "active", "finished", "abandoned")}
    counts = {s: len(recs) for s, recs in by_status.items()}
    print(f"{redact(db)}: schema {version} (this program: {SCHEMA_VERSION})")
    print(", ".join(f"{n} {s}" for s, n in counts.items()))
    open_recs = [*by_status["lobby"], *by_status["active"]]
    stopped = [r for r in by_status["active"] if r.attention is not None and r.orphaned is None]
    orphaned = [r for r in open_recs if r.orphaned is not None]
    if stopped:
        print(f"{len(stopped)} need attention (stopped by an incident; /game repair): " + ", ".join(
            f"#{r.id} (incident {r.attention.get('incident')}, {r.attention.get('what')})" for r in stopped))
    if orphaned:
        print(f"{len(orphaned)} orphaned (channel or server gone; /game abandon game:<number>): " + ", ".join(
            f"#{r.id} ({r.orphaned.get('why')})" for r in orphaned))
    suspended = [r for r in by_status["active"] if r.suspended is not None]
    if suspended:
        print(f"{len(suspended)} suspended (saved under older rules; /game abandon game:<number>): " + ", ".join(
            f"#{r.id} ({r.game_id}, rules version {r.rules_version}; plays {r.suspended.get('plays')})"
            for r in suspended))
    return 0


def run_info(args: argparse.Namespace) -> int:
    db = _existing(args)
    if db is None:
        return 2
    try:
        return asyncio.run(_info(db))
    except Exception as e:
        if not is_damage(e):
            raise
        print(damage_message(db, e), file=sys.stderr)
        return 1
