"""Play: a seat's action (``act``), bound to the question its sender saw, applied under the
session's lock, committed, then answered with the table's update; and ``stop_passing``.
Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

from typing import Any

from games.core import Game, GameError, IllegalActionError, NotYourTurnError, StaleStateError, get_game
from games.core.errors import list_words
from storage import DuplicateInteractionError, SessionContext, SessionRecord, UnknownSessionError

from . import suggest
from .common import REPEATED, _AutoPass, _Known
from .errors import NoSessionError, OutdatedActionError
from .replies import Reply


class PlayMixin:
    """A seat's action, from receipt to the table's update."""

    async def act(
        self,
        channel_id: int,
        user_id: int,
        text: str | None = None,
        *,
        action: Any = None,
        interaction_id: str | None = None,
        version: int | None = None,
        prompt: str | None = None,
        choice: int | None = None,
        session_id: int | None = None,
        for_phase: bool = False,
    ) -> Reply:
        """Play an action for the user's seat, given in the game's notation (``text``), as
        an action model (``action``), or as the index of a choice (``choice``, zero-based,
        into the ``PromptInfo.choices`` of the question ``prompt`` names); then AI seats play
        until a human must act.

        ``for_phase`` (give ``text="pass"``): pass now and for the rest of this phase (the
        game's ``phase_mark``, "round" where ``phase_word`` says so): the host then passes
        for the seat at each of its questions the others know pass answers, until the phase
        changes or the player stops it (``stop_passing``); the table is told. Raises
        IllegalActionError when pass is not among the seat's answers now.

        An action is judged against the question its sender saw (design, trust invariant 4):
        ``prompt`` is the ``prompt_token`` the sender answered (a button carries it), or ""
        when the seat was not asked then. Without ``prompt`` (and without ``version``) it is
        bound here, on receipt, before waiting for the session's turn to change it: an
        action queued behind another is never applied to a question its sender did not see.
        ``version`` (from a button posted by an earlier release) must be the session's
        current version.

        ``interaction_id`` (a Discord interaction id) makes the call idempotent: a second
        call with the same id applies nothing and returns ``duplicate=True``.

        Raises
        ------
        NoSessionError, LobbyError, GameOverError
            No game, not started, or over.
        NotSeatedError
            The user holds no seat.
        NotYourTurnError
            The game does not prompt the user's seat now, or did not when the action was
            sent (the message says who must act, or what the user is asked now).
        OutdatedActionError
            The seat's question changed (or the seat acted) since the sender saw it; the
            message says what is asked now.
        StaleStateError
            ``version`` is not current, or another process changed the game meanwhile.
        InvalidNotationError, AmbiguousActionError, IllegalActionError
            From the game: the text or action is not legal now (the message lists what is).
        """
        if sum(x is not None for x in (text, action, choice)) != 1:
            raise ValueError("give exactly one of text, action or choice")
        if choice is not None and prompt is None:
            raise ValueError("a choice needs the prompt it belongs to")
        # the session to lock: as this process last saw the channel, else read; the read under
        # the lock (one call: ``Storage.session_context``) confirms it is the channel's open game
        sid = session_id if session_id is not None else self._by_channel.get(channel_id)
        # Bound on receipt: when no call of this process holds or awaits the session, nothing
        # can come between receipt and the read under the lock (taken at once) but other
        # processes' commits, which a read now could not tell from earlier ones: the question
        # is then taken from that read. Otherwise it is read now, before waiting.
        bind_under_lock = prompt is None and version is None and sid is not None and sid not in self._locks
        if prompt is None and version is None and not bind_under_lock:
            prompt = await self.question_token(channel_id, user_id, session_id=session_id)
        if sid is None:
            sid, handled = await self._session_to_act_in(channel_id, interaction_id)
            if handled is not None:
                return await self._duplicate_reply(handled)
        return await self._act_in_session(
            sid, channel_id, user_id, text=text, action=action, interaction_id=interaction_id, version=version,
            prompt=prompt, choice=choice, session_id=session_id, for_phase=for_phase, bind_under_lock=bind_under_lock)

    async def _act_in_session(
        self, sid: int, channel_id: int, user_id: int, *, text: str | None, action: Any,
        interaction_id: str | None, version: int | None, prompt: str | None, choice: int | None,
        session_id: int | None, for_phase: bool, bind_under_lock: bool,
    ) -> Reply:
        """``act`` from the session ``sid`` on: under its lock (the channel's open game, else
        found again and locked), the action applied and committed, then the table's reply."""
        while True:
            if bind_under_lock and sid in self._locks:  # another session than remembered, now busy
                bind_under_lock = False
                prompt = await self.question_token(channel_id, user_id, session_id=session_id)
            async with self._lock(sid):
                try:
                    ctx = await self.storage.session_context(sid, interaction_id=interaction_id)
                except UnknownSessionError:
                    if session_id is None:
                        raise
                    raise NoSessionError(f"There is no game #{session_id} in this channel.") from None
                if ctx.handled is not None:
                    duplicate_of: int | None = ctx.handled
                    break
                rec = ctx.session
                if session_id is not None and rec.channel_id != channel_id:
                    raise NoSessionError(f"There is no game #{session_id} in this channel.")
                if session_id is not None or (rec.channel_id == channel_id and rec.is_open):
                    duplicate_of = None
                    reply_args = await self._act_locked(
                        ctx, user_id, text=text, action=action, interaction_id=interaction_id, version=version,
                        prompt=prompt, choice=choice, bind=bind_under_lock, for_phase=for_phase)
                    break
            # the channel's game is not the one this process remembered: find it and lock that one
            self._drop_known(sid)
            sid, handled = await self._session_to_act_in(channel_id, interaction_id)
            if handled is not None:
                return await self._duplicate_reply(handled)
        if duplicate_of is not None:
            return await self._duplicate_reply(duplicate_of)
        if isinstance(reply_args, Reply):
            return reply_args
        return await self._status_reply(*reply_args[:4], known=reply_args[4])

    async def _session_to_act_in(self, channel_id: int, interaction_id: str | None) -> tuple[int, int | None]:
        """(the id of the channel's open game, None); or, when it has none but the action
        of ``interaction_id`` is stored already (redelivered after the game ended), (0, the
        session holding it). Raises NoSessionError."""
        try:
            return (await self._find(channel_id)).id, None
        except NoSessionError:
            done = None if interaction_id is None else await self.storage.action_by_interaction(interaction_id)
            if done is None:
                raise
            return 0, done[0]

    async def _act_locked(
        self, ctx: SessionContext, user_id: int, *, text: str | None, action: Any, interaction_id: str | None,
        version: int | None, prompt: str | None, choice: int | None, bind: bool = False, for_phase: bool = False,
    ) -> Reply | tuple[Game, SessionRecord, Any, list[str | tuple[int, str]], _Known]:
        """``act`` under the session's lock, from what ``Storage.session_context`` read:
        a reply (a redelivered interaction), or what the status reply is composed of. With
        ``bind`` the action answers the seat's question as that read shows it."""
        rec = ctx.session
        game = get_game(rec.game_id)
        self._require_active(rec)
        seat = self._require_seat(rec, user_id).seat
        if version is not None and version != rec.version:
            raise StaleStateError("That choice belongs to an earlier moment of the game; it has moved on "
                                  "since. Look at the current state and choose again.")
        state = await self._state(game, rec)
        try:
            prompts = game.to_act(state)
            if bind:
                prompt = self._token_of(game, rec, state, prompts, seat) or ""
            if seat not in prompts and prompt != "":
                waiting = list_words([f"{self._who(rec, s)} ({p.text})" for s, p in sorted(prompts.items())])
                if prompt:
                    raise OutdatedActionError("Your action answered an earlier question; the game moved on "
                                              "before it arrived, so nothing was applied. Nothing is asked "
                                              f"of you now; waiting for {waiting}.")
                raise NotYourTurnError(f"It is not your turn; waiting for {waiting}.")
            if prompt is not None and not (bind and prompt):  # a question bound just now is the current one
                await self._judge_intent(game, rec, state, prompts, seat, prompt)
            if choice is not None:
                choices = self._choices(game, state, seat)
                if not 0 <= choice < len(choices):
                    raise OutdatedActionError("That choice is not offered any more; nothing was applied. "
                                              f"You are asked now: {prompts[seat].text}")
                text = choices[choice]
            times = 1
            repeated = REPEATED.fullmatch(text or "") if action is None else None
            if repeated is not None:
                text, times = repeated.group(1), int(repeated.group(2))
            standing: str | None = None
            auto = self._auto_of(rec, ctx.prefs, ctx.standing_passes)
            if for_phase:
                action = self._pass_action(game, state, seat)
                if action is None:
                    raise IllegalActionError(
                        f"Pass is not among your answers now, so it cannot be given for the rest of this "
                        f"{game.phase_word}; nothing was applied. You are asked: {prompts[seat].text}")
                standing = game.phase_mark(state)
                auto = _AutoPass(auto.lone, {**auto.standing, seat: standing})
            if action is None:
                action = suggest.resolve(game, state, seat, text or "")
            if action is None:
                action = game.parse_action(state, seat, text or "")
            now = self.clock()
            applied, final, change, fault = await self._answer_and_follow(
                game, rec, state, prompts, seat, action, user_id=user_id, interaction_id=interaction_id,
                now=now, times=times, auto=auto, guild=ctx.guild_settings)
        except GameError as e:
            raise self._reworded(e) from None
        except Exception as e:
            raise await self._fault(rec, seat, f"seat {seat + 1}'s action", e) from None
        try:
            rec = await self._commit(rec, change)
        except DuplicateInteractionError:
            done = await self.storage.action_by_interaction(interaction_id or "")
            if done is None:
                raise
            return await self._duplicate_reply(done[0])
        self._remember(rec, final)
        said: list[str | tuple[int, str]] = []
        if standing is not None:
            await self.storage.set_standing_pass(rec.id, seat, standing, now)
            said.append(f"{self._who(rec, seat)} passes for the rest of this {game.phase_word}.")
        return (game, rec, final, [*said, *self._feed_rows(rec, applied), *self._fault_line(fault)],
                _Known.of(ctx, applied))

    async def stop_passing(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> Reply:
        """End the user's passing for the rest of a phase (``act(for_phase=True)``): the
        host asks their seat again from its next question. Private reply; changes nothing
        else. Raises NoSessionError, NotSeatedError."""
        rec = await self._find(channel_id, session_id)
        seat = self._require_seat(rec, user_id).seat
        game = get_game(rec.game_id)
        stopped = await self.storage.set_standing_pass(rec.id, seat, None, self.clock())
        text = (f"You will be asked again: the host no longer passes for you in this {game.phase_word}."
                if stopped else "You were not passing for the rest of a phase; you are asked as usual.")
        return Reply(text=text, ephemeral=True, session_id=rec.id, version=rec.version, status=rec.status,
                     game=self._game_name(rec))

    async def _duplicate_reply(self, session_id: int) -> Reply:
        rec = await self.storage.get_session(session_id)
        game = get_game(rec.game_id)
        state = await self._state(game, rec) if rec.status != "lobby" else None
        reply = await self._status_reply(game, rec, state, ["That was already done; nothing was applied twice."],
                                         notify=False, duplicate=True)
        return reply
