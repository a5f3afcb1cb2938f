"""Statistics, leaderboards and mirrored feeds: /game stats, /game leaderboard, /game mirror."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import answer, channel_id, game_command, host, is_moderator
from .lobby import GAME_CHOICES


def _server(interaction: discord.Interaction) -> int:
    """The server the command was used in; statistics and ratings are shown per server."""
    if interaction.guild_id is None:
        from bot.host.errors import InvalidOptionError

        raise InvalidOptionError("Statistics and leaderboards are kept per server: use this command in a "
                                 "channel of the server whose games you want to see.")
    return interaction.guild_id


class PostableChannel(app_commands.Transformer):
    """A channel option limited to the channels a game's updates can be posted in (text and
    announcement channels, threads); the value is the channel as the interaction resolved it,
    cached or not."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        t = discord.ChannelType
        return [t.text, t.news, t.public_thread, t.private_thread, t.news_thread]

    async def transform(self, interaction: discord.Interaction, value: object) -> object:
        return value


class Standings(commands.Cog):
    """Players' records, skill ratings, and a game's public updates mirrored to another channel."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


@game_command(name="stats", description="Games played and won, and win rates per nation, in this server")
@app_commands.describe(game="Only this game", player="This player's record (default: the whole server)")
@app_commands.choices(game=GAME_CHOICES)
async def game_stats(interaction: discord.Interaction, game: app_commands.Choice[str] | None = None,
                     player: discord.User | None = None) -> None:
    reply = await host(interaction).stats(_server(interaction), game_id=game.value if game else None,
                                          user_id=player.id if player else None)
    await answer(interaction, reply)


@game_command(name="leaderboard", description="Skill ratings of a game's players in this server (openskill)")
@app_commands.describe(game="The game")
@app_commands.choices(game=GAME_CHOICES)
async def game_leaderboard(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
    await answer(interaction, await host(interaction).leaderboard(_server(interaction), game.value))


@game_command(name="mirror", description="Moderators: post this game's public updates in another channel too")
@app_commands.describe(channel="The channel of this server to post them in",
                       off="True: stop mirroring this game")
async def game_mirror(interaction: discord.Interaction,
                      channel: app_commands.Transform[object, PostableChannel] | None = None,
                      off: bool = False) -> None:
    if off or channel is None:
        target = None
        if not off:
            from bot.host.errors import InvalidOptionError

            raise InvalidOptionError("Name a channel (`/game mirror channel:#showcase`), or stop mirroring "
                                     "with `/game mirror off:True`.")
    else:
        target = int(channel.id)  # type: ignore[attr-defined]
    reply = await host(interaction).mirror(
        channel_id(interaction), interaction.user.id, target, is_moderator=is_moderator(interaction),
        target_guild=getattr(channel, "guild_id", None))
    await answer(interaction, reply)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Standings(bot))
