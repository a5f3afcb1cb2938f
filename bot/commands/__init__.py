"""Subcommands of the ``tabula`` command line, one module each (see ``bot/cli.py``)."""

from __future__ import annotations

import argparse

SEED_LIMIT = 1 << 63


def game_ids_help() -> str:
    """The game ids for a command's help, read from the game packages' names without
    importing them (``games.barbarian_hordes`` -> ``barbarian-hordes``)."""
    from games import GAME_PACKAGES

    return ", ".join(sorted(p.rsplit(".", 1)[1].replace("_", "-") for p in GAME_PACKAGES))


def seed(text: str) -> int:
    """argparse type of a session seed: an integer with 0 <= seed < 2**63 (63 bits)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {SEED_LIMIT - 1} (2**63 - 1), "
                                         f"not {value}")
    return value


def whole_number(text: str) -> int:
    """argparse type of a count or a number (a game's #id, seats, steps): a whole number;
    anything else is refused with ``'abc' is not a whole number (e.g. 12)``."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (e.g. 12)") from None


def number(text: str) -> float:
    """argparse type of a size or a rate: a number, whole or decimal (``2.5``); anything else is
    refused with ``'abc' is not a number (e.g. 2.5)``."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (e.g. 2.5)") from None
