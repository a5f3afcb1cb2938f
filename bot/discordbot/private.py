"""The private parts of a reply, each to its user alone: an ephemeral followup to the user
who interacted, their private home for the game (its live prompt edited in place), direct
messages (stored and retried), and the updates followers get by DM. Mixed into
``outbox.Outbox``."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.host.replies import ImageRequest, PrivatePart, PromptInfo, Reply

from . import boards, components
from .boards import png_file
from .homes import SUPERSEDED
from .messages import (
    DM_CLOSED,
    DM_RETRY_SECONDS,
    FALLBACK_NOTICE,
    cut,
    dedupe_lines,
    fit,
    happened,
    heading,
    mention_line,
    private_text,
    prompt_for,
    public_text,
    release,
    round_mark,
    same_question,
    split_lines,
    to_embed,
    turn_mark,
)
from .tree import keep_private

if TYPE_CHECKING:
    from .protocols import DeliveryBot

log = logging.getLogger("tabula.discord")


class PrivateMixin:
    """Each user's private parts: ephemeral answers, private homes, direct messages and followers."""

    bot: DeliveryBot

    async def _send_dm(self, oid: int, session_id: int, payload: dict[str, Any]) -> discord.Message:
        content = payload.get("content") or "\u200b"
        kwargs: dict[str, Any] = {"content": cut(content), "allowed_mentions": discord.AllowedMentions.none()}
        choices = payload.get("choices") or []
        view = None
        if payload.get("question"):  # the buttons answer the question it names
            aids = ("explain", "rules") if payload.get("explains") else ("rules",)
            if payload.get("step"):
                step = components.step_from_json(payload["step"])
                view = components.step_view(session_id, str(payload["question"]), step, aids=aids,
                                            phase_pass=str(payload.get("phase_pass") or ""))
            else:
                view = components.choice_view(session_id, str(payload["question"]), tuple(choices), aids=aids,
                                              phase_pass=str(payload.get("phase_pass") or ""))
            kwargs["view"] = view
        try:
            user = self.bot.get_user(int(payload["user"])) or await self.bot.fetch_user(int(payload["user"]))
            return await user.send(**kwargs)
        finally:
            release(view)

    async def queue_dm(self, session_id: int, user_id: int, text: str, prompt: PromptInfo | None,
                       version: int | None) -> None:
        """Store a private part that could not go now, to be sent again as a new DM."""
        payload = {
            "kind": "dm",
            "user": user_id,
            "content": text,
            "choices": list(prompt.choices) if prompt is not None else [],
            "step": components.step_to_json(prompt.step) if prompt is not None and prompt.step else None,
            "question": prompt.token if prompt is not None else None,
            "explains": prompt.explains if prompt is not None else False,
            "phase_pass": prompt.phase_pass if prompt is not None else "",
            "version": version,
        }
        now = time.time()
        await self.bot.host.storage.outbox_add(session_id, "dm", payload, now, now + self.retry_base)
        self._wake.set()

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
        chunks = split_lines(dedupe_lines([heading(reply), reply.text, *(p.text for p in parts)]))
        content = chunks[0] or ("\u200b" if embed is None and image is None else "")
        kwargs: dict[str, Any] = {"content": content or None, "ephemeral": True}
        if embed is not None:
            kwargs["embed"] = embed
        if choices is not None:
            kwargs["view"] = choices
        if image is not None:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            names = await self._board_names(image)
            kwargs["files"] = png_file(await boards.render_png(image, uid, names, hand=True), "hand.png")
        prompt = prompt_for(reply, uid) if choices is not None else None
        if interaction.response.is_done():
            await keep_private(interaction)
            sent = await interaction.followup.send(**kwargs, wait=True)
            if prompt is not None and reply.session_id is not None:
                self.copies.add(reply.session_id, uid, interaction, sent.id, prompt.token, content)
        else:
            await interaction.response.send_message(**kwargs)
            if prompt is not None and reply.session_id is not None:
                await self.copies.add_original(reply.session_id, uid, interaction, prompt.token, content)
        release(choices)
        for more in chunks[1:]:  # a long text (a log page) goes on in further private messages
            await interaction.followup.send(more, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    async def deliver_private(self, reply: Reply, interaction: discord.Interaction | None = None) -> None:
        """Send each private part to its user; public fallback notice for closed DMs.

        A user whose DMs were refused as closed (Discord code 50007) is not sent DMs again
        for ``DM_RETRY_SECONDS``; the notice telling them to use ``/game hand`` is posted
        once per game and user, and both are stored, so a restart repeats neither."""
        storage = self.bot.host.storage
        now = self.bot.host.clock()
        closed: list[int] = []
        actor = interaction.user.id if interaction is not None else None
        by_user: dict[int, list[PrivatePart]] = {}
        for part in reply.private:
            by_user.setdefault(part.user_id, []).append(part)
        wanted = [u for u, parts in by_user.items()
                  if u != actor and any(p.dm or p.notify == "thread" for p in parts)]
        marked = await storage.closed_dms(wanted) if wanted else {}
        try:
            await self._deliver_parts(reply, interaction, by_user, wanted, marked, closed, now)
        finally:
            for uid, parts in by_user.items():  # earlier copies now point to the prompt just delivered
                asked = next((p.prompt for p in parts if p.prompt is not None), None)
                if asked is not None and asked.token:
                    try:
                        await self.supersede_copies(reply, uid, asked.token)
                    except Exception:
                        log.warning("could not edit the earlier copies of user %s", uid, exc_info=True)
        if closed and reply.session_id is not None:
            posted = False
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
                        posted = True
                    except discord.HTTPException:
                        log.warning("could not post the closed-DM notice in %s", channel_id)
            if not posted:  # tell them next time instead
                for uid in closed:
                    await storage.clear_closed_dm_notices(uid)

    async def _deliver_parts(self, reply: Reply, interaction: discord.Interaction | None,
                             by_user: dict[int, list[PrivatePart]], wanted: list[int], marked: dict[int, float],
                             closed: list[int], now: float) -> None:
        """``deliver_private``'s sending, user by user; those whose DMs are closed and who are
        to be told so are added to ``closed``."""
        storage = self.bot.host.storage
        actor = interaction.user.id if interaction is not None else None
        for uid, parts in by_user.items():
            if uid == actor and interaction is not None:
                await self._ephemeral_parts(interaction, reply, parts)
                closed_at = (await storage.closed_dms([uid])).get(uid)
                dm_closed = closed_at is not None and now - closed_at < DM_RETRY_SECONDS
                if (reply.session_id is not None and any(p.prompt is not None for p in parts)
                        and not (dm_closed and self.homes.kind_of(reply.session_id, uid) != "thread")):
                    try:  # their home shows the same question, edited in place (no notification)
                        await self.dm(uid, reply, parts, quiet=True)
                    except Exception:
                        log.warning("could not update the private home of user %s", uid, exc_info=True)
                continue
            if uid not in wanted:
                continue
            since = marked.get(uid)
            by_dm = reply.session_id is None or self.homes.kind_of(reply.session_id, uid) == "dm" or (
                self.homes.kind_of(reply.session_id, uid) is None and all(p.notify == "dm" for p in parts))
            if since is not None and now - since < DM_RETRY_SECONDS and by_dm:
                sent = False  # closed not long ago: do not knock again after every update
            else:
                sent = await self.dm(uid, reply, parts)
                if sent and since is not None:
                    await storage.set_closed_dms(uid, None)
                    await storage.clear_closed_dm_notices(uid)
                elif not sent and uid in self._refused:
                    self._refused.discard(uid)
                    await storage.set_closed_dms(uid, now)
            if not sent and reply.session_id is not None and await storage.claim_closed_dm_notice(
                reply.session_id, uid, now
            ):
                closed.append(uid)

    async def _ephemeral_parts(
        self, interaction: discord.Interaction, reply: Reply, parts: Sequence[PrivatePart]
    ) -> None:
        kwargs = self._private_kwargs(reply, interaction.user.id, parts)
        png = await self._private_png(reply, parts, interaction.user.id)
        if png is not None:
            kwargs["files"] = png_file(png, "hand.png")
        prompt = next((p.prompt for p in parts if p.prompt is not None), None) or prompt_for(
            reply, interaction.user.id)
        kept = prompt is not None and kwargs.get("view") is not None and reply.session_id is not None
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(**kwargs, ephemeral=True)
                if kept:
                    assert prompt is not None and reply.session_id is not None
                    await self.copies.add_original(reply.session_id, interaction.user.id, interaction, prompt.token,
                                                   kwargs["content"])
            else:
                sent = await interaction.followup.send(**kwargs, ephemeral=True, wait=True)
                if kept:
                    assert prompt is not None and reply.session_id is not None
                    self.copies.add(reply.session_id, interaction.user.id, interaction, sent.id, prompt.token,
                                    kwargs["content"])
        except discord.HTTPException as e:
            # the interaction can no longer answer (expired, unknown webhook...): by DM instead
            log.info("ephemeral part for user %s failed (%s); sending it by DM", interaction.user.id, e)
            if reply.session_id is not None:
                prompt = next((p.prompt for p in parts if p.prompt is not None), None)
                await self.queue_dm(reply.session_id, interaction.user.id, kwargs["content"], prompt, reply.version)
        finally:
            release(kwargs.get("view"))

    async def dm(self, user_id: int, reply: Reply, parts: Sequence[PrivatePart], *, quiet: bool = False) -> bool:
        """Send the parts to the user's private home for this game (``homes``); False when
        that home is their direct messages and those are closed.

        The home holds one live prompt, edited in place while the same question is open
        (someone else acted meanwhile) and, with ``quiet``, also for a new one (the player's
        own follow-up, which the reply to their action already carries). A new question is
        posted as a new message and the earlier one is edited to point to it; lines without a
        question go into the live message of a direct-message home (a new DM would notify)."""
        if reply.session_id is None:
            return await self._send_dm_now(user_id, reply, parts)
        prompt = next((p.prompt for p in parts if p.prompt is not None), None)
        notify = next((p.notify for p in parts), "thread")
        home = await self.homes.home(reply, user_id, notify=notify, dms=any(p.dm for p in parts))
        if home is None:
            return False
        kwargs = self._private_kwargs(reply, user_id, parts)
        png = await self._private_png(reply, parts, user_id)
        view = kwargs.get("view")
        try:
            live = home.message_id
            same = (live is not None and prompt is not None and home.question is not None
                    and same_question(home.question, prompt.token))
            info_only = prompt is None
            # lines without a question go into a DM home's live message (a new DM would notify),
            # but the game's end is news for everyone
            quiet_info = info_only and home.kind == "dm" and reply.status == "active"
            edit = live is not None and (same or quiet or quiet_info)
            if edit:
                try:
                    message = await self.homes.edit(
                        home, **kwargs, attachments=png_file(png, "hand.png") if png is not None else []
                    )
                    await self.homes.remember(home, message.id, prompt.token if prompt else None)
                    return True
                except discord.NotFound:
                    pass  # deleted: post a new one
                except discord.HTTPException:
                    log.info("could not edit the live prompt of user %s; posting a new one", user_id)
            if png is not None:
                kwargs["files"] = png_file(png, "hand.png")
            message = await self.homes.post(home, **kwargs)
            if message is None:  # the private thread refused: their direct messages instead
                return await self.dm(user_id, reply, parts, quiet=quiet) if home.kind == "thread" else False
            if live is not None and (prompt is not None or home.question is not None):
                await self.homes.supersede(home, live, await self.homes.link(home, message.id), heading(reply))
            await self.homes.remember(home, message.id, prompt.token if prompt else None)
            return True
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                self._refused.add(user_id)
                await self.homes.drop(home)
            return False
        except discord.HTTPException:
            # not closed DMs (those are 403): Discord failed; the DM is stored and sent again
            log.warning("DM to user %s failed; it will be sent again", user_id, exc_info=True)
            await self.queue_dm(reply.session_id, user_id, kwargs["content"], prompt, reply.version)
            return True
        finally:
            release(view)

    async def _send_dm_now(self, user_id: int, reply: Reply, parts: Sequence[PrivatePart]) -> bool:
        kwargs = self._private_kwargs(reply, user_id, parts)
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**kwargs)
            return True
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                self._refused.add(user_id)
            return False
        finally:
            release(kwargs.get("view"))

    def forget_message(self, message_id: int) -> None:
        """The message (a prompt that was answered) is no longer a live question."""
        self.homes.answered(message_id)
        self.copies.answered(message_id)

    async def supersede_copies(self, reply: Reply, user_id: int, live: str) -> None:
        """Edit the user's ephemeral copies of earlier questions of this game (``live``: the
        ``prompt_token`` asked now) to say they were replaced, with a link to the live prompt
        in their home (or to the game's channel)."""
        if reply.session_id is None or not self.copies.kept(reply.session_id, user_id):
            return
        link = await self.homes.live_link(reply.session_id, user_id)
        if link is None:
            channel_id = await self._game_channel(reply)
            link = f"<#{channel_id}>" if channel_id else "the game's channel"
        text = "\n".join(x for x in (heading(reply), SUPERSEDED.format(link=link)) if x)
        await self.copies.supersede(reply.session_id, user_id, live, text, same_question)

    def is_home(self, channel_id: int | None, user_id: int) -> bool:
        """Whether ``channel_id`` is ``user_id``'s private thread for one of their games."""
        return self.homes.is_home(channel_id, user_id)

    async def notify_followers(self, reply: Reply) -> None:
        """DM the public text to the followers who asked for updates, with the public board:
        every move, once per turn (when the seat whose turn it is changes) or once per round
        (when the round changes), as each chose (``/game follow``); a turn or round update
        carries every public line since the follower's last one (cut to fit), and the game's
        end always goes out."""
        if not reply.notify or not reply.text or reply.session_id is None:
            return
        if reply.game:
            where = f" — {reply.game}"
        else:
            channel_id = await self._game_channel(reply)
            where = f" in <#{channel_id}>" if channel_id else ""
        modes = dict(reply.following) or {uid: "move" for uid in reply.notify}
        view = reply.image.view if reply.image is not None else None
        marks = {"move": None, "turn": turn_mark(view), "round": round_mark(view)}
        over = reply.status in ("finished", "abandoned")
        storage = self.bot.host.storage
        now = self.bot.host.clock()
        marked = await storage.closed_dms(reply.notify)
        png: bytes | None = None
        for uid in reply.notify:
            mode = modes.get(uid, "move")
            key = (reply.session_id, uid)
            first = key not in self._following
            waiting, last = self._following.get(key, ([], None))
            waiting = [*waiting, public_text(reply)]
            mark = marks.get(mode)
            if mode != "move" and not over and not first and mark == last:
                self._following[key] = (waiting, last)  # the same turn or round: later, together
                continue
            self._following[key] = ([], mark)
            if uid in marked and now - marked[uid] < DM_RETRY_SECONDS:
                continue
            # what happened in each update since the last one sent, then the latest whole
            text = fit("\n".join([f"Update{where}:", *(h for t in waiting[:-1] if (h := happened(t))), waiting[-1]]))
            if png is None and reply.image is not None:
                png = await self._png(reply.image)
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(text, allowed_mentions=discord.AllowedMentions.none(), files=png_file(png))
                if uid in marked:
                    await storage.set_closed_dms(uid, None)
            except discord.HTTPException as e:
                log.info("could not notify follower %s", uid)
                if isinstance(e, discord.Forbidden) and e.code == DM_CLOSED:
                    await storage.set_closed_dms(uid, now)

    def _private_kwargs(self, reply: Reply, user_id: int, parts: Sequence[PrivatePart]) -> dict[str, Any]:
        body = "\n".join(p.text for p in parts if p.text)
        digest = next((p for p in parts if p.digest), None)
        text = private_text(heading(reply), digest.digest if digest else (), digest.digest_more if digest else 0, body)
        kwargs: dict[str, Any] = {
            "content": text or "\u200b",
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        view = self._choice_view(reply, user_id, parts)
        if digest is not None and reply.session_id is not None:
            view = components.with_log_button(view, reply.session_id)
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
        if prompt is None or not prompt.token:
            return None
        aids = ("explain", "rules") if prompt.explains else ("rules",)
        if prompt.step is not None:
            return components.step_view(reply.session_id, prompt.token, prompt.step, aids=aids,
                                        phase_pass=prompt.phase_pass)
        return components.choice_view(reply.session_id, prompt.token, prompt.choices, aids=aids,
                                      phase_pass=prompt.phase_pass)

    async def _private_png(self, reply: Reply, parts: Sequence[PrivatePart], user_id: int) -> bytes | None:
        view = next((p.view for p in parts if p.view is not None), None)
        if view is None or reply.session_id is None:
            return None
        image = ImageRequest(getattr(view, "game", ""), reply.session_id, reply.version or 0, view)
        return await boards.render_png(image, user_id, await self._board_names(image), hand=True)
