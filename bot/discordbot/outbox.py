"""Turning the host's plain ``Reply`` objects into Discord messages.

Who sees what:

- the public part (``text``, ``embed``, the public board image) goes to the game's channel,
  pinging only the humans who must act now, and only when what they are asked changed;
- each ``PrivatePart`` goes to its user alone: an ephemeral followup when that user is the one
  who interacted, otherwise a DM; when their DMs are closed, a short public notice (with nothing
  private in it) tells them to use ``/game hand``;
- a seat's choices (buttons, select menu) are only ever sent privately, since they can reveal a
  hand;
- an ``ephemeral`` reply (hand, log, errors...) goes to the caller alone.

Keeping the channel quiet: a turn update (after an action, a closed response window) is one
message with what happened, who must act now and the board image; the status embed (seats,
seed commitment) is left to ``/game status`` and the lobby. The AI seats' steps that follow a
human action come in that same message. A player still asked the same question after someone
else acted gets their earlier DM edited (fresh buttons, no new notification) rather than a new
DM. The closed-DM notice is posted once per game and player.

Rendering happens after deferring, in a worker thread, so the 3-second deadline of the first
response is never at risk.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.host.replies import Embed, ImageRequest, PrivatePart, PromptInfo, Reply

from . import components
from .tree import send_private as send_private_text

if TYPE_CHECKING:
    from .client import TabulaBot

log = logging.getLogger("tabula.discord")

EMBED_COLOUR = 0x8C5A2B
DM_CLOSED = 50007
FALLBACK_NOTICE = (
    "{mentions}: I could not send you a direct message. Use `/game hand` here to see your hand and choices."
)
NO_FILES_NOTE = "(No board image: I am not allowed to attach files here. `/game status` shows it.)"
CANNOT_POST = (
    "Your action was applied, but I am not allowed to post in <#{channel}>, so the others were not told. "
    "A server admin should give me the Send Messages permission there. What happened:\n{text}"
)


def to_embed(e: Embed | None) -> discord.Embed | None:
    """A discord.py embed from the host's embed data, cut to Discord's limits."""
    if e is None:
        return None
    embed = discord.Embed(title=e.title[:256], description=e.description[:4096] or None, colour=EMBED_COLOUR)
    for f in e.fields[:25]:
        embed.add_field(name=(f.name or "\u200b")[:256], value=(f.value or "\u200b")[:1024], inline=f.inline)
    if e.footer:
        embed.set_footer(text=e.footer[:2048])
    while len(embed) > 6000 and embed.fields:
        embed.remove_field(-1)
    return embed


def cut(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mention_line(user_ids: Iterable[int]) -> str:
    return " ".join(f"<@{u}>" for u in user_ids)


def split_now(line: str, prompts: Sequence[PromptInfo]) -> list[tuple[str, PromptInfo]] | None:
    """Read the host's ``Now: <who>: <prompt>; <who>: <prompt>`` line back into (who, prompt)
    pairs, using the prompts' own texts to find where each part ends; None if it does not fit."""
    rest = line[len("Now: ") :]
    out = []
    for p in prompts:
        idx = rest.find(f": {p.text}")
        if idx <= 0:
            return None
        out.append((rest[:idx], p))
        rest = rest[idx + 2 + len(p.text) :].removeprefix("; ")
    return out if not rest.strip() else None


def now_lines(line: str, prompts: Sequence[PromptInfo]) -> list[str]:
    """The host's "Now: ..." line, one seat per line (easier to read on a phone), with a
    response window's deadline as a Discord timestamp (shown in each reader's time zone)."""
    parts = split_now(line, prompts)
    if parts is None:
        return [line]

    def one(who: str, p: PromptInfo) -> str:
        text = p.text.rstrip()
        if p.deadline is not None:
            text = f"{text.rstrip('.')} (closes <t:{int(p.deadline)}:R>)"
        return f"{who}: {text}"

    if len(parts) == 1:
        return [f"**Now** {one(*parts[0])}"]
    return ["**Now**", *(f"- {one(who, p)}" for who, p in parts)]


def public_text(reply: Reply) -> str:
    """The public text of a reply: the host's lines, its "Now: ..." line rewritten one seat per
    line, and a mention of each player who must act and is not named yet."""
    lines = reply.text.split("\n") if reply.text else []
    if reply.prompts:
        for i in range(len(lines) - 1, -1, -1):
            if lines[i].startswith("Now: "):
                lines[i : i + 1] = now_lines(lines[i], reply.prompts)
                break
    text = "\n".join(lines)
    missing = [u for u in reply.mentions if f"<@{u}>" not in text]
    if missing:
        text = f"{text}\n{mention_line(missing)}" if text else mention_line(missing)
    return text


