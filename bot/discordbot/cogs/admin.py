"""Admin: /game replace, kick, abandon, settings.

A seat a human holds changes hands only by that human or a moderator (whoever takes it
reads its hand); the creator may fill AI seats (``/game replace seat:``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import LobbyError

from . import answer, channel_id, game_command, host, is_moderator


class Admin(commands.Cog):
    """Seats and sessions for creators and moderators."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


async def _seat_of(interaction: discord.Interaction, user: discord.abc.User) -> int:
    rec = await host(interaction).storage.open_session(channel_id(interaction))
    seat = rec.seat_of(user.id) if rec is not None else None
    if seat is None:
        raise LobbyError(f"{user.mention} has no seat in this channel's game.")
    return seat.seat


@game_command(name="replace", description="Give a seat to someone else (its player or a moderator; AI seats: the creator)")
@app_commands.describe(
    new="Who takes the seat",
    old="The player whose seat it is",
    seat="The seat's number instead (an AI seat)",
)
async def game_replace(
    interaction: discord.Interaction,
    new: discord.User,
    old: discord.User | None = None,
    seat: app_commands.Range[int, 1, 99] | None = None,
) -> None:
    if (old is None) == (seat is None):
        raise LobbyError("Name either the player whose seat it is (old) or the seat's number (seat).")
    index = await _seat_of(interaction, old) if old is not None else seat - 1  # type: ignore[operator]
    reply = await host(interaction).replace(
        channel_id(interaction), interaction.user.id, index, new.id, is_moderator=is_moderator(interaction)
    )
    await answer(interaction, reply)


@game_command(name="kick", description="Hand a player's seat to an AI (the player or a moderator)")
async def game_kick(interaction: discord.Interaction, player: discord.User) -> None:
    seat = await _seat_of(interaction, player)
    reply = await host(interaction).replace(
        channel_id(interaction), interaction.user.id, seat, None, is_moderator=is_moderator(interaction)
    )
    await answer(interaction, reply)


@game_command(name="abandon", description="End this game without a winner (creator or moderator)")
async def game_abandon(interaction: discord.Interaction) -> None:
    reply = await host(interaction).abandon(
        channel_id(interaction), interaction.user.id, is_moderator=is_moderator(interaction)
    )
    await answer(interaction, reply)


@game_command(name="settings", description="Server settings for games (moderators)")
@app_commands.describe(respond_minutes="How long response windows stay open, minutes (0: default)")
async def game_settings(
    interaction: discord.Interaction, respond_minutes: app_commands.Range[int, 0, 20160]
) -> None:
    if interaction.guild_id is None:
        raise LobbyError("Server settings are set in a server channel.")
    seconds = None if respond_minutes == 0 else respond_minutes * 60.0
    reply = await host(interaction).set_guild_settings(
        interaction.guild_id, is_moderator=is_moderator(interaction), respond_seconds=seconds
    )
    await answer(interaction, reply)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
