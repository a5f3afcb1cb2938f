"""Sharding in the emulator: each gateway connection IDENTIFYs as one shard [id, count] and
receives only the events of the guilds Discord routes to it (``(guild_id >> 22) % count``,
direct messages to shard 0); GET /gateway/bot recommends the count the test sets."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.fakediscord import Channel, FakeDiscord
from tests.fakediscord.fixtures import running
from tests.fakediscord.server import shard_of

pytestmark = pytest.mark.timeout(60)


class ShardBot(commands.AutoShardedBot):
    """A minimal sharded bot whose /where says which process and shard answered."""

    def __init__(self, name: str, **kw) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0.01, **kw)
        self.name = name
        self.heard: list[int | None] = []  # the guild of every interaction received

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # Discord asks for 5 s between IDENTIFYs; the emulator does not

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.heard.append(interaction.guild_id)

    async def setup_hook(self) -> None:
        @self.tree.command(description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            shard = interaction.guild.shard_id if interaction.guild is not None else "dm"
            await interaction.response.send_message(f"{self.name} shard {shard}")


@pytest.fixture
def sharded(fake_discord: FakeDiscord):
    fake = fake_discord
    fake.shards = 2
    guilds = [fake.add_guild(f"guild {k}", shard=k % 2) for k in range(4)]
    alice = fake.add_user("alice")
    for g in guilds:
        fake.add_member(g, alice)
    channels = [fake.add_text_channel(g) for g in guilds]
    return fake, guilds, channels, alice


def dm_channel(fake: FakeDiscord, user) -> Channel:
    ch = Channel(fake.snowflake(), 1, recipient=user)
    fake.dm_channels[user.id] = fake.channels[ch.id] = ch
    return ch


async def test_gateway_bot_recommends_the_shard_count_the_test_sets(fake_discord: FakeDiscord):
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake_discord.token}"}) as s:
        async with s.get(fake_discord.api_base + "/gateway/bot") as resp:
            assert (await resp.json())["shards"] == 1
        fake_discord.shards = 3
        async with s.get(fake_discord.api_base + "/gateway/bot") as resp:
            assert (await resp.json())["shards"] == 3


def test_add_guild_on_a_shard(fake_discord: FakeDiscord):
    fake_discord.shards = 3
    for k in (0, 1, 2, 2, 0):
        g = fake_discord.add_guild(shard=k)
        assert shard_of(g.id, 3) == (g.id >> 22) % 3 == k
    assert shard_of(None, 3) == 0 and shard_of(12345 << 22, 1) == 0


async def test_two_processes_each_receive_only_their_shards_guilds(sharded):
    fake, guilds, channels, alice = sharded
    first, second = ShardBot("first", shard_count=2, shard_ids=[0]), ShardBot("second", shard_count=2, shard_ids=[1])
    async with running(first, fake), running(second, fake):
        assert sorted(fake.identified) == [(0, 2), (1, 2)] and fake.shard_count == 2
        assert {g.id for g in first.guilds} == {g.id for g in guilds if shard_of(g.id, 2) == 0}
        assert {g.id for g in second.guilds} == {g.id for g in guilds if shard_of(g.id, 2) == 1}
        await first.tree.sync()
        for g, ch in zip(guilds, channels, strict=True):
            rec = await (await fake.slash(alice, ch, "where")).response()
            owner = "first" if shard_of(g.id, 2) == 0 else "second"
            assert rec.original is not None and rec.original.content == f"{owner} shard {shard_of(g.id, 2)}"
        # a direct message goes to shard 0
        rec = await (await fake.slash(alice, dm_channel(fake, alice), "where")).response()
        assert rec.original is not None and rec.original.content == "first shard dm"
        assert first.heard == [g.id for g in guilds if shard_of(g.id, 2) == 0] + [None]
        assert second.heard == [g.id for g in guilds if shard_of(g.id, 2) == 1]

        # a guild event goes to its shard only: a channel created in shard 1's guild
        ch = fake.add_text_channel(guilds[1], "new")
        await fake.dispatch("CHANNEL_CREATE", ch.to_dict())
        assert [e["t"] for e in fake._sessions[1].events][-1:] == ["CHANNEL_CREATE"]
        assert "CHANNEL_CREATE" not in [e["t"] for e in fake._sessions[0].events]
        for _ in range(500):
            if second.get_channel(ch.id) is not None:
                break
            await asyncio.sleep(0.01)
        assert second.get_channel(ch.id) is not None and first.get_channel(ch.id) is None

        # shard 1 reconnects and RESUMEs its own session; shard 0 is untouched
        await fake.gateway_reconnect(shard=1)
        await fake.wait_until(lambda: fake.resume_count == 1 and 1 in fake._sockets)
        rec = await (await fake.slash(alice, channels[1], "where")).response()
        assert rec.original is not None and rec.original.content == "second shard 1"
        assert fake.identify_count == 2 and fake.undelivered == []


async def test_events_for_a_disconnected_shard_wait_for_its_resume(sharded):
    fake, guilds, channels, alice = sharded
    first, second = ShardBot("first", shard_count=2, shard_ids=[0]), ShardBot("second", shard_count=2, shard_ids=[1])
    async with running(first, fake), running(second, fake):
        await first.tree.sync()
        await fake._sockets[1].close()  # the connection drops; discord.py resumes the session
        rec = await (await fake.slash(alice, channels[1], "where")).response()
        assert rec.original is not None and rec.original.content == "second shard 1"
        assert fake.resume_count == 1 and second.heard == [guilds[1].id]


async def test_one_process_with_every_shard_takes_the_recommended_count(sharded):
    fake, guilds, channels, alice = sharded
    bot = ShardBot("all")  # no shard count given: discord.py asks GET /gateway/bot
    async with running(bot, fake):
        assert bot.shard_count == 2 and sorted(fake.identified) == [(0, 2), (1, 2)]
        assert {g.id for g in bot.guilds} == {g.id for g in guilds}
        assert {g.id: g.shard_id for g in bot.guilds} == {g.id: shard_of(g.id, 2) for g in guilds}


async def test_an_identify_with_another_shard_count_is_refused(sharded):
    fake, guilds, channels, alice = sharded
    first = ShardBot("first", shard_count=2, shard_ids=[0])
    async with running(first, fake):
        async with aiohttp.ClientSession() as s, s.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()  # HELLO
            await ws.send_json({"op": 2, "d": {"token": fake.token, "shard": [1, 3], "intents": 1,
                                               "properties": {}}})
            msg = await ws.receive()
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4010
        assert fake.identified == [(0, 2)]