def release(view: discord.ui.View | None) -> None:
    """Drop a sent view from discord.py's view store: clicks are routed by custom id
    (``TabulaBot.on_interaction``), so keeping every posted view in memory would only leak."""
    if view is not None:
        view.stop()


def dedupe_lines(texts: Iterable[str]) -> str:
    seen: list[str] = []
    for t in texts:
        for line in (t or "").split("\n"):
            if line and line not in seen:
                seen.append(line)
    return "\n".join(seen)


RENDER_THREADS = 2
_RENDER_POOL: concurrent.futures.ThreadPoolExecutor | None = None


def _render_pool() -> concurrent.futures.ThreadPoolExecutor:
    """A small pool of rendering threads for the whole bot (``RENDER_THREADS``): renders
    queue there, so under load they do not crowd out the event loop (asyncio's default pool
    would run a dozen at once, all wanting the GIL) and first responses stay fast."""
    global _RENDER_POOL
    if _RENDER_POOL is None:
        _RENDER_POOL = concurrent.futures.ThreadPoolExecutor(
            max_workers=RENDER_THREADS, thread_name_prefix="tabula-render"
        )
    return _RENDER_POOL


async def render_png(image: ImageRequest | None) -> bytes | None:
    """The PNG of a board image request, rendered in a worker thread; None if it fails."""
    if image is None or image.view is None:
        return None
    try:
        from render import render_view

        return await asyncio.get_running_loop().run_in_executor(_render_pool(), render_view, image.view)
    except Exception:
        log.exception("rendering %s session %s failed", image.game_id, image.session_id)
        return None


def png_file(data: bytes | None, name: str = "board.png") -> list[discord.File]:
    return [] if data is None else [discord.File(io.BytesIO(data), filename=name)]


def prompt_for(reply: Reply, user_id: int) -> PromptInfo | None:
    for p in reply.prompts:
        if p.user_id == user_id:
            return p
    for part in reply.private_for(user_id):
        if part.prompt is not None:
            return part.prompt
    return None


