"""Play: a seat's action (``act``), bound to the question its sender saw, applied under the
session's lock, committed, then answered with the table's update; and ``stop_passing``.
Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from games.core import (
    Game,
    GameError,
    IllegalActionError,
    InvalidNotationError,
    NotYourTurnError,
    Prompt,
    Seat,
    StaleStateError,
    get_game,
)
from games.core.errors import list_words
from storage import (
    ContextChangedError,
    DuplicateInteractionError,
    SessionContext,
    SessionRecord,
    UnknownSessionError,
)
from storage.base import tail_start

from . import suggest
from .common import REPEATED, _Applied, _AutoPass, _Known
from .errors import NoSessionError, OutdatedActionError
from .replies import Reply
from .usertext import UNREADABLE, unreadable


class _Cold(Exception):
    """An action computed from this process's last context was not committed: the session,
    its context or another process moved on, or the action was refused or failed there. It is
    done again from a read under the session's guard."""


TAIL = 64
"""Rows of the log ``Storage.session_context`` reads back at most (its default ``tail``)."""


def _next_context(ctx: SessionContext, rec: SessionRecord, applied: Sequence[_Applied]) -> SessionContext | None:
    """The ``SessionContext`` a read would give after ``applied`` was committed as ``rec``
    (its settings, followers, preferences and standing passes unchanged: the next commit
    checks that with ``ctx.fingerprint``), or None when that cannot be told from ``ctx``."""
    rows = (*ctx.tail, *(a.row for a in applied))
    if ctx.fingerprint is None or rec.seats != ctx.session.seats or not rows or rows[-1].seq != rec.seq:
        return None
    humans = {s.user_id for s in rec.seats if s.user_id is not None}
    last = dict(ctx.last_acted)
    for a in applied:
        if a.row.user_id in humans:
            last[a.row.user_id] = a.row.seq
    after = tail_start(rec.seq, last.values(), TAIL)
    if after < ctx.tail_after:
        return None
    return dataclasses.replace(ctx, session=rec, handled=None, last_acted=last, tail_after=after,
                               tail=tuple(r for r in rows if r.seq > after))


