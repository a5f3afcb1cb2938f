"""The outbox's stored, retrying delivery (trust invariant 5: a committed move is delivered,
and nobody is told otherwise): each message is written to the database's ``outbox`` table, then
sent; a Discord error picks a fallback (see ``bot.discordbot.outbox``) or a later retry by the
background task, also after a restart. Mixed into ``outbox.Outbox``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.host.replies import Reply

from .messages import (
    CANNOT_POST,
    IMAGE_DROPPED_NOTE,
    IMAGE_SMALLER_NOTE,
    NO_FILES_NOTE,
    NO_PERMISSION,
    THREAD_LOCKED,
    cut,
)
from .tree import send_private as send_private_text

if TYPE_CHECKING:
    from .protocols import DeliveryBot

log = logging.getLogger("tabula.discord")

# Delivery timing (seconds): a message being sent now is leased for LEASE before the background
# task may pick it up; retries wait RETRY_BASE * 2**attempts, at most RETRY_CAP (CLOSED_* for a
# channel that refuses the bot's posts), and stop after GIVE_UP_AFTER attempts.
LEASE = 60.0
#: Discord's upload limit for a server without boosts (bytes); a replay page is made to fit the
#: channel's server's limit less this margin for the request around it.
UPLOAD_LIMIT = 10 * 1024 * 1024
UPLOAD_MARGIN = 256 * 1024
RETRY_BASE = 1.0
RETRY_CAP = 300.0
CLOSED_BASE = 60.0
CLOSED_CAP = 3600.0
GIVE_UP_AFTER = 40
KEEP_DONE = 7 * 86400.0  # delivered messages are kept a week (for ``tabula db`` inspection), then pruned


class DeliveryMixin:
    """The stored, retrying delivery: the background task, one attempt with its fallbacks, and closed channels."""

    bot: DeliveryBot

    async def _attempt(
        self,
        oid: int,
        session_id: int,
        payload: dict[str, Any],
        attempts: int,
        interaction: discord.Interaction | None = None,
    ) -> discord.Message | None:
        """One delivery of an outbox message, with its immediate fallbacks; records the result
        (delivered, retry later, given up). Never raises but on cancellation."""
        storage = self.bot.host.storage
        self._inflight.add(oid)
        error = ""
        try:
            for _ in range(6):
                try:
                    if payload.get("kind") == "dm":
                        message = await self._send_dm(oid, session_id, payload)
                    elif payload.get("replay"):
                        message = await self._send_replay(oid, session_id, payload)
                    else:
                        message = await self._send_public(oid, session_id, payload)
                except discord.HTTPException as e:
                    error = f"{e.status} {e.code} {e.text[:200]}"
                    step = await self._fallback(oid, payload, e, interaction)
                    if step == "again":
                        continue
                    if step == "give up":
                        log.error("outbox %s given up: %s", oid, error)
                        await storage.outbox_done(oid, time.time(), None, error)
                        self._forget_image(oid)
                        return None
                    break
                except (TimeoutError, aiohttp.ClientError, OSError) as e:
                    error = f"network: {e!r}"[:300]
                    break
                except Exception as e:
                    log.exception("outbox %s: unexpected error", oid)
                    error = f"bug: {e!r}"[:300]
                    break
                else:
                    await storage.outbox_done(oid, time.time(), getattr(message, "id", None))
                    self._forget_image(oid)
                    self.delivered += 1
                    if payload.get("kind") != "dm":
                        self._closed.pop(int(payload["channel"]), None)
                    return message
            attempts += 1
            if attempts >= GIVE_UP_AFTER:
                log.error("outbox %s given up after %s attempts: %s", oid, attempts, error)
                await storage.outbox_done(oid, time.time(), None, error)
                self._forget_image(oid)
                return None
            closed = payload.get("kind") != "dm" and int(payload["channel"]) in self._closed
            base, cap = (CLOSED_BASE, CLOSED_CAP) if closed else (self.retry_base, RETRY_CAP)
            delay = min(cap, base * 2 ** (attempts - 1))
            log.info("outbox %s: attempt %s failed (%s); again in %.1f s", oid, attempts, error, delay)
            await storage.outbox_retry(oid, payload, attempts, time.time() + delay, error)
            self._wake.set()
            return None
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("outbox %s: could not record the delivery", oid)
            return None
        finally:
            self._inflight.discard(oid)

    async def _fallback(
        self,
        oid: int,
        payload: dict[str, Any],
        e: discord.HTTPException,
        interaction: discord.Interaction | None,
    ) -> str:
        """What to do after Discord refused a delivery: "again" (the payload was changed to a
        fallback), "retry" later, or "give up"."""
        status, code = e.status, e.code
        if payload.get("token") and (status in (401, 404) or code in (10015, 10062, 50027)):
            payload["token"] = None  # the followup is gone: post in the channel instead
            return "again"
        if payload.get("replay") and (status == 413 or code == 40005):  # a smaller page
            payload["max_bytes"] = int(min(payload.get("max_bytes") or UPLOAD_LIMIT,
                                           payload.get("tried") or UPLOAD_LIMIT) * 0.6) + UPLOAD_MARGIN
            return "again"
        if status == 413 or code == 40005:
            payload["image"] = {"png": "jpeg", "jpeg": "small"}.get(payload.get("image") or "")
            payload["note"] = IMAGE_SMALLER_NOTE if payload["image"] else IMAGE_DROPPED_NOTE
            return "again"
        if payload.get("kind") == "dm":
            if status == 403 or (status == 400 and code == 50035):
                return "give up"  # closed DMs (50007): the public notice and /game hand cover it
            return "retry"
        channel_id = int(payload["channel"])
        if payload.get("mirror") and status == 404 and code == 10003:  # the mirror channel is gone
            await self.bot.host.stop_mirror(int(payload["mirror"]), channel_id)
            return "give up"
        if code == 50083 and not payload.get("unarchived"):
            payload["unarchived"] = True
            try:
                await self.bot.http.edit_channel(channel_id, archived=False)
                return "again"
            except discord.HTTPException as again:
                log.warning("could not unarchive thread %s: %s", channel_id, again)
                self._closed[channel_id] = f"the game's thread <#{channel_id}> is archived and I may not reopen it"
        elif status == 403 and code == 50013 and payload.get("image") and not payload.get("no_files"):
            payload["no_files"] = True  # may post but not attach: the update without its image
            payload["image"] = None
            payload["note"] = NO_FILES_NOTE
            return "again"
        elif status == 403:
            self._closed[channel_id] = (
                THREAD_LOCKED.format(channel=channel_id) if code == 160005 else NO_PERMISSION.format(channel=channel_id)
            )
        elif status == 404 and code == 10003:
            return "give up"  # the channel is gone
        elif status == 400 and code == 50035:
            if payload.get("plain"):
                return "give up"
            log.error("Discord refused outbox %s as invalid (%s); sending its text alone", oid, e.text[:300])
            payload.update(plain=True, image=None, embed=None, hand=False)
            return "again"
        elif code != 50083:  # anything else (429, 5xx, ...) is retried; 50083 too, as a closed channel
            return "retry"
        if channel_id in self._closed and not payload.get("told") and payload.get("actor"):
            payload["told"] = True
            await self._tell_actor(payload, self._closed[channel_id], interaction)
        return "retry"

    async def _tell_actor(
        self, payload: dict[str, Any], reason: str, interaction: discord.Interaction | None
    ) -> None:
        """Tell the player who acted, privately, that the change is stored but the channel
        does not take the bot's posts (and why)."""
        text = cut(CANNOT_POST.format(reason=reason, text=payload.get("content") or ""))
        try:
            if interaction is not None:
                await send_private_text(interaction, text)
            else:
                user = self.bot.get_user(int(payload["actor"])) or await self.bot.fetch_user(int(payload["actor"]))
                await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell user %s that channel %s is closed", payload.get("actor"), payload["channel"])

    def cannot_post(self, channel_id: int) -> str | None:
        """Why the bot cannot post in ``channel_id`` as far as its last post there showed, or None."""
        return self._closed.get(channel_id)

    async def why_closed(self, channel_id: int, interaction: discord.Interaction | None = None) -> str | None:
        """Why a game played in ``channel_id`` cannot take a move now (the bot may not post
        its update there), or None when it can: from the interaction's own permissions when it
        happens in that channel, from the thread's state (locked) as Discord last told, and from
        the last refused post."""
        channel: Any = None
        perms = None
        if interaction is not None and interaction.channel_id == channel_id:
            perms = interaction.app_permissions
            channel = interaction.channel
        if channel is None or not hasattr(channel, "locked"):
            channel = self.bot.get_channel(channel_id) or channel
        if perms is None and isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            me = channel.guild.me
            if me is not None:
                perms = channel.permissions_for(me)
        thread = isinstance(channel, discord.Thread)
        if perms is not None and (
            not perms.view_channel or not (perms.send_messages_in_threads if thread else perms.send_messages)
        ):
            return NO_PERMISSION.format(channel=channel_id)
        if thread and channel.locked and not (perms.manage_threads if perms is not None else False):
            return THREAD_LOCKED.format(channel=channel_id)
        return self._closed.get(channel_id)

    def start(self) -> None:
        """Start the background delivery of stored messages (resumes what a restart left)."""
        self._background.start()

    async def stop(self) -> None:
        for task in list(self._replays):  # a page not sent yet is sent after the restart (it is stored)
            task.cancel()
        await self._background.stop()

    async def run(self) -> None:
        """Deliver due stored messages until cancelled; once an hour, forget the messages
        delivered more than ``KEEP_DONE`` seconds ago."""
        pruned = 0.0
        while True:
            try:
                await self.run_once()
                if time.time() - pruned > 3600:
                    pruned = time.time()
                    await self.bot.host.storage.outbox_prune(pruned - KEEP_DONE)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox pass failed")
            self._wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)

    async def run_once(self, now: float | None = None) -> int:
        """Attempt every stored message due at ``now`` once; returns how many were attempted."""
        storage = self.bot.host.storage
        due = await storage.outbox_due(time.time() if now is None else now)
        sharded = (getattr(self.bot, "shard_count", None) or 1) > 1
        n = 0
        for rec in due:
            if rec.id in self._inflight:
                continue
            if sharded:  # several processes share the database: each delivers its own guilds'
                try:
                    guild_id = (await storage.get_session(rec.session_id)).guild_id
                except Exception:
                    guild_id = None
                if not self.bot.owns_guild(guild_id):
                    continue
            payload = dict(rec.payload)
            if rec.kind == "dm":
                payload["kind"] = "dm"
            await self._attempt(rec.id, rec.session_id, payload, rec.attempts)
            n += 1
        return n

    async def pending(self) -> int:
        """How many stored messages are not delivered yet."""
        return len(await self.bot.host.storage.outbox_due(float("inf"), limit=10_000))

    async def _game_channel(self, reply: Reply) -> int | None:
        if reply.session_id is None:
            return None
        return await self.bot.session_channel(reply.session_id)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException as e:
                log.warning("channel %s is gone", channel_id)
                await self.bot.orphan_on_not_found(e, channel_id, None)  # 10003/10004: its game is orphaned
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None
