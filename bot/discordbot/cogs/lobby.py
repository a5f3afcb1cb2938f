"""Lobby: /game new, join, leave, nation, options, ai, start."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging

import discord
from discord import app_commands
from discord.ext import commands

from games.core import GameError, all_games

from . import Name, Text, answer, channel_id, game_command, host, is_moderator

log = logging.getLogger("tabula.discord")

GAME_CHOICES = [app_commands.Choice(name=g.title[:100], value=g.id) for g in all_games()][:25]


def parse_options(text: str | None) -> dict[str, object]:
    """``key=value`` pairs separated by spaces or commas (values read as JSON when they can be)."""
    out: dict[str, object] = {}
    for item in (text or "").replace(",", " ").split():
        if "=" not in item:
            raise GameError(f"Options are written key=value, like players=4; got {item!r}.")
        key, value = item.split("=", 1)
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    return out


class Lobby(commands.Cog):
    """Opening, joining and starting games."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


@game_command(name="new", description="Open a new game here (in a new thread when the channel allows)")
@app_commands.describe(
    game="Which game",
    ai="How many AI seats to add now",
    options="Game options as key=value pairs, e.g. variant=short",
    thread="Open a thread for the game (default: yes, when possible)",
)
@app_commands.choices(game=GAME_CHOICES)
async def game_new(
    interaction: discord.Interaction,
    game: str,
    ai: app_commands.Range[int, 0, 10] = 0,
    options: Text | None = None,
    thread: bool = True,
) -> None:
    opts = parse_options(options)
    target = channel_id(interaction)
    created: discord.Thread | None = None
    channel = interaction.channel
    no_thread = ""
    if (
        thread
        and isinstance(channel, discord.TextChannel)
        and not interaction.app_permissions.create_public_threads
    ):
        no_thread = "I may not create threads here, so the game is played in this channel."
    elif thread and isinstance(channel, discord.TextChannel):
        title = next((c.name for c in GAME_CHOICES if c.value == game), game)
        try:
            created = await channel.create_thread(
                name=f"{title} — {interaction.user.display_name}"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            target = created.id
        except discord.HTTPException:
            log.info("could not open a thread in %s; the game stays in the channel", channel.id)
            no_thread = "I could not open a thread, so the game is played in this channel."
    h = host(interaction)
    try:
        reply = await h.create(interaction.guild_id, target, interaction.user.id, game, opts)
        if ai:
            reply = await h.add_ai(target, interaction.user.id, ai, is_moderator=is_moderator(interaction))
    except GameError:
        if created is not None:
            with contextlib.suppress(discord.HTTPException):
                await created.delete()
        raise
    if created is None:
        if no_thread:
            reply = dataclasses.replace(reply, text=f"{reply.text}\n{no_thread}".strip())
        await answer(interaction, reply)
        return
    try:  # the game is stored: a failure to say so here must not report it as not created
        await interaction.response.send_message(
            f"{interaction.user.mention} opened a game in {created.mention}: join it there with `/game join`.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not answer /game new in %s; the game's thread has its lobby message", channel.id)
    with contextlib.suppress(discord.HTTPException):
        await created.add_user(interaction.user)
    await tabula_outbox(interaction).post_public(created.id, reply)


def tabula_outbox(interaction: discord.Interaction):  # noqa: ANN201
    return interaction.client.outbox  # type: ignore[attr-defined]


@game_command(name="join", description="Take a seat in this channel's game before it starts")
@app_commands.describe(nation="The nation or faction you would like (optional)")
async def game_join(interaction: discord.Interaction, nation: Name | None = None) -> None:
    reply = await host(interaction).join(channel_id(interaction), interaction.user.id, faction=nation)
    await answer(interaction, reply)


@game_command(name="leave", description="Leave your seat (an AI plays it if the game has started)")
async def game_leave(interaction: discord.Interaction) -> None:
    await answer(interaction, await host(interaction).leave(channel_id(interaction), interaction.user.id))


@game_command(name="nation", description="Choose your nation or faction before the start")
async def game_nation(interaction: discord.Interaction, name: Name) -> None:
    await answer(
        interaction, await host(interaction).choose(channel_id(interaction), interaction.user.id, name)
    )


@game_command(name="options", description="Change the game's options before the start (creator)")
@app_commands.describe(values="key=value pairs, e.g. variant=short")
async def game_options(interaction: discord.Interaction, values: Text) -> None:
    reply = await host(interaction).set_options(
        channel_id(interaction),
        interaction.user.id,
        parse_options(values),
        is_moderator=is_moderator(interaction),
    )
    await answer(interaction, reply)


@game_command(name="ai", description="Add AI seats before the start (creator)")
@app_commands.choices(
    kind=[
        app_commands.Choice(name="Heuristic (plays to win)", value="heuristic"),
        app_commands.Choice(name="Random (for testing)", value="random"),
    ]
)
async def game_ai(
    interaction: discord.Interaction, count: app_commands.Range[int, 1, 10] = 1, kind: str = "heuristic"
) -> None:
    reply = await host(interaction).add_ai(
        channel_id(interaction), interaction.user.id, count, kind, is_moderator=is_moderator(interaction)
    )
    await answer(interaction, reply)


@game_command(name="start", description="Start the game (creator or moderator)")
async def game_start(interaction: discord.Interaction) -> None:
    reply = await host(interaction).start(
        channel_id(interaction), interaction.user.id, is_moderator=is_moderator(interaction)
    )
    await answer(interaction, reply)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
