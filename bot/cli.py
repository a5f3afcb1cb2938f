"""The ``tabula`` command line (argparse).

Each subcommand lives in its own module under ``bot/commands/`` with two
functions: ``add_parser(subparsers)`` and the handler it sets as ``func``.
Add a module's name to ``COMMANDS`` to expose it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = ("play", "simulate", "fuzz", "backup", "db", "verify", "export", "stats", "ratings", "render", "run",
            "sync", "migrate")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabula", description="Tabula: historical strategy games for Discord and the terminal."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"bot.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tabula`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
