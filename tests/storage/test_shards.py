"""Sharding: ``tabula run --shard-count N --shards A-B``, which guilds a process owns, and the
sharded bot class (discord.py's AutoShardedBot with explicit shard ids)."""

from __future__ import annotations

import argparse

import pytest
from discord.ext import commands

from bot.cli import build_parser
from bot.commands.run import load_settings, shard_plan
from bot.discordbot.client import ShardedTabulaBot, TabulaBot, make_bot, parse_shards, shard_of
from bot.discordbot.settings import BotSettings

PG = "postgresql://tabula@dbhost/tabula"


def args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["run", *argv])


def test_shard_of_follows_discords_rule():
    guild = 81384788765712384  # (guild >> 22) % 4
    assert shard_of(guild, 4) == (guild >> 22) % 4
    assert shard_of(None, 4) == 0  # direct messages arrive on shard 0
    assert shard_of(guild, 1) == 0


def test_parse_shards():
    assert parse_shards("0-3", 8) == [0, 1, 2, 3]
    assert parse_shards("5", 8) == [5]
    assert parse_shards("0,2,4-5", 8) == [0, 2, 4, 5]
    for bad in ("3-1", "x", "0-8", "", "1-"):
        with pytest.raises(ValueError):
            parse_shards(bad, 8)


def test_shard_plan_from_the_command_line(monkeypatch):
    monkeypatch.delenv("TABULA_DATABASE", raising=False)
    a = args("--shard-count", "4", "--shards", "2-3", "--database", PG)
    assert shard_plan(a, load_settings(a)) == (4, [2, 3])
    a = args()
    assert shard_plan(a, load_settings(a)) == (None, None)
    a = args("--shard-count", "2")  # one process running every shard may keep SQLite
    assert shard_plan(a, load_settings(a)) == (2, [0, 1])
    a = args("--shard-count", "4", "--shards", "0-1", "--db", "x.db")
    with pytest.raises(ValueError, match="PostgreSQL"):
        shard_plan(a, load_settings(a))
    a = args("--shards", "0-1", "--database", PG)
    with pytest.raises(ValueError, match="--shard-count"):
        shard_plan(a, load_settings(a))


def test_run_refuses_a_bad_shard_plan_before_connecting(capsys, monkeypatch):
    monkeypatch.delenv("TABULA_DATABASE", raising=False)
    a = args("--shard-count", "4", "--shards", "0-9", "--database", PG)
    assert a.func(a) == 2
    assert "0 to 3" in capsys.readouterr().err


async def test_a_sharded_bot_owns_the_guilds_of_its_shards():
    settings = BotSettings(discord_token="x", database=PG)
    # never started, so not closed either (discord.py's sharded close needs a started client)
    bot = make_bot(settings, shard_count=4, shard_ids=[1, 3], open_host=False, reminders=False)
    assert isinstance(bot, ShardedTabulaBot) and isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    guilds = [g << 22 for g in range(8)]  # shard = g % 4
    assert [bot.owns_guild(g) for g in guilds] == [False, True, False, True] * 2
    assert not bot.owns_guild(None)  # DMs are shard 0's
    plain = make_bot(settings, open_host=False, reminders=False)
    try:
        assert type(plain) is TabulaBot and plain.owns_guild(12345) and plain.owns_guild(None)
    finally:
        await plain.close()
