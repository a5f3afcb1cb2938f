"""Presentation of replies: who is named how (a player, an AI seat's nation), the status
embed, the outcome line, the lines of freshly applied steps for each reader (through
``voice``, trust invariant 1), the "since your last turn" digest, and the ``Reply`` after
a change with its private parts. Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game, GameError, Outcome, Seat, get_game, memo
from games.core.english import as_you
from games.core.errors import list_words
from games.core.refusal import RULES_NOW
from storage import SessionRecord, SessionUpdate, UserPrefs

from .common import DIGEST_LINES, SEAT_NUMBER, WIN_WORD, _Applied, _Known, log
from .replies import Embed, EmbedField, ImageRequest, PrivatePart, PromptInfo, Reply
from .voice import notation_for, shows_notation


class PresentationMixin:
    """How the host words its replies: names, embeds, feeds, digests and private parts."""

    def _typed(self, text: str) -> str:
        """A user's own words as others may read them (``Names.text``)."""
        shown = getattr(self.names, "text", None)
        return shown(text) if shown else text

    @staticmethod
    def _short(text: str, limit: int = 100) -> str:
        """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def _game_name(self, rec: SessionRecord) -> str:
        """The session as named in private messages: "<title> #<id> in <channel>"."""
        return f"{get_game(rec.game_id).title} #{rec.id} in {self.names.channel(rec.channel_id)}"

    async def game_name(self, session_id: int | None = None, *, channel_id: int | None = None) -> str:
        """A session as named in private messages ("Credo #4 in <#123>"): ``session_id``, or
        the game of ``channel_id`` (its open one, else its latest); "" when there is none."""
        try:
            if session_id is not None:
                return self._game_name(await self.storage.get_session(session_id))
            if channel_id is not None:
                return self._game_name(await self._find(channel_id, readable=True))
        except GameError:
            pass
        return ""

    def _who(self, rec: SessionRecord, seat: Seat | None) -> str:
        if seat is None or seat >= len(rec.seats):
            return "The host"
        s = rec.seats[seat]
        label = self._seat_label(rec, seat)
        if s.user_id is None:
            return f"{label} (AI)" if label else f"AI (seat {seat + 1})"
        name = self.names.user(s.user_id)
        return f"{label} ({name})" if label else name

    def _named(self, rec: SessionRecord, text: str) -> str:
        """An event line with each "Seat N" / "seat N" of a seated player replaced by who holds
        it (the player's name, an AI seat's nation or faction): players read names, not seat
        numbers, in agreement with a name "You" (games.core.english.as_you)."""
        def one(m: re.Match[str]) -> str:
            seat = int(m.group(1)) - 1
            if not 0 <= seat < len(rec.seats):
                return m.group(0)
            s = rec.seats[seat]
            if s.user_id is not None:
                return self.names.user(s.user_id)
            label = self._seat_label(rec, seat)
            return f"{label} (AI)" if label else m.group(0)
        return as_you(SEAT_NUMBER.sub(one, text))

    def _players(self, rec: SessionRecord) -> tuple[tuple[Seat, int | None, str], ...]:
        """(seat, user id or None for an AI seat, the seat's nation or faction or "") for a
        board image: the adapter writes each player's display name on the board."""
        return tuple((s.seat, s.user_id, self._seat_label(rec, s.seat) or "") for s in rec.seats)

    def _asked(self, rec: SessionRecord, seat: Seat, text: str) -> str:
        """``<who>: <prompt>`` for the "Now" line (``_shown``)."""
        return f"{self._who(rec, seat)}: {self._shown(rec, seat, text)}"

    def _shown(self, rec: SessionRecord, seat: Seat, text: str) -> str:
        """A prompt as shown after its seat's name: without that name repeated at its head
        ("Rome (@alice): Rome — Main Phase" reads "Rome (@alice): Main Phase"), and with
        players named instead of seat numbers."""
        label = self._seat_label(rec, seat)
        if label:
            for sep in (" — ", ": ", " - "):
                if text.startswith(label + sep) and len(text) > len(label + sep):
                    text = text[len(label + sep):]
                    break
        return self._named(rec, text)

    def _seat_label(self, rec: SessionRecord, seat: Seat) -> str | None:
        """The game's name for ``seat`` (a nation, a faction) in the latest known
        state, when the game has ``seat_name``; else None."""
        hit = self._cache.get(rec.id)
        if hit is None:
            return None
        return get_game(rec.game_id).seat_name(hit[1], seat)

    def _reworded(self, error: GameError) -> GameError:
        """``error`` (a refusal from the game) with its pointer to the step's rule text
        (``refusal.RULES_NOW``) worded for the adapter (its ``rules_now_hint``)."""
        hint = getattr(self.names, "rules_now_hint", None)
        if hint is not None and RULES_NOW in error.message:
            error.message = error.message.replace(RULES_NOW, hint())
            error.args = (error.message,)
        return error

    def _command(self, words: str) -> str:
        """How a player gives the command ``words`` ("undo") in the adapter: its optional
        ``command(words)``, else Discord's ``/game <words>``."""
        hint = getattr(self.names, "command", None)
        return hint(words) if hint else f"/game {words}"

    def _undo_hint(self) -> str:
        hint = getattr(self.names, "undo_hint", None)
        return hint() if hint else "use /game undo to agree or /game undo decline:True to refuse"

    def _repair_hint(self) -> str:
        hint = getattr(self.names, "repair_hint", None)
        return hint() if hint else ("the creator or a moderator can take back the last action with "
                                    "`/game repair how:undo`, or let an AI answer for the stuck seat with "
                                    "`/game repair how:ai`.")

    def _fault_line(self, fault: dict[str, Any] | None) -> list[str]:
        if not fault:
            return []
        return [f"The game stopped: its rules failed on {fault['what']} (incident `{fault['incident']}`). "
                f"{self._repair_hint()[:1].upper()}{self._repair_hint()[1:]}"]

    def _embed(self, game: Game, rec: SessionRecord, prompts: Sequence[PromptInfo] = ()) -> Embed:
        seats = []
        for s in rec.seats:
            who = self.names.user(s.user_id) if s.user_id is not None else f"AI ({s.ai})"
            # the nation or faction actually played, once the game knows it; before, the
            # player's wish (their own words, escaped)
            label = self._seat_label(rec, s.seat) if rec.started_at is not None else None
            if label is None and s.faction:
                label = self._typed(s.faction) if rec.status == "lobby" else f"wished {self._typed(s.faction)}"
            faction = f" — {label}" if label else ""
            seats.append(f"{s.seat + 1}. {who}{faction}")
        fields = [EmbedField("Seats", "\n".join(seats) or "nobody yet")]
        if prompts:
            fields.append(EmbedField("To act", "\n".join(self._asked(rec, p.seat, p.text) for p in prompts)))
        if rec.orphaned is not None and rec.is_open:
            fields.append(EmbedField("Orphaned", f"Since {rec.orphaned.get('why', 'the channel is gone')}, "
                                     "the game waits for nobody; a moderator can end it with "
                                     f"/game abandon game:{rec.id}."))
        elif rec.suspended is not None and rec.status == "active":
            fields.append(EmbedField("Suspended", self._suspended_text(rec)[:1024]))
        elif rec.attention is not None and rec.status == "active":
            fields.append(EmbedField("Needs attention", self._fault_line(rec.attention)[0][:1024]))
        if rec.status == "lobby":
            desc = f"Waiting for players ({game.min_players}–{game.max_players})."
        elif rec.status == "active":
            desc = f"Action {rec.seq}. Seed commitment sha256: `{rec.seed_hash}`"
        else:
            desc = self._outcome_text(rec)
        return Embed(f"{game.title} — game #{rec.id}", desc, tuple(fields))

    def _outcome_text(self, rec: SessionRecord) -> str:
        outcome = Outcome.model_validate(rec.outcome) if rec.outcome else None
        if rec.status == "abandoned":
            head = "The game was abandoned."
        elif outcome and outcome.winners:
            reason = self._named(rec, outcome.reason)
            if WIN_WORD.search(reason):  # the reason names the winner itself ("Church 2 wins! ...")
                head = f"Game over: {reason.strip()}" + ("" if reason.strip().endswith((".", "!", "?")) else ".")
            else:
                head = f"Game over: {list_words([self._who(rec, w) for w in outcome.winners])} won ({reason})."
        elif outcome and outcome.reason:  # no seat won: the reason says why (Hannibal, a draw, a limit)
            reason = self._named(rec, outcome.reason).strip()
            head = f"Game over, no player won: {reason}" + ("" if reason.endswith((".", "!", "?")) else ".")
        else:
            head = "Game over, no player won."
        hint = getattr(self.names, "verify_hint", None)
        how = hint(rec.id) if hint else "anyone can replay it with `tabula verify`."
        return f"{head} Seed: {rec.seed} (sha256 `{rec.seed_hash}`); {how}"

    async def _status_reply(self, game: Game, rec: SessionRecord, state: Any | None,
                            lines: Sequence[str | tuple[int, str]] = (), **kw: Any) -> Reply:
        """``_compose_status`` that never raises for the game's own failure: an exception
        while showing the game (its prompts, views) is logged with an incident id, marks
        the session as needing attention, and the reply carries the lines without the
        views and says so."""
        try:
            return await self._compose_status(game, rec, state, lines, **kw)
        except GameError:
            raise
        except Exception as e:
            fault = self._incident(rec, None, "showing the game", e)
            if rec.status == "active":
                try:
                    rec = await self.storage.update(rec.id, rec.version, SessionUpdate(attention=fault), self.clock())
                except Exception:
                    log.warning("could not mark game #%s as needing attention", rec.id, exc_info=True)
        public = [line for line in lines if isinstance(line, str)]
        mine: dict[int, list[str]] = {}
        for line in lines:
            if isinstance(line, tuple):
                mine.setdefault(line[0], []).append(line[1])
        private = tuple(PrivatePart(user, None, "\n".join(said)) for user, said in mine.items())
        text = [*public, *self._fault_line(fault)]
        return Reply(text="\n".join(text), private=private, session_id=rec.id, version=rec.version,
                     status=rec.status, feed=tuple((None, t) for t in text))

    async def _compose_status(
        self,
        game: Game,
        rec: SessionRecord,
        state: Any | None,
        lines: Sequence[str | tuple[int, str]] = (),
        *,
        private_lines: Mapping[int, list[str]] | None = None,
        notify: bool = True,
        duplicate: bool = False,
        known: _Known | None = None,
    ) -> Reply:
        """A public reply after a change: ``lines``, then the outcome or who must act.

        ``lines`` may hold private lines as ``(user_id, text)`` pairs (from
        ``_feed_rows``): they go to that user's private part, and ``Reply.feed`` keeps
        every line in its order. ``known`` is what the call read with the session
        (followers, preferences, the log's last rows): it is not read again."""
        private_lines = {u: list(v) for u, v in (private_lines or {}).items()}
        text, feed = self._split_lines(lines, private_lines)
        prompts: list[PromptInfo] = []
        private: list[PrivatePart] = []
        if state is not None and rec.status == "active":
            prompts = self._prompt_infos(game, rec, state)
            waiting = [self._asked(rec, p.seat, p.text) for p in prompts]
            if waiting:
                text.append("Now: " + "; ".join(waiting))
                feed.append((None, text[-1]))
        elif rec.status in ("finished", "abandoned"):
            text.append(self._outcome_text(rec))
            feed.append((None, text[-1]))
        if not notify or rec.status == "lobby":
            modes: Mapping[int, str] = {}
        else:
            modes = known.follower_modes if known is not None else await self.storage.follower_modes(rec.id)
        followers = list(modes)
        humans = [s.user_id for s in rec.seats if s.user_id is not None]
        wanted = [*humans, *followers, *private_lines]
        prefs = dict(known.prefs) if known is not None else {}
        if any(u not in prefs for u in wanted):
            prefs.update(await self.storage.get_prefs_many(u for u in wanted if u not in prefs))
        ended = rec.status in ("finished", "abandoned") and notify
        if state is not None:
            private = await self._seat_parts(game, rec, state, prompts, private_lines, prefs,
                                             text[-1] if ended else None, known)
        for user_id, mine in private_lines.items():
            if mine:
                private.append(PrivatePart(user_id, None, "\n".join(mine), dm=prefs[user_id].dms,
                                           notify=prefs[user_id].notify))
        followers = [uid for uid in followers if rec.seat_of(uid) is None and prefs[uid].dms]
        if not rec.is_open:
            self._drop(rec.id)  # a finished game's state is read again from storage if anyone looks
        # who is pinged in the game's thread: the humans asked now who chose pings there (those
        # who chose direct messages get the prompt by DM instead); when the game ends, every
        # player who chose pings (the others are told by DM)
        pinged = [p.user_id for p in prompts if p.user_id is not None]
        if ended:
            pinged = humans
        mentions = tuple(dict.fromkeys(u for u in pinged if prefs[u].notify != "dm"))
        players = self._players(rec)
        return Reply(
            text="\n".join(text),
            embed=self._embed(game, rec, prompts),
            image=None if state is None else ImageRequest(game.id, rec.id, rec.version, memo.view(game, state, None),
                                                          players=players),
            private=tuple(private),
            mentions=mentions,
            prompts=tuple(prompts),
            notify=tuple(followers),
            following=tuple((uid, modes[uid]) for uid in followers),
            session_id=rec.id,
            version=rec.version,
            status=rec.status,
            duplicate=duplicate,
            feed=tuple(feed),
            game=self._game_name(rec),
        )

    @staticmethod
    def _split_lines(lines: Sequence[str | tuple[int, str]], private_lines: dict[int, list[str]],
                     ) -> tuple[list[str], list[tuple[int | None, str]]]:
        """``lines`` split: (the public lines, the feed of every line in order); each private
        line ``(user_id, text)`` is added to that user's ``private_lines``."""
        text: list[str] = []
        feed: list[tuple[int | None, str]] = []
        for line in lines:
            if isinstance(line, tuple):
                user, said = line
                private_lines.setdefault(user, []).append(said)
                feed.append((user, said))
            else:
                text.append(line)
                feed.append((None, line))
        return text, feed

    async def _seat_parts(
        self, game: Game, rec: SessionRecord, state: Any, prompts: Sequence[PromptInfo],
        private_lines: dict[int, list[str]], prefs: Mapping[int, UserPrefs], end_line: str | None,
        known: _Known | None,
    ) -> list[PrivatePart]:
        """The private part of each seated human who has private lines (taken out of
        ``private_lines``), a question (with the digest since their last action) or, when the
        game ended (``end_line``) and they chose direct messages, the end to be told."""
        private: list[PrivatePart] = []
        for s in rec.seats:
            if s.user_id is None:
                continue
            mine = private_lines.pop(s.user_id, [])
            prompt = next((p for p in prompts if p.seat == s.seat), None)
            told_end = end_line is not None and prefs[s.user_id].notify == "dm"
            if mine or prompt or told_end:
                digest: tuple[str, ...] = ()
                more = 0
                if prompt:
                    digest, more = await self._digest(rec, s.user_id, known)
                    mine = [*mine, f"You are asked: {self._named(rec, prompt.text)}",
                            *self._not_offered(game, state, s.seat)]
                if told_end:
                    mine = [*mine, end_line]
                private.append(PrivatePart(s.user_id, s.seat, "\n".join(mine),
                                           memo.view(game, state, s.seat), prompt, prefs[s.user_id].dms,
                                           prefs[s.user_id].notify, digest, more))
        return private

    def _feed_rows(self, rec: SessionRecord, applied: Sequence[_Applied]) -> list[str | tuple[int, str]]:
        """What freshly applied steps say, in order: public lines (str) and private
        lines as ``(user_id, text)``."""
        out: list[str | tuple[int, str]] = []
        users = {s.seat: s.user_id for s in rec.seats if s.user_id is not None}
        for done in applied:
            row = done.row
            if done.auto == "phase":
                out.append(f"{self._who(rec, row.seat)}: {row.notation} (passing for the rest of this "
                           f"{get_game(rec.game_id).phase_word}, as they chose)")
            elif done.auto:
                out.append(f"{self._who(rec, row.seat)}: {row.notation} (nothing else was possible; "
                           "answered automatically)")
            elif row.seq > 0:
                if shows_notation(row, None):
                    out.append(f"{self._who(rec, row.seat)}: {row.notation}")
                else:
                    if not any(e.visible_to is None for e in row.events):  # else the game says so
                        out.append(f"{self._who(rec, row.seat)} made a secret choice.")
                    if row.seat in users:  # echoed as a public action is, for its player alone
                        out.append((users[row.seat], f"{self._who(rec, row.seat)}: {notation_for(row, row.seat)}"))
            for e in row.events:
                if e.visible_to is None:
                    out.append(f"  {self._named(rec, e.text)}")
                else:
                    out.extend((users[seat], self._named(rec, e.text)) for seat in e.visible_to if seat in users)
        return out

    async def _digest(self, rec: SessionRecord, user_id: int,
                      known: _Known | None = None) -> tuple[tuple[str, ...], int]:
        """What happened since the user's own last action, for the top of their private
        prompt (Issue "since your last turn"): the public lines and the user's own private
        lines of the actions others took since, the latest ``DIGEST_LINES``; and how many
        earlier lines were left out. Empty when the user's own action is the latest, or they
        never acted (the game's opening is in the channel)."""
        rows = known.rows_since_last_of(rec.seq, user_id) if known is not None else None
        if rows is None:
            rows = await self._rows_since_last_of(rec, user_id)
        later = [r for r in rows[1:] if r.seq > 0]
        if not later:
            return (), 0
        lines: list[str] = []
        for line in self._feed_rows(rec, [_Applied(r, None) for r in later]):
            if isinstance(line, tuple):
                if line[0] == user_id:
                    lines.append(line[1])
            else:
                lines.append(line.strip())
        lines = [line for line in lines if line]
        more = max(0, len(lines) - DIGEST_LINES)
        return tuple(lines[more:]), more
