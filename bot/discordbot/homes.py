"""Each player's private home in a game: where their hand, private lines and prompts go.

The home is a private thread in the game's text channel (the parent of the game's thread),
named after the game and the player, with the player (and the bot) as its only members — the
habit of AsyncTI4's cards-info threads. A player who chose direct messages (``/game prefs
notify:dm``), a game played where private threads cannot be made (no permission, a DM), or a
thread Discord refuses, falls back to direct messages, which start with the game's name and
a link to its thread (``messages.heading``).

The home holds one live prompt: the message with the player's current question and its
buttons. It is edited in place while the same question stays open; a new question is posted as
a new message and the earlier one is edited to say so, with a link to the live one. When the
game ends, the live prompt loses its buttons and says the game is over. Homes and their live
messages are stored (``storage.Home``), so a restart keeps editing the same messages.
"""

from __future__ import annotations

import contextlib
import logging
import unicodedata
from typing import TYPE_CHECKING, Any

import discord

from bot.host.replies import Reply
from storage import Home

if TYPE_CHECKING:
    from .protocols import DeliveryBot

log = logging.getLogger("tabula.discord")

NAME_LIMIT = 24  # characters of a display name on a board
SUPERSEDED = "*This question was replaced by a newer one:* {link}"
GAME_OVER = "*The game is over; nothing is asked any more.*"
THREAD_WEEK = 10080  # minutes: a private home archives after a week without messages


