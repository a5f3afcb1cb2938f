"""Turning the host's plain ``Reply`` objects into Discord messages.

``Outbox`` keeps what the delivery remembers per game and routes a reply; its jobs live in
mixins: ``public`` (the game channel's update), ``private`` (each user's private parts, homes,
DMs, followers) and ``delivery`` (the stored, retrying delivery); the texts and their layout
are in ``messages``, the board images in ``boards``. It is typed against
``protocols.DeliveryBot``, not the client.

Who sees what:

- the public part (``text``, ``embed``, the board image) goes to the game's channel, pinging
  only the humans who must act now, chose pings (``/game prefs notify:thread``) and were not
  pinged for the same question already, never the player who just acted; the board image only
  when the public board changed (``ImageRequest.board_key``), the text alone otherwise;
- each ``PrivatePart`` goes to its user alone: an ephemeral followup when that user is the one
  who interacted (and their private home is brought up to date in place, without a
  notification), otherwise to their private home for the game (``homes``: a private thread, or
  direct messages), where the live prompt is edited in place while its question stays open; when
  their DMs are closed, a short public notice (with nothing private in it) tells them to use
  ``/game hand``;
- a seat's choices (buttons, select menu) are only ever sent privately, since they can reveal a
  hand;
- an ``ephemeral`` reply (hand, log, errors...) goes to the caller alone;
- followers get the public text and board by DM every move, turn or round, as they chose.

Keeping the channel quiet: a turn update (after an action, a closed response window) is one
message with what happened, who must act now and the board image; the status embed (seats,
seed commitment) is left to ``/game status`` and the lobby. The AI seats' steps that follow a
human action come in that same message. The closed-DM notice is posted once per game and player.

Rendering happens after deferring, in a worker process (``render.pool``), so the 3-second deadline of the first
response is never at risk.

Delivery after a commit: a change that is stored (a move, a closed window, a lobby change) is
never reported as not stored. Its public message (what happened, who must act with their ping)
is first written to the database's ``outbox`` table, then sent; a Discord error does not reach
the player as an apology but picks a fallback, and what still fails is retried later by a
background task (``run``), also after a restart:

- the interaction's followup is gone (404 / 10015 "Unknown Webhook", an expired token): the
  update is posted in the game's channel instead;
- the upload is too large (413 / 40005): the board goes as a JPEG, then half size, then not at
  all, and the message says so;
- the game's thread is archived (400 / 50083): the bot unarchives it and posts;
- no permission to attach files (403): the update goes without its image, saying so;
- no permission to post, or the thread is locked (403 / 50013, 160005): the player who acted is
  told privately, with the true reason, and delivery is retried rarely until the channel takes
  posts again; meanwhile the game refuses moves (``cannot_post``) before applying them;
- rate limits and Discord's own failures (429, 5xx, network): retried with a growing delay.

A channel post carries an enforced nonce made from the outbox id, so a retry after a lost answer
or a restart never posts the same update twice. Private parts that fail for any reason other
than closed DMs (403 / 50007) are stored and retried the same way, as a new direct message.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.host.replies import ImageRequest, Reply

from .background import Background
from .copies import EphemeralCopies
from .delivery import RETRY_BASE, DeliveryMixin
from .homes import GAME_OVER, Homes
from .private import PrivateMixin
from .public import PublicMixin

if TYPE_CHECKING:
    from .protocols import DeliveryBot

log = logging.getLogger("tabula.discord")


class Outbox(PublicMixin, PrivateMixin, DeliveryMixin):
    """Sends replies for one bot."""

    def __init__(self, bot: DeliveryBot) -> None:
        self.bot = bot
        # each player's private home per game and the message of its live prompt
        self.homes = Homes(bot)
        # the prompts shown as ephemeral replies, edited when replaced or when the game ends
        self.copies = EphemeralCopies()
        # session -> the public board last posted (``ImageRequest.board_key``): a new board
        # image only when it changed
        self._boards: dict[int, str] = {}
        # (session, follower) -> public texts not sent yet and the turn/round last sent
        self._following: dict[tuple[int, int], tuple[list[str], Any]] = {}
        # user id -> display name written on boards
        self._names: dict[int, str] = {}
        # users whose last DM was refused as closed (code 50007), until deliver_private stores it
        self._refused: set[int] = set()
        # session -> {user: what they were asked} as of the last public message
        self._asked: dict[int, dict[int, str]] = {}
        # outbox id -> the board image request of a message not delivered yet (in memory only:
        # after a restart the board is asked from the host again)
        self._images: dict[int, ImageRequest | None] = {}
        # outbox id -> the game's public View last posted before it (for the crop of what changed)
        self._before: dict[int, Any] = {}
        self._board_views: dict[int, Any] = {}  # session -> the public View of its last board posted
        self._inflight: set[int] = set()
        self._replays: set[asyncio.Task[Any]] = set()  # replay pages being built and sent
        # channel id -> why the bot may not post there, from its last refused post
        self._closed: dict[int, str] = {}
        self._wake = asyncio.Event()
        self._background = Background("tabula-outbox", self.run)
        self.retry_base = RETRY_BASE
        self.poll_seconds = 1.0
        self.delivered = 0  # messages taken by Discord since start (for tests and figures)

    async def answer(
        self, interaction: discord.Interaction, reply: Reply, *, game_channel_id: int | None = None
    ) -> None:
        """Send ``reply`` as the answer to ``interaction`` (a slash command or a click).

        A reply about a session (a stored change) goes through the stored outbox: Discord's
        errors after this point are handled there and never reach the player as a failure."""
        if reply.ephemeral:
            await self.private_answer(interaction, reply)
            return
        here = game_channel_id is None or interaction.channel_id == game_channel_id
        target = game_channel_id or interaction.channel_id
        assert target is not None
        if reply.session_id is None:
            if here and interaction.type is discord.InteractionType.application_command:
                await self.public_answer(interaction, reply)
            else:
                await self._defer(interaction, ephemeral=True)
                await self.post_public(target, reply, interaction=interaction)
        elif here and interaction.type is discord.InteractionType.application_command:
            await self._defer(interaction, ephemeral=False)
            await self.deliver_public(target, reply, interaction=interaction, followup=True)
        else:
            await self._defer(interaction, ephemeral=True)
            await self.deliver_public(target, reply, interaction=interaction)
        await self._after_public(reply, interaction)

    async def publish(
        self, channel_id: int, reply: Reply, interaction: discord.Interaction | None = None
    ) -> None:
        """A turn update that is not the answer to a slash command in the game's channel (a
        click, a closed response window): the public message, private parts, followers."""
        if reply.session_id is None:
            await self.post_public(channel_id, reply, interaction=interaction)
        else:
            await self.deliver_public(channel_id, reply, interaction=interaction)
        await self._after_public(reply, interaction)

    async def _defer(self, interaction: discord.Interaction, *, ephemeral: bool) -> None:
        """The first response, if not sent yet; a failure here is left to the outbox (the
        update then goes to the channel)."""
        if interaction.response.is_done():
            return
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=not ephemeral)
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id, exc_info=True)

    async def _after_public(self, reply: Reply, interaction: discord.Interaction | None) -> None:
        """Private parts and followers of a stored change: no error escapes (the change is
        stored; a private part that cannot go now is stored and retried)."""
        try:
            await self.deliver_private(reply, interaction)
        except Exception:
            log.exception("delivering the private parts of session %s failed", reply.session_id)
        try:
            await self.notify_followers(reply)
        except Exception:
            log.exception("notifying the followers of session %s failed", reply.session_id)
        if reply.session_id is not None and reply.status in ("finished", "abandoned"):
            try:
                await self.homes.close(reply.session_id)
                await self.copies.close(reply.session_id, GAME_OVER)
            except Exception:
                log.exception("closing the private prompts of session %s failed", reply.session_id)
        self._forget_if_over(reply)

    def _forget_if_over(self, reply: Reply) -> None:
        if reply.session_id is not None and reply.status in ("finished", "abandoned"):
            self.forget_session(reply.session_id)

    def forget_session(self, session_id: int) -> None:
        """Drop what is kept for a game that ended or was orphaned: the DMs that asked its
        players something, who was asked what (who was told their DMs are closed is stored)."""
        self.homes.forget_session(session_id)
        self.copies.forget_session(session_id)
        self._boards.pop(session_id, None)
        self._board_views.pop(session_id, None)
        for key in [k for k in self._following if k[0] == session_id]:
            del self._following[key]
        self._asked.pop(session_id, None)

    def sessions_kept(self) -> set[int]:
        """The sessions the outbox keeps anything for (for tests and ``bench/``)."""
        return self.homes.sessions_kept() | set(self._asked) | set(self._boards) | {k[0] for k in self._following}
