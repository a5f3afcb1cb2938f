"""``tabula verify SESSION``: replay a finished game from its seed and log."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.commands import whole_number

from .backup import database_path, missing, run_on_database


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "verify", help="check a finished game: sha256(seed) and a replay to its outcome",
        description="Check that the revealed seed matches the sha256 published at the start, and that the "
                    "game's action log replays from that seed to the stored outcome.")
    p.add_argument("session", type=whole_number, help="the game's session number (#id)")
    p.add_argument("--db", default=None, help="database file (default: $TABULA_DB or tabula.db)")
    p.set_defaults(func=run)
    return p


async def _verify(db: str, session_id: int) -> int:
    from games.core import GameError
    from storage import storage_for
    from storage.replay import verify_session

    async with storage_for(db) as st:
        try:
            ok, lines = await verify_session(st, session_id)
        except GameError as e:
            print(f"tabula verify: {e.message}", file=sys.stderr)
            return 2
    print("\n".join(lines))
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


def run(args: argparse.Namespace) -> int:
    db = database_path(args.db)
    if missing(db):
        return 2
    return run_on_database(db, lambda: _verify(db, args.session))
