"""``tabula play GAME``: play in the terminal against AI seats."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("play", help="play a game in the terminal", description="Play a game in the terminal.")
    p.add_argument("game", help="game id, e.g. barbarian-hordes")
    p.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    p.add_argument(
        "--ai", type=int, default=None, help="how many seats the computer plays (default: all but one)"
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="session seed (default: random); the same seed and moves replay the game",
    )
    p.add_argument("--agents", choices=("heuristic", "random"), default="heuristic", help="how AI seats play")
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    from bot.console import play

    if args.ai is None:
        args.ai = max(0, args.players - 1)
    return play(args)