def display_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A player's display name as written on a board: control and format characters removed,
    spaces collapsed, at most ``limit`` characters (an ellipsis marks the cut); "" when
    nothing printable is left. Markdown means nothing on an image, so it is kept as typed."""
    kept = "".join(
        " " if unicodedata.category(ch) in ("Zs", "Cc") else ch
        for ch in name
        if unicodedata.category(ch) not in ("Cf", "Co", "Cs") or ch == "\u200d"
    )
    kept = " ".join(kept.split())
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"


def thread_name(game: str, player: str) -> str:
    """A private home's name: "<game> — <player>", within Discord's 100 characters."""
    base = game.split(" in <#", 1)[0]
    return f"{base} — {player}"[:100] if player else base[:100]


class Homes:
    """The private homes of one bot's games (cached; stored through ``storage``)."""

    def __init__(self, bot: DeliveryBot) -> None:
        self.bot = bot
        self._homes: dict[int, dict[int, Home]] = {}
        self._no_threads: set[int] = set()  # channels where a private thread was refused
        self._thread_refused: set[tuple[int, int]] = set()  # (session, user) whose thread refused a post

    async def load(self, session_id: int) -> None:
        """Read the session's homes (after a restart) so that ``is_home`` knows them."""
        with contextlib.suppress(Exception):
            await self._load(session_id)

    async def _load(self, session_id: int) -> dict[int, Home]:
        if session_id not in self._homes:
            self._homes[session_id] = await self.bot.host.storage.homes(session_id)
        return self._homes[session_id]

    def is_home(self, channel_id: int | None, user_id: int) -> bool:
        return channel_id is not None and any(
            h.channel_id == channel_id and h.kind == "thread" and h.user_id == user_id
            for homes in self._homes.values()
            for h in homes.values()
        )

    def kind_of(self, session_id: int, user_id: int) -> str | None:
        """"thread" or "dm" when the user's home in this game is known, else None."""
        home = self._homes.get(session_id, {}).get(user_id)
        return home.kind if home is not None else None

    async def live_link(self, session_id: int, user_id: int) -> str | None:
        """A link to the user's live prompt in their home for this game; None when none is known."""
        home = self._homes.get(session_id, {}).get(user_id)
        if home is None or home.message_id is None or home.question is None:
            return None
        return await self.link(home, home.message_id)

    def sessions_kept(self) -> set[int]:
        return set(self._homes)

    def forget_session(self, session_id: int) -> None:
        self._homes.pop(session_id, None)

    async def home(self, reply: Reply, user_id: int, *, notify: str, dms: bool) -> Home | None:
        """The user's home in the reply's game, made on first use: their private thread
        (``notify`` "thread") or direct messages ("dm", or when no private thread can be
        made); None when neither is possible (no thread and ``dms`` off)."""
        assert reply.session_id is not None
        homes = await self._load(reply.session_id)
        home = homes.get(user_id)
        wanted = "dm" if notify == "dm" else "thread"
        if home is not None and (home.kind == wanted or (wanted == "thread" and home.kind == "dm" and not dms)):
            return home
        if home is not None and home.kind == "thread" and wanted == "dm":
            await self._close_message(home, GAME_OVER.replace("The game is over", "Your prompts now come by DM"))
        refused = (reply.session_id, user_id) in self._thread_refused
        made = await self._thread(reply, user_id) if wanted == "thread" and not refused else None
        if made is None:
            if home is not None and home.kind == "dm":
                return home
            if not dms and notify != "dm":
                return None
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            channel = user.dm_channel or await user.create_dm()
            made = Home(reply.session_id, user_id, channel.id, "dm")
        homes[user_id] = made
        await self.bot.host.storage.set_home(made, self.bot.host.clock())
        return made

    async def _thread(self, reply: Reply, user_id: int) -> Home | None:
        """A new private thread for the user beside the game's thread, or None when the
        game's channel cannot have one (a DM, no permission, Discord refused)."""
        assert reply.session_id is not None
        channel_id = await self.bot.session_channel(reply.session_id)
        if channel_id is None:
            return None
        channel: Any = self.bot.get_channel(channel_id)
        if channel is None:
            with contextlib.suppress(discord.HTTPException):
                channel = await self.bot.fetch_channel(channel_id)
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        if not isinstance(parent, discord.TextChannel) or parent.id in self._no_threads:
            return None
        user = self.bot.get_user(user_id)
        if user is None:
            with contextlib.suppress(discord.HTTPException):
                user = await self.bot.fetch_user(user_id)
        name = thread_name(reply.game or "Game", display_name(user.display_name) if user else "")
        try:
            thread = await parent.create_thread(
                name=name, type=discord.ChannelType.private_thread, invitable=False,
                auto_archive_duration=THREAD_WEEK,
            )
            await thread.add_user(discord.Object(user_id))
        except discord.HTTPException as e:
            log.info("no private thread in channel %s (%s); direct messages instead", parent.id, e)
            self._no_threads.add(parent.id)
            return None
        return Home(reply.session_id, user_id, thread.id, "thread")

    def _messageable(self, home: Home) -> discord.PartialMessageable:
        kind = discord.ChannelType.private_thread if home.kind == "thread" else discord.ChannelType.private
        return self.bot.get_partial_messageable(home.channel_id, type=kind)

    async def link(self, home: Home, message_id: int) -> str:
        """A link to a message of the home (a private thread's needs its server's id)."""
        where = "@me"
        if home.kind == "thread":
            with contextlib.suppress(Exception):
                guild_id = (await self.bot.host.storage.get_session(home.session_id)).guild_id
                where = str(guild_id) if guild_id else where
        return f"https://discord.com/channels/{where}/{home.channel_id}/{message_id}"

    async def post(self, home: Home, **kwargs: Any) -> discord.Message | None:
        """A new message in the home; None when the private thread refused it (the home
        then falls back to direct messages). Closed DMs raise ``discord.Forbidden``."""
        try:
            return await self._messageable(home).send(**kwargs)
        except discord.HTTPException as e:
            if home.kind != "thread":
                raise
            if e.code == 50083:  # archived after a quiet week: reopen it and post again
                with contextlib.suppress(discord.HTTPException):
                    await self.bot.http.edit_channel(home.channel_id, archived=False)
                    return await self._messageable(home).send(**kwargs)
            log.info("private thread %s refused a post (%s); direct messages instead", home.channel_id, e)
            await self.drop(home)
            return None

    async def edit(self, home: Home, **kwargs: Any) -> discord.Message:
        """Edit the live prompt in place (no notification)."""
        assert home.message_id is not None
        kwargs.pop("allowed_mentions", None)
        return await self._messageable(home).get_partial_message(home.message_id).edit(**kwargs)

    async def supersede(self, home: Home, message_id: int, link: str, head: str = "") -> None:
        """Edit an earlier prompt: under the game's heading ``head``, its question was
        replaced; a link to the live one."""
        text = "\n".join(x for x in (head, SUPERSEDED.format(link=link)) if x)
        with contextlib.suppress(discord.HTTPException):
            await self._messageable(home).get_partial_message(message_id).edit(
                content=text, view=None, attachments=[]
            )

    async def remember(self, home: Home, message_id: int, question: str | None) -> None:
        """Store the home's live prompt message and the question it answers."""
        new = Home(home.session_id, home.user_id, home.channel_id, home.kind, message_id, question)
        self._homes.setdefault(home.session_id, {})[home.user_id] = new
        await self.bot.host.storage.set_home(new, self.bot.host.clock())

    def answered(self, message_id: int) -> None:
        """A prompt was answered by a click on it: it asks nothing any more (in memory; the
        next update of that home stores it)."""
        for homes in self._homes.values():
            for uid, h in list(homes.items()):
                if h.message_id == message_id:
                    homes[uid] = Home(h.session_id, h.user_id, h.channel_id, h.kind, h.message_id, None)

    async def drop(self, home: Home) -> None:
        """Forget a home that no longer takes messages (the next one is made anew)."""
        homes = self._homes.get(home.session_id, {})
        if home.kind == "thread":
            self._thread_refused.add((home.session_id, home.user_id))
        homes.pop(home.user_id, None)

    async def close(self, session_id: int) -> None:
        """The game ended: each live prompt loses its buttons and says so."""
        for home in (await self._load(session_id)).values():
            if home.message_id is not None and home.question is not None:
                await self._close_message(home, GAME_OVER)
                await self.remember(home, home.message_id, None)

    async def _close_message(self, home: Home, note: str) -> None:
        if home.message_id is None:
            return
        message = self._messageable(home).get_partial_message(home.message_id)
        try:
            old = await message.fetch()
            content = f"{old.content}\n{note}" if old.content and old.content != "\u200b" else note
            await message.edit(content=content[:2000], view=None)
        except discord.HTTPException:
            log.info("could not close the prompt %s of user %s", home.message_id, home.user_id)