class Outbox:
    """Sends replies for one bot."""

    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot
        # (session, user) -> the last DM that asked this user something, and its text
        self._prompt_dms: dict[tuple[int, int], tuple[discord.Message, str]] = {}
        # (session, user) already told in the channel that their DMs are closed
        self._told_closed: set[tuple[int, int]] = set()
        # session -> {user: what they were asked} as of the last public message
        self._asked: dict[int, dict[int, str]] = {}

    # ---------------------------------------------------------------- entry points

    async def answer(
        self, interaction: discord.Interaction, reply: Reply, *, game_channel_id: int | None = None
    ) -> None:
        """Send ``reply`` as the answer to ``interaction`` (a slash command or a click)."""
        if reply.ephemeral:
            await self.private_answer(interaction, reply)
            return
        here = game_channel_id is None or interaction.channel_id == game_channel_id
        if here and interaction.type is discord.InteractionType.application_command:
            await self.public_answer(interaction, reply)
        else:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=False)
            target = game_channel_id or interaction.channel_id
            assert target is not None
            await self.post_public(target, reply, interaction=interaction)
        await self.deliver_private(reply, interaction)
        await self.notify_followers(reply)

    async def publish(
        self, channel_id: int, reply: Reply, interaction: discord.Interaction | None = None
    ) -> None:
        """A turn update that is not the answer to a slash command in the game's channel (a
        click, a closed response window): the public message, private parts, followers."""
        await self.post_public(channel_id, reply, interaction=interaction)
        await self.deliver_private(reply, interaction)
        await self.notify_followers(reply)

    async def public_answer(
        self, interaction: discord.Interaction, reply: Reply, *, full: bool = False
    ) -> None:
        """The public part as the interaction's response (deferred first when rendering).

        ``full`` adds the status embed to a game in progress (``/game status``)."""
        kwargs = self._public_kwargs(reply, full=full)
        if reply.image is not None:
            if not interaction.response.is_done():
                await interaction.response.defer(thinking=True)
            files = png_file(await render_png(reply.image))
            await interaction.followup.send(**kwargs, files=files, wait=True)
        elif interaction.response.is_done():
            await interaction.followup.send(**kwargs, wait=True)
        else:
            await interaction.response.send_message(**kwargs)
        release(kwargs.get("view"))

    async def post_public(
        self, channel_id: int, reply: Reply, *, interaction: discord.Interaction | None = None
    ) -> discord.Message | None:
        """The public part as a new message in the game's channel.

        Without the Attach Files permission the message goes without its image (and says so).
        Without permission to post at all, the player who acted (``interaction``) is told
        privately, with the public text; the action itself stands. Returns the message, or None.
        """
        channel = await self._channel(channel_id)
        if channel is None:
            return None
        png = await render_png(reply.image)
        kwargs = self._public_kwargs(reply)
        try:
            try:
                return await channel.send(**kwargs, files=png_file(png))
            except discord.Forbidden:
                if png is None:
                    raise
                log.warning("cannot attach files in channel %s; posting without the image", channel_id)
                kwargs["content"] = cut(f"{kwargs.get('content') or ''}\n{NO_FILES_NOTE}".strip())
                return await channel.send(**kwargs)
        except discord.Forbidden:
            log.warning("cannot post in channel %s (missing permissions)", channel_id)
            if interaction is not None:
                text = cut(CANNOT_POST.format(channel=channel_id, text=public_text(reply)))
                try:
                    await send_private_text(interaction, text)
                except discord.HTTPException:
                    log.warning(
                        "could not tell user %s that channel %s is closed", interaction.user.id, channel_id
                    )
            return None
        finally:
            release(kwargs.get("view"))

    async def private_answer(self, interaction: discord.Interaction, reply: Reply) -> None:
        """An ephemeral reply: text, embed, the viewer's board image and their choices."""
        uid = interaction.user.id
        parts = reply.private_for(uid)
        image = reply.image
        if image is None:
            view = next((p.view for p in parts if p.view is not None), None)
            if view is not None and reply.session_id is not None:
                image = ImageRequest(getattr(view, "game", ""), reply.session_id, reply.version or 0, view)
        choices = self._choice_view(reply, uid)
        embed = to_embed(reply.embed)
        content = cut(dedupe_lines([reply.text, *(p.text for p in parts)])) or (
            "\u200b" if embed is None and image is None else ""
        )
        kwargs: dict[str, Any] = {"content": content or None, "ephemeral": True}
        if embed is not None:
            kwargs["embed"] = embed
        if choices is not None:
            kwargs["view"] = choices
        if image is not None:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            kwargs["files"] = png_file(await render_png(image), "hand.png")
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
        release(choices)

    # ---------------------------------------------------------------- private parts and followers

    async def deliver_private(self, reply: Reply, interaction: discord.Interaction | None = None) -> None:
        """Send each private part to its user; public fallback notice for closed DMs."""
        closed: list[int] = []
        actor = interaction.user.id if interaction is not None else None
        by_user: dict[int, list[PrivatePart]] = {}
        for part in reply.private:
            by_user.setdefault(part.user_id, []).append(part)
        for uid, parts in by_user.items():
            if uid == actor and interaction is not None:
                await self._ephemeral_parts(interaction, reply, parts)
                continue
            if not any(p.dm for p in parts):
                continue
            if await self.dm(uid, reply, parts):
                self._told_closed.discard((reply.session_id or 0, uid))
            elif (reply.session_id or 0, uid) not in self._told_closed:
                closed.append(uid)
        if closed and reply.session_id is not None:
            channel_id = await self._game_channel(reply)
            if channel_id is not None:
                channel = await self._channel(channel_id)
                if channel is not None:
                    try:
                        await channel.send(
                            FALLBACK_NOTICE.format(mentions=mention_line(closed)),
                            allowed_mentions=discord.AllowedMentions(
                                users=[discord.Object(u) for u in closed]
                            ),
                        )
                        self._told_closed.update((reply.session_id, u) for u in closed)
                    except discord.HTTPException:
                        log.warning("could not post the closed-DM notice in %s", channel_id)

    async def _ephemeral_parts(
        self, interaction: discord.Interaction, reply: Reply, parts: Sequence[PrivatePart]
    ) -> None:
        kwargs = self._private_kwargs(reply, interaction.user.id, parts)
        png = await self._private_png(reply, parts)
        if png is not None:
            kwargs["files"] = png_file(png, "hand.png")
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs, ephemeral=True)
        else:
            await interaction.followup.send(**kwargs, ephemeral=True)
        release(kwargs.get("view"))

    async def dm(self, user_id: int, reply: Reply, parts: Sequence[PrivatePart]) -> bool:
        """DM the parts to the user; False when their DMs are closed.

        When the user's last DM for this game asked exactly the same thing (someone else acted
        meanwhile), that DM is edited with fresh buttons and board instead of sending a new one.
        """
        kwargs = self._private_kwargs(reply, user_id, parts)
        png = await self._private_png(reply, parts)
        key = (reply.session_id or 0, user_id)
        content = kwargs["content"]
        last = self._prompt_dms.pop(key, None)
        view = kwargs.get("view")
        try:
            if last is not None and last[1] == content:
                try:
                    message = await last[0].edit(
                        **kwargs, attachments=png_file(png, "hand.png") if png is not None else []
                    )
                    if view is not None:
                        self._prompt_dms[key] = (message, content)
                    return True
                except discord.HTTPException:
                    log.info("could not edit the earlier DM to user %s; sending a new one", user_id)
            elif last is not None:
                with contextlib.suppress(discord.HTTPException):
                    await last[0].edit(view=None)  # its buttons belong to a decision that passed
            if png is not None:
                kwargs["files"] = png_file(png, "hand.png")
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            message = await user.send(**kwargs)
            if view is not None:
                self._prompt_dms[key] = (message, content)
            return True
        except discord.Forbidden:
            return False
        except discord.HTTPException:
            log.warning("DM to user %s failed", user_id, exc_info=True)
            return False
        finally:
            release(view)

    def forget_message(self, message_id: int) -> None:
        """The message (a DM that asked something) was answered: never edit it again."""
        for key, (message, _) in list(self._prompt_dms.items()):
            if message.id == message_id:
                del self._prompt_dms[key]

    async def notify_followers(self, reply: Reply) -> None:
        """DM the public text to the followers who asked for updates."""
        if not reply.notify or not reply.text:
            return
        channel_id = await self._game_channel(reply)
        where = f" in <#{channel_id}>" if channel_id else ""
        text = cut(f"Update{where}:\n{public_text(reply)}")
        for uid in reply.notify:
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not notify follower %s", uid)

    # ---------------------------------------------------------------- helpers

    def _public_kwargs(self, reply: Reply, *, full: bool = False) -> dict[str, Any]:
        """Content, mentions, the embed and the "My hand" button of a public message.

        A turn update (a game under way or just over, with a board image) carries no embed
        unless ``full``: its text already says what happened and who must act."""
        text = public_text(reply)
        kwargs: dict[str, Any] = {
            "content": cut(text) or None,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in self._to_ping(reply)]
            ),
        }
        turn_update = reply.image is not None and reply.status in ("active", "finished") and bool(text)
        embed = None if turn_update and not full else to_embed(reply.embed)
        if embed is not None:
            kwargs["embed"] = embed
        if reply.session_id is not None and reply.status == "active":
            kwargs["view"] = components.hand_view(reply.session_id)
        return kwargs

    def _to_ping(self, reply: Reply) -> list[int]:
        """The players to notify: those who must act and were not already pinged for the same
        question by the previous public message of this game (a player waiting in a response
        window while others play cards is named each time but pinged once)."""
        if reply.session_id is None:
            return list(reply.mentions)
        before = self._asked.get(reply.session_id, {})
        now = {p.user_id: f"{p.kind}:{p.text}" for p in reply.prompts if p.user_id is not None}
        if reply.prompts or reply.status != "active":
            self._asked[reply.session_id] = now
        return [u for u in reply.mentions if u not in now or before.get(u) != now[u]]

    def _private_kwargs(self, reply: Reply, user_id: int, parts: Sequence[PrivatePart]) -> dict[str, Any]:
        text = "\n".join(p.text for p in parts if p.text)
        kwargs: dict[str, Any] = {
            "content": cut(text) or "\u200b",
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        view = self._choice_view(reply, user_id, parts)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def _choice_view(
        self, reply: Reply, user_id: int, parts: Sequence[PrivatePart] | None = None
    ) -> discord.ui.View | None:
        if reply.session_id is None or reply.version is None or reply.status not in (None, "active"):
            return None
        prompt = next((p.prompt for p in parts or () if p.prompt is not None), None) or prompt_for(
            reply, user_id
        )
        if prompt is None or not prompt.choices:
            return None
        return components.choice_view(reply.session_id, reply.version, prompt.choices)

    async def _private_png(self, reply: Reply, parts: Sequence[PrivatePart]) -> bytes | None:
        view = next((p.view for p in parts if p.view is not None), None)
        if view is None or reply.session_id is None:
            return None
        return await render_png(
            ImageRequest(getattr(view, "game", ""), reply.session_id, reply.version or 0, view)
        )

    async def _game_channel(self, reply: Reply) -> int | None:
        if reply.session_id is None:
            return None
        return await self.bot.session_channel(reply.session_id)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None
