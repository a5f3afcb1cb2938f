"""Play: the universal ``/play`` command, ``/game undo``, and the clicks on choice buttons."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import OutdatedActionError, Reply
from bot.host.replies import ChoiceResult
from bot.host.suggest import suggestion
from games.core import GameError, NotYourTurnError

from .. import components
from ..messages import release as components_release
from ..messages import send_pages
from ..tree import defer_public, send_private
from . import Text, answer, channel_id, complete_actions, game_command, host, tabula

log = logging.getLogger("tabula.discord")


class Play(commands.Cog):
    """Actions: typed in the game's notation, or chosen with buttons and menus."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="play", description="Play an action in this channel's game, in the game's notation"
    )
    @app_commands.describe(action="What to do; start typing to see what is legal now")
    async def play(self, interaction: discord.Interaction, action: Text) -> None:
        # ``act`` binds the action on receipt to what this seat is asked now (it is judged
        # against the question its sender saw): nothing waits before it (the channel check
        # reads what the bot knows), and it reads the question itself when an action in
        # progress makes it wait. The first response goes out as soon as the rules took the
        # action (public, as its update), before anything slow.
        h = host(interaction)
        if await refuse_if_closed(interaction, channel_id(interaction)):
            return
        try:
            reply = await h.act(
                channel_id(interaction),
                interaction.user.id,
                action,
                interaction_id=str(interaction.id),
                accepted=lambda: defer_public(interaction),
            )
        except (NotYourTurnError, OutdatedActionError) as e:
            await self.refuse_with_question(interaction, channel_id(interaction), None, e)
            return
        if reply.duplicate:
            await send_private(interaction, "That was already done; nothing was applied twice.")
            return
        await answer(interaction, reply)

    @play.autocomplete("action")
    async def play_complete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            found = await complete_actions(
                host(interaction), channel_id(interaction), interaction.user.id, current
            )
        except Exception:  # autocomplete cannot show errors; offer nothing
            return []
        # a notation longer than Discord's 100 characters gets a tagged value the host
        # resolves to exactly that action (bot.host.suggest)
        return [
            app_commands.Choice(name=name, value=value) for name, value in map(suggestion, found[:25])
        ]

    async def on_component(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A click on one of our buttons or menus (routed here by ``TabulaBot.on_interaction``)."""
        decoded = components.decode(custom_id)
        if decoded is None:
            await interaction.response.send_message("This button is no longer understood.", ephemeral=True)
            return
        bot = tabula(interaction)
        game_channel = await bot.session_channel(decoded.session_id)
        if game_channel is None:
            await interaction.response.send_message("That game no longer exists.", ephemeral=True)
            return
        await bot.outbox.homes.load(decoded.session_id)  # whether the click came from a private home
        if decoded.kind in components.STEP_KINDS:
            await self._on_step(interaction, decoded, game_channel)
        elif decoded.kind in ("h", "x", "r", "l", "u"):
            await self._on_aid(interaction, decoded, game_channel)
        elif decoded.kind == "f":
            await self._on_phase_pass(interaction, decoded, game_channel)
        else:
            await self._on_choice(interaction, decoded, game_channel, custom_id)

    async def _on_aid(self, interaction: discord.Interaction, decoded: components.Decoded, game_channel: int) -> None:
        """A click asking for help with the clicker's own decision, answered privately: the hand
        (``h``), what the options name (``x``), the rules of the step (``r``), the log (``l``),
        or stop passing for the rest of the phase (``u``)."""
        bot = tabula(interaction)
        h = bot.host
        if decoded.kind == "h":
            reply = await h.hand(game_channel, interaction.user.id, session_id=decoded.session_id)
            await bot.outbox.private_answer(interaction, reply)
            return
        if decoded.kind in ("x", "r"):  # the clicker's own decision now, explained privately
            what = "explain" if decoded.kind == "x" else "rules"
            reply = await h.aid(game_channel, interaction.user.id, what, session_id=decoded.session_id)
            text = "\n".join(filter(None, [f"**{reply.game}**" if reply.game else "", reply.text]))
            await send_pages(interaction, text, more="`/game rules <topic>` quotes one section or ruling whole.")
            return
        if decoded.kind == "l":
            reply = await h.log(game_channel, interaction.user.id, session_id=decoded.session_id)
            await bot.outbox.private_answer(interaction, reply)
            return
        if decoded.kind == "u":  # stop passing for the rest of the phase
            reply = await h.stop_passing(game_channel, interaction.user.id, session_id=decoded.session_id)
            text = f"**{reply.game}**\n{reply.text}" if reply.game else reply.text
            if own_prompt(interaction):
                await interaction.response.edit_message(content=text[:2000], view=None)
            else:
                await send_private(interaction, text)

    async def _on_phase_pass(self, interaction: discord.Interaction, decoded: components.Decoded,
                             game_channel: int) -> None:
        """A click on "pass for the rest of the phase": pass now and at each later question of
        the phase the others know pass answers (``Host.act(for_phase=True)``)."""
        h = tabula(interaction).host
        assert decoded.token is not None
        if await refuse_if_closed(interaction, game_channel):
            return
        word = decoded.notation or "phase"
        try:
            reply = await h.act(game_channel, interaction.user.id, "pass", prompt=decoded.token,
                                interaction_id=str(interaction.id), session_id=decoded.session_id,
                                for_phase=True, accepted=lambda: defer_click(interaction))
        except (NotYourTurnError, OutdatedActionError) as e:
            await self.refuse_with_question(interaction, game_channel, decoded.session_id, e)
            return
        except GameError as e:
            where = await h.game_name(decoded.session_id)
            await send_private(interaction, f"**{where}**\n{e.message}" if where else e.message)
            return
        await self._after_click(interaction, reply, f"pass for the rest of this {word}", game_channel,
                                view=components.stop_passing_view(decoded.session_id, word))

    async def _on_choice(self, interaction: discord.Interaction, decoded: components.Decoded, game_channel: int,
                         custom_id: str) -> None:
        """A click on one of the clicker's choices (a button, or a select menu's value): played
        as the answer to the question its token names, or, for a button posted by an earlier
        release, to the version it names."""
        h = tabula(interaction).host
        notation = decoded.notation
        index = decoded.index
        if decoded.kind == "s":
            values = (interaction.data or {}).get("values") or []
            value = str(values[0]) if values else ""
            if value.startswith("#") and value[1:].isdigit():
                index = int(value[1:])
            else:
                notation = value
        if decoded.token is not None:
            if await refuse_if_closed(interaction, game_channel):
                return
            # judged against the clicker's own question: other seats acting meanwhile (a
            # secret phase answered by several players at once) do not make it outdated
            try:
                reply = await h.act(
                    game_channel,
                    interaction.user.id,
                    notation if index is None else None,
                    choice=index,
                    prompt=decoded.token,
                    interaction_id=str(interaction.id),
                    session_id=decoded.session_id,
                    accepted=lambda: defer_click(interaction),
                )
            except (NotYourTurnError, OutdatedActionError) as e:
                await self.refuse_with_question(interaction, game_channel, decoded.session_id, e)
                return
            except GameError as e:  # a click may come from a DM: say which game refused it
                where = await h.game_name(decoded.session_id)
                await send_private(interaction, f"**{where}**\n{e.message}" if where else e.message)
                return
            chosen = notation if index is None else self._chosen(interaction, custom_id)
            await self._after_click(interaction, reply, chosen or "your choice", game_channel)
            return
        if notation is None:
            mine = await h.hand(game_channel, interaction.user.id, session_id=decoded.session_id)
            prompt = mine.private[0].prompt if mine.private else None
            choices = prompt.choices if prompt is not None else ()
            if mine.version != decoded.version or index is None or not 0 <= index < len(choices):
                await interaction.response.send_message(
                    "That decision has passed; the game has moved on. Use `/game hand` to see what is asked now.",
                    ephemeral=True,
                )
                return
            notation = choices[index]
        if await refuse_if_closed(interaction, game_channel):
            return
        reply = await h.act(
            game_channel,
            interaction.user.id,
            notation,
            interaction_id=str(interaction.id),
            version=decoded.version,
            session_id=decoded.session_id,
            accepted=lambda: defer_click(interaction),
        )
        await self._after_click(interaction, reply, notation, game_channel)

    async def _on_step(self, interaction: discord.Interaction, decoded: components.Decoded, game: int) -> None:
        """A click on a step of a question's choices: show the next step in place (the
        clicker's own prompt) or, when the choices name an action, play it, judged against
        the question the clicker saw (``decoded.token``)."""
        bot = tabula(interaction)
        h = bot.host
        assert decoded.token is not None and decoded.path is not None
        path, picks = decoded.path, None
        if decoded.kind == "n":
            picks = ()
        elif decoded.kind == "k":
            values = [str(v) for v in (interaction.data or {}).get("values") or []]
            if not values or not all(v.isdigit() for v in values):
                await send_private(interaction, "That choice is not understood; nothing was applied.")
                return
            current = await self._step_or_refuse(interaction, decoded, game, path, None)
            if current is None:
                return
            if current.step is not None and current.step.multi is not None:
                picks = tuple(int(v) for v in values)
            else:
                path = (*path, int(values[0]))
        result = await self._step_or_refuse(interaction, decoded, game, path, picks)
        if result is None:
            return
        if result.action is None:
            assert result.step is not None
            aids = ("explain", "rules") if result.explains else ("rules",)
            view = components.step_view(decoded.session_id, decoded.token, result.step, aids=aids,
                                        phase_pass=result.phase_pass)
            so_far = f"➜ {result.step.chosen} …" if result.step.chosen else ""
            try:
                if own_prompt(interaction):
                    before = interaction.message.content if interaction.message is not None else ""
                    kept = [line for line in before.split("\n") if not line.startswith("➜ ") and line != "\u200b"]
                    content = "\n".join([*kept, so_far]).strip() or "\u200b"
                    await interaction.response.edit_message(content=content[-2000:], view=view)
                else:
                    text = f"**{result.game}**\n{result.text}" if result.game else result.text
                    await interaction.response.send_message(f"{text}\n{so_far}"[:2000], view=view, ephemeral=True)
                    await bot.outbox.copies.add_original(decoded.session_id, interaction.user.id, interaction,
                                                         decoded.token, f"{text}\n{so_far}"[:2000])
            finally:
                components_release(view)
            return
        if await refuse_if_closed(interaction, game):
            return
        try:
            reply = await h.act(game, interaction.user.id, result.action, prompt=decoded.token,
                                interaction_id=str(interaction.id), session_id=decoded.session_id,
                                accepted=lambda: defer_click(interaction))
        except (NotYourTurnError, OutdatedActionError) as e:
            await self.refuse_with_question(interaction, game, decoded.session_id, e)
            return
        except GameError as e:
            where = await h.game_name(decoded.session_id)
            await send_private(interaction, f"**{where}**\n{e.message}" if where else e.message)
            return
        await self._after_click(interaction, reply, result.action, game)

    async def _step_or_refuse(
        self, interaction: discord.Interaction, decoded: components.Decoded, game: int,
        path: tuple[int, ...], picks: tuple[int, ...] | None,
    ) -> ChoiceResult | None:
        """Where the click leads, or None when it was refused (privately, with the question
        asked now)."""
        try:
            return await tabula(interaction).host.choice(decoded.session_id, interaction.user.id,
                                                         decoded.token or "", path, picks)
        except (NotYourTurnError, OutdatedActionError) as e:
            await self.refuse_with_question(interaction, game, decoded.session_id, e)
        except GameError as e:
            where = await tabula(interaction).host.game_name(decoded.session_id)
            await send_private(interaction, f"**{where}**\n{e.message}" if where else e.message)
        return None

    @staticmethod
    def _chosen(interaction: discord.Interaction, custom_id: str) -> str:
        """What an index click chose, as its button or menu option reads (the notation, cut
        to 80 characters when long)."""
        values = [str(v) for v in (interaction.data or {}).get("values") or []]
        rows = interaction.message.components if interaction.message is not None else []
        for row in rows:
            for item in getattr(row, "children", [row]):
                if getattr(item, "custom_id", None) != custom_id:
                    continue
                if values:
                    for option in getattr(item, "options", []):
                        if option.value == values[0]:
                            return option.label
                elif getattr(item, "label", None):
                    return str(item.label)
        return "your choice"

    async def refuse_with_question(
        self, interaction: discord.Interaction, game: int, session_id: int | None, error: GameError
    ) -> None:
        """Refuse an action sent for a question its player is no longer (or was not yet)
        asked, privately, with the question asked now and its buttons when there is one."""
        bot = tabula(interaction)
        try:
            mine = await bot.host.hand(game, interaction.user.id, session_id=session_id)
        except GameError:
            mine = None
        parts = mine.private if mine is not None else ()
        if mine is None or not parts or parts[0].prompt is None:
            where = f"**{mine.game}**\n" if mine is not None and mine.game else ""
            await send_private(interaction, where + error.message)
            return
        quiet = tuple(dataclasses.replace(p, text="") for p in parts)
        await bot.outbox.private_answer(interaction, dataclasses.replace(mine, text=error.message, private=quiet))

    async def _after_click(
        self, interaction: discord.Interaction, reply: Reply, notation: str, game: int,
        view: discord.ui.View | None = None,
    ) -> None:
        """Answer a click that was handed to the host. The message it came from is edited
        ("You chose …", its buttons and image removed) only when it is the clicker's own
        prompt: an ephemeral message or a DM, which nobody else sees. A click on any other
        message (a public board message, whatever its payload) is answered privately and
        leaves that message as it is. ``view``: the components the answer keeps (None: none).

        The first response went out already when the rules took the click (``defer_click``):
        the answer then edits the prompt through the interaction's webhook, or is its
        ephemeral followup."""
        bot = tabula(interaction)
        note = f"You chose **{notation}**." if not reply.duplicate else "That choice was already made."
        deferred = interaction.response.is_done()
        try:
            if own_prompt(interaction):
                before = interaction.message.content if interaction.message is not None else ""
                # the "➜ chosen so far" line of a step gives way to what was chosen
                before = "\n".join(line for line in before.split("\n") if not line.startswith("➜ "))
                content = f"{before}\n{note}" if before and before != "\u200b" else note
                if deferred:
                    await interaction.edit_original_response(content=content[:2000], view=view, attachments=[])
                else:
                    await interaction.response.edit_message(content=content[:2000], view=view, attachments=[])
                if interaction.message is not None:
                    bot.outbox.forget_message(interaction.message.id)
            else:
                extra: dict[str, Any] = {"view": view} if view is not None else {}
                if deferred:
                    await interaction.followup.send(note, ephemeral=True, **extra)
                else:
                    await interaction.response.send_message(note, ephemeral=True, **extra)
        except discord.HTTPException:
            # the choice is stored: its update still goes out (through the outbox) below
            log.warning("could not answer the click %s", interaction.id, exc_info=True)
        if reply.duplicate:
            return
        await bot.outbox.publish(game, reply, interaction)


def own_prompt(interaction: discord.Interaction) -> bool:
    """Whether the message a component interaction came from is the clicker's own: an
    ephemeral message (only its user sees it), a message in a DM with the bot, or one in the
    clicker's private thread for the game (``homes``)."""
    message = interaction.message
    if message is None:
        return False
    if message.flags.ephemeral:
        return True
    if interaction.guild_id is None:
        return True
    return tabula(interaction).outbox.is_home(interaction.channel_id, interaction.user.id)


