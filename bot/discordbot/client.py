"""``TabulaBot``: the discord.py bot, a thin adapter over the host service."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.host import Host, HostSettings
from storage import SqliteStorage, UnknownSessionError

from .outbox import Outbox
from .settings import BotSettings
from .tree import TabulaTree, Tracker, report_error

log = logging.getLogger("tabula.discord")

COGS = (
    "bot.discordbot.cogs.lobby",
    "bot.discordbot.cogs.play",
    "bot.discordbot.cogs.views",
    "bot.discordbot.cogs.spectators",
    "bot.discordbot.cogs.admin",
)


def intents() -> discord.Intents:
    """Only what slash commands, buttons and DMs need: guilds (channels, threads).

    No privileged intent (members, presences, message content) is used.
    """
    i = discord.Intents.none()
    i.guilds = True
    return i


class TabulaBot(commands.Bot):
    """The Tabula bot.

    Parameters
    ----------
    settings : BotSettings
        Token, database path, development guild, reminder defaults.
    host : Host | None
        A host to use (tests); by default ``setup_hook`` opens one on ``settings.db``.
    open_host : bool
        False for ``tabula sync``, which only needs the command tree.
    clock : Callable[[], float]
        Seconds since the Unix epoch (tests pass a fake clock).
    reminders : bool
        Run the background task of reminders and response-window deadlines.
    """

    def __init__(
        self,
        settings: BotSettings,
        *,
        host: Host | None = None,
        open_host: bool = True,
        clock: Callable[[], float] = time.time,
        reminders: bool = True,
        host_args: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        self.tracker = Tracker()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            tree_cls=TabulaTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=False),
            **options,
        )
        assert isinstance(self.tree, TabulaTree)
        self.tree.tracker = self.tracker
        self.settings = settings
        self.clock = clock
        self._host = host
        self._own_host = host is None and open_host
        self._host_args = dict(host_args or {})
        self._storage: SqliteStorage | None = None
        self.outbox = Outbox(self)
        self.with_reminders = reminders
        self.reminders: Any = None

    @property
    def host(self) -> Host:
        if self._host is None:
            raise RuntimeError("the host service is not open")
        return self._host

    async def setup_hook(self) -> None:
        if self._own_host:
            hs = HostSettings(db=self.settings.db)
            self._storage = SqliteStorage(self.settings.db, busy_timeout_ms=hs.busy_timeout_ms)
            await self._storage.open()
            self._host = Host(self._storage, hs, clock=self.clock, **self._host_args)
        for name in COGS:
            await self.load_extension(name)
        from .cogs import GAME

        if self.tree.get_command("game") is None:
            self.tree.add_command(GAME)
        if self.with_reminders and self._host is not None:
            from .reminders import Reminders

            self.reminders = Reminders(self)
            self.reminders.start()

    async def close(self) -> None:
        if self.reminders is not None:
            await self.reminders.stop()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.tracker.idle(), 10)
        await super().close()
        if self._storage is not None:
            await self._storage.close()
            self._storage = None

    async def on_ready(self) -> None:
        log.info(
            "connected as %s (%s) to %d server(s)", self.user, getattr(self.user, "id", "?"), len(self.guilds)
        )

    async def session_channel(self, session_id: int) -> int | None:
        """The channel (or thread) id where the session is played."""
        try:
            return (await self.host.storage.get_session(session_id)).channel_id
        except UnknownSessionError:
            return None

    # Component clicks are routed by custom id (see components.py), not by in-memory views,
    # so every button ever posted keeps working across restarts.
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not custom_id.startswith("tabula:") or not self.tracker.first_time(interaction.id):
            return
        play = self.get_cog("Play")
        if play is None:
            return

        async def handle() -> None:
            try:
                await play.on_component(interaction, custom_id)  # type: ignore[attr-defined]
            except Exception as e:
                await report_error(interaction, e)

        self.tracker.spawn(handle(), "component")

    async def sync_commands(self, guild_id: int | None = None) -> list[discord.app_commands.AppCommand]:
        """Upload the command tree: to one guild (copied there, immediate) or globally."""
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()
