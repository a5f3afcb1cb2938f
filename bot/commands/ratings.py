"""``tabula ratings rebuild``: recompute every result and skill rating from the finished
games' logs, say whether the stored ratings were the same, and store the recomputed ones."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .backup import database_path, missing, run_on_database


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("ratings", help="skill ratings: rebuild them from the finished games' logs",
                       description="Skill ratings per game and player (openskill), derived from finished games.")
    ops = p.add_subparsers(dest="op", required=True, metavar="OPERATION")
    r = ops.add_parser("rebuild", help="recompute every rating from the logs and store it",
                       description="Recompute every finished game's result and every rating from the logs, in "
                                   "the order the games ended; list the stored ratings that differ; store the "
                                   "recomputed ones (not with --check).")
    r.add_argument("--check", action="store_true", help="compare only; write nothing")
    r.add_argument("--db", default=None, help="database file or URL (default: $TABULA_DB or tabula.db)")
    p.set_defaults(func=run)
    return p


async def _rebuild(db: str, check: bool) -> int:
    from bot.host.results import rebuild
    from storage import storage_for

    async with storage_for(db) as st:
        report = await rebuild(st, time.time(), write=not check)
    games = f"{report.games} finished game{'s' if report.games != 1 else ''}"
    print(f"Read {games} ({report.rated_games} rated): {report.ratings} ratings.")
    for line in report.problems:
        print(f"  cannot read: {line}")
    if report.differences:
        print(f"{len(report.differences)} stored rating(s) differed from the recomputed ones:")
        for line in report.differences:
            print(f"  {line}")
    else:
        print("The recomputed ratings are identical to the stored ones.")
    print("Nothing was written (--check)." if check else "Stored the recomputed results and ratings.")
    return 1 if report.problems or (check and report.differences) else 0


def run(args: argparse.Namespace) -> int:
    db = database_path(args.db)
    if missing(db):
        return 2
    return run_on_database(db, lambda: _rebuild(db, args.check))
