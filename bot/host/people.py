"""People and seats: handing a seat to another player or an AI, following a game, a
player's preferences, the server's settings, and a session's end or suspension
(abandon, orphaned when its channel or server is gone, resumed). Mixed into
``bot.host.service.Host``."""

from __future__ import annotations

from typing import Any

from games.core import Game, GameError, GameOverError, Outcome, Seat, get_game
from storage import FOLLOW_MODES, NOTIFY_MODES, SeatRecord, SessionRecord, SessionUpdate, UserPrefs

from .common import log
from .errors import GameFaultError, InvalidOptionError, LobbyError, PermissionDeniedError, SuspendedError
from .replies import Reply


class PeopleMixin:
    """Seats changing hands, followers, preferences, server settings, and a session's end or suspension."""

    async def follow(self, channel_id: int, user_id: int, *, session_id: int | None = None,
                     mode: str = "move") -> Reply:
        """Get the channel's game updates by DM (spectators), each with the board image:
        ``mode`` "move" (every move), "turn" (once per turn) or "round" (once per round);
        following again with another mode changes it. Raises NoSessionError, LobbyError
        (already following so, or seated), InvalidOptionError (an unknown mode)."""
        if mode not in FOLLOW_MODES:
            raise InvalidOptionError(f"Follow every {', '.join(FOLLOW_MODES[:-1])} or {FOLLOW_MODES[-1]}, not {mode!r}.")
        rec = await self._find(channel_id, session_id)
        if rec.seat_of(user_id) is not None:
            raise LobbyError("You play in this game; you already get its updates.")
        if not await self.storage.follow(rec.id, user_id, self.clock(), mode):
            raise LobbyError(f"You already follow this game (every {mode}).")
        return Reply(text=f"You now follow game #{rec.id}: an update by DM, with the board, every {mode}.",
                     ephemeral=True, session_id=rec.id, version=rec.version, status=rec.status)

    async def unfollow(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> Reply:
        """Stop following. Raises NoSessionError, LobbyError (not following)."""
        rec = await self._find(channel_id, session_id, readable=True)
        if not await self.storage.unfollow(rec.id, user_id):
            raise LobbyError("You do not follow this game.")
        return Reply(text=f"You no longer follow game #{rec.id}.", ephemeral=True, session_id=rec.id,
                     version=rec.version, status=rec.status)

    async def set_prefs(self, user_id: int, *, dms: bool | None = None, reminder_hours: int | None = -1,
                        notify: str | None = None, auto_pass: bool | None = None) -> Reply:
        """Set the user's preferences: ``dms`` (private parts and updates by DM),
        ``reminder_hours`` (None = never; -1 leaves it as it is), ``notify`` how they are
        told of a new question: "thread" (a ping in the game's thread, the prompt in their
        private thread) or "dm" (the prompt by direct message, no ping); ``auto_pass``
        whether the host answers for them a question whose only legal answer is a pass
        (when the others know it already); None leaves each as it is.
        Raises InvalidOptionError."""
        prefs = await self.storage.get_prefs(user_id)
        if reminder_hours is not None and reminder_hours != -1 and not 1 <= reminder_hours <= 24 * 14:
            raise InvalidOptionError("Reminders can be set from 1 to 336 hours.")
        if notify is not None and notify not in NOTIFY_MODES:
            raise InvalidOptionError(f"Notifications can be {' or '.join(NOTIFY_MODES)}, not {notify!r}.")
        new = UserPrefs(user_id, prefs.dms if dms is None else dms,
                        prefs.reminder_hours if reminder_hours == -1 else reminder_hours,
                        prefs.notify if notify is None else notify,
                        prefs.auto_pass if auto_pass is None else auto_pass)
        await self.storage.set_prefs(new, self.clock())
        when = "never" if new.reminder_hours is None else f"after {new.reminder_hours} h"
        how = ("a ping in the game's thread, your prompts in your private thread" if new.notify == "thread"
               else "a direct message with your prompt (no ping in the thread)")
        auto = self.settings.auto_pass if new.auto_pass is None else new.auto_pass
        passes = ("on: when pass (or done) is your only answer, it is given for you and the table is told"
                  if auto else "off: you are asked even when pass (or done) is your only answer")
        return Reply(text=f"DMs {'on' if new.dms else 'off'}; reminders {when}; when you are asked "
                          f"something: {how}; auto-pass {passes}.", ephemeral=True)

    async def set_guild_settings(self, guild_id: int, *, is_moderator: bool, respond_seconds: Any = ...,
                                 wait_seconds: Any = ...) -> Reply:
        """Set the guild's response-window length and wait deadline (seconds; None = the host
        default; left out = unchanged). The wait is how long a turn or a secret choice waits
        for its player before an AI answers that decision for the seat.

        Raises PermissionDeniedError (not a moderator), InvalidOptionError."""
        if not is_moderator:
            raise PermissionDeniedError("Only a moderator can change the server's game settings.")
        if respond_seconds not in (None, ...) and not 60 <= respond_seconds <= 14 * 86400:
            raise InvalidOptionError("Response windows can last from 60 seconds to 14 days.")
        if wait_seconds not in (None, ...) and not 600 <= wait_seconds <= 30 * 86400:
            raise InvalidOptionError("The wait for a player's decision can last from 10 minutes to 30 days.")
        current = await self.storage.get_guild_settings(guild_id)
        if respond_seconds is not ...:
            current["respond_seconds"] = respond_seconds
        if wait_seconds is not ...:
            current["wait_seconds"] = wait_seconds
        await self.storage.set_guild_settings(guild_id, current, self.clock())
        respond = current.get("respond_seconds") or self.settings.respond_seconds
        wait = current.get("wait_seconds") or self.settings.wait_seconds
        return Reply(text=f"Response windows: {respond:.0f} s ({self._span(respond)}). A turn or a secret choice "
                          f"waits {self._span(wait)} for its player, then an AI answers that decision.",
                     ephemeral=True)

    @staticmethod
    def _span(seconds: float) -> str:
        """``seconds`` in words: 90 min, 12 h, 3 days."""
        if seconds >= 2 * 86400 and seconds % 86400 == 0:
            return f"{seconds / 86400:.0f} days"
        if seconds >= 3600 and seconds % 3600 == 0:
            return f"{seconds / 3600:.0f} h"
        return f"{seconds / 60:.0f} min"

    async def replace(self, channel_id: int, user_id: int, seat: Seat, new_user_id: int | None, *,
                      is_moderator: bool = False, session_id: int | None = None) -> Reply:
        """Give ``seat`` (zero-based) to ``new_user_id``, or to an AI when None (a kick).

        A seat a human holds may be reassigned only by that human or by a moderator (Manage
        Server or Manage Channels): whoever takes a seat reads its hand and private log
        lines, so the game's creator must not be able to borrow another player's seat. The
        creator or a moderator may fill an AI seat.

        Raises NoSessionError, PermissionDeniedError, LobbyError (no such seat, user
        already seated), GameOverError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            if not 0 <= seat < len(rec.seats):
                raise LobbyError(f"There is no seat {seat + 1}; seats are 1–{len(rec.seats)}.")
            holder = rec.seats[seat].user_id
            if holder is not None and holder != user_id and not is_moderator:
                raise PermissionDeniedError(
                    f"Seat {seat + 1} is held by {self.names.user(holder)}: only that player or a moderator "
                    "(Manage Server or Manage Channels) can hand it to someone else. The game's creator can "
                    "fill AI seats.")
            if holder is None:
                self._require_manager(rec, user_id, is_moderator, "fill an AI seat")
            if rec.status not in ("lobby", "active"):
                raise GameOverError(f"This game is {rec.status}; its seats can no longer change.")
            if new_user_id is not None and rec.seat_of(new_user_id) is not None:
                raise LobbyError(f"{self.names.user(new_user_id)} already has seat "
                                 f"{rec.seat_of(new_user_id).seat + 1}.")
            who = self.names.user(new_user_id) if new_user_id is not None else "an AI"
            return await self._reseat(game, rec, seat, new_user_id, self.clock(),
                                      f"{who} takes over seat {seat + 1}.")

    async def _reseat(self, game: Game, rec: SessionRecord, seat: Seat, new_user_id: int | None, now: float,
                      text: str) -> Reply:
        old = rec.seats[seat]
        new = SeatRecord(seat, new_user_id, old.faction, None if new_user_id is not None else "heuristic",
                         now if new_user_id is not None else old.joined_at,
                         now if old.user_id is not None else old.left_at)
        seats = tuple(new if s.seat == seat else s for s in rec.seats)
        if rec.status == "lobby":
            rec = await self._commit(rec, SessionUpdate(seats=seats))
            return await self._lobby_reply(game, rec, text)
        state = await self._state(game, rec)
        try:
            prompts = game.to_act(state)
            await self.storage.set_standing_pass(rec.id, seat, None, now)  # the new holder decides anew
            ai = self._run_ai(game, rec, seats, state, rec.seq, now, auto=await self._auto(rec, seats))
            final = ai[-1].state if ai else state
            change = self._close_change(game, rec, prompts, final, ai, now, *await self._timing(rec, game, final),
                                        fault=ai.fault, seats=seats)
        except GameError:
            raise
        except Exception as e:
            raise await self._fault(rec, seat, f"handing over seat {seat + 1}", e) from None
        if not ai and not ai.fault:
            change = SessionUpdate(seats=seats, pending_undo=None, wait_deadline=change.wait_deadline)
        rec = await self._commit(rec, change)
        self._remember(rec, final)
        return await self._status_reply(game, rec, final, [text, *self._feed_rows(rec, ai),
                                                           *self._fault_line(ai.fault)])

    async def abandon(self, channel_id: int, user_id: int, *, is_moderator: bool = False,
                      session_id: int | None = None, guild_id: int | None = None) -> Reply:
        """End the channel's game without a winner (creator or moderator only); the seed is
        revealed and the game stays readable. With ``session_id`` and ``guild_id`` a game of
        another channel of the same server can be ended (its channel may be gone): by a
        moderator, or by its creator. This is how a suspended game (saved under older rules
        that no longer load) ends.

        Raises NoSessionError, PermissionDeniedError."""
        rec = await self._find_anywhere(channel_id, session_id, guild_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_manager(rec, user_id, is_moderator, "abandon the game")
            if not rec.is_open:
                raise GameOverError(f"This game is already {rec.status}.")
            now = self.clock()
            outcome = Outcome(winners=(), reason=f"abandoned by {self.names.user(user_id)}")
            rec = await self._commit(rec, SessionUpdate(status="abandoned", outcome=outcome.model_dump(mode="json"),
                                                        ended_at=now, deadline=None, wait_deadline=None,
                                                        pending_undo=None))
        self._drop(rec.id)
        try:
            state = await self._state(game, rec) if rec.started_at is not None else None
        except (GameFaultError, SuspendedError):
            state = None  # the end is stored; a game saved under other rules is shown without its board
        return await self._status_reply(game, rec, state, [f"{self.names.user(user_id)} abandoned the game."])

    async def orphan(self, *, channel_id: int | None = None, guild_id: int | None = None, why: str) -> list[int]:
        """Mark the open sessions of a channel (or thread) or of a whole server as orphaned:
        the channel was deleted, or the bot was removed from the server (or Discord answered
        10003 Unknown Channel / 10004 Unknown Guild). Their deadlines stop, reminders skip them,
        they take no more actions; ``/game games`` shows them and a moderator can abandon them
        from elsewhere. Returns the ids marked (already orphaned ones are left as they are)."""
        if (channel_id is None) == (guild_id is None):
            raise ValueError("give exactly one of channel_id or guild_id")
        if channel_id is not None:
            found = await self.storage.open_session(channel_id)
            recs = [found] if found is not None else []
        else:
            recs = [r for r in await self.storage.sessions_with_status("lobby", "active") if r.guild_id == guild_id]
        marked = []
        for rec in recs:
            if rec.orphaned is not None:
                continue
            async with self._lock(rec.id):
                rec = await self.storage.get_session(rec.id)
                if not rec.is_open or rec.orphaned is not None:
                    continue
                await self._commit(rec, SessionUpdate(orphaned={"at": self.clock(), "why": why}, deadline=None,
                                                      wait_deadline=None))
            log.info("game #%s orphaned: %s", rec.id, why)
            self._drop(rec.id)
            marked.append(rec.id)
        return marked

    async def resume(self, channel_id: int, user_id: int, *, is_moderator: bool = False) -> Reply:
        """Take up the channel's orphaned game again (its server invited the bot back):
        creator or moderator. Nothing resumes by itself; its waits start afresh from now.

        Raises NoSessionError, PermissionDeniedError, LobbyError (not orphaned)."""
        rec = await self._find(channel_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_manager(rec, user_id, is_moderator, "take up the game again")
            if rec.orphaned is None:
                raise LobbyError(f"Game #{rec.id} is {rec.shown_status}, not orphaned; there is nothing to resume.")
            state = await self._state(game, rec) if rec.status == "active" else None
            change: dict[str, Any] = {"orphaned": None}
            if state is not None:
                now = self.clock()
                try:
                    prompts = game.to_act(state)
                    window, wait = await self._timing(rec, game, state)
                    fresh = self._close_change(game, rec, {}, state, [], now, window, wait)
                except Exception as e:
                    raise await self._fault(rec, None, "taking up the game again", e) from None
                change.update(deadline=fresh.deadline, wait_deadline=fresh.wait_deadline,
                              to_act=tuple(sorted(prompts)))
            rec = await self._commit(rec, SessionUpdate(**change))
        if state is None:
            return await self._lobby_reply(game, rec, f"{self.names.user(user_id)} took up game #{rec.id} again.")
        return await self._status_reply(game, rec, state,
                                        [f"{self.names.user(user_id)} took up game #{rec.id} again."])
