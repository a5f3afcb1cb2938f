"""Spectators and preferences: /game follow (stop:True to unfollow), prefs."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import answer, channel_id, game_command, host


class Spectators(commands.Cog):
    """Following games by DM, and each player's preferences."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


@game_command(name="follow", description="Get this game's updates and board by DM (stop:True to stop)")
@app_commands.describe(every="How often: every move (default), once per turn or once per round",
                       stop="True: stop getting this game's updates")
@app_commands.choices(every=[
    app_commands.Choice(name="move", value="move"),
    app_commands.Choice(name="turn", value="turn"),
    app_commands.Choice(name="round", value="round"),
])
async def game_follow(interaction: discord.Interaction, every: str = "move", stop: bool = False) -> None:
    h, channel, user = host(interaction), channel_id(interaction), interaction.user.id
    await answer(interaction, await (h.unfollow(channel, user) if stop else h.follow(channel, user, mode=every)))


@game_command(name="prefs", description="Your preferences: how you are told it is your turn, DMs, reminders, auto-pass")
@app_commands.describe(
    notify="When asked something: a ping in the game's thread (prompt in your private thread) or a DM",
    dms="Receive your hand and updates by DM when you have no private thread",
    reminder_hours="Ping me after this many hours (0: never)",
    auto_pass="Pass for me when pass (or done) is my only answer, telling the table",
)
@app_commands.choices(notify=[
    app_commands.Choice(name="ping in the game's thread", value="thread"),
    app_commands.Choice(name="direct message", value="dm"),
])
async def game_prefs(
    interaction: discord.Interaction,
    notify: str | None = None,
    dms: bool | None = None,
    reminder_hours: app_commands.Range[int, 0, 336] | None = None,
    auto_pass: bool | None = None,
) -> None:
    hours: int | None = -1 if reminder_hours is None else (None if reminder_hours == 0 else reminder_hours)
    await answer(
        interaction,
        await host(interaction).set_prefs(interaction.user.id, dms=dms, reminder_hours=hours, notify=notify,
                                          auto_pass=auto_pass),
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Spectators(bot))
