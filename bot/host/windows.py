"""Response windows and wait deadlines: ``tick`` closes every wait whose deadline has
passed (the game's pass for a window's silent seats, an AI answer for a human waited on
too long, then the AI seats), so every wait ends (trust invariant 6). Mixed into
``bot.host.service.Host``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.core import Game, Prompt, Seat, StaleStateError, get_game
from games.core.agents import make_agent
from storage import SessionRecord, SessionUpdate

from .common import _Applied, _AutoPass, carried, log
from .errors import GameFaultError, SuspendedError
from .replies import Reply


class WindowsMixin:
    """Closing response windows and waits past their deadlines."""

    async def tick(self, now: float | None = None, *, owns: Callable[[int | None], bool] | None = None) -> list[Reply]:
        """Close every wait whose deadline has passed. A response window: apply the game's
        pass (the legal action whose kind is ``"pass"``, or whose notation is ``pass``) for
        each human seat still asked to respond. A turn or a secret choice waited on past
        the wait deadline: a heuristic AI answers that one decision for the seat (the seat
        stays its player's, whose next decision waits for them again). Then AI seats play.
        Returns one reply per session changed, to post in its channel.

        The first call of a process first loads every active session saved under another
        version of its game's rules (``SessionRecord.rules_version``): one whose log no longer
        loads is suspended. Each call then returns, once per suspended session, the message
        telling its channel (``_tell_suspended``).

        Orphaned and suspended sessions and sessions stopped by an incident are skipped. An exception
        from a game's code while closing one session is logged with an incident id, marks
        that session as needing attention (the reply tells the table) and does not stop the
        others.

        ``owns`` (a guild id, None for DMs -> bool) limits the pass to the sessions of this
        process's shards. Several processes may tick at once: each window is closed under the
        session's guard after re-reading its deadline, so exactly one of them closes it."""
        now = self.clock() if now is None else now
        if not self._rules_checked:
            await self._check_rules_versions(owns)
            self._rules_checked = True
        replies = await self._tell_suspended(owns)
        if not self._deadlines_checked:
            await self._give_waits_a_deadline(now, owns)
            self._deadlines_checked = True
        for sid in await self.storage.due_sessions(now):
            try:
                if owns is not None and not owns((await self.storage.get_session(sid)).guild_id):
                    continue
                reply = await self._close_window(sid, now)
            except StaleStateError:
                continue  # someone acted meanwhile; the next tick looks again
            except GameFaultError as e:
                reply = await self._fault_reply(sid, e)
            except Exception:
                log.exception("closing the deadlines of game #%s failed", sid)
                continue
            if reply is not None:
                replies.append(reply)
        return replies

    async def _give_waits_a_deadline(self, now: float, owns: Callable[[int | None], bool] | None) -> None:
        """Once per process: a game stored before waits had deadlines (or by an older version)
        that waits on a human seat without one gets one from now."""
        for rec in await self.storage.sessions_with_status("active"):
            if (rec.orphaned is not None or rec.suspended is not None or rec.wait_deadline is not None
                    or (owns and not owns(rec.guild_id))):
                continue
            if not any(s.user_id is not None and s.seat in rec.to_act for s in rec.seats):
                continue
            try:
                async with self._lock(rec.id):
                    fresh = await self.storage.get_session(rec.id)
                    if fresh.wait_deadline is None and fresh.status == "active" and fresh.suspended is None:
                        await self._commit(fresh, SessionUpdate(wait_deadline=now + await self._wait_seconds(fresh)))
            except StaleStateError:
                continue

    async def _check_rules_versions(self, owns: Callable[[int | None], bool] | None) -> None:
        """Once per process: load every active session (of this process's shards) saved under
        another version of its game's rules, so that one whose log no longer loads is suspended
        now (``_state``), before any reminder or deadline; and note the suspended sessions whose
        channel was not told yet (``_tell_suspended`` tells them). A session that loads plays on."""
        for rec in await self.storage.sessions_with_status("active"):
            if rec.orphaned is not None or (owns and not owns(rec.guild_id)):
                continue
            if rec.suspended is not None:
                if not rec.suspended.get("told"):
                    self._untold.add(rec.id)
                continue
            try:
                game = get_game(rec.game_id)
                if rec.rules_version == game.rules_version:
                    continue
                async with self._lock(rec.id):
                    await self._state(game, await self.storage.get_session(rec.id))
            except SuspendedError:
                continue  # _suspend noted it
            except StaleStateError:
                continue  # someone acted meanwhile: it loaded for them
            except Exception:
                log.exception("loading game #%s, saved under rules version %s, failed", rec.id, rec.rules_version)

    async def _tell_suspended(self, owns: Callable[[int | None], bool] | None) -> list[Reply]:
        """The message for the channel of each session suspended since the last call (and, on
        a process's first call, of each one suspended before whose channel was not told), once:
        the session's ``suspended`` mark records ``told`` under the session's guard, so of
        several processes one tells it."""
        replies = []
        for sid in sorted(self._untold):
            self._untold.discard(sid)
            try:
                async with self._lock(sid):
                    rec = await self.storage.get_session(sid)
                    if (rec.status != "active" or rec.suspended is None or rec.suspended.get("told")
                            or (owns and not owns(rec.guild_id))):
                        continue
                    rec = await self._commit(rec, SessionUpdate(suspended={**rec.suspended, "told": True}))
            except StaleStateError:
                self._untold.add(sid)  # the next tick tries again
                continue
            except Exception:
                log.exception("telling the channel of suspended game #%s failed", sid)
                continue
            replies.append(Reply(text=self._suspended_text(rec), session_id=rec.id, version=rec.version,
                                 status=rec.status))
        return replies

    async def _fault_reply(self, session_id: int, error: GameFaultError) -> Reply | None:
        """What the table is told when a background step stopped their game."""
        rec = await self.storage.get_session(session_id)
        if rec.attention is None:
            return None
        return Reply(text=self._fault_line(rec.attention)[0], session_id=rec.id, version=rec.version,
                     status=rec.status)

    async def _close_window(self, session_id: int, now: float) -> Reply | None:
        async with self._lock(session_id):
            rec = await self.storage.get_session(session_id)
            window_due = rec.deadline is not None and rec.deadline <= now
            wait_due = rec.wait_deadline is not None and rec.wait_deadline <= now
            if (rec.status != "active" or rec.orphaned is not None or rec.attention is not None
                    or rec.suspended is not None or not (window_due or wait_due)):
                return None
            game = get_game(rec.game_id)
            state = await self._state(game, rec)
            try:
                before = game.to_act(state)
                applied, state, lines, fault = self._time_out(game, rec, state, before, now, window_due, wait_due,
                                                              await self._auto(rec))
                window, wait = await self._timing(rec, game, state)
                change = self._close_change(game, rec, before, state, applied, now, window, wait, fault=fault)
            except Exception as e:
                raise await self._fault(rec, None, "closing a deadline", e) from None
            if not applied and not fault:
                # nothing to answer (the seats asked are no longer humans'): new deadlines from now
                change = SessionUpdate(deadline=change.deadline if not window_due else None,
                                       wait_deadline=None if change.wait_deadline is None else now + wait)
                rec = await self._commit(rec, change)
                self._remember(rec, state)
                return None
            if change.deadline is not None and change.deadline <= now:
                change = SessionUpdate(**{**change.__dict__, "deadline": now + window})
            if change.wait_deadline is not None and change.wait_deadline <= now:
                change = SessionUpdate(**{**change.__dict__, "wait_deadline": now + wait})
            rec = await self._commit(rec, change)
            self._remember(rec, state)
        return await self._status_reply(game, rec, state, [*lines, *self._feed_rows(rec, applied),
                                                           *self._fault_line(fault)])

    def _time_out(
        self, game: Game, rec: SessionRecord, state: Any, before: Mapping[Seat, Prompt], now: float,
        window_due: bool, wait_due: bool, auto: _AutoPass | None = None,
    ) -> tuple[list[_Applied], Any, list[str], dict[str, Any] | None]:
        """The steps that close the due waits: passes for the response window, an AI answer
        for each human seat waited on past the wait deadline, then the AI seats' moves.
        Returns (steps, final state, lines for the table, fault of the AI seats or None)."""
        applied: list[_Applied] = []
        lines: list[str] = []
        seq = rec.seq
        fault: dict[str, Any] | None = None
        if window_due:
            lines.append("Time is up for responses.")
            for _ in range(self.settings.max_ai_steps):
                prompts = game.to_act(state)
                progressed = False
                for seat in sorted(s for s, p in prompts.items() if p.kind == "respond"):
                    if seat not in game.to_act(state):
                        continue
                    passing = self._pass_action(game, state, seat)
                    if passing is None:
                        log.warning("session %s: seat %s has no pass action to close the window", rec.id, seat)
                        continue
                    seq += 1
                    a = self._apply(game, rec, state, seat, passing, seq, prompts[seat],
                                    user_id=None, interaction_id=None, now=now,
                                    revealed=carried([x.row for x in applied]))
                    applied.append(a)
                    state = a.state
                    progressed = True
                ai = self._run_ai(game, rec, rec.seats, state, seq, now,
                                  revealed=carried([x.row for x in applied]), auto=auto)
                applied.extend(ai)
                if ai.fault:
                    return applied, state if not ai else ai[-1].state, lines, ai.fault
                if ai:
                    state, seq, progressed = ai[-1].state, ai[-1].row.seq, True
                if not progressed or not any(p.kind == "respond" for p in game.to_act(state).values()):
                    break
        if wait_due:
            humans = {s.seat: s for s in rec.seats if s.user_id is not None}
            waited = [s for s, p in sorted(before.items()) if p.kind != "respond" and s in humans]
            for seat in waited:
                prompts = game.to_act(state)
                if seat not in prompts or prompts[seat].kind == "respond":
                    continue
                user = humans[seat].user_id
                assert user is not None
                agent = make_agent(game, "heuristic", seed=(rec.seed + seq + 1) % (1 << 63))
                action = agent.choose(game, state, seat)
                seq += 1
                a = self._apply(game, rec, state, seat, action, seq, prompts[seat],
                                user_id=None, interaction_id=None, now=now,
                                revealed=carried([x.row for x in applied]))
                applied.append(a)
                state = a.state
                lines.append(f"Time is up for {self.names.user(user)}: an AI answered for seat {seat + 1} "
                             "this time. The seat stays theirs: their next decision waits for them "
                             "again, and they play it as usual (/play); to hand the seat to an AI for good, "
                             "/game leave.")
            ai = self._run_ai(game, rec, rec.seats, state, seq, now, revealed=carried([x.row for x in applied]),
                              auto=auto)
            applied.extend(ai)
            if ai:
                state = ai[-1].state
            fault = ai.fault
        return applied, state, lines, fault
