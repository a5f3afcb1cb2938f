"""bot.host — the Discord-free host service (ARCHITECTURE.md, "The host").

Typical use::

    async with open_host("tabula.db") as host:
        reply = await host.create(guild_id, channel_id, user_id, "barbarian-hordes")

Adapters (discord.py cogs, the terminal console) call ``Host`` methods with plain
ids and send the ``Reply`` objects back; errors are ``GameError``s to show the user.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from storage import storage_for

from .errors import (
    ChannelBusyError,
    GameFaultError,
    InvalidOptionError,
    LobbyError,
    NoSessionError,
    NotSeatedError,
    OrphanedError,
    OutdatedActionError,
    PermissionDeniedError,
    SuspendedError,
    UndoError,
    UnknownSessionError,
)
from .replies import (
    Embed,
    EmbedField,
    GameSummary,
    ImageRequest,
    LogEntry,
    PrivatePart,
    PromptInfo,
    Reply,
    parse_token,
    prompt_token,
)
from .service import Host, MentionNames, Names
from .settings import HostSettings


@asynccontextmanager
async def open_host(db: str | None = None, settings: HostSettings | None = None, **host_args: Any) -> AsyncIterator[Host]:
    """A ``Host`` on the database ``db`` (a SQLite path or a database URL, see
    ``storage.url``), else ``settings.database_url()``; closed on exit.

    ``host_args`` go to ``Host`` (clock, names, seeds)."""
    settings = settings or HostSettings()
    storage = storage_for(db or settings.database_url(), busy_timeout_ms=settings.busy_timeout_ms)
    await storage.open()
    try:
        yield Host(storage, settings, **host_args)
    finally:
        await storage.close()


__all__ = [
    "ChannelBusyError",
    "Embed",
    "EmbedField",
    "GameFaultError",
    "GameSummary",
    "Host",
    "HostSettings",
    "ImageRequest",
    "InvalidOptionError",
    "LobbyError",
    "LogEntry",
    "MentionNames",
    "Names",
    "NoSessionError",
    "NotSeatedError",
    "OrphanedError",
    "SuspendedError",
    "OutdatedActionError",
    "PermissionDeniedError",
    "PrivatePart",
    "PromptInfo",
    "Reply",
    "UndoError",
    "UnknownSessionError",
    "open_host",
    "parse_token",
    "prompt_token",
]
