"""``tabula play GAME``: play in the terminal against AI seats; ``--db FILE --resume`` continues a stopped game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.commands import whole_number

from . import game_ids_help
from . import seed as seed_type


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "play", help="play a game in the terminal",
        description="Play a game in the terminal against AI seats; several humans share the keyboard (hot-seat). "
                    "Games are saved only with --db FILE. Seats are numbered from 1.")
    p.add_argument("game", nargs="?", default=None,
                   help=f"game id: {game_ids_help()} (new players: start with barbarian-hordes; "
                        "not needed with --resume)")
    p.add_argument("--players", type=whole_number, default=None, help="number of seats (default 4)")
    p.add_argument(
        "--ai", type=whole_number, default=None, help="how many seats the computer plays (default: all but one)"
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        help="session seed, 0 to 2**63-1 (default: random); the same seed and moves replay the game",
    )
    p.add_argument("--agents", choices=("heuristic", "random"), default=None,
                   help="how AI seats play (default heuristic)")
    p.add_argument("--db", default=None, help="keep the game in this SQLite file so it can be resumed and "
                                              "verified (default: memory only, not saved)")
    p.add_argument("--resume", action="store_true", help="continue the unfinished game stored in --db")
    p.add_argument("--option", "-o", dest="options", action="append", type=option_pair, default=None,
                   metavar="NAME=VALUE",
                   help="a game option, repeatable: e.g. -o variant=three-player (Barbarian Hordes), "
                        "-o mode=duel (Roman War), -o round_limit=8; values are read as JSON when they can be")
    p.add_argument("--auto-pass", action="store_true",
                   help="when a human's only legal answers are pass or done, answer it for them without asking "
                        "(no keyboard handover); the table sees the pass, so it tells the others you had "
                        "nothing to play")
    p.set_defaults(func=run)
    return p


def option_pair(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` -> (name, value); the value is JSON when it parses (8, true, ["a"]), else text."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = value
    return name.strip().replace("-", "_"), parsed


def run(args: argparse.Namespace) -> int:
    from bot.console import play

    if args.db is not None and not args.db.strip():
        print("tabula play: --db needs a file name (for example --db game.db); leave --db out to play "
              "without saving.", file=sys.stderr)
        return 2
    if args.resume and not args.db:
        print("tabula play: --resume needs --db FILE, the file the game was kept in.", file=sys.stderr)
        return 2
    if args.resume:
        given = [f"--{name.replace('_', '-')}" for name in ("players", "ai", "seed", "agents")
                 if getattr(args, name, None) is not None]
        if args.game:
            given.insert(0, f"the game ({args.game})")
        if given:
            print(f"tabula play: ignoring {', '.join(given)} with --resume: the stored game keeps its own "
                  "game, seats, seed and AI seats.", file=sys.stderr)
    args.options = dict(args.options or [])
    if args.players is None:
        args.players = 4
    if args.agents is None:
        args.agents = "heuristic"
    if args.ai is None:
        args.ai = max(0, args.players - 1)
    return play(args)
