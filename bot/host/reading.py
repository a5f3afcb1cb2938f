"""Reading a game: its view and the caller's hand, the help for a decision, completion of
typed notation, log pages filtered per viewer, and one's own games. Changes nothing.
Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

import math
from typing import Any

from games.core import GameError, get_game
from games.core.explain import explain_decision
from games.core.refusal import RULES_NOW
from games.core.rulebook import step_text
from storage import SessionRecord

from . import suggest
from .common import MAX_CHOICES, log
from .errors import LobbyError, SuspendedError
from .replies import GameSummary, ImageRequest, LogEntry, PrivatePart, Reply
from .voice import notation_for


class ReadingMixin:
    """Reading a game: views, hands, help, completion, logs and one's own games."""

    async def view(self, channel_id: int, user_id: int | None = None, *, session_id: int | None = None) -> Reply:
        """The game's public state (embed, board image request, who must act), plus the
        caller's private view when seated. Works on finished games too. A game saved under
        rules that no longer load (suspended) is shown without its board: its seats and the
        message saying why it cannot go on and how it is ended.

        Raises NoSessionError."""
        rec = await self._find(channel_id, session_id, readable=True)
        game = get_game(rec.game_id)
        if rec.status == "lobby" or (rec.status == "abandoned" and rec.started_at is None):
            return await self._lobby_reply(game, rec, f"{game.title}: {len(rec.seats)} seat(s) taken.")
        try:
            state = await self._state(game, rec)
        except SuspendedError as e:  # saved under other rules: the seats and why, no board
            return await self._lobby_reply(game, await self.storage.get_session(rec.id), e.message)
        reply = await self._status_reply(game, rec, state, [], notify=False)
        if user_id is None:
            return reply
        return Reply(**{**reply.__dict__, "private": tuple(reply.private_for(user_id)),
                        "notify": (), "mentions": ()})

    async def hand(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> Reply:
        """The caller's private view (hand, own hidden information) as an ephemeral reply;
        ``private[0].view`` is the game's View for the caller's seat.

        Raises NoSessionError, NotSeatedError, LobbyError (not started)."""
        rec = await self._find(channel_id, session_id, readable=True)
        game = get_game(rec.game_id)
        seat = self._require_seat(rec, user_id)
        if rec.started_at is None:
            raise LobbyError("The game has not started; there is no hand to show yet.")
        state = await self._state(game, rec)
        try:
            prompts = {p.seat: p for p in self._prompt_infos(game, rec, state)} if rec.status == "active" else {}
            prompt = prompts.get(seat.seat)
            text = f"You are asked: {self._named(rec, prompt.text)}" if prompt else "Nothing is asked of you right now."
            if prompt:
                text = "\n".join([text, *self._not_offered(game, state, seat.seat)])
            part = PrivatePart(user_id, seat.seat, text, game.view(state, seat.seat), prompt, dm=False)
        except Exception as e:
            raise await self._fault(rec, seat.seat, f"showing seat {seat.seat + 1}'s hand", e) from None
        return Reply(text=text, private=(part,), ephemeral=True, session_id=rec.id, version=rec.version,
                     status=rec.status,
                     image=ImageRequest(game.id, rec.id, rec.version, part.view, seat.seat,
                                        players=self._players(rec)),
                     game=self._game_name(rec))

    async def aid(self, channel_id: int, user_id: int, what: str, *, session_id: int | None = None) -> Reply:
        """Help with the caller's decision now, as an ephemeral reply: ``what`` "explain" gives
        the question, what the caller may do now (by command word when there are many) and the
        text of every card, nation, ability... its options name (games.core.explain), only
        from the caller's own legal actions and public prompt; "rules" quotes the sections of
        the rule text that govern the step, with their rulings (games.core.rulebook).

        Raises NoSessionError, NotSeatedError, LobbyError (not started), ValueError (``what``)."""
        if what not in ("explain", "rules"):
            raise ValueError(f"unknown aid {what!r}")
        rec = await self._find(channel_id, session_id, readable=True)
        game = get_game(rec.game_id)
        seat = self._require_seat(rec, user_id)
        if rec.started_at is None:
            raise LobbyError("The game has not started; nothing is asked yet.")
        state = await self._state(game, rec)
        try:
            prompt = game.to_act(state).get(seat.seat) if rec.status == "active" else None
            if prompt is None:
                text = "Nothing is asked of you right now."
            elif what == "explain":
                options = list(game.complete(state, seat.seat, ""))  # what the seat may type now
                text = explain_decision(prompt.text, options, game.named_by([prompt.text, *options]), game.explained)
                hint = getattr(self.names, "rules_now_hint", None)
                if hint is not None:
                    text = text.replace(RULES_NOW, hint())
            else:
                text = step_text(game, prompt.text, self._choices(game, state, seat.seat))
        except Exception as e:
            raise await self._fault(rec, seat.seat, f"explaining seat {seat.seat + 1}'s decision", e) from None
        return Reply(text=text, ephemeral=True, session_id=rec.id, version=rec.version, status=rec.status,
                     game=self._game_name(rec))

    async def complete(self, channel_id: int, user_id: int, prefix: str = "", *,
                       session_id: int | None = None, limit: int | None = MAX_CHOICES) -> list[str]:
        """Autocomplete for the action command: the user's legal actions in notation that
        start with ``prefix`` (at most ``limit``, Discord shows 25; None = all). Empty when
        the user is not seated or not asked to act; never raises for a missing game
        (autocomplete must stay quiet).

        When this process knows the game's state and that the seat is asked, that answers
        without a read (suggestions only: the action typed is judged when it is played); that
        the seat is not asked is only ever said from a read, which may show that another
        process moved the game on."""
        known = self._known_open(channel_id, session_id)
        hit = self._cache.get(known.id) if known is not None else None
        found = self._completions(known, hit[1], user_id, prefix) if known is not None and hit is not None else None
        if found is None:
            try:
                rec = await self._find(channel_id, session_id)
            except GameError:
                return []
            found = await self._completions_read(rec, user_id, prefix)
        return found if limit is None else found[:limit]

    async def _completions_read(self, rec: SessionRecord, user_id: int, prefix: str) -> list[str]:
        """``_completions`` once the state of ``rec`` is loaded; [] when the seat is not asked."""
        seat = rec.seat_of(user_id)
        if rec.status != "active" or seat is None or seat.seat not in rec.to_act:
            return []
        try:
            state = await self._state(get_game(rec.game_id), rec)
        except GameError:
            return []
        except Exception:
            log.exception("autocomplete failed in game #%s (seat %s, %r)", rec.id, seat.seat, prefix)
            return []
        return self._completions(rec, state, user_id, prefix) or []

    def _completions(self, rec: SessionRecord, state: Any, user_id: int, prefix: str) -> list[str] | None:
        """The seat's legal actions starting with ``prefix`` in ``state``, the state of ``rec``;
        None when the seat is not asked there."""
        seat = rec.seat_of(user_id)
        if rec.status != "active" or seat is None or seat.seat not in rec.to_act:
            return None
        game = get_game(rec.game_id)
        try:
            if seat.seat not in game.to_act(state):
                return None
            if suggest.TAG.search(prefix):  # a suggestion already chosen: name it in full
                action = suggest.resolve(game, state, seat.seat, prefix)
                return [game.format_action(state, action)] if action is not None else []
            return list(game.complete(state, seat.seat, prefix))
        except GameError:
            return []
        except Exception:
            log.exception("autocomplete failed in game #%s (seat %s, %r)", rec.id, seat.seat, prefix)
            return []


    async def log(self, channel_id: int, user_id: int | None, *, page: int = 1, per_page: int = 20,
                  session_id: int | None = None) -> Reply:
        """The action log as the caller may see it: events filtered by ``visible_to`` for the
        caller's seat (spectators see public events only) and secret choices hidden.
        ``page`` 1 is the most recent ``per_page`` actions, in order; ephemeral.

        Raises NoSessionError."""
        rec = await self._find(channel_id, session_id, readable=True)
        seat = rec.seat_of(user_id) if user_id is not None else None
        viewer = seat.seat if seat else None
        total = rec.seq + 1 if rec.started_at is not None else 0
        per_page = max(1, min(per_page, 100))
        pages = max(1, math.ceil(total / per_page))
        asked = page
        page = min(max(1, page), pages)
        hi = rec.seq - (page - 1) * per_page
        rows = await self.storage.actions(rec.id, after=hi - per_page, through=hi) if total else []
        entries = []
        for row in rows:
            shown = notation_for(row, viewer)
            notation = "(a secret choice)" if shown is None else shown
            lines = tuple(self._named(rec, e.text) for e in row.events if e.visible(viewer))
            entries.append(LogEntry(row.seq, row.seat, self._who(rec, row.seat), notation, lines, row.at))
        text = "\n".join(
            (f"{e.seq}. Set-up" if e.seat is None and e.notation == "setup" else f"{e.seq}. {e.who}: {e.notation}")
            + "".join(f"\n    {line}" for line in e.lines) for e in entries
        ) or "Nothing has happened yet."
        if asked != page:
            have = "there is only one page" if pages == 1 else f"pages are numbered 1 to {pages}"
            text = f"There is no page {asked}: {have}; showing page {page}.\n{text}"
        return Reply(text=f"Log, page {page}/{pages}:\n{text}", log=tuple(entries), page=page, pages=pages,
                     ephemeral=True, session_id=rec.id, version=rec.version, status=rec.status,
                     game=self._game_name(rec))

    async def my_games(self, user_id: int, *, include_closed: bool = False) -> Reply:
        """The user's games across channels, most recently active first (ephemeral)."""
        recs = await self.storage.sessions_for_user(user_id, include_closed=include_closed)
        games = []
        for rec in recs:
            seat = rec.seat_of(user_id)
            games.append(GameSummary(
                rec.id, rec.guild_id, rec.channel_id, rec.game_id, get_game(rec.game_id).title, rec.shown_status,
                seat.seat if seat else None,
                rec.status == "active" and seat is not None and seat.seat in rec.to_act, rec.updated_at))
        lines = [f"{self.names.channel(g.channel_id)}: {g.title} #{g.session_id}, {g.status}"
                 + (" — your turn!" if g.your_turn else "") for g in games]
        return Reply(text="\n".join(lines) or "You are not playing any game.", games=tuple(games), ephemeral=True)
