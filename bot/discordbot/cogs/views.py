"""Views: /game status, hand, log, rules, explain, games."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Reply
from games.core import UnknownGameError, get_game
from games.core.explain import explain_text
from games.core.glossary import glossary, summary
from games.core.notation import completions
from games.core.rulebook import topic_text, topics

from ..messages import send_pages
from . import Name, answer, channel_id, game_command, host, tabula


class Views(commands.Cog):
    """Reading a game: the board, your hand, the log, the rules."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


@game_command(name="status", description="Show the game: board image, seats and whose turn it is")
async def game_status(interaction: discord.Interaction) -> None:
    reply = await host(interaction).view(channel_id(interaction), None)
    # A status request pings nobody and lists no private parts.
    reply = Reply(**{**reply.__dict__, "mentions": (), "private": (), "notify": ()})
    await tabula(interaction).outbox.public_answer(interaction, reply, full=True)


@game_command(name="hand", description="Show your hand and what you are asked (only you see it)")
async def game_hand(interaction: discord.Interaction) -> None:
    reply = await host(interaction).hand(channel_id(interaction), interaction.user.id)
    await tabula(interaction).outbox.private_answer(interaction, reply)


@game_command(name="log", description="What happened so far, as you may see it (only you see it)")
@app_commands.describe(page="1 is the most recent actions")
async def game_log(interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
    reply = await host(interaction).log(channel_id(interaction), interaction.user.id, page=page)
    await answer(interaction, reply)


@game_command(name="rules", description="How the game is played; with a topic, the rule text's own words on it")
@app_commands.describe(
    topic="A phase, a word (combat), a card or a ruling number (R13): the rule text and rulings on it",
    game="Another game than this channel's",
)
async def game_rules(
    interaction: discord.Interaction, topic: Name | None = None, game: Name | None = None
) -> None:
    try:
        g = get_game(await _game_here(interaction, game))
    except UnknownGameError as e:
        await interaction.response.send_message(e.message[:2000], ephemeral=True)
        return
    if topic and topic.strip():
        await send_pages(
            interaction,
            f"**{g.title}** — rules on {topic.strip()[:100]!r}\n{topic_text(g, topic)}",
            more="name a section or a ruling (R1...) to read it whole.",
        )
        return
    doc = summary(g)
    opts = ", ".join(f"`{k}` (default {v.default!r})" for k, v in g.Options.model_fields.items()) or "none"
    text = (
        f"**{g.title}** — {g.min_players} to {g.max_players} players.\n\n{doc}\n\n"
        f"Options for `/game new`: {opts}.\n"
        "Act with `/play`: start typing and the suggestions show what is legal now. When the choice is "
        "small you also get buttons. `/game hand` shows your hand (only to you); `/game status` the board. "
        "`/game rules topic:` quotes the rule text on a phase, a word, a card or a ruling (R1...)."
    )
    rows = glossary(g)
    if rows:
        text += "\nTerms and marks on the cards follow."
    await interaction.response.send_message(text[:2000], ephemeral=True)
    chunk = ""
    for term, meaning in rows:
        line = f"{term} — {meaning}\n"
        if len(chunk) + len(line) > 2000:
            await interaction.followup.send(chunk, ephemeral=True)
            chunk = ""
        chunk += line
    if chunk:
        await interaction.followup.send(chunk, ephemeral=True)


@game_rules.autocomplete("topic")
async def game_rules_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        g = get_game(await _game_here(interaction, getattr(interaction.namespace, "game", None)))
    except Exception:  # autocomplete cannot show errors; offer nothing
        return []
    names = [*topics(g), *g.explainable()]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in completions(names, current, 25)]


async def _game_here(interaction: discord.Interaction, game: str | None) -> str:
    """The game id ``game`` names, else the one open in this channel, else Barbarian Hordes."""
    if game:
        return game
    rec = await host(interaction).storage.open_session(channel_id(interaction))
    return rec.game_id if rec is not None else "barbarian-hordes"


def _cut(text: str, limit: int = 2000) -> str:
    """``text`` within Discord's message limit, cut at a line with a note of what was left out."""
    if len(text) <= limit:
        return text
    note = "\n… more match; type more of the name."
    kept = text[: limit - len(note)].rsplit("\n", 1)[0]
    return kept + note


@game_command(name="explain", description="What a card or anything else the game names does: its full text (only you see it)")
@app_commands.describe(name="A card, nation, ability... named in this game", game="Another game than this channel's")
async def game_explain(interaction: discord.Interaction, name: Name, game: Name | None = None) -> None:
    """The full text, cost and timing of what the game calls ``name`` (games.core.explain),
    privately; never where a card is or who holds it."""
    try:
        g = get_game(await _game_here(interaction, game))
    except UnknownGameError as e:
        await interaction.response.send_message(e.message[:2000], ephemeral=True)
        return
    await interaction.response.send_message(_cut(explain_text(g.explanations(), name)), ephemeral=True)


@game_explain.autocomplete("name")
async def game_explain_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        g = get_game(await _game_here(interaction, getattr(interaction.namespace, "game", None)))
    except Exception:  # autocomplete cannot show errors; offer nothing
        return []
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in completions(g.explainable(), current, 25)]


@game_command(name="games", description="Your games on this server and elsewhere (only you see it)")
async def game_games(interaction: discord.Interaction) -> None:
    await answer(interaction, await host(interaction).my_games(interaction.user.id))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Views(bot))
