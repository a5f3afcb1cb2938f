"""Fixtures for end-to-end tests: the real bot, over real sockets, against the emulator."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.discordbot.client import TabulaBot
from bot.discordbot.settings import BotSettings
from tests.fakediscord import Channel, FakeDiscord, Guild, InteractionRecord, User
from tests.fakediscord.fixtures import *  # noqa: F403
from tests.fakediscord.fixtures import running


class E2EBot(TabulaBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # Discord asks for 5 s between IDENTIFYs; the emulator does not


class Clock:
    def __init__(self, t: float = 1_750_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@dataclass
class World:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User
    dave: User  # a spectator, never seated
    db: Path
    clock: Clock
    bot: E2EBot | None = None

    def settings(self) -> BotSettings:
        return BotSettings(discord_token=self.fake.token, db=str(self.db), dev_guild=self.guild.id)

    @contextlib.asynccontextmanager
    async def run_bot(self, *, reminders: bool = False) -> AsyncIterator[E2EBot]:
        """The bot on this world's database. With ``reminders`` its background task runs once
        at start (the check interval is a day of real time): tests call ``run_once`` after
        moving ``clock``."""
        seeds = itertools.count(12345)
        settings = self.settings()
        if reminders:
            settings = settings.model_copy(update={"reminder_check_seconds": 86400.0})
        bot = E2EBot(
            settings,
            clock=self.clock,
            reminders=reminders,
            guild_ready_timeout=0.01,
            host_args={"seeds": lambda: next(seeds)},
        )
        async with running(bot, self.fake):
            self.bot = bot
            try:
                yield bot
            finally:
                await bot.tracker.idle()
                self.bot = None

    async def done(self, rec: InteractionRecord) -> InteractionRecord:
        """Wait until the bot answered and finished everything it does for this interaction."""
        await rec.response()
        assert self.bot is not None
        await self.bot.tracker.idle()
        return rec

    async def slash(self, user: User, channel: Channel, command: str, /, **options: Any) -> InteractionRecord:
        return await self.done(await self.fake.slash(user, channel, command, **options))

    async def click(self, user: User, message: Any, custom_id: str) -> InteractionRecord:
        return await self.done(await self.fake.click(user, message, custom_id))

    async def select(self, user: User, message: Any, custom_id: str, values: list[str]) -> InteractionRecord:
        return await self.done(await self.fake.select(user, message, custom_id, values))


@pytest.fixture
def world(fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    fake = fake_discord
    g = fake.add_guild("Historians")
    ch = fake.add_text_channel(g, "games")
    users = [fake.add_user(n) for n in ("alice", "bob", "carol", "dave")]
    for u in users:
        fake.add_member(g, u)
    return World(fake, g, ch, *users, db=tmp_path / "tabula.db", clock=Clock())
