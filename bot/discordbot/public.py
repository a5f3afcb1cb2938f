"""The public part of a reply: the update posted in the game's channel (what happened, who
must act with their ping, the board image only when the public board changed), stored before it
is sent; the answer to an interaction; replay pages and mirrored feeds. Mixed into
``outbox.Outbox``."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.host.replies import ImageRequest, Reply

from . import boards, components
from .boards import image_threads, png_file, shrink
from .delivery import LEASE, UPLOAD_LIMIT, UPLOAD_MARGIN
from .homes import display_name
from .messages import (
    CANNOT_POST,
    CHANGED_CAPTION,
    CHANGED_FILE,
    IMAGE_LATER_NOTE,
    NO_FILES_NOTE,
    NO_PERMISSION,
    FakeResponse,
    cut,
    fit,
    public_text,
    release,
    to_embed,
)
from .tree import send_private as send_private_text

if TYPE_CHECKING:
    from .protocols import DeliveryBot

log = logging.getLogger("tabula.discord")


class PublicMixin:
    """The game channel's updates: the public answer, the stored post, its board image, replays and mirrors."""

    bot: DeliveryBot

    async def public_answer(
        self, interaction: discord.Interaction, reply: Reply, *, full: bool = False
    ) -> None:
        """The public part as the interaction's response (deferred first when rendering).

        ``full`` adds the status embed to a game in progress (``/game status``)."""
        kwargs = self._public_kwargs(reply, full=full, actor=interaction.user.id)
        if reply.image is not None:
            if not interaction.response.is_done():
                await interaction.response.defer(thinking=True)
            files = png_file(await self._png(reply.image))
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
        if reply.session_id is not None:
            return await self.deliver_public(channel_id, reply, interaction=interaction)
        channel = await self._channel(channel_id)
        if channel is None:
            return None
        png = await self._png(reply.image)
        kwargs = self._public_kwargs(reply, actor=interaction.user.id if interaction is not None else None)
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
                reason = NO_PERMISSION.format(channel=channel_id)
                text = cut(CANNOT_POST.format(reason=reason, text=public_text(reply)))
                try:
                    await send_private_text(interaction, text)
                except discord.HTTPException:
                    log.warning(
                        "could not tell user %s that channel %s is closed", interaction.user.id, channel_id
                    )
            return None
        finally:
            release(kwargs.get("view"))

    async def deliver_public(
        self,
        channel_id: int,
        reply: Reply,
        *,
        interaction: discord.Interaction | None = None,
        followup: bool = False,
    ) -> discord.Message | None:
        """Store the public message of a stored change in the outbox, then send it (as the
        interaction's followup when ``followup``, else to ``channel_id``), falling back and
        retrying as the module docstring says. Returns the message when it went at once."""
        assert reply.session_id is not None
        await self._prepare_homes(reply)
        kwargs = self._public_kwargs(reply, actor=interaction.user.id if interaction is not None else None)
        release(kwargs.get("view"))
        embed = kwargs.get("embed")
        before = self._board_views.get(reply.session_id)
        changed = self._board_changed(reply)
        payload: dict[str, Any] = {
            "channel": channel_id,
            "content": kwargs.get("content") or "",
            "embed": embed.to_dict() if embed is not None else None,
            "users": [int(o.id) for o in kwargs["allowed_mentions"].users or []],
            "hand": "view" in kwargs,
            "image": "png" if changed else None,
            "version": reply.version,
            "token": interaction.token if followup and interaction is not None else None,
            "actor": interaction.user.id if interaction is not None else None,
        }
        now = time.time()
        oid = await self.bot.host.storage.outbox_add(reply.session_id, "public", payload, now, now + LEASE)
        self._images[oid] = reply.image
        if payload["image"] and before is not None:
            self._before[oid] = before
        original = dict(payload)
        message = await self._attempt(oid, reply.session_id, payload, 0, interaction)
        await self._mirror(reply, original)
        if reply.status == "finished" and reply.feed and not reply.duplicate:
            await self._queue_replay(reply.session_id, channel_id)
        return message

    async def _queue_replay(self, session_id: int, channel_id: int) -> None:
        """Store the posting of the game's replay page (``bot.replaypage``) in its channel, after
        the update that ended it. Never raises: the game's end is stored and announced already."""
        try:
            now = time.time()
            payload = {"replay": session_id, "channel": channel_id}
            oid = await self.bot.host.storage.outbox_add(session_id, "public", payload, now, now + LEASE)
            self._background_replay(oid, session_id, payload)
        except Exception:
            log.exception("could not queue the replay page of session %s", session_id)

    def _background_replay(self, oid: int, session_id: int, payload: dict[str, Any]) -> None:
        """Build and send the page without holding up the reply that ended the game."""
        task = asyncio.get_running_loop().create_task(self._attempt(oid, session_id, payload, 0))
        self._replays.add(task)
        task.add_done_callback(self._replays.discard)

    async def _send_replay(self, oid: int, session_id: int, payload: dict[str, Any]) -> discord.Message:
        """The finished game's replay page as an HTML attachment in the game's channel, made to fit
        the server's upload limit (``payload["max_bytes"]`` once Discord refused a larger one)."""
        from bot.replaypage import build_page

        channel = await self._channel(int(payload["channel"]))
        if channel is None:
            raise discord.NotFound(FakeResponse(404), {"code": 10003, "message": "Unknown Channel"})
        guild = getattr(channel, "guild", None)
        limit = int(payload.get("max_bytes") or (getattr(guild, "filesize_limit", None) or UPLOAD_LIMIT)) \
            - UPLOAD_MARGIN
        stop = threading.Event()
        try:
            page = await build_page(self.bot.host.storage, session_id, max_bytes=limit, stop=stop)
        except asyncio.CancelledError:
            stop.set()  # the thread making the page stops at its next step
            raise
        name = await self.bot.host.game_name(session_id)
        title = name.split(" in ", 1)[0] if name else f"game #{session_id}"
        text = (f"Replay of {title}: open the attached page in a browser for the public board after each "
                "step, the public log, and the seed with the command that checks it.")
        if page.note:
            text += f" To fit Discord's upload limit: {page.note}"
        payload["tried"] = page.size
        return await channel.send(
            content=cut(text),
            file=discord.File(io.BytesIO(page.html.encode("utf-8")), filename=f"tabula-game-{session_id}.html"),
            allowed_mentions=discord.AllowedMentions.none(), nonce=f"tabula-o{oid}")

    async def _mirror(self, reply: Reply, payload: dict[str, Any]) -> None:
        """The same public update in each channel the game is mirrored to (``/game mirror``):
        the same text, embed and board image, through the same stored outbox and retries, but
        pinging nobody, without the "My hand" button and as nobody's answer. After the game's
        last update the mirrors stop. Never raises: the game's own update is stored already."""
        assert reply.session_id is not None
        try:
            targets = await self.bot.host.mirrors_of(reply.session_id)
            if not targets:
                return
            for target in targets:
                mirrored = {**payload, "channel": target, "users": [], "hand": False, "token": None, "actor": None,
                            "mirror": reply.session_id, "game_channel": payload["channel"]}
                now = time.time()
                oid = await self.bot.host.storage.outbox_add(reply.session_id, "public", mirrored, now, now + LEASE)
                self._images[oid] = reply.image
                await self._attempt(oid, reply.session_id, mirrored, 0)
            if reply.status in ("finished", "abandoned"):
                await self.bot.host.stop_mirror(reply.session_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("mirroring the update of session %s failed", reply.session_id)

    async def _image_bytes(self, oid: int, session_id: int, payload: dict[str, Any]) -> bytes | None:
        """The board image of an outbox message in the form its payload asks for (png, jpeg,
        small), or None. After a restart the host's current board is used when the game has
        not moved on since; otherwise the message says `/game status` shows the board."""
        mode = payload.get("image")
        if not mode:
            return None
        if oid not in self._images:
            request = None
            with contextlib.suppress(Exception):
                found = await self.bot.host.view(int(payload.get("game_channel") or payload["channel"]),
                                                 session_id=session_id)
                if found.version == payload.get("version"):
                    request = found.image
            self._images[oid] = request
            if request is None:
                payload["image"] = None
                payload["note"] = IMAGE_LATER_NOTE
                return None
        png = await self._png(self._images[oid])
        if png is None or mode == "png":
            return png
        return await asyncio.get_running_loop().run_in_executor(image_threads(), shrink, png, mode == "small")

    async def _changed_png(self, oid: int, payload: dict[str, Any]) -> bytes | None:
        """The crop of what changed on a tall board since the game's last board posted
        (``render_changed_png``), for an update posting the full board as a PNG; None otherwise
        (a board a phone reads whole, a smaller fallback image, or after a restart, when the
        last board is not known)."""
        image, before = self._images.get(oid), self._before.get(oid)
        if payload.get("image") != "png" or image is None or before is None:
            return None
        return await boards.render_changed_png(image, before, await self._board_names(image))

    async def _send_public(self, oid: int, session_id: int, payload: dict[str, Any]) -> discord.Message:
        png = await self._image_bytes(oid, session_id, payload)
        content = payload.get("content") or ""
        if payload.get("note"):
            content = fit(f"{content}\n{payload['note']}".strip())
        kwargs: dict[str, Any] = {
            "content": content or None,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in payload.get("users") or []]
            ),
        }
        if payload.get("embed"):
            kwargs["embed"] = discord.Embed.from_dict(payload["embed"])
        if png is not None:
            kwargs["files"] = png_file(png, "board.jpg" if payload.get("image") in ("jpeg", "small") else "board.png")
            crop = await self._changed_png(oid, payload)
            if crop is not None:  # a tall board: the part that changed, readable on a phone, in the embed
                kwargs["files"] += png_file(crop, CHANGED_FILE)
                embed = kwargs.get("embed") or discord.Embed(description=CHANGED_CAPTION)
                kwargs["embed"] = embed.set_image(url=f"attachment://{CHANGED_FILE}")
        view = components.hand_view(session_id) if payload.get("hand") else None
        if view is not None:
            kwargs["view"] = view
        try:
            if payload.get("token"):
                webhook = discord.Webhook.from_state(
                    {"id": self.bot.application_id, "type": 3, "token": payload["token"]}, self.bot._connection
                )
                return await webhook.send(**kwargs, wait=True)
            channel = await self._channel(int(payload["channel"]))
            if channel is None:
                raise discord.NotFound(FakeResponse(404), {"code": 10003, "message": "Unknown Channel"})
            return await channel.send(**kwargs, nonce=f"tabula-o{oid}")
        finally:
            release(view)

    def _public_kwargs(self, reply: Reply, *, full: bool = False, actor: int | None = None) -> dict[str, Any]:
        """Content, mentions, the embed and the "My hand" button of a public message.

        A turn update (a game under way or just over, with a board image) carries no embed
        unless ``full``: its text already says what happened and who must act. ``actor``, the
        user whose interaction this answers, is named but not pinged: their own follow-up
        question reaches them in the reply to what they just did."""
        text = public_text(reply)
        kwargs: dict[str, Any] = {
            "content": fit(text) or None,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in self._to_ping(reply) if u != actor]
            ),
        }
        turn_update = reply.image is not None and reply.status in ("active", "finished") and bool(text)
        embed = None if turn_update and not full else to_embed(reply.embed)
        if embed is not None:
            kwargs["embed"] = embed
        if reply.session_id is not None and reply.status == "active":
            kwargs["view"] = components.hand_view(reply.session_id)
        return kwargs

    async def _prepare_homes(self, reply: Reply) -> None:
        """Make the private homes of the players asked now before the public message, so that
        one whose home is their DMs is told there and not pinged as well."""
        for part in reply.private:
            if part.prompt is None or reply.session_id is None:
                continue
            try:
                await self.homes.home(reply, part.user_id, notify=part.notify, dms=part.dm)
            except Exception:
                log.warning("could not open the private home of user %s", part.user_id, exc_info=True)

    def _board_changed(self, reply: Reply) -> bool:
        """Whether a stored change's update carries the board image: only when the public
        board differs from the last one posted for the game (``ImageRequest.board_key``:
        the public View, not the pixels, without who is asked); otherwise the update is its
        text alone."""
        if reply.image is None or reply.session_id is None:
            return False
        key = reply.image.board_key()
        if self._boards.get(reply.session_id) == key:
            return False
        self._boards[reply.session_id] = key
        if getattr(reply.image.view, "viewer", 0) is None:
            self._board_views[reply.session_id] = reply.image.view
        return True

    def _forget_image(self, oid: int) -> None:
        self._images.pop(oid, None)
        self._before.pop(oid, None)

    async def _png(self, image: ImageRequest | None, audience: int | None = None) -> bytes | None:
        """``render_png`` (``audience`` the one user a seat's view is drawn for) with the
        players' display names written on the board."""
        if image is None:
            return None
        return await boards.render_png(image, audience, await self._board_names(image))

    async def _board_names(self, image: ImageRequest) -> dict[int, str]:
        """Seat -> the name written on the board: a player's display name (control characters
        removed, shortened: ``homes.display_name``), an AI seat's "AI"."""
        names: dict[int, str] = {}
        for seat, user_id, _label in image.players:
            if user_id is None:
                names[seat] = "AI"
                continue
            if user_id not in self._names:
                user = self.bot.get_user(user_id)
                if user is None:
                    with contextlib.suppress(discord.HTTPException):
                        user = await self.bot.fetch_user(user_id)
                self._names[user_id] = display_name(user.display_name) if user is not None else ""
            if self._names[user_id]:
                names[seat] = self._names[user_id]
        return names

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
        return [u for u in reply.mentions if (u not in now or before.get(u) != now[u])
                and self.homes.kind_of(reply.session_id, u) != "dm"]  # a DM home notifies by itself
