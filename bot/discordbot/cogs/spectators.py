"""Spectators and preferences: /game follow, unfollow, prefs."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import answer, channel_id, game_command, host


class Spectators(commands.Cog):
    """Following games by DM, and each player's preferences."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


@game_command(name="follow", description="Get this game's updates by direct message")
async def game_follow(interaction: discord.Interaction) -> None:
    await answer(interaction, await host(interaction).follow(channel_id(interaction), interaction.user.id))


@game_command(name="unfollow", description="Stop getting this game's updates")
async def game_unfollow(interaction: discord.Interaction) -> None:
    await answer(interaction, await host(interaction).unfollow(channel_id(interaction), interaction.user.id))


@game_command(name="prefs", description="Your preferences: direct messages, reminder interval")
@app_commands.describe(
    dms="Receive your hand and updates by DM", reminder_hours="Ping me after this many hours (0: never)"
)
async def game_prefs(
    interaction: discord.Interaction,
    dms: bool | None = None,
    reminder_hours: app_commands.Range[int, 0, 336] | None = None,
) -> None:
    hours: int | None = -1 if reminder_hours is None else (None if reminder_hours == 0 else reminder_hours)
    await answer(
        interaction, await host(interaction).set_prefs(interaction.user.id, dms=dms, reminder_hours=hours)
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Spectators(bot))
