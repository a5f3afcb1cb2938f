"""The cogs, one per concern. They share the ``/game`` command group defined here.

Each handler is a thin adapter: read the interaction's plain ids, call the host, send the
``Reply`` with the outbox. Errors propagate to ``TabulaTree.on_error``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot.host import Reply

if TYPE_CHECKING:
    from bot.host import Host

    from ..outbox import Outbox


class CogBot(Protocol):
    """What the cogs use of the bot (``client.TabulaBot``, which loads them: they do not
    import it back): the host, the outbox, and where a session is played."""

    outbox: Outbox

    @property
    def host(self) -> Host: ...

    async def session_channel(self, session_id: int) -> int | None: ...

NAME_CHARS = 100
"""The longest free-text name an option takes: a card, nation, rules topic or game id."""
TEXT_CHARS = 500
"""The longest free-text move or options an option takes (Discord's own limit is 6,000)."""
Name = app_commands.Range[str, 1, NAME_CHARS]
"""A free-text name option; Discord refuses longer input before the bot sees it."""
Text = app_commands.Range[str, 1, TEXT_CHARS]
"""A free-text move or options option; Discord refuses longer input before the bot sees it."""

GAME = app_commands.Group(name="game", description="Play historical strategy games in this channel")


def game_command(*, name: str, description: str) -> Any:
    """``GAME.command`` that replaces a command of the same name: discord.py re-imports an
    extension module when a bot loads it again (a restart in the same process)."""

    def deco(func: Any) -> Any:
        if GAME.get_command(name) is not None:
            GAME.remove_command(name)
        return GAME.command(name=name, description=description)(func)

    return deco


def tabula(interaction: discord.Interaction) -> CogBot:
    """The bot that received ``interaction``."""
    return interaction.client  # type: ignore[return-value]


def host(interaction: discord.Interaction) -> Host:
    return tabula(interaction).host


def channel_id(interaction: discord.Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


def is_moderator(interaction: discord.Interaction) -> bool:
    """Server moderators: Manage Server, Manage Channels or Administrator."""
    p = interaction.permissions
    return bool(p.administrator or p.manage_guild or p.manage_channels)


async def answer(interaction: discord.Interaction, reply: Reply, **kwargs: Any) -> None:
    await tabula(interaction).outbox.answer(interaction, reply, game_channel_id=kwargs.get("game_channel_id"))


async def complete_actions(h: Any, channel: int, user: int, prefix: str) -> list[str]:
    """Legal actions in notation starting with ``prefix`` for the user's seat (autocomplete)."""
    return list(await h.complete(channel, user, prefix))