def _once(call: Callable[[], Awaitable[None]] | None) -> Callable[[], Awaitable[None]] | None:
    """``call``, awaited the first time only (an action done again from a read, after its
    first try was accepted, does not answer twice)."""
    if call is None:
        return None
    done = False

    async def once() -> None:
        nonlocal done
        if not done:
            done = True
            await call()

    return once


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
        accepted: Callable[[], Awaitable[None]] | None = None,
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

        ``accepted`` is awaited (once) when the rules took the action, before its reveals check,
        the AI moves, the commit and the reply: an adapter's first response, as for a success.
        What stops it after that is rare (the session changed meanwhile) and raised as usual.

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
            prompt=prompt, choice=choice, session_id=session_id, for_phase=for_phase, bind_under_lock=bind_under_lock,
            accepted=_once(accepted))

    async def _act_in_session(
        self, sid: int, channel_id: int, user_id: int, *, text: str | None, action: Any,
        interaction_id: str | None, version: int | None, prompt: str | None, choice: int | None,
        session_id: int | None, for_phase: bool, bind_under_lock: bool,
        accepted: Callable[[], Awaitable[None]] | None = None,
    ) -> Reply:
        """``act`` from the session ``sid`` on: under its lock (the channel's open game, else
        found again and locked), the action applied and committed, then the table's reply.

        When this process's last action in the session left its context (``_contexts``) and
        the state is cached at that version, the action is computed from them and committed
        with the context's fingerprint, without the storage's guard or a read first (one call
        into the storage; on PostgreSQL one round trip): the storage applies it only if
        nothing changed meanwhile (``Storage.update``). Otherwise, or when the action is
        refused or fails there, it is done again from a read under the guard, which words
        any refusal."""
        while True:
            if bind_under_lock and sid in self._locks:  # another session than remembered, now busy
                bind_under_lock = False
                prompt = await self.question_token(channel_id, user_id, session_id=session_id)
            async with self._lock(sid, guarded=False):
                warm = self._warm_context(sid, channel_id, session_id)
                if warm is not None:
                    try:
                        reply_args = await self._act_locked(
                            warm, user_id, text=text, action=action, interaction_id=interaction_id,
                            version=version, prompt=prompt, choice=choice, bind=bind_under_lock,
                            for_phase=for_phase, warm=True, accepted=accepted)
                    except _Cold:
                        self._contexts.pop(sid, None)
                    else:
                        duplicate_of: int | None = None
                        break
                async with self._guard(sid):
                    found, duplicate_of, reply_args = await self._act_read(
                        sid, channel_id, user_id, text=text, action=action, interaction_id=interaction_id,
                        version=version, prompt=prompt, choice=choice, session_id=session_id, for_phase=for_phase,
                        bind_under_lock=bind_under_lock, accepted=accepted)
                if found:
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

    def _warm_context(self, sid: int, channel_id: int, session_id: int | None) -> SessionContext | None:
        """The context this process's last action in ``sid`` left, when the state is cached at
        its version and it is the channel's open game (or the game asked for), else None."""
        ctx = self._contexts.get(sid)
        hit = self._cache.get(sid)
        latest = self._latest.get(sid)
        if ctx is None or ctx.fingerprint is None or hit is None or latest is None:
            return None
        rec = ctx.session
        if hit[0] != rec.version or latest.version != rec.version or rec.channel_id != channel_id:
            return None
        return ctx if session_id is not None or rec.is_open else None

    async def _act_read(
        self, sid: int, channel_id: int, user_id: int, *, text: str | None, action: Any,
        interaction_id: str | None, version: int | None, prompt: str | None, choice: int | None,
        session_id: int | None, for_phase: bool, bind_under_lock: bool,
        accepted: Callable[[], Awaitable[None]] | None = None,
    ) -> tuple[bool, int | None, Any]:
        """``act`` under the session's lock and guard, from a read (``Storage.session_context``):
        (whether ``sid`` is the game to act in, the session holding the interaction's action
        when it was handled already, what ``_act_locked`` returned)."""
        try:
            ctx = await self.storage.session_context(sid, interaction_id=interaction_id)
        except UnknownSessionError:
            if session_id is None:
                raise
            raise NoSessionError(f"There is no game #{session_id} in this channel.") from None
        if ctx.handled is not None:
            return True, ctx.handled, None
        rec = ctx.session
        if session_id is not None and rec.channel_id != channel_id:
            raise NoSessionError(f"There is no game #{session_id} in this channel.")
        if session_id is not None or (rec.channel_id == channel_id and rec.is_open):
            return True, None, await self._act_locked(
                ctx, user_id, text=text, action=action, interaction_id=interaction_id, version=version,
                prompt=prompt, choice=choice, bind=bind_under_lock, for_phase=for_phase, accepted=accepted)
        return False, None, None

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
        warm: bool = False, accepted: Callable[[], Awaitable[None]] | None = None,
    ) -> Reply | tuple[Game, SessionRecord, Any, list[str | tuple[int, str]], _Known]:
        """``act`` under the session's lock, from what ``Storage.session_context`` read:
        a reply (a redelivered interaction), or what the status reply is composed of. With
        ``bind`` the action answers the seat's question as that read shows it.

        ``warm``: ``ctx`` is what this process's last action left (``_act_in_session``); the
        change is committed with its fingerprint, and anything that stops the action before
        its commit raises ``_Cold`` (nothing was written: it is done again from a read)."""
        rec = ctx.session
        game = get_game(rec.game_id)
        try:
            self._require_active(rec)
            seat = self._require_seat(rec, user_id).seat
            if version is not None and version != rec.version:
                raise StaleStateError("That choice belongs to an earlier moment of the game; it has moved on "
                                      "since. Look at the current state and choose again.")
        except GameError:
            if warm:
                raise _Cold from None
            raise
        state = await self._state(game, rec)
        try:
            prompts, text = await self._answered(game, rec, state, seat, text=text, prompt=prompt, choice=choice,
                                                 bind=bind)
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
            note = game.acted_note(state, seat, action, text)  # what the action's words may not say
            now = self.clock()
            applied, final, change, fault = await self._answer_and_follow(
                game, rec, state, prompts, seat, action, user_id=user_id, interaction_id=interaction_id,
                now=now, times=times, auto=auto, guild=ctx.guild_settings, accepted=accepted)
        except GameError as e:
            if warm:
                raise _Cold from None
            raise self._reworded(e) from None
        except Exception as e:
            if warm:
                raise _Cold from None
            raise await self._fault(rec, seat, f"seat {seat + 1}'s action", e) from None
        try:
            rec = await self._commit(rec, change, ctx.fingerprint if warm else None)
        except ContextChangedError:
            raise _Cold from None
        except DuplicateInteractionError:
            done = await self.storage.action_by_interaction(interaction_id or "")
            if done is None:
                raise
            return await self._duplicate_reply(done[0])
        self._remember(rec, final)
        following = None if standing is not None else _next_context(ctx, rec, applied)
        if following is None:
            self._contexts.pop(rec.id, None)
        else:
            self._contexts[rec.id] = following
        said: list[str | tuple[int, str]] = [(user_id, note)] if note else []
        if standing is not None:
            await self.storage.set_standing_pass(rec.id, seat, standing, now)
            said.append(f"{self._who(rec, seat)} passes for the rest of this {game.phase_word}.")
        return (game, rec, final, [*said, *self._feed_rows(rec, applied), *self._fault_line(fault)],
                _Known.of(ctx, applied))

    async def _answered(
        self, game: Game, rec: SessionRecord, state: Any, seat: Seat, *, text: str | None, prompt: str | None,
        choice: int | None, bind: bool,
    ) -> tuple[dict[Seat, Prompt], str | None]:
        """Who is asked in ``state``, and the text of the seat's answer (its ``choice``'s notation
        when given by index), once the action is judged against the question its sender saw
        (``prompt``; with ``bind``, the seat's question now). Raises NotYourTurnError,
        OutdatedActionError, and InvalidNotationError for text with characters that could not
        be read (never echoed back as escapes)."""
        if text is not None and unreadable(text):
            raise InvalidNotationError(UNREADABLE)
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
        return prompts, text

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
