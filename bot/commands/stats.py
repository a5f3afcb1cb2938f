"""``tabula stats``: statistics of the finished games in a database, and the win rates of a
``tabula simulate`` report beside them."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from bot.commands import whole_number

from . import game_ids_help
from .backup import database_path, missing, run_on_database


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "stats", help="games played and won, win rates per nation or faction, from a database",
        description="Statistics of the finished games in a database: per player (--player) games played and won "
                    "by game, player count and nation or faction; otherwise the win rates per nation or faction "
                    "for each game and player count. --simulated puts the win rates of a saved `tabula simulate` "
                    "report beside them.")
    p.add_argument("--game", default=None, help=f"only this game: {game_ids_help()}")
    p.add_argument("--player", type=whole_number, default=None, metavar="USER_ID", help="one player's record (a user id)")
    p.add_argument("--guild", type=whole_number, default=None, metavar="GUILD_ID", help="only the games of this server")
    p.add_argument("--simulated", type=Path, default=None, metavar="FILE",
                   help="the saved output of `tabula simulate` (one or more runs) to compare with")
    p.add_argument("--db", default=None, help="database file or URL (default: $TABULA_DB or tabula.db)")
    p.set_defaults(func=run)
    return p


class _Plain:
    def user(self, user_id: int) -> str:
        return f"user {user_id}"


def _plain(text: str) -> str:
    return re.sub(r"\*\*(.+?)\*\*", r"\1", text)


async def _stats(db: str, args: argparse.Namespace, sims: list | None) -> int:
    from bot.host.stats import compare_lines, player_lines, server_lines
    from games.core import GameError, get_game
    from storage import storage_for

    try:
        gid = get_game(args.game).id if args.game else None
    except GameError as e:
        print(f"tabula stats: {e.message}", file=sys.stderr)
        return 2
    async with storage_for(db) as st:
        results = await st.results(guild_id=args.guild, game_id=gid)
    if args.player is not None:
        lines = player_lines(results, args.player, _Plain().user(args.player))
    else:
        lines = server_lines(results, gid)
    if sims:
        lines += ["", "Beside AI play (tabula simulate):", *compare_lines(results, sims)]
    print("\n".join(_plain(line) for line in lines))
    return 0


def run(args: argparse.Namespace) -> int:
    sims = None
    if args.simulated is not None:
        from bot.host.stats import read_simulate

        try:
            sims = read_simulate(args.simulated.read_text(encoding="utf-8"))
        except OSError as e:
            print(f"tabula stats: cannot read {args.simulated}: {e.strerror or e}.", file=sys.stderr)
            return 2
        except ValueError as e:
            print(f"tabula stats: {args.simulated}: {e}.", file=sys.stderr)
            return 2
    db = database_path(args.db)
    if missing(db):
        return 2
    return run_on_database(db, lambda: _stats(db, args, sims))
