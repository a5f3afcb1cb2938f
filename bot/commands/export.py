"""``tabula export GAME_NUMBER --html DIR``: write a finished game's replay page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.commands import number, whole_number
from games.core.english import count

from .backup import database_path, missing, run_on_database


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "export", help="write a finished game's replay page (one self-contained HTML file)",
        description="Write the replay page of a finished game: the public board after each step, the public "
                    "log, a step slider, and the seed with its published sha256. Only what spectators saw.")
    p.add_argument("session", type=whole_number, help="the game's number (#id)")
    p.add_argument("--html", required=True, metavar="DIR",
                   help="folder to write game-<number>.html into (created when missing)")
    p.add_argument("--max-mib", type=number, default=None, metavar="MIB",
                   help="fit the page into this many MiB: narrower images, then fewer steps (said on the page)")
    p.add_argument("--db", default=None, help="database file or URL (default: $TABULA_DB or tabula.db)")
    p.set_defaults(func=run)
    return p


async def _export(db: str, named: str | None, session_id: int, out: Path, max_mib: float | None) -> int:
    from bot.replaypage import build_page
    from games.core import GameError
    from storage import storage_for

    async with storage_for(db) as st:
        try:
            page = await build_page(st, session_id, verify_command=_verify_command(named, session_id),
                                    max_bytes=None if max_mib is None else int(max_mib * 2**20))
        except GameError as e:
            print(f"tabula export: {e.message}", file=sys.stderr)
            return 2
    try:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"game-{session_id}.html"
        path.write_text(page.html, encoding="utf-8")
    except OSError as e:
        print(f"tabula export: cannot write into {out}: {e.strerror or e}.", file=sys.stderr)
        return 2
    print(f"{path}: {count(page.steps, 'step')} ({count(page.actions, 'action')}), {page.images} board images {page.width} px "
          f"wide, {page.size / 2**20:.2f} MiB, in {page.seconds:.1f} s" + (f"; {page.note}" if page.note else ""))
    return 0


def _verify_command(db: str | None, session_id: int) -> str:
    """The command shown on the page: with ``--db`` for a database file named on the command line
    (a database URL is left out: it may hold a password)."""
    import shlex

    from storage import is_postgres

    if db is None or is_postgres(db):
        return f"tabula verify {session_id}"
    return f"tabula verify --db {shlex.quote(db)} {session_id}"


def run(args: argparse.Namespace) -> int:
    out = Path(args.html)
    if out.exists() and not out.is_dir():
        print(f"tabula export: {out} is a file, not a folder; --html names the folder the page is written "
              f"into (game-{args.session}.html).", file=sys.stderr)
        return 2
    db = database_path(args.db)
    if missing(db):
        return 2
    if args.max_mib is not None and args.max_mib <= 0:
        print("tabula export: --max-mib is a positive number of MiB.", file=sys.stderr)
        return 2
    return run_on_database(db, lambda: _export(db, args.db, args.session, Path(args.html), args.max_mib))
