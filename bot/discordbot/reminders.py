"""The reminders cog: close response windows at their deadline, and remind late players.

A discord.py cog (``commands.Cog``) whose background task, started when the cog is added
(``cog_load``) and stopped when it is removed (``cog_unload``), runs ``run_once`` every
``reminder_check_seconds``. As RoboDanny's reminder cog dispatches its timers, it dispatches
what it did as bot events for any cog to listen to (``@commands.Cog.listener()``):

- ``on_tabula_deadline_closed(reply)``: a session's response window or wait closed at its
  deadline (``Host.tick``), after the update was handed to the outbox;
- ``on_tabula_reminder_sent(session_id, user_id, how)``: a late player was reminded, ``how``
  being ``"channel"`` (a ping in the game's channel) or ``"dm"``.

A game suspended because it was saved under rules that no longer load (``Host.tick`` loads
every game saved under other rules first) reminds nobody.

A human seat the game is waiting for is pinged in the game's channel once its wait passes the
reminder interval, and again after each further interval (at most one ping per interval). The
interval is the player's own preference (``/game prefs reminder_hours``), else the server's
(``reminder_hours`` in the guild settings), else ``TABULA_REMINDER_HOURS`` (12 h by default).
A reminder goes the way the player chose to be told of a question (``/game prefs notify``): a
ping in the game's channel, or a direct message and no ping (a ping when their DMs are closed).
Which pings were sent is stored, so a restart does not ping anyone early. Each ping is claimed
in the database before it is sent (``Storage.claim_reminder_ping``): when several bot processes
share a database, exactly one of them sends it (a process that dies between the claim and the
send loses that one ping rather than doubling it). A sharded process only looks after the
sessions of its own shards' guilds. Time comes from the bot's clock, which tests replace.
The cog is typed against ``protocols.ReminderBot``, not the client.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from .background import Background

if TYPE_CHECKING:
    from storage import UserPrefs

    from .protocols import ReminderBot

log = logging.getLogger("tabula.discord")


class Reminders(commands.Cog):
    """Runs ``run_once`` every ``settings.reminder_check_seconds`` while the cog is loaded."""

    def __init__(self, bot: ReminderBot) -> None:
        self.bot = bot
        self._background = Background("tabula-reminders", self._loop)
        self._lock = asyncio.Lock()  # one pass at a time, so a ping is never sent twice

    async def cog_load(self) -> None:
        self._background.start()

    async def cog_unload(self) -> None:
        await self._background.stop()

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("reminder pass failed")
            await asyncio.sleep(self.bot.settings.reminder_check_seconds)

    async def run_once(self, now: float | None = None) -> int:
        """Close due response windows and send due reminders; returns the number of messages sent."""
        now = self.bot.clock() if now is None else now
        sent = 0
        async with self.bot.tracker.busy(), self._lock:
            for reply in await self.bot.host.tick(now, owns=self.bot.owns_guild):
                channel = await self.bot.session_channel(reply.session_id) if reply.session_id else None
                if channel is not None:
                    await self.bot.outbox.publish(channel, reply)
                    self.bot.dispatch("tabula_deadline_closed", reply)
                    sent += 1
            sent += await self._remind(now)
        return sent

    async def _interval_hours(self, prefs: UserPrefs, guild_id: int | None) -> float | None:
        storage = self.bot.host.storage
        if prefs.reminder_hours is not None:
            return float(prefs.reminder_hours)
        if guild_id is not None:
            hours = (await storage.get_guild_settings(guild_id)).get("reminder_hours")
            if hours is not None:
                return float(hours)
        return self.bot.settings.reminder_hours

    async def _remind(self, now: float) -> int:
        sent = 0
        storage = self.bot.host.storage
        for rec in await storage.sessions_with_status("active"):
            if (not self.bot.owns_guild(rec.guild_id) or rec.orphaned is not None or rec.attention is not None
                    or rec.suspended is not None):
                continue  # an orphaned game's channel is gone; a stopped or suspended game waits for a moderator
            waiting = [s for s in rec.seats if s.seat in rec.to_act and s.user_id is not None]
            if not waiting:
                continue
            pinged = await storage.reminder_pings(rec.id)
            prefs = await storage.get_prefs_many(s.user_id for s in waiting if s.user_id is not None)
            for seat in waiting:
                assert seat.user_id is not None
                hours = await self._interval_hours(prefs[seat.user_id], rec.guild_id)
                if not hours:
                    continue
                due = int((now - rec.updated_at) // (hours * 3600))
                since, done = pinged.get(seat.user_id, (rec.updated_at, 0))
                if since != rec.updated_at:
                    done = 0  # an earlier wait; this one has not been reminded of yet
                if due <= done:
                    continue
                if not await storage.claim_reminder_ping(rec.id, seat.user_id, rec.updated_at, due, now):
                    continue  # another process sent it
                waited = (now - rec.updated_at) / 3600
                if prefs[seat.user_id].notify == "dm" and await self._remind_by_dm(rec.id, rec.channel_id,
                                                                                   seat.user_id, waited):
                    self.bot.dispatch("tabula_reminder_sent", rec.id, seat.user_id, "dm")
                    sent += 1
                    continue
                text = (
                    f"<@{seat.user_id}>, the game is waiting for you ({waited:.0f} h so far). "
                    "`/game hand` shows what you are asked."
                )
                try:
                    channel = self.bot.get_channel(rec.channel_id) or await self.bot.fetch_channel(
                        rec.channel_id
                    )
                    await channel.send(  # type: ignore[union-attr]
                        text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id)])
                    )
                except discord.HTTPException as e:
                    if await self.bot.orphan_on_not_found(e, rec.channel_id, rec.guild_id):
                        break  # the channel or server is gone: no more reminders for this game
                    log.warning("could not remind user %s in channel %s", seat.user_id, rec.channel_id)
                    # give the claim back, so the next pass tries again
                    await storage.set_reminder_ping(rec.id, seat.user_id, rec.updated_at, done, now)
                    continue
                self.bot.dispatch("tabula_reminder_sent", rec.id, seat.user_id, "channel")
                sent += 1
        return sent

    async def _remind_by_dm(self, session_id: int, channel_id: int, user_id: int, waited: float) -> bool:
        """Remind a player who chose direct messages (no ping in the channel); False when the
        DM could not be sent (their DMs are closed), so the channel ping goes instead."""
        name = await self.bot.host.game_name(session_id)
        text = (f"**{name}**\nThe game is waiting for you ({waited:.0f} h so far) in <#{channel_id}>. "
                "`/game hand` there shows what you are asked.")
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("could not remind user %s by DM; pinging in the channel instead", user_id)
            return False
        return True
