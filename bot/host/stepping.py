"""Applying actions and AI turns: one action to its stored row, the AI seats and the
automatic passes that follow it, and the session update that stores them.

``_apply`` applies one action (its notation, events, secrecy and whether it reveals),
``_run_ai`` plays the AI seats and the passes the host may give for humans
(``_lone_pass``, ``_standing_pass``: only when the others know them, trust invariant 3),
``_answer_and_follow`` a seat's answer and what follows, ``_close_change`` the
``SessionUpdate`` with deadlines, snapshots and outcome. A failure in the game's code
becomes an incident (``_incident``, ``_fault``). Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import secrets
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Game, IllegalActionError, Prompt, Rng, Seat, Step
from games.core.agents import make_agent
from games.core.secrets import TrackingRng, evident_reveals, perturb
from games.core.secrets import reveals as game_reveals
from games.core.secrets import seats_of as secret_seats
from storage import ActionRecord, SeatRecord, SessionRecord, SessionUpdate, UserPrefs
from storage.replay import state_json

from .common import (
    AUTO_PASS_TRIES,
    PASS_WORDS,
    _Applied,
    _AutoPass,
    _event_record,
    _notation_is_public,
    _Steps,
    carried,
    log,
)
from .errors import GameFaultError


@dataclass(frozen=True)
class _Taken:
    """An action the rules took (``SteppingMixin._take``): its notation, the generator of
    its step and the step."""

    notation: str
    rng: TrackingRng
    step: Step[Any]


class SteppingMixin:
    """Actions applied to rows, the AI seats' and automatic answers after them, and the update storing them."""

    reveals_at_commit: bool = False
    """Run the whole reveals check on every action as it is stored (the perturbations
    too), rather than only when an undo needs its verdict (``UndoMixin._verdicts``). Off:
    the tests set it to compare both ways."""

    def _apply(
        self,
        game: Game,
        rec: SessionRecord,
        state: Any,
        seat: Seat,
        action: Any,
        seq: int,
        prompt: Prompt,
        *,
        user_id: int | None,
        interaction_id: str | None,
        now: float,
        revealed: bool | None = False,
    ) -> _Applied:
        """Apply one action: its row (not stored yet) and the state after it.

        ``revealed`` (``common.carried`` of the earlier steps of the same operation: the
        answer these steps follow, or one of them): True when one of them revealed; this
        step is then counted as revealing without the check, since an undo reaching it
        reaches that earlier step too and needs consent either way. None when one of them
        is not established yet: this step reveals if that one does (``reveals_chained``)."""
        return self._row_of(game, rec, state, seat, action, seq, prompt, self._take(game, rec, state, seat, action, seq),
                            user_id=user_id, interaction_id=interaction_id, now=now, revealed=revealed)

    @staticmethod
    def _take(game: Game, rec: SessionRecord, state: Any, seat: Seat, action: Any, seq: int) -> _Taken:
        """The rules' part of ``_apply``: the action's notation and the step the game returns
        (raising the game's refusal when it is not legal), with the generator it drew from."""
        notation = game.format_action(state, action)
        rng = TrackingRng(rec.seed, seq)
        return _Taken(notation, rng, game.apply(state, seat, action, rng))

    def _row_of(
        self, game: Game, rec: SessionRecord, state: Any, seat: Seat, action: Any, seq: int, prompt: Prompt,
        taken: _Taken, *, user_id: int | None, interaction_id: str | None, now: float, revealed: bool | None,
    ) -> _Applied:
        """The rest of ``_apply`` once the rules took the action (``taken``): whether it
        reveals, as far as it is evident (``games.core.secrets.evident_reveals``: it drew,
        or showed a private event to another seat, or ``revealed``), and its row. When it
        is not evident the row is stored as not established (``reveals_checked`` False,
        ``reveals`` True): the perturbations of the whole check (several applies of the
        action) run only when an undo needs the verdict (``UndoMixin._verdicts``)."""
        step = taken.step
        drew = taken.rng.draws > 0
        checked, chained = True, False
        if revealed is True or evident_reveals(seat, step, drew):
            reveals = True
        elif self.reveals_at_commit and revealed is False:
            reveals = game_reveals(game, state, seat, action, step, lambda: Rng(rec.seed, seq), drew)
        else:
            reveals, checked, chained = True, False, revealed is None
        events = tuple(step.events)
        row = ActionRecord(
            seq=seq,
            seat=seat,
            notation=taken.notation,
            action=action.model_dump(mode="json"),
            events=tuple(_event_record(e) for e in events),
            user_id=user_id,
            secret=prompt.kind == "secret" or not _notation_is_public(game, state, seat, action),
            reveals=reveals,
            interaction_id=interaction_id,
            at=now,
            reveals_checked=checked,
            reveals_chained=chained,
        )
        return _Applied(row, step.state)

    async def _auto(self, rec: SessionRecord, seats: Sequence[SeatRecord] | None = None) -> _AutoPass:
        """Who the host may pass for in ``rec`` now: the human seats whose player has
        auto-pass on (their ``/game prefs`` setting, else ``settings.auto_pass``) and the
        seats passing for the rest of a phase."""
        holders = [s for s in (seats if seats is not None else rec.seats) if s.user_id is not None]
        prefs = await self.storage.get_prefs_many(s.user_id for s in holders if s.user_id is not None)
        standing = await self.storage.standing_passes(rec.id) if rec.status == "active" else {}
        return self._auto_of(rec, prefs, standing, holders)

    def _auto_of(self, rec: SessionRecord, prefs: Mapping[int, UserPrefs], standing: Mapping[int, str],
                 seats: Sequence[SeatRecord] | None = None) -> _AutoPass:
        """``_auto`` from what is read already: the players' preferences (every seated human's)
        and the session's standing passes."""
        holders = {s.seat: s.user_id for s in (seats if seats is not None else rec.seats) if s.user_id is not None}
        lone = frozenset(seat for seat, uid in holders.items()
                         if (self.settings.auto_pass if prefs[uid].auto_pass is None else prefs[uid].auto_pass))
        if rec.status != "active":
            standing = {}
        return _AutoPass(lone, {seat: mark for seat, mark in standing.items() if seat in holders})

    def _run_ai(
        self, game: Game, rec: SessionRecord, seats: Sequence[SeatRecord], state: Any, seq: int, now: float,
        revealed: bool | None = False, auto: _AutoPass | None = None,
    ) -> _Steps:
        """Play every AI seat the game prompts, in seat order, until a human must act or
        the game is over; a human seat the host may pass for (``auto``, from ``_auto``) is
        answered too: a lone pass, or a pass for the rest of the phase. When the game's code
        (or the agent) fails, the loop stops there,
        the failure is logged with an incident id and ``fault`` on the result says so: the
        steps before it stand, and the session is marked as needing attention."""
        out = _Steps()
        for _ in self._ai_steps(game, rec, seats, state, seq, now, out, revealed=revealed, auto=auto):
            pass
        return out

    def _ai_steps(
        self, game: Game, rec: SessionRecord, seats: Sequence[SeatRecord], state: Any, seq: int, now: float,
        out: _Steps, *, revealed: bool | None = False, auto: _AutoPass | None = None,
    ) -> Iterator[_Applied]:
        """``_run_ai`` one step at a time: each step is appended to ``out`` (and its fault
        set there), then yielded."""
        auto = auto if auto is not None else _AutoPass()
        for _ in range(self.settings.max_ai_steps):
            seat: Seat | None = None
            try:
                if game.outcome(state) is not None:
                    break
                prompts = game.to_act(state)
                ai = [s for s in sorted(prompts) if s < len(seats) and seats[s].is_ai]
                how = "lone"
                lone = (None if ai or not auto.lone
                        else self._lone_pass(game, state, {s: p for s, p in prompts.items() if s in auto.lone},
                                             seats, rec.seed + seq))
                if not ai and lone is None and auto.standing:
                    how = "phase"
                    lone = self._standing_pass(game, state, prompts, seats, auto.standing, rec.seed + seq)
                if not ai and lone is None:
                    break
                if ai:
                    seat = ai[0]
                    agent = make_agent(game, seats[seat].ai or "heuristic", seed=(rec.seed + seq + 1) % (1 << 63))
                    action = agent.choose(game, state, seat)
                    applied = self._apply(game, rec, state, seat, action, seq + 1, prompts[seat],
                                          user_id=None, interaction_id=None, now=now, revealed=revealed)
                else:
                    assert lone is not None
                    seat, action = lone
                    applied = self._apply(game, rec, state, seat, action, seq + 1, prompts[seat],
                                          user_id=seats[seat].user_id, interaction_id=None, now=now,
                                          revealed=revealed)
                    applied = _Applied(applied.row, applied.state, auto=how)
                revealed = carried([applied.row], revealed)
            except Exception as e:
                what = f"the AI's move for seat {seat + 1}" if seat is not None else "the rules after a move"
                out.fault = self._incident(rec, seat, what, e, now)
                break
            seq += 1
            out.append(applied)
            state = applied.state
            yield applied

    @staticmethod
    def _lone_pass(game: Game, state: Any, prompts: Mapping[Seat, Prompt],
                   seats: Sequence[SeatRecord], salt: int) -> tuple[Seat, Any] | None:
        """A human seat asked now whose only legal answer is a pass (``pass``, ``done``)
        whatever it holds, with that action; None when there is none.

        Answering at once tells the others that the seat had nothing else to play, so it
        is done only when they know it already (trust invariant 3, prompts never betray
        hands): the seat's hidden information is drawn anew (``perturb_hidden`` keeping
        what every other seat sees, ``AUTO_PASS_TRIES`` times, seeded by ``salt``) and the
        lone pass must stay its only answer in each: a sampled check, as ``secrets`` does
        for reveals."""
        for seat in sorted(prompts):
            if seat >= len(seats) or seats[seat].user_id is None:
                continue
            legal = list(itertools.islice(game.legal_actions(state, seat), 2))
            if len(legal) != 1 or game.format_action(state, legal[0]).strip().lower() not in PASS_WORDS:
                continue
            others = frozenset(s for s in secret_seats(game, state) if s != seat)
            rand = random.Random(f"auto-pass {salt} {seat}")
            public = True
            for _ in range(AUTO_PASS_TRIES):
                other = perturb(game, state, others, rand)
                if list(itertools.islice(game.legal_actions(other, seat), 2)) != legal:
                    public = False
                    break
            if public:
                return seat, legal[0]
        return None

    @classmethod
    def _standing_pass(cls, game: Game, state: Any, prompts: Mapping[Seat, Prompt], seats: Sequence[SeatRecord],
                       standing: Mapping[Seat, str], salt: int) -> tuple[Seat, Any] | None:
        """A human seat asked now that passes for the rest of the phase it is still in
        (``standing``: seat -> ``Game.phase_mark``), with its pass; None when there is none.

        Only a pass the others know to be legal is given (trust invariant 3): the seat's
        hidden information is drawn anew as for ``_lone_pass`` and the pass must be legal
        in each, so whether the host answers never depends on what the seat holds. Else
        the seat is asked as usual."""
        mark: str | None = None
        for seat in sorted(prompts):
            if seat not in standing or seat >= len(seats) or seats[seat].user_id is None:
                continue
            mark = game.phase_mark(state) if mark is None else mark
            if standing[seat] != mark:
                continue
            passing = cls._pass_action(game, state, seat)
            if passing is None:
                continue
            others = frozenset(s for s in secret_seats(game, state) if s != seat)
            rand = random.Random(f"phase-pass {salt} {seat}")
            if all(passing in list(game.legal_actions(perturb(game, state, others, rand), seat))
                   for _ in range(AUTO_PASS_TRIES)):
                return seat, passing
        return None

    def _incident(self, rec: SessionRecord, seat: Seat | None, what: str, error: BaseException,
                  now: float | None = None) -> dict[str, Any]:
        """Log ``error`` (raised by the game's code) with its traceback under a new incident
        id; returns the attention record to store on the session."""
        incident = secrets.token_hex(4)
        log.error("incident %s: %s in %s of game #%s (%s)", incident, type(error).__name__, what, rec.id,
                  rec.game_id, exc_info=error)
        return {"incident": incident, "seat": seat, "at": self.clock() if now is None else now, "what": what}

    async def _fault(self, rec: SessionRecord, seat: Seat | None, what: str, error: BaseException) -> GameFaultError:
        """Log the failure under an incident id, mark the session as needing attention
        (nothing else is stored) and return the error to raise to the player."""
        fault = self._incident(rec, seat, what, error)
        self._forget(rec.id)
        try:
            await self._commit(rec, SessionUpdate(attention=fault))
        except Exception:
            log.warning("could not mark game #%s as needing attention", rec.id, exc_info=True)
        return GameFaultError(
            f"Sorry, the game's rules failed on {what} (incident `{fault['incident']}`); nothing was changed. "
            f"The game is marked as needing attention: {self._repair_hint()}", fault["incident"])

    def _close_change(
        self,
        game: Game,
        rec: SessionRecord,
        before: Mapping[Seat, Prompt],
        state: Any,
        applied: Sequence[_Applied],
        now: float,
        window: float,
        wait: float,
        *,
        fault: dict[str, Any] | None = None,
        **extra: Any,
    ) -> SessionUpdate:
        """The SessionUpdate that stores ``applied`` rows ending in ``state``: to_act,
        deadline, snapshots every N actions, and the outcome when the game ended.
        ``fault`` marks the session as needing attention (None clears the mark).

        The wait deadline (``wait`` seconds) covers every human seat asked for a turn or a
        secret choice; it is kept while the same seats are still waited on and none of them
        has answered, and starts again when a seat is newly asked or has just answered."""
        prompts = game.to_act(state)
        responders = {s for s, p in prompts.items() if p.kind == "respond"}
        old = {s for s, p in before.items() if p.kind == "respond"}
        if not responders:
            deadline = None
        elif responders <= old and rec.deadline is not None:
            deadline = rec.deadline
        else:
            deadline = now + window
        humans = {s.seat for s in extra.get("seats", rec.seats) if s.user_id is not None}
        waited = {s for s, p in prompts.items() if p.kind != "respond" and s in humans}
        waited_before = {s for s, p in before.items() if p.kind != "respond" and s in humans}
        answered = {a.row.seat for a in applied}
        if not waited:
            wait_deadline = None
        elif rec.wait_deadline is not None and waited <= waited_before - answered:
            wait_deadline = rec.wait_deadline
        else:
            wait_deadline = now + wait
        every = self.settings.snapshot_every
        snaps = [(a.row.seq, state_json(a.state)) for a in applied if a.row.seq % every == 0]
        change: dict[str, Any] = dict(
            append=tuple(a.row for a in applied),
            snapshots=tuple(snaps),
            to_act=tuple(sorted(prompts)),
            deadline=deadline,
            wait_deadline=wait_deadline,
            pending_undo=None,
            attention=fault,
        )
        change.update(extra)
        outcome = game.outcome(state)
        if outcome is not None:
            change.update(status="finished", outcome=outcome.model_dump(mode="json"), ended_at=now,
                          deadline=None, wait_deadline=None)
        return SessionUpdate(**change)

    async def _answer_and_follow(
        self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt], seat: Seat, action: Any,
        *, user_id: int | None, interaction_id: str | None, now: float, times: int = 1,
        auto: _AutoPass | None = None,
        guild: Mapping[str, Any] | None = None,
        accepted: Callable[[], Awaitable[None]] | None = None,
    ) -> tuple[list[_Applied], Any, SessionUpdate, Any]:
        """Apply ``seat``'s ``action`` (``times`` times in a row: "place Italia ×3", each time
        as the seat's answer to the same question again, else IllegalActionError) and the AI
        moves that follow it: (the steps applied, the final state, the change to commit, the
        fault of an AI move that failed, if any). ``auto``: who the host may pass for
        afterwards (default: as ``_auto`` reads it); ``guild`` the server's settings when
        already read. Nothing is stored yet.

        ``accepted`` is awaited once the rules took the action (every repetition), before the
        slow part: whether it reveals, the AI moves, what is asked next. The event loop is
        given back between those steps, so that other interactions' first responses do not
        wait for all of them."""
        auto = auto if auto is not None else await self._auto(rec)
        taken = [(state, prompts[seat], rec.seq + 1, self._take(game, rec, state, seat, action, rec.seq + 1))]
        shape = re.sub(r"\d+", "#", prompts[seat].text)
        for _ in range(times - 1):
            after = taken[-1][3].step.state
            asked = game.to_act(after)
            if (set(asked) != {seat} or re.sub(r"\d+", "#", asked[seat].text) != shape
                    or action not in list(game.legal_actions(after, seat))):
                raise IllegalActionError(
                    f"{game.format_action(state, action)} can be played {len(taken)} time(s) in a row "
                    f"here, not {times}; nothing was applied.")
            seq = taken[-1][2] + 1
            taken.append((after, asked[seat], seq, self._take(game, rec, after, seat, action, seq)))
        if accepted is not None:
            await accepted()
        mine: list[_Applied] = []
        for before, prompt, seq, took in taken:
            await asyncio.sleep(0)
            mine.append(self._row_of(game, rec, before, seat, action, seq, prompt, took, user_id=user_id,
                                     interaction_id=interaction_id if not mine else None, now=now,
                                     revealed=carried([x.row for x in mine])))
        ai = _Steps()
        for _ in self._ai_steps(game, rec, rec.seats, mine[-1].state, mine[-1].row.seq, now, ai,
                                revealed=carried([x.row for x in mine]), auto=auto):
            await asyncio.sleep(0)
        applied = [*mine, *ai]
        final = applied[-1].state
        change = self._close_change(game, rec, prompts, final, applied, now,
                                    *await self._timing(rec, game, final, guild), fault=ai.fault)
        return applied, final, change, ai.fault

    @staticmethod
    def _pass_action(game: Game, state: Any, seat: Seat) -> Any:
        fallback = None
        for a in game.legal_actions(state, seat):
            if getattr(a, "kind", None) == "pass":
                return a
            if fallback is None and game.format_action(state, a).strip().lower() == "pass":
                fallback = a
        return fallback
