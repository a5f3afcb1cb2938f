"""``tabula run``: start the Discord bot (settings from the environment or ``.env``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

from bot.commands import whole_number

from .discord_errors import report


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "run",
        help="run the Discord bot",
        description="Run the Discord bot. Needs DISCORD_TOKEN (environment or .env); see README.md.",
    )
    p.add_argument("--db", default=None, help="SQLite database path (default: TABULA_DB or ./tabula.db)")
    p.add_argument("--database", default=None, metavar="URL",
                   help="database URL, e.g. postgresql://tabula@dbhost/tabula (default: TABULA_DATABASE)")
    p.add_argument("--shard-count", type=whole_number, default=None, metavar="N",
                   help="total number of shards over all bot processes (Discord requires sharding past 2,500 servers)")
    p.add_argument("--shards", default=None, metavar="A-B",
                   help="the shards this process runs, e.g. 0-3 (default: all); needs --shard-count")
    p.set_defaults(func=run)
    return p


def load_settings(args: argparse.Namespace) -> Any:
    from bot.discordbot.settings import BotSettings

    settings = BotSettings()
    if getattr(args, "db", None):
        settings = settings.model_copy(update={"db": args.db, "database": None})
    if getattr(args, "database", None):
        settings = settings.model_copy(update={"database": args.database})
    return settings


def shard_plan(args: argparse.Namespace, settings: Any) -> tuple[int | None, list[int] | None]:
    """(shard count, this process's shard ids) from ``--shard-count`` and ``--shards``; (None, None)
    unsharded. Raises ValueError with a message for the user."""
    from bot.discordbot.client import parse_shards
    from storage import is_postgres

    count, shards = getattr(args, "shard_count", None), getattr(args, "shards", None)
    if count is None:
        if shards is not None:
            raise ValueError("--shards needs --shard-count N (the total over all processes)")
        return None, None
    if count < 1:
        raise ValueError("--shard-count must be at least 1")
    ids = parse_shards(shards, count) if shards is not None else list(range(count))
    if len(ids) < count and not is_postgres(settings.database or ""):
        raise ValueError("Several processes (--shards a part of --shard-count) must share one PostgreSQL "
                         "database: set TABULA_DATABASE=postgresql://... or --database (see README.md).")
    return count, ids


def run(args: argparse.Namespace) -> int:
    from bot.discordbot.settings import NO_TOKEN_HELP

    settings = load_settings(args)
    try:
        shard_count, shard_ids = shard_plan(args, settings)
    except ValueError as e:
        print(f"tabula run: {e}", file=sys.stderr)
        return 2
    from storage import file_problem

    problem = file_problem(settings.database or settings.db, write=True)
    if problem:
        print(f"tabula run: {problem}.", file=sys.stderr)
        return 2
    token = settings.token()
    if token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    return asyncio.run(_run(settings, token, shard_count, shard_ids))


async def _run(settings: Any, token: str, shard_count: int | None = None, shard_ids: list[int] | None = None) -> int:
    import discord

    from bot.discordbot.client import make_bot

    bot = make_bot(settings, shard_count=shard_count, shard_ids=shard_ids)
    if shard_count is not None:
        logging.getLogger("tabula.discord").info("running shards %s of %d", shard_ids, shard_count)
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
    except Exception as e:
        return report(e, "run", "starting the bot")
    return 0
