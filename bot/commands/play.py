"""``tabula play GAME``: play in the terminal against AI seats; ``--db FILE --resume`` continues a stopped game."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import seed as seed_type


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("play", help="play a game in the terminal", description="Play a game in the terminal.")
    p.add_argument("game", nargs="?", default=None, help="game id, e.g. barbarian-hordes (not needed with --resume)")
    p.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    p.add_argument(
        "--ai", type=int, default=None, help="how many seats the computer plays (default: all but one)"
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        help="session seed, 0 to 2**63-1 (default: random); the same seed and moves replay the game",
    )
    p.add_argument("--agents", choices=("heuristic", "random"), default="heuristic", help="how AI seats play")
    p.add_argument("--db", default=None, help="keep the game in this SQLite file so it can be resumed (default: memory)")
    p.add_argument("--resume", action="store_true", help="continue the unfinished game stored in --db")
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    from bot.console import play

    if args.resume and not args.db:
        print("tabula play: --resume needs --db FILE, the file the game was kept in.", file=sys.stderr)
        return 2

    if args.ai is None:
        args.ai = max(0, args.players - 1)
    return play(args)