async def defer_click(interaction: discord.Interaction) -> None:
    """The first response to a click the rules took, before anything slow: a click is always
    answered privately (its prompt edited when it is the clicker's own, else an ephemeral
    message), so that is known already. The update that follows is the outbox's."""
    if interaction.response.is_done():
        return
    try:
        if own_prompt(interaction):
            await interaction.response.defer()  # the prompt is edited with the answer
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException:
        # the choice is being stored: its answer and update still go out (``_after_click``)
        log.warning("could not defer the click %s", interaction.id, exc_info=True)


CLOSED = "Not applied: {reason}, so nobody could be told of your move. Try again once that is fixed."


async def refuse_if_closed(interaction: discord.Interaction, game_channel: int) -> bool:
    """Refuse a move, privately and before applying it, when the game's channel cannot take
    the bot's posts (no permission, a locked thread): the others could not be told of it."""
    reason = await tabula(interaction).outbox.why_closed(game_channel, interaction)
    if reason is None:
        return False
    await send_private(interaction, CLOSED.format(reason=reason))
    return True


@game_command(name="undo", description="Undo your last action (others may need to agree)")
@app_commands.describe(decline="Refuse (or withdraw) a pending undo request instead")
async def game_undo(interaction: discord.Interaction, decline: bool = False) -> None:
    h = host(interaction)
    if decline:
        reply = await h.decline_undo(channel_id(interaction), interaction.user.id)
    else:
        reply = await h.undo(channel_id(interaction), interaction.user.id)
    await answer(interaction, reply)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
