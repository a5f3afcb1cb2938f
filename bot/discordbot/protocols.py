"""What the parts of the Discord adapter use of the bot, as Protocols.

The outbox, the private homes and the reminders are typed against these rather than against
``client.TabulaBot``: the client imports them, and none of them imports the client back, so
the modules of ``bot.discordbot`` form no import cycle (``tests/test_module_structure.py``).
``TabulaBot`` satisfies each; a test may pass a stand-in with just these members.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import discord

    from bot.host import Host
    from bot.host.replies import Reply

    from .settings import BotSettings
    from .tree import Tracker


class Publisher(Protocol):
    """Sends a turn update that is not the answer to a command (``outbox.Outbox.publish``)."""

    async def publish(self, channel_id: int, reply: Reply,
                      interaction: discord.Interaction | None = None) -> None: ...


class DeliveryBot(Protocol):
    """What the outbox and the private homes use of the bot: the host, Discord's HTTP client
    and cache, and the bot's answers about sessions, shards and gone channels."""

    http: Any
    _connection: Any
    application_id: int | None

    @property
    def host(self) -> Host: ...

    def get_channel(self, channel_id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_user(self, user_id: int, /) -> Any: ...

    async def fetch_user(self, user_id: int, /) -> Any: ...

    def get_partial_messageable(self, channel_id: int, /, **kw: Any) -> Any: ...

    def owns_guild(self, guild_id: int | None) -> bool: ...

    async def session_channel(self, session_id: int) -> int | None: ...

    async def orphan_on_not_found(self, error: BaseException, channel_id: int, guild_id: int | None) -> bool: ...


class ReminderBot(Protocol):
    """What the reminders cog uses of the bot: the host, its settings and clock, the tracker
    of work in flight, the outbox to publish closed windows, Discord's cache, and
    ``dispatch`` for the events its listeners receive."""

    settings: BotSettings
    clock: Callable[[], float]
    tracker: Tracker
    outbox: Publisher

    @property
    def host(self) -> Host: ...

    def get_channel(self, channel_id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_user(self, user_id: int, /) -> Any: ...

    async def fetch_user(self, user_id: int, /) -> Any: ...

    def owns_guild(self, guild_id: int | None) -> bool: ...

    async def session_channel(self, session_id: int) -> int | None: ...

    async def orphan_on_not_found(self, error: BaseException, channel_id: int, guild_id: int | None) -> bool: ...

    async def wait_until_ready(self) -> None: ...

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None: ...
