"""Finding, locking, caching and committing a session, and the checks every call makes.

A session is changed under its asyncio lock and the storage's ``session_guard``
(``_lock``), found by channel (``_find``), replayed to its state and cached by version
(``_state``), and written through ``Storage.update`` with the version read (``_commit``).
A session saved under another version of its game's rules whose log no longer loads is
suspended (``_suspend``) instead of being reported as an incident. The ``_require_*``
checks raise a player-safe ``GameError``; ``_timing`` reads the server's window and wait
lengths. Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from games.core import Game, GameError, GameOverError, StaleStateError, get_game, start
from storage import SeatRecord, SessionRecord, SessionUpdate, UnknownSessionError
from storage.replay import options_of, replay_rows, rules_note, seats_of, short_error

from .common import _LockEntry, log
from .errors import (
    LobbyError,
    NoSessionError,
    NotSeatedError,
    OrphanedError,
    PermissionDeniedError,
    SuspendedError,
)


class SessionsMixin:
    """The sessions a call works on: found, locked, replayed and cached, committed, and checked."""

    @asynccontextmanager
    async def _lock(self, session_id: int, *, guarded: bool = True) -> AsyncIterator[None]:
        """One change at a time to a session: this process's asyncio lock, then the storage's
        guard against other processes (raises StaleStateError when that times out). Without
        ``guarded`` only the asyncio lock: for a change committed with ``update(context=...)``,
        which the storage refuses while another process holds the guard.

        A session's lock exists only while some call holds or waits for it (it is counted),
        so the host keeps no per-session lock once its calls are done."""
        entry = self._locks.get(session_id)
        if entry is None:
            entry = self._locks[session_id] = _LockEntry()
        entry.users += 1
        try:
            async with entry.lock:
                if not guarded:
                    yield
                else:
                    async with self._guard(session_id):
                        yield
        finally:
            entry.users -= 1
            if entry.users == 0 and self._locks.get(session_id) is entry:
                del self._locks[session_id]

    def _guard(self, session_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """The storage's guard of a session against other processes (``Storage.session_guard``)."""
        guard = getattr(self.storage, "session_guard", None)
        return contextlib.nullcontext() if guard is None else guard(session_id)

    async def _find(
        self, channel_id: int, session_id: int | None = None, *, readable: bool = False
    ) -> SessionRecord:
        """The open session of the channel (or ``session_id``, which must be in the
        channel); with ``readable`` the channel's latest closed one when none is open."""
        if session_id is not None:
            try:
                rec = await self.storage.get_session(session_id)
            except UnknownSessionError:
                rec = None
            if rec is None or rec.channel_id != channel_id:
                raise NoSessionError(f"There is no game #{session_id} in this channel.")
            return rec
        rec = await self.storage.open_session(channel_id)
        if rec is None and readable:
            recent = await self.storage.sessions_in_channel(channel_id, limit=1)
            rec = recent[0] if recent else None
        if rec is None:
            raise NoSessionError("There is no game in this channel; start one with /game new.")
        return rec

    async def _state(self, game: Game, rec: SessionRecord) -> Any:
        """The current state of a started session (cached by version).

        Raises
        ------
        SuspendedError
            The session is suspended, or its log or snapshot does not load and it was saved
            under another ``rules_version`` than the game's: an active one is suspended now
            (``_suspend``); a finished or abandoned one is only reported.
        GameFaultError
            The log does not load under the rules it was saved under (an incident).
        GameError
            A logged action is refused by the rules it was saved under (as stored)."""
        if rec.suspended is not None and rec.status == "active":
            raise SuspendedError(self._suspended_text(rec))
        hit = self._cache.get(rec.id)
        if hit is not None and hit[0] == rec.version:
            self._cache.move_to_end(rec.id)
            return hit[1]
        try:
            snap, rows = await self._log_at(rec, rec.seq)
        except GameError:
            raise
        except Exception as e:
            raise await self._fault(rec, None, "loading the game", e) from None
        try:
            state = self._replayed(game, rec, snap, rows)
        except Exception as e:
            if rec.rules_version != game.rules_version:
                if rec.status == "active":
                    raise await self._suspend(game, rec, e) from None
                raise SuspendedError(self._suspended_text(rec)) from None
            if isinstance(e, GameError):
                raise
            raise await self._fault(rec, None, "loading the game", e) from None
        self._remember(rec, state)
        return state

    async def _game_failure(self, game: Game, rec: SessionRecord, what: str, error: BaseException) -> GameError:
        """The error to raise when the game's code failed on ``what`` for ``rec``: a session saved
        under another version of the rules is suspended (``_suspend``), any other failure is an
        incident (``_fault``)."""
        if rec.rules_version != game.rules_version:
            return await self._suspend(game, rec, error)
        return await self._fault(rec, None, what, error)

    async def _suspend(self, game: Game, rec: SessionRecord, error: BaseException) -> SuspendedError:
        """Mark active session ``rec``, saved under another version of its game's rules, as
        suspended because its log or snapshot does not load (``error``): its deadlines stop
        and nothing is asked of anyone (``SessionRecord.suspended``, not yet ``told``: the next
        ``tick`` tells its channel). Returns the error to raise to the caller."""
        why = f"{type(error).__name__}: {short_error(error)}"
        log.warning("game #%s (%s) suspended: saved under rules version %s, this bot plays %s; %s",
                    rec.id, rec.game_id, rec.rules_version, game.rules_version, why)
        mark = {"at": self.clock(), "rules_version": rec.rules_version, "plays": game.rules_version,
                "why": why, "told": False}
        self._forget(rec.id)
        try:
            rec = await self._commit(rec, SessionUpdate(suspended=mark, deadline=None, wait_deadline=None,
                                                        pending_undo=None))
        except Exception:
            log.warning("could not mark game #%s as suspended", rec.id, exc_info=True)
        else:
            self._untold.add(rec.id)
        return SuspendedError(self._suspended_text(rec))

    @staticmethod
    def _suspended_text(rec: SessionRecord) -> str:
        """What every command on a game saved under other rules answers: why it cannot go on,
        where its log can still be read, and how it is ended (``rules_note`` says which
        versions)."""
        game = get_game(rec.game_id)
        note = rules_note(game, rec.rules_version)
        if rec.status != "active":
            return (f"Game #{rec.id} was played under {note} and cannot be shown by this version. "
                    f"Its log is kept: `tabula verify {rec.id}` and its replay page show it.")
        return (f"Game #{rec.id} was saved under {note} and cannot be continued. Its log is kept: once "
                f"it has ended, `tabula verify {rec.id}` and its replay page show it. Its creator or a "
                f"moderator can end it with /game abandon (from another channel of the server: "
                f"/game abandon game:{rec.id}).")

    async def _state_at(self, game: Game, rec: SessionRecord, seq: int) -> Any:
        """The session's state after action ``seq``: ``_log_at`` then ``_replayed``."""
        snap, rows = await self._log_at(rec, seq)
        return self._replayed(game, rec, snap, rows)

    async def _log_at(self, rec: SessionRecord, seq: int) -> tuple[tuple[int, dict[str, Any]] | None, list[Any]]:
        """What rebuilds the state after action ``seq`` as stored: the newest snapshot at or
        before it ((seq, state JSON), None when there is none) and the log rows after it."""
        snap = await self.storage.latest_snapshot(rec.id, seq)
        rows = await self.storage.actions(rec.id, after=0 if snap is None else snap[0], through=seq)
        return snap, rows

    @staticmethod
    def _replayed(game: Game, rec: SessionRecord, snap: tuple[int, dict[str, Any]] | None, rows: list[Any]) -> Any:
        """The state ``snap`` and ``rows`` (``_log_at``) give under the rules ``game`` plays;
        raises what the game's code raises (a ValidationError, a GameError...) when they do not
        load under them."""
        state = (start(game, seats_of(rec), options_of(game, rec), rec.seed).state if snap is None
                 else game.state_from_json(snap[1]))
        return replay_rows(game, state, rows, rec.seed)

    def _known_record(self, session_id: int) -> SessionRecord | None:
        """The session as this process last stored or read it, when its state at that version
        is cached (nothing to read to show it); else None. Another process may have moved the
        game on since: what it answers changes nothing, or is judged again from a read."""
        rec = self._latest.get(session_id)
        hit = self._cache.get(session_id)
        return rec if rec is not None and hit is not None and hit[0] == rec.version else None

    def _known_open(self, channel_id: int, session_id: int | None = None) -> SessionRecord | None:
        """``_known_record`` of the channel's open game (or of ``session_id``, when it is played
        in the channel), else None."""
        sid = session_id if session_id is not None else self._by_channel.get(channel_id)
        rec = self._known_record(sid) if sid is not None else None
        if rec is None or rec.channel_id != channel_id or (session_id is None and not rec.is_open):
            return None
        return rec

    async def channel_of(self, session_id: int) -> int | None:
        """The channel (or thread) the session is played in, None when there is no such session.
        A session never changes channel: what this process knows of it answers without a read."""
        rec = self._latest.get(session_id)
        if rec is not None:
            return rec.channel_id
        try:
            return (await self.storage.get_session(session_id)).channel_id
        except UnknownSessionError:
            return None

    def _remember(self, rec: SessionRecord, state: Any) -> None:
        self._cache[rec.id] = (rec.version, state)
        self._cache.move_to_end(rec.id)
        self._latest[rec.id] = rec
        self._by_channel[rec.channel_id] = rec.id
        while len(self._cache) > self.settings.cache_size:
            self._drop_known(self._cache.popitem(last=False)[0])

    def _forget(self, session_id: int) -> None:
        self._cache.pop(session_id, None)
        self._drop_known(session_id)

    def _drop_known(self, session_id: int) -> None:
        rec = self._latest.pop(session_id, None)
        if rec is not None and self._by_channel.get(rec.channel_id) == session_id:
            del self._by_channel[rec.channel_id]
        self._commits.pop(session_id, None)
        self._contexts.pop(session_id, None)

    def _drop(self, session_id: int) -> None:
        """Free what the host keeps for a session that ended or was orphaned (its cached
        state; its lock goes by itself once no call uses it)."""
        self._forget(session_id)

    async def _commit(self, rec: SessionRecord, change: SessionUpdate, context: str | None = None) -> SessionRecord:
        try:
            done = await self.storage.update(rec.id, rec.version, change, self.clock(), context=context)
        except StaleStateError:
            self._forget(rec.id)
            raise
        self._commits[rec.id] = self._commits.get(rec.id, 0) + 1
        if done.status == "finished" and rec.status != "finished":
            await self._record_result(done)
        return done

    @staticmethod
    def _require_seat(rec: SessionRecord, user_id: int) -> SeatRecord:
        seat = rec.seat_of(user_id)
        if seat is None:
            raise NotSeatedError("You have no seat in this game; only seated players can do that.")
        return seat

    def _require_manager(self, rec: SessionRecord, user_id: int, is_moderator: bool, what: str) -> None:
        if user_id != rec.created_by and not is_moderator:
            raise PermissionDeniedError(
                f"Only the game's creator ({self.names.user(rec.created_by)}) or a moderator can {what}."
            )

    @classmethod
    def _require_present(cls, rec: SessionRecord) -> None:
        """Raise OrphanedError for an open session whose channel or server is gone,
        SuspendedError for an active one saved under rules that no longer load."""
        if rec.status == "active" and rec.suspended is not None:
            raise SuspendedError(cls._suspended_text(rec))
        if rec.is_open and rec.orphaned is not None:
            raise OrphanedError(
                f"Game #{rec.id} is orphaned ({rec.orphaned.get('why', 'its channel is gone')}): it takes no more "
                f"actions and nothing resumes it by itself. A moderator can end it with /game abandon "
                f"game:{rec.id}, or take it up again in its channel with /game resume.")

    @classmethod
    def _require_lobby(cls, rec: SessionRecord, what: str) -> None:
        cls._require_present(rec)
        if rec.status == "active":
            raise LobbyError(f"The game has already started; you can no longer {what}.")
        if rec.status != "lobby":
            raise GameOverError(f"This game is {rec.status}; you can no longer {what}.")

    @classmethod
    def _require_active(cls, rec: SessionRecord) -> None:
        cls._require_present(rec)
        if rec.status == "lobby":
            raise LobbyError("The game has not started yet; the creator starts it with /game start.")
        if rec.status != "active":
            raise GameOverError(f"This game is {rec.status}: it accepts no more actions, but you can "
                                "still read its log.")

    async def _timing(self, rec: SessionRecord, game: Game, state: Any,
                      guild: Mapping[str, Any] | None = None) -> tuple[float, float]:
        """(response window, wait) lengths in seconds for a change ending in ``state``:
        the guild's settings (``guild`` when already read) or the host defaults."""
        return await self._window_seconds(rec, game, state, guild), await self._wait_seconds(rec, guild)

    async def _guild_settings(self, rec: SessionRecord, guild: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """The session's server settings: ``guild`` when already read, else from storage."""
        if guild is not None:
            return guild
        return await self.storage.get_guild_settings(rec.guild_id) if rec.guild_id is not None else {}

    async def _wait_seconds(self, rec: SessionRecord, guild: Mapping[str, Any] | None = None) -> float:
        """How long the host waits for a human seat's decision (a turn or a secret choice)
        before an AI answers for it (seconds): the guild's ``wait_seconds`` or the default."""
        if rec.guild_id is not None:
            custom = (await self._guild_settings(rec, guild)).get("wait_seconds")
            if isinstance(custom, int | float) and custom > 0:
                return float(custom)
        return self.settings.wait_seconds

    async def _window_seconds(self, rec: SessionRecord, game: Game, state: Any,
                              guild: Mapping[str, Any] | None = None) -> float:
        """How long a response window opened now stays open (seconds): the guild's
        setting or the host default. Reads nothing when no window is open."""
        if not any(p.kind == "respond" for p in game.to_act(state).values()):
            return self.settings.respond_seconds
        if rec.guild_id is not None:
            custom = (await self._guild_settings(rec, guild)).get("respond_seconds")
            if isinstance(custom, int | float) and custom > 0:
                return float(custom)
        return self.settings.respond_seconds

    async def _find_anywhere(self, channel_id: int, session_id: int | None, guild_id: int | None) -> SessionRecord:
        """``_find``, or, for a ``session_id`` of another channel, that session when it belongs to
        ``guild_id`` (a server's game named from any of its channels)."""
        if session_id is None or guild_id is None:
            return await self._find(channel_id, session_id)
        try:
            rec = await self.storage.get_session(session_id)
        except UnknownSessionError:
            rec = None
        if rec is None or rec.guild_id != guild_id:
            raise NoSessionError(f"There is no game #{session_id} in this server.")
        return rec
