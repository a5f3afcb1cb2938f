"""Admin: /game replace, kick, abandon, resume, settings, repair.

A seat a human holds changes hands only by that human or a moderator (whoever takes it
reads its hand); the creator may fill AI seats (``/game replace seat:``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import LobbyError, Reply

from . import answer, channel_id, game_command, host, is_moderator, tabula


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


@game_command(name="abandon", description="End a game without a winner (creator or moderator)")
@app_commands.describe(game="The game's number, for a game of another channel of this server (e.g. orphaned)")
async def game_abandon(interaction: discord.Interaction, game: int | None = None) -> None:
    reply = await host(interaction).abandon(
        channel_id(interaction), interaction.user.id, is_moderator=is_moderator(interaction),
        session_id=game, guild_id=interaction.guild_id,
    )
    if game is not None and reply.session_id is not None:
        where = await tabula(interaction).session_channel(reply.session_id)
        if where != channel_id(interaction):
            # the game's own channel may be gone: the answer goes to the moderator here
            reply = Reply(**{**reply.__dict__, "ephemeral": True, "private": (), "notify": (), "mentions": ()})
    await answer(interaction, reply)


@game_command(name="resume", description="Take up this channel's orphaned game again (creator or moderator)")
async def game_resume(interaction: discord.Interaction) -> None:
    reply = await host(interaction).resume(
        channel_id(interaction), interaction.user.id, is_moderator=is_moderator(interaction)
    )
    await answer(interaction, reply)


@game_command(name="settings", description="Server settings for games (moderators)")
@app_commands.describe(
    respond_minutes="How long response windows stay open, minutes (0: default)",
    wait_hours="How long a turn or secret choice waits for its player before an AI answers it, hours (0: default)",
)
async def game_settings(
    interaction: discord.Interaction,
    respond_minutes: app_commands.Range[int, 0, 20160] | None = None,
    wait_hours: app_commands.Range[int, 0, 720] | None = None,
) -> None:
    if interaction.guild_id is None:
        raise LobbyError("Server settings are set in a server channel.")
    kwargs: dict[str, float | None] = {}
    if respond_minutes is not None:
        kwargs["respond_seconds"] = None if respond_minutes == 0 else respond_minutes * 60.0
    if wait_hours is not None:
        kwargs["wait_seconds"] = None if wait_hours == 0 else wait_hours * 3600.0
    reply = await host(interaction).set_guild_settings(
        interaction.guild_id, is_moderator=is_moderator(interaction), **kwargs
    )
    await answer(interaction, reply)


@game_command(name="repair", description="Get a game stopped by an error going again (creator or moderator)")
@app_commands.describe(how="undo: take back the last action; ai: an AI answers for the stuck seat")
@app_commands.choices(how=[
    app_commands.Choice(name="undo the last action", value="undo"),
    app_commands.Choice(name="an AI answers for the stuck seat", value="ai"),
])
async def game_repair(interaction: discord.Interaction, how: app_commands.Choice[str]) -> None:
    reply = await host(interaction).repair(
        channel_id(interaction), interaction.user.id, how.value, is_moderator=is_moderator(interaction)
    )
    await answer(interaction, reply)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
