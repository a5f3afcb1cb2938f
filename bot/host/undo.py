"""Undo: free over one's own actions that revealed nothing (trust invariant 2), by the
consent of every other human otherwise; and ``repair`` of a game stopped by an incident
(trust invariant 7). Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from games.core import Game, GameError, GameOverError, Rng, Seat, get_game
from games.core.agents import make_agent
from games.core.errors import list_words
from games.core.secrets import TrackingRng
from games.core.secrets import reveals as game_reveals
from storage import ActionRecord, SessionRecord, SessionUpdate
from storage.replay import replay_rows

from .errors import InvalidOptionError, UndoError
from .replies import PrivatePart, Reply
from .voice import action_for, shows_notation


class UndoMixin:
    """Taking back actions, freely or by consent, and repairing a game stopped by an incident."""

    async def undo(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> Reply:
        """Undo your own last action (and the AI actions that followed it).

        Free when no other human acted since and nothing hidden or random was revealed
        (a die roll, a card drawn, any private event); otherwise this opens a request
        that every other human player must accept by calling ``undo`` too (``decline_undo``
        refuses). A pending request lapses when anyone acts.

        Raises NoSessionError, NotSeatedError, UndoError (nothing to undo; already
        agreed), GameOverError, LobbyError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            if rec.status in ("finished", "abandoned"):
                raise GameOverError(f"This game is {rec.status}; its actions can no longer be undone.")
            self._require_active(rec)
            seat = self._require_seat(rec, user_id)
            pending = rec.pending_undo if rec.pending_undo and rec.pending_undo.get("seq") == rec.seq else None
            if pending and pending["requester"] != user_id:
                if user_id not in pending["needed"]:
                    raise UndoError("Your agreement is not needed for this undo.")
                if user_id in pending["approved"]:
                    raise UndoError("You already agreed to this undo; waiting for the others.")
                approved = [*pending["approved"], user_id]
                missing = [u for u in pending["needed"] if u not in approved]
                if missing:
                    rec = await self._commit(rec, SessionUpdate(pending_undo={**pending, "approved": approved}))
                    return Reply(
                        text=f"{self.names.user(user_id)} agrees to undo. Still waiting for "
                             f"{list_words([self.names.user(u) for u in missing])}.",
                        mentions=tuple(missing), session_id=rec.id, version=rec.version, status=rec.status)
                return await self._do_undo(game, rec, pending["to"], pending["requester"], "everyone agreed")
            if pending and pending["requester"] == user_id:
                raise UndoError("You already asked to undo; waiting for the others to agree.")
            rows = await self._rows_since_last_of(rec, user_id)
            if not rows:
                raise UndoError("You have no action to undo in this game.")
            mine, later = rows[0], rows[1:]
            others = [s.user_id for s in rec.seats if s.user_id is not None and s.user_id != user_id]
            other_acted = any(r.user_id is not None and r.user_id != user_id for r in later)
            revealed = [] if other_acted else await self._verdicts(game, rec, rows, first=True)
            revealed = [r for r in revealed if r.reveals]
            if not other_acted and not revealed:
                return await self._do_undo(game, rec, mine.seq - 1, user_id, None)
            def why_for(viewer: Seat | None) -> str:
                if other_acted:
                    return "another player has acted since"
                return f"{action_for(revealed[0], viewer)} revealed hidden or random information"

            if not others:
                # nobody could agree (the other seats are AI): a roll or a draw once
                # seen stays, so nobody can re-roll a lost war
                raise UndoError(f"You cannot undo {action_for(mine, seat.seat)}: {why_for(seat.seat)}, and there "
                                "is no other player to agree to take it back.")
            why = why_for(None)
            request = {"requester": user_id, "seat": seat.seat, "to": mine.seq - 1, "seq": rec.seq,
                       "notation": mine.notation, "needed": others, "approved": [], "why": why}
            rec = await self._commit(rec, SessionUpdate(pending_undo=request))
        own = (PrivatePart(user_id, seat.seat, f"You asked to undo {action_for(mine, seat.seat)}.", dm=False),)
        return Reply(
            text=(f"{self.names.user(user_id)} asks to undo {action_for(mine, None)}. Because {why}, every other "
                  f"player must agree: {list_words([self.names.user(u) for u in others])}: {self._undo_hint()}."),
            private=own if not shows_notation(mine, None) else (),
            mentions=tuple(others), session_id=rec.id, version=rec.version, status=rec.status)

    async def decline_undo(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> Reply:
        """Refuse (or, for the requester, withdraw) a pending undo request.

        Raises NoSessionError, UndoError (no pending request, or not yours to refuse)."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            pending = rec.pending_undo if rec.pending_undo and rec.pending_undo.get("seq") == rec.seq else None
            if pending is None:
                raise UndoError("There is no undo request to refuse.")
            if user_id != pending["requester"] and user_id not in pending["needed"]:
                raise UndoError("Only the players asked may refuse this undo.")
            rec = await self._commit(rec, SessionUpdate(pending_undo=None))
            first = await self.storage.actions(rec.id, after=pending["to"], through=pending["to"] + 1)
        what = action_for(first[0], None) if first else "the last action"
        return Reply(text=f"{self.names.user(user_id)} refused the undo of {what}; the game goes on.",
                     session_id=rec.id, version=rec.version, status=rec.status)

    async def _rows_since_last_of(self, rec: SessionRecord, user_id: int) -> list[ActionRecord]:
        """Rows from the user's last action to the end, or [] when the user never acted."""
        hi = rec.seq
        collected: list[ActionRecord] = []
        while hi > 0:
            lo = max(0, hi - 100)
            chunk = await self.storage.actions(rec.id, after=lo, through=hi)
            collected = chunk + collected
            for i in range(len(chunk) - 1, -1, -1):
                if chunk[i].user_id == user_id:
                    return collected[i:]
            hi = lo
        return []

    async def _verdicts(self, game: Game, rec: SessionRecord, rows: list[ActionRecord], *,
                        first: bool = False) -> list[ActionRecord]:
        """``rows`` (consecutive rows of ``rec``'s log, in order) with their reveals verdicts
        established; with ``first``, only up to the first one that reveals.

        A row stored without its verdict (``reveals_checked`` False: nothing evident when it
        was stored) is established as it would have been then: the state before it is
        replayed from the log (once, then forward row by row) and the game's ``reveals`` is
        asked with the step's own generator, ``Rng(seed, seq)``; a row chained to the row
        before (``reveals_chained``: the same operation) reveals when that one does, which
        may mean reading rows before ``rows``. Deterministic: the verdict is the one the
        check gives at commit. Raises what ``_do_undo`` raises when the log does not load."""
        head: list[ActionRecord] = []
        while rows and (head or rows)[0].reveals_chained and (head or rows)[0].seq > 1:
            seq = (head or rows)[0].seq
            chunk = await self.storage.actions(rec.id, after=max(0, seq - 100), through=seq - 1)
            if not chunk:
                break
            start = next((i for i in range(len(chunk) - 1, -1, -1) if not chunk[i].reveals_chained), None)
            head = chunk[start or 0:] + head
            if start is not None:
                break
        out: list[ActionRecord] = []
        cursor: tuple[int, Any] | None = None  # (seq, the state after it), replayed as far as needed
        previous = False
        logged = [*head, *rows]
        try:
            for i, r in enumerate(logged):
                if r.reveals_checked:
                    verdict = r.reveals
                elif r.reveals_chained and previous:
                    verdict = True
                else:
                    await asyncio.sleep(0)
                    if cursor is None:
                        state = await self._state_at(game, rec, r.seq - 1)
                    else:
                        state = replay_rows(game, cursor[1], [x for x in logged if cursor[0] < x.seq < r.seq],
                                            rec.seed)
                    assert r.seat is not None and r.action is not None
                    action = game.action_from_json(r.action)
                    rng = TrackingRng(rec.seed, r.seq)
                    step = game.apply(state, r.seat, action, rng)
                    verdict = game_reveals(game, state, r.seat, action, step, lambda r=r: Rng(rec.seed, r.seq),
                                           rng.draws > 0)
                    cursor = (r.seq, step.state)
                previous = verdict
                if i >= len(head):
                    out.append(r if r.reveals_checked else
                               dataclasses.replace(r, reveals=verdict, reveals_checked=True, reveals_chained=False))
                    if first and verdict:
                        break
        except GameError:
            raise
        except Exception as e:
            raise await self._game_failure(game, rec, "checking what an undo would take back", e) from None
        return out

    async def _do_undo(self, game: Game, rec: SessionRecord, to: int, requester: int, why: str | None) -> Reply:
        dropped = await self.storage.actions(rec.id, after=to)
        now = self.clock()
        try:
            state = await self._state_at(game, rec, to)
            ai = self._run_ai(game, rec, rec.seats, state, to, now, auto=await self._auto(rec))
            final = ai[-1].state if ai else state
            change = self._close_change(game, rec, {}, final, ai, now, *await self._timing(rec, game, final),
                                        fault=ai.fault, truncate_after=to)
        except GameError:
            raise
        except Exception as e:
            raise await self._game_failure(game, rec, "taking back an action", e) from None
        rec = await self._commit(rec, change)
        self._remember(rec, final)
        extra = f" and {len(dropped) - 1} later action(s)" if len(dropped) > 1 else ""
        because = f" ({why})" if why else ""
        lines: list[str | tuple[int, str]] = []
        if dropped:
            lines.append(f"{self.names.user(requester)} undid {action_for(dropped[0], None)}{extra}{because}.")
            if not shows_notation(dropped[0], None):
                lines.append((requester, f"You undid {action_for(dropped[0], dropped[0].seat)}."))
        else:
            lines.append(f"{self.names.user(requester)} undid nothing{because}.")
        return await self._status_reply(game, rec, final, [*lines, *self._feed_rows(rec, ai),
                                                           *self._fault_line(ai.fault)])

    async def repair(self, channel_id: int, user_id: int, how: str, *, is_moderator: bool = False,
                     session_id: int | None = None) -> Reply:
        """Get a game stopped by an incident (an exception in the game's code) going again;
        for the creator or a moderator. ``how`` is ``"undo"``: take back the last action
        (the last one a human sent, with every step after it; the last step when no human
        has acted), or ``"ai"``: a heuristic AI answers the stuck seat's decision (a random
        agent when the stuck seat is an AI seat, whose own agent failed). Either clears the
        mark unless the game fails again (a new incident).

        Raises NoSessionError, PermissionDeniedError, GameOverError, LobbyError,
        InvalidOptionError (``how``), UndoError (not stopped, nothing to take back, no
        stuck seat), GameFaultError (the repair failed too)."""
        if how not in ("undo", "ai"):
            raise InvalidOptionError(f"Unknown repair {how!r}: choose undo (take back the last action) or ai "
                                     "(an AI answers for the stuck seat).")
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_manager(rec, user_id, is_moderator, "repair the game")
            self._require_active(rec)
            if rec.attention is None:
                raise UndoError("This game is not stopped by an incident; there is nothing to repair "
                                f"(players take back their own actions with {self._command('undo')}).")
            incident = rec.attention.get("incident")
            if how == "undo":
                if rec.seq == 0:
                    raise UndoError("Nothing has been played since the set-up, so there is no action to take "
                                    "back; let an AI answer (how:ai) or abandon the game.")
                to = rec.seq - 1
                hi = rec.seq
                while hi > 0:
                    chunk = await self.storage.actions(rec.id, after=max(0, hi - 100), through=hi)
                    human = next((r for r in reversed(chunk) if r.user_id is not None), None)
                    if human is not None:
                        to = human.seq - 1
                        break
                    hi = max(0, hi - 100)
                return await self._do_undo(game, rec, to, user_id, f"to repair incident {incident}")
            seat = rec.attention.get("seat")
            state = await self._state(game, rec)
            try:
                prompts = game.to_act(state)
            except Exception as e:
                raise await self._fault(rec, seat, "reading who is asked", e) from None
            if seat is None or seat not in prompts:
                raise UndoError("The incident did not happen on one seat's decision, so no AI can answer it; "
                                "take back the last action instead (how:undo) or abandon the game.")
            now = self.clock()
            holder = rec.seats[seat] if seat < len(rec.seats) else None
            kind = "random" if holder is not None and holder.is_ai else "heuristic"
            try:
                agent = make_agent(game, kind, seed=(rec.seed + rec.seq + 1) % (1 << 63))
                action = agent.choose(game, state, seat)
                applied, final, change, fault = await self._answer_and_follow(
                    game, rec, state, prompts, seat, action, user_id=None, interaction_id=None, now=now)
            except GameError:
                raise
            except Exception as e:
                raise await self._fault(rec, seat, f"the AI's answer for seat {seat + 1}", e) from None
            rec = await self._commit(rec, change)
            self._remember(rec, final)
        head = f"{self.names.user(user_id)} let an AI answer for seat {seat + 1} to repair incident {incident}."
        return await self._status_reply(game, rec, final, [head, *self._feed_rows(rec, applied),
                                                           *self._fault_line(fault)])
