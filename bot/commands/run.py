"""``tabula run``: start the Discord bot (settings from the environment or ``.env``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "run",
        help="run the Discord bot",
        description="Run the Discord bot. Needs DISCORD_TOKEN (environment or .env); see README.md.",
    )
    p.add_argument("--db", default=None, help="SQLite database path (default: TABULA_DB or ./tabula.db)")
    p.set_defaults(func=run)
    return p


def load_settings(args: argparse.Namespace) -> Any:
    from bot.discordbot.settings import BotSettings

    settings = BotSettings()
    if getattr(args, "db", None):
        settings = settings.model_copy(update={"db": args.db})
    return settings


def run(args: argparse.Namespace) -> int:
    from bot.discordbot.settings import NO_TOKEN_HELP

    settings = load_settings(args)
    token = settings.token()
    if token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    return asyncio.run(_run(settings, token))


async def _run(settings: Any, token: str) -> int:
    import discord

    from bot.discordbot.client import TabulaBot

    bot = TabulaBot(settings)
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        print(
            "Discord refused the token (DISCORD_TOKEN). Reset it on the application's Bot page.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused a privileged intent; Tabula needs none, so check the code.", file=sys.stderr)
        return 1
    return 0
