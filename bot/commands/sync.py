"""``tabula sync [--guild ID]``: upload the slash commands to Discord."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from bot.commands import whole_number

from .discord_errors import report
from .run import load_settings


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "sync",
        help="upload the bot's slash commands to Discord",
        description=(
            "Upload the slash commands. With --guild (or TABULA_DEV_GUILD) they are copied to that server "
            "and appear at once; without, they are global and may take a while to reach every server."
        ),
    )
    p.add_argument("--guild", type=whole_number, default=None, help="a server id to sync to (default: global)")
    p.add_argument(
        "--global", dest="global_", action="store_true", help="sync globally even if TABULA_DEV_GUILD is set"
    )
    p.set_defaults(func=run)
    return p


#: The longest rate-limit wait ``tabula sync`` sits through before it says how long Discord asks to wait.
MAX_WAIT_SECONDS = 30.0


def run(args: argparse.Namespace) -> int:
    from bot.discordbot.settings import NO_TOKEN_HELP

    settings = load_settings(args)
    token = settings.token()
    if token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    guild = args.guild if args.guild is not None else (None if args.global_ else settings.dev_guild)
    try:
        names = asyncio.run(sync_commands(settings, token, guild))
    except Exception as e:
        return report(e, "sync", "syncing the commands")
    where = f"server {guild}" if guild else "all servers (global; may take a while to appear)"
    print(f"Synced {len(names)} command(s) to {where}: {', '.join('/' + n for n in names)}")
    return 0


async def sync_commands(settings: Any, token: str, guild: int | None) -> list[str]:
    """Log in over HTTP only (no gateway), upload the tree, log out; returns the command names."""
    from bot.discordbot.client import TabulaBot

    # A long rate limit (Discord can ask for an hour) is reported, not slept through in silence.
    bot = TabulaBot(settings, open_host=False, reminders=False, max_ratelimit_timeout=MAX_WAIT_SECONDS)
    async with bot:
        await bot.login(token)
        synced = await bot.sync_commands(guild)
    return [c.name for c in synced]
