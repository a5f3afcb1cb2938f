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
from storage import Storage, storage_for

from .outbox import Outbox
from .reminders import Reminders
from .settings import BotSettings
from .tree import TabulaTree, Tracker, report_error

log = logging.getLogger("tabula.discord")

COGS = (
    "bot.discordbot.cogs.lobby",
    "bot.discordbot.cogs.play",
    "bot.discordbot.cogs.views",
    "bot.discordbot.cogs.spectators",
    "bot.discordbot.cogs.admin",
    "bot.discordbot.cogs.standings",
)


def intents() -> discord.Intents:
    """Only what slash commands, buttons and DMs need: guilds (channels, threads).

    No privileged intent (members, presences, message content) is used.
    """
    i = discord.Intents.none()
    i.guilds = True
    return i


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events: Discord's ``(guild_id >> 22) % shard_count``;
    direct messages (no guild) arrive on shard 0."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (guild_id >> 22) % shard_count


def parse_shards(text: str, shard_count: int) -> list[int]:
    """Shard ids from ``A-B`` (inclusive), ``A`` or ``A,B,C-D``; each must be below
    ``shard_count``. Raises ValueError with a message for the command line."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ValueError(f"--shards takes A-B, A or A,B,C-D (shard numbers from 0), not {text!r}")
        first, last = int(lo), int(hi) if sep else int(lo)
        if first > last:
            raise ValueError(f"--shards {part}: the first shard is after the last")
        ids.extend(range(first, last + 1))
    if not ids or max(ids) >= shard_count:
        raise ValueError(f"--shards {text}: shard numbers go from 0 to {shard_count - 1} "
                         f"with --shard-count {shard_count}")
    return sorted(set(ids))


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
        # Tabula never joins voice: no warnings about voice libraries on every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
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
        self._storage: Storage | None = None
        self.outbox = Outbox(self)
        self.with_reminders = reminders
        self.reminders: Reminders | None = None

    @property
    def host(self) -> Host:
        if self._host is None:
            raise RuntimeError("the host service is not open")
        return self._host

    async def setup_hook(self) -> None:
        if self._own_host:
            hs = HostSettings(db=self.settings.db, database=self.settings.database,
                              auto_pass=self.settings.auto_pass)
            self._storage = storage_for(hs.database_url(), busy_timeout_ms=hs.busy_timeout_ms)
            await self._storage.open()
            self._host = Host(self._storage, hs, clock=self.clock, **self._host_args)
        for name in COGS:
            await self.load_extension(name)
        from .cogs import GAME

        if self.tree.get_command("game") is None:
            self.tree.add_command(GAME)
        if self._host is not None:
            self.outbox.start()  # resumes the deliveries a restart interrupted
            from .boards import board_pool

            board_pool().warm()  # the board workers start now, not on the first board
        if self.with_reminders and self._host is not None:
            self.reminders = Reminders(self)
            await self.add_cog(self.reminders)  # its cog_load starts the background task

    async def close(self) -> None:
        if self.reminders is not None:
            await self.remove_cog(self.reminders.qualified_name)  # stops its task before the rest
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.tracker.idle(), 10)
        await self.outbox.stop()
        await super().close()
        if self._storage is not None:
            await self._storage.close()
            self._storage = None

    # A game whose channel, thread or server is gone is orphaned: its reminders and deadlines
    # stop, and a moderator can abandon it from another channel (/game abandon game:<number>).
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._orphan(channel_id=channel.id, why="its channel was deleted")

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._orphan(channel_id=payload.thread_id, why="its thread was deleted")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._orphan(guild_id=guild.id, why="the bot was removed from the server")

    async def _orphan(self, **where: Any) -> list[int]:
        if self._host is None:
            return []
        async with self.tracker.busy():
            try:
                marked = await self.host.orphan(**where)
            except Exception:
                log.exception("could not mark the games of %s as orphaned", where)
                return []
        for session_id in marked:
            self.outbox.forget_session(session_id)
        return marked

    async def orphan_on_not_found(self, error: BaseException, channel_id: int, guild_id: int | None) -> bool:
        """Treat Discord's 10003 Unknown Channel (the channel or thread) and 10004 Unknown Guild
        (the whole server) as the delete events; True when ``error`` was one of them."""
        code = getattr(error, "code", None)
        if not isinstance(error, discord.NotFound) or code not in (10003, 10004):
            return False
        if code == 10004 and guild_id is not None:
            await self._orphan(guild_id=guild_id, why="the server is gone for the bot (Unknown Guild)")
        else:
            await self._orphan(channel_id=channel_id, why="its channel is gone (Unknown Channel)")
        return True

    async def on_ready(self) -> None:
        log.info(
            "connected as %s (%s) to %d server(s)", self.user, getattr(self.user, "id", "?"), len(self.guilds)
        )

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (always, unsharded): the
        sessions of a guild belong to its shard, and only that process does their
        background work (reminders, response-window deadlines)."""
        count = getattr(self, "shard_count", None)
        ids = getattr(self, "shard_ids", None)
        if not count or count <= 1 or ids is None:
            return True
        return shard_of(guild_id, count) in ids

    async def session_channel(self, session_id: int) -> int | None:
        """The channel (or thread) id where the session is played."""
        return await self.host.channel_of(session_id)

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


class ShardedTabulaBot(TabulaBot, commands.AutoShardedBot):
    """The Tabula bot running some of the bot's shards: ``shard_count`` (all processes
    together) and this process's ``shard_ids``. Several such processes share one
    PostgreSQL database; each receives the events of its shards' guilds only.
    """

    def __init__(self, settings: BotSettings, *, shard_count: int, shard_ids: list[int], **kw: Any) -> None:
        super().__init__(settings, shard_count=shard_count, shard_ids=list(shard_ids), **kw)


def make_bot(settings: BotSettings, *, shard_count: int | None = None, shard_ids: list[int] | None = None,
             **kw: Any) -> TabulaBot:
    """A ``TabulaBot``, or a ``ShardedTabulaBot`` when ``shard_count`` is given (``shard_ids``
    defaults to all of them)."""
    if shard_count is None:
        return TabulaBot(settings, **kw)
    ids = list(range(shard_count)) if shard_ids is None else shard_ids
    return ShardedTabulaBot(settings, shard_count=shard_count, shard_ids=ids, **kw)
