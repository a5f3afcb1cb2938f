"""The host service: sessions, seats, turns, AI seats and timers, without Discord.

Adapters call it with plain ids (guild, channel, user) and send the ``Reply`` it
returns. Every call that changes a session holds that session's asyncio lock and
the storage's ``session_guard`` (on PostgreSQL an advisory lock, so several bot
processes take turns on a session), and writes through ``Storage.update`` with the
version it read: concurrent calls in one process are serialised, and a writer in
another process waits for the guard or, where there is none (SQLite), is rejected
with ``StaleStateError`` instead of overwriting.

Rules enforced here (each failure is a ``GameError`` with a player-safe message
and changes nothing): only seated players act, and only when the game prompts
their seat; one action at a time per session; undo only of your own last action
and only while nothing hidden or random was revealed since (else every other
player must agree); a finished or abandoned game accepts no action but stays
readable.

Decisions (where the design is silent)
--------------------------------------
- Seats are numbered in joining order; leaving a lobby closes the gap. Leaving a
  started game hands the seat to a heuristic AI (an asynchronous game should not
  stall); the creator or a moderator can ``replace`` it with a human. A seat a
  human holds changes hands only by its holder or a moderator (its new holder
  reads its hand).
- A response window's deadline starts when the window opens; answers do not
  extend it. A window that opens while another closes gets a fresh deadline.
- A secret choice (prompt kind ``secret``) is logged with its notation hidden from
  every other viewer, also after the game ends; its events follow ``visible_to``.
- An action "reveals" when what anyone can see afterwards depends on information
  hidden from its player before (dice, deck order, other hands, face-down cards):
  the game establishes it (``games.core.secrets``: randomness drawn, a private
  event to another seat, or a different outcome on perturbed hidden information);
  undoing such an action, or one followed by another human's action, needs the
  consent of every other human; with no other human (AI opponents only) it is
  refused. Any new action voids a pending undo request.
- Log page 1 is the most recent actions (what a channel wants to see first).
- ``sha256`` is taken over the seed's decimal text (``storage.seed_hash``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import math
import random
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import ValidationError

from games.core import (
    Event,
    Game,
    GameError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    Prompt,
    Rng,
    Seat,
    StaleStateError,
    get_game,
    new_seed,
    start,
)
from games.core.agents import make_agent
from games.core.choices import ChoiceError, ChoiceTree, noted
from games.core.english import as_you, count
from games.core.errors import list_words
from games.core.explain import explain_options, named_in
from games.core.options import options_message
from games.core.refusal import RULES_NOW
from games.core.rulebook import step_text
from games.core.secrets import TrackingRng, perturb
from games.core.secrets import reveals as game_reveals
from games.core.secrets import seats_of as secret_seats
from storage import (
    FOLLOW_MODES,
    NOTIFY_MODES,
    ActionRecord,
    DuplicateInteractionError,
    EventRecord,
    NewSession,
    SeatRecord,
    SessionContext,
    SessionRecord,
    SessionUpdate,
    Storage,
    UnknownSessionError,
    UserPrefs,
)
from storage.replay import options_of, replay_rows, seats_of, state_json

from . import suggest
from .errors import (
    GameFaultError,
    InvalidOptionError,
    LobbyError,
    NoSessionError,
    NotSeatedError,
    OrphanedError,
    OutdatedActionError,
    PermissionDeniedError,
    UndoError,
)
from .replies import (
    ChoiceResult,
    Embed,
    EmbedField,
    GameSummary,
    ImageRequest,
    LogEntry,
    PrivatePart,
    PromptInfo,
    Reply,
    parse_token,
    prompt_token,
)
from .settings import HostSettings
from .standings import StandingsMixin
from .usertext import clean, same
from .voice import action_for, notation_for, shows_notation

log = logging.getLogger("tabula.host")

AI_KINDS = ("heuristic", "random")
MAX_CHOICES = 25
MAX_TREE = 20_000
"""Legal actions above which a question gets no choices to click (typed with ``/play``)."""
TREES_KEPT = 64
PASS_WORDS = ("pass", "done")
"""An answer that decides nothing (auto-pass, a public pass; the terminal's --auto-pass too)."""
REPEAT_MARK = "×"
"""``place Italia ×3``: the same action three times in a row (a choice with a count)."""
REPEATED = re.compile(r"(.+?) ×(\d{1,2})")
MAX_REPEAT = 12
AUTO_PASS_TRIES = 8
"""Redraws of a seat's hidden information that must all leave a lone pass its only answer."""
SEAT_NUMBER = re.compile(r"\b[Ss]eat (\d{1,2})\b")
WIN_WORD = re.compile(r"\b(?:wins?|won)\b", re.IGNORECASE)
"""An outcome's reason that says who won: the end line quotes it instead of naming the winner twice."""
DIGEST_LINES = 12  # at most this many lines of "since your last turn" in a private prompt


class Names(Protocol):
    """How the host writes a user or a channel into text.

    An adapter may also define ``verify_hint(session_id) -> str``: the end of the
    game-over line, saying how to check the finished game (default: use
    ``tabula verify``), ``text(typed) -> str``: a user's own words (already
    normalised by ``usertext.clean``) made safe to show to others (default: as
    they are), ``rules_now_hint() -> str``: where a refusal sends a player for
    the rule text of the step asked now (default: ``refusal.RULES_NOW``, the
    "Rules for this step" button), and ``undo_hint() -> str``: how the players
    asked agree to or refuse an undo request (default: the /game undo command)."""

    def user(self, user_id: int) -> str: ...

    def channel(self, channel_id: int) -> str: ...


class MentionNames:
    """Discord's mention syntax: ``<@id>`` and ``<#id>``; a user's own words with their
    markdown and mentions escaped (``discord.utils.escape_markdown``, ``escape_mentions``)."""

    def user(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def channel(self, channel_id: int) -> str:
        return f"<#{channel_id}>"

    def text(self, typed: str) -> str:
        from discord.utils import escape_markdown, escape_mentions

        return escape_mentions(escape_markdown(typed))


def _notation_is_public(game: Game, state: Any, seat: Seat, action: Any) -> bool:
    """Whether everyone may read the action as typed. A game opts in with
    ``notation_is_public(state, seat, action)``; without it the notation is shown to
    its player only and the others learn what happened from the public events (an
    action may name a card kept in hand or laid face down)."""
    return _is_bare_pass(action) or bool(game.notation_is_public(state, seat, action))


def _is_bare_pass(action: Any) -> bool:
    """Whether ``action`` is a plain pass or done (kind ``pass``/``done`` and nothing else):
    declining or finishing in the open names no card, so everyone may read it. A pass
    answering a secret choice (prompt kind ``secret``) stays secret all the same."""
    fields = getattr(type(action), "model_fields", None)
    return getattr(action, "kind", None) in PASS_WORDS and fields is not None and set(fields) == {"kind"}


@dataclass(frozen=True)
class _Applied:
    row: ActionRecord
    state: Any
    auto: str = ""  # given for a human by the host: "lone" (their only legal answer, a pass),
    # "phase" (a pass, as they asked for the rest of the phase)


@dataclass(frozen=True)
class _AutoPass:
    """Which human seats the host may pass for: ``lone`` the seats whose player has
    auto-pass on (a question whose only legal answer is a pass), ``standing`` the seats
    passing for the rest of a phase, with the phase's mark (``Game.phase_mark``)."""

    lone: frozenset[Seat] = frozenset()
    standing: Mapping[Seat, str] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class _Known:
    """What an action's call read with the session (``Storage.session_context``) and reuses
    instead of reading it again: the server's settings, the followers and everyone's
    preferences, each human's latest action before the call, and the log's last rows
    (``rows``: those with ``after < seq``, through the call's own applied rows)."""

    guild_settings: Mapping[str, Any]
    follower_modes: Mapping[int, str]
    prefs: Mapping[int, UserPrefs]
    last_acted: Mapping[int, int]
    after: int
    rows: tuple[ActionRecord, ...]

    @classmethod
    def of(cls, ctx: SessionContext, applied: Sequence[_Applied] = ()) -> _Known:
        return cls(ctx.guild_settings, ctx.follower_modes, ctx.prefs, ctx.last_acted, ctx.tail_after,
                   (*ctx.tail, *(a.row for a in applied)))

    def rows_since_last_of(self, seq: int, user_id: int) -> list[ActionRecord] | None:
        """Rows from the user's latest action through ``seq`` ([] when the user never
        acted), or None when that reaches back before the rows held."""
        if (self.rows[-1].seq if self.rows else self.after) != seq:
            return None
        for i in range(len(self.rows) - 1, -1, -1):
            if self.rows[i].user_id == user_id:
                return list(self.rows[i:])
        return [] if user_id not in self.last_acted else None


class _LockEntry:
    """A session's asyncio lock and how many calls hold or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class _Steps(list):  # type: ignore[type-arg]
    """The AI steps applied after a call (a list of ``_Applied``); ``fault`` is the
    attention record when the game's code failed on the next step (the loop stopped there)."""

    fault: dict[str, Any] | None = None


def _event_record(e: Event) -> EventRecord:
    data = e.model_dump(mode="json")
    return EventRecord(str(data.get("kind", type(e).__name__)), e.visible_to, e.describe(), data)


class Host(StandingsMixin):
    """The Discord-free host service.

    Parameters
    ----------
    storage : Storage
        An opened storage backend.
    settings : HostSettings | None
        Defaults from the environment (``TABULA_*``).
    clock : Callable[[], float]
        Current time, seconds since the Unix epoch (tests pass a fake clock).
    names : Names | None
        How users and channels are written into texts; Discord mentions by default.
    seeds : Callable[[], int] | None
        Source of new session seeds (63-bit); the OS's entropy by default.
    """

    def __init__(
        self,
        storage: Storage,
        settings: HostSettings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        names: Names | None = None,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings or HostSettings()
        self.clock = clock
        self.names: Names = names or MentionNames()
        self.seeds = seeds or new_seed
        self._locks: dict[int, _LockEntry] = {}
        self._cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._deadlines_checked = False
        # what this process knows at once, without waiting (to bind an intent on receipt):
        # session -> its newest record seen with the cached state, channel -> session, and
        # session -> commits made by this process
        self._latest: dict[int, SessionRecord] = {}
        self._by_channel: dict[int, int] = {}
        self._commits: dict[int, int] = {}
        # (session, seq, seat) -> the choices leading to that seat's legal actions then
        self._trees: OrderedDict[tuple[int, int, Seat], ChoiceTree | None] = OrderedDict()

    # ================================================================== plumbing

    @asynccontextmanager
    async def _lock(self, session_id: int) -> AsyncIterator[None]:
        """One change at a time to a session: this process's asyncio lock, then the storage's
        guard against other processes (raises StaleStateError when that times out).

        A session's lock exists only while some call holds or waits for it (it is counted),
        so the host keeps no per-session lock once its calls are done."""
        entry = self._locks.get(session_id)
        if entry is None:
            entry = self._locks[session_id] = _LockEntry()
        entry.users += 1
        try:
            async with entry.lock:
                guard = getattr(self.storage, "session_guard", None)
                if guard is None:
                    yield
                else:
                    async with guard(session_id):
                        yield
        finally:
            entry.users -= 1
            if entry.users == 0 and self._locks.get(session_id) is entry:
                del self._locks[session_id]

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
        """The current state of a started session (cached by version)."""
        hit = self._cache.get(rec.id)
        if hit is not None and hit[0] == rec.version:
            self._cache.move_to_end(rec.id)
            return hit[1]
        try:
            state = await self._state_at(game, rec, rec.seq)
        except GameError:
            raise
        except Exception as e:
            raise await self._fault(rec, None, "loading the game", e) from None
        self._remember(rec, state)
        return state

    async def _state_at(self, game: Game, rec: SessionRecord, seq: int) -> Any:
        snap = await self.storage.latest_snapshot(rec.id, seq)
        if snap is None:
            state = start(game, seats_of(rec), options_of(game, rec), rec.seed).state
            after = 0
        else:
            after, data = snap
            state = game.state_from_json(data)
        rows = await self.storage.actions(rec.id, after=after, through=seq)
        return replay_rows(game, state, rows, rec.seed)

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

    def _drop(self, session_id: int) -> None:
        """Free what the host keeps for a session that ended or was orphaned (its cached
        state; its lock goes by itself once no call uses it)."""
        self._forget(session_id)

    async def _commit(self, rec: SessionRecord, change: SessionUpdate) -> SessionRecord:
        try:
            done = await self.storage.update(rec.id, rec.version, change, self.clock())
        except StaleStateError:
            self._forget(rec.id)
            raise
        self._commits[rec.id] = self._commits.get(rec.id, 0) + 1
        if done.status == "finished" and rec.status != "finished":
            await self._record_result(done)
        return done

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

    @staticmethod
    def _require_present(rec: SessionRecord) -> None:
        """Raise OrphanedError for an open session whose channel or server is gone."""
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

    # ================================================================== stepping

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
        revealed: bool = False,
    ) -> _Applied:
        """Apply one action: its row (not stored yet) and the state after it.

        ``revealed``: an earlier step of the same operation (the answer these steps follow, or
        one of them) revealed. This step is then counted as revealing without the check: an
        undo reaching it reaches that earlier step too, so it needs consent either way."""
        notation = game.format_action(state, action)
        rng = TrackingRng(rec.seed, seq)
        step = game.apply(state, seat, action, rng)
        reveals = revealed or game_reveals(
            game, state, seat, action, step, lambda: Rng(rec.seed, seq), rng.draws > 0
        )
        events = tuple(step.events)
        row = ActionRecord(
            seq=seq,
            seat=seat,
            notation=notation,
            action=action.model_dump(mode="json"),
            events=tuple(_event_record(e) for e in events),
            user_id=user_id,
            secret=prompt.kind == "secret" or not _notation_is_public(game, state, seat, action),
            reveals=reveals,
            interaction_id=interaction_id,
            at=now,
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
        revealed: bool = False, auto: _AutoPass | None = None,
    ) -> list[_Applied]:
        """Play every AI seat the game prompts, in seat order, until a human must act or
        the game is over; a human seat the host may pass for (``auto``, from ``_auto``) is
        answered too: a lone pass, or a pass for the rest of the phase. When the game's code
        (or the agent) fails, the loop stops there,
        the failure is logged with an incident id and ``fault`` on the result says so: the
        steps before it stand, and the session is marked as needing attention."""
        out = _Steps()
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
                revealed = revealed or applied.row.reveals
            except Exception as e:
                what = f"the AI's move for seat {seat + 1}" if seat is not None else "the rules after a move"
                out.fault = self._incident(rec, seat, what, e, now)
                break
            seq += 1
            out.append(applied)
            state = applied.state
        return out

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

    # ================================================================== replies

    def _prompt_infos(
        self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt] | None = None
    ) -> list[PromptInfo]:
        prompts = game.to_act(state) if prompts is None else prompts
        out = []
        for seat in sorted(prompts):
            p = prompts[seat]
            choices = self._choices(game, state, seat)
            holder = rec.seats[seat] if seat < len(rec.seats) else None
            human = holder is not None and holder.user_id is not None
            tree = self._tree(game, rec, state, seat) if human else None
            out.append(PromptInfo(seat, holder.user_id if holder else None, p.kind, p.text, choices,
                                  rec.deadline if p.kind == "respond" else rec.wait_deadline if human else None,
                                  prompt_token(rec.seq, p.kind, p.text, choices),
                                  self._explains(game, state, seat, choices),
                                  noted(tree.step(), game.option_notes(state, seat)) if tree is not None else None,
                                  self._shown(rec, seat, p.text),
                                  game.phase_word if human and self._pass_action(game, state, seat) is not None
                                  else ""))
        return out

    def _tree(self, game: Game, rec: SessionRecord, state: Any, seat: Seat) -> ChoiceTree | None:
        """The choices leading to each of ``seat``'s legal actions in ``state`` (the session's
        state after action ``rec.seq``); None when there are more than ``MAX_TREE``."""
        key = (rec.id, rec.seq, seat)
        if key in self._trees:
            self._trees.move_to_end(key)
            return self._trees[key]
        legal = list(itertools.islice(game.legal_actions(state, seat), MAX_TREE + 1))
        tree = None
        if 0 < len(legal) <= MAX_TREE:
            notations = [game.format_action(state, a) for a in legal]
            repeats = self._repeats(game, rec, state, seat, legal) if len(legal) <= MAX_CHOICES else {}
            tree = ChoiceTree(itertools.chain.from_iterable(
                [n, *(f"{n} {REPEAT_MARK}{k}" for k in range(2, repeats.get(i, 1) + 1))]
                for i, n in enumerate(notations)))
        self._trees[key] = tree
        while len(self._trees) > TREES_KEPT:
            self._trees.popitem(last=False)
        return tree

    def _repeats(self, game: Game, rec: SessionRecord, state: Any, seat: Seat, legal: Sequence[Any]) -> dict[int, int]:
        """For a turn that asks the same again after an action (a set-up placing 8 units one
        by one: "place Rome's final units (8 left)", then 7 left...), how many times in a row
        each legal action (by index) can be played: the seat alone is asked again, the same
        question but for its numbers, the action legal again, and nothing drawn at random (so
        the count is known now). Only counts of 2 or more are listed."""
        prompts = game.to_act(state)
        if set(prompts) != {seat} or prompts[seat].kind != "turn":
            return {}
        shape = re.sub(r"\d+", "#", prompts[seat].text)
        out: dict[int, int] = {}
        for i, action in enumerate(legal):
            s, times = state, 0
            try:
                while times < MAX_REPEAT:
                    rng = TrackingRng(rec.seed, rec.seq + times + 1)
                    s = game.apply(s, seat, action, rng).state
                    times += 1
                    asked = game.to_act(s)
                    if (rng.draws or set(asked) != {seat} or asked[seat].kind != "turn"
                            or re.sub(r"\d+", "#", asked[seat].text) != shape
                            or action not in list(itertools.islice(game.legal_actions(s, seat), MAX_CHOICES + 1))):
                        times -= bool(rng.draws)
                        break
            except Exception:  # noqa: BLE001 - a count is only offered; playing the action reports its failure
                times = 0
            if times >= 2:
                out[i] = times
            elif i >= 2 and not out:
                break  # the first actions do not repeat: this is no such turn
        return out

    async def choice_tree(self, session_id: int, seat: Seat) -> ChoiceTree | None:
        """The choices the seat is offered now (``PromptInfo.step`` is their first step);
        None when the seat is not asked or has too many legal actions to list."""
        rec = await self.storage.get_session(session_id)
        game = get_game(rec.game_id)
        state = await self._state(game, rec)
        return self._tree(game, rec, state, seat) if seat in game.to_act(state) else None

    async def choice(self, session_id: int, user_id: int, token: str, path: Sequence[int],
                     picks: Sequence[int] | None = None) -> ChoiceResult:
        """Follow a click among the choices of the question ``token`` names
        (``PromptInfo.step``): ``path`` is the option indices chosen from the first step,
        ``picks`` the items picked at a multi-select step. Returns the next step to show, or
        the action the choices name (the adapter then plays it with ``act(prompt=token)``,
        which judges it again). Changes nothing.

        Raises NoSessionError, GameOverError, NotSeatedError, NotYourTurnError (the seat was
        not asked), OutdatedActionError (the seat's question changed since, or the path is
        not among its choices; the message says what is asked now)."""
        rec = await self.storage.get_session(session_id)
        game = get_game(rec.game_id)
        self._require_active(rec)
        seat = self._require_seat(rec, user_id).seat
        state = await self._state(game, rec)
        prompts = game.to_act(state)
        if seat not in prompts:
            waiting = list_words([f"{self._who(rec, s)} ({p.text})" for s, p in sorted(prompts.items())])
            raise OutdatedActionError("That choice belongs to an earlier question; nothing is asked of you "
                                      f"now; waiting for {waiting}.")
        await self._judge_intent(game, rec, state, prompts, seat, token)
        tree = self._tree(game, rec, state, seat)
        try:
            if tree is None:
                raise ChoiceError("too many legal actions to list")
            action = tree.resolve(path, picks)
            step = tree.step(path) if action is None else None
        except ChoiceError:
            raise OutdatedActionError("That choice is not offered any more; nothing was applied. "
                                      f"You are asked now: {prompts[seat].text}") from None
        choices = self._choices(game, state, seat)
        if step is not None:
            step = noted(step, game.option_notes(state, seat))
        phase_pass = game.phase_word if step is not None and not step.path \
            and self._pass_action(game, state, seat) is not None else ""
        return ChoiceResult(step, action, prompts[seat].text, self._game_name(rec),
                            self._explains(game, state, seat, choices), phase_pass)

    EXPLAIN_SAMPLE = 60  # legal actions read to decide on "What do these do?" for a large decision

    @classmethod
    def _explains(cls, game: Game, state: Any, seat: Seat, choices: tuple[str, ...]) -> bool:
        """Whether the seat's options name things the game explains: its choices when listed,
        else the first ``EXPLAIN_SAMPLE`` legal actions (a war's card combinations)."""
        options = choices or tuple(
            game.format_action(state, a)
            for a in itertools.islice(game.legal_actions(state, seat), cls.EXPLAIN_SAMPLE)
        )
        return bool(named_in(game.explanations(), options))

    @staticmethod
    def _not_offered(game: Game, state: Any, seat: Seat) -> list[str]:
        """The seat's private line on what its prompt names but the rules do not offer it now,
        and why (the game's ``not_offered(state, seat)``); [] when none."""
        lines = list(game.not_offered(state, seat))
        return ["Not offered now: " + "; ".join(lines) + "."] if lines else []

    @staticmethod
    def _choices(game: Game, state: Any, seat: Seat) -> tuple[str, ...]:
        """The seat's legal actions in notation when there are at most ``MAX_CHOICES``, else ()."""
        legal = list(itertools.islice(game.legal_actions(state, seat), MAX_CHOICES + 1))
        return () if len(legal) > MAX_CHOICES else tuple(game.format_action(state, a) for a in legal)

    def _token_of(self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt],
                  seat: Seat) -> str | None:
        """The seat's question now as a ``prompt_token``; None when the seat is not asked."""
        p = prompts.get(seat)
        return None if p is None else prompt_token(rec.seq, p.kind, p.text, self._choices(game, state, seat))

    async def question_token(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> str | None:
        """What the user's seat is asked at this moment, as a ``prompt_token`` ("" when the
        seat is not asked; None when there is no started game or no seat: the action will be
        refused for that reason anyway). An adapter calls it on receipt of a typed action and
        passes the result to ``act(prompt=...)``; ``act`` does so itself when given neither
        ``prompt`` nor ``version``. Raises nothing.

        "This moment" is the call, not the end of its database read: what this process knows
        of the session is taken first, without waiting, and kept when the read shows that
        only this process's own later commits came in between (an action handled meanwhile
        does not move the receipt of this one); otherwise the read decides."""
        known = self._known_token(channel_id, user_id, session_id)
        read = await self._read_token(channel_id, user_id, session_id)
        if known is None or read is None or read[0] != known[0]:
            return None if read is None else read[2]
        sid, version, commits, token = known
        mine_since = self._commits.get(sid, 0) - commits
        return token if read[1] - version == mine_since else read[2]

    def _known_token(self, channel_id: int, user_id: int,
                     session_id: int | None) -> tuple[int, int, int, str] | None:
        """(session, version, own commits, token) from memory alone, or None."""
        sid = session_id if session_id is not None else self._by_channel.get(channel_id)
        rec = self._latest.get(sid) if sid is not None else None
        hit = self._cache.get(sid) if sid is not None else None
        if rec is None or hit is None or hit[0] != rec.version or rec.status != "active":
            return None
        seat = rec.seat_of(user_id)
        if seat is None or rec.channel_id != channel_id:
            return None
        if seat.seat not in rec.to_act:
            return rec.id, rec.version, self._commits.get(rec.id, 0), ""
        game = get_game(rec.game_id)
        token = self._token_of(game, rec, hit[1], game.to_act(hit[1]), seat.seat) or ""
        return rec.id, rec.version, self._commits.get(rec.id, 0), token

    async def _read_token(self, channel_id: int, user_id: int,
                          session_id: int | None) -> tuple[int, int, str | None] | None:
        """(session, version, token) from the database, or None without a game."""
        try:
            rec = await self._find(channel_id, session_id)
        except GameError:
            return None
        seat = rec.seat_of(user_id)
        if rec.status != "active" or seat is None:
            return rec.id, rec.version, None
        if seat.seat not in rec.to_act:
            return rec.id, rec.version, ""
        game = get_game(rec.game_id)
        state = await self._state(game, rec)
        return rec.id, rec.version, self._token_of(game, rec, state, game.to_act(state), seat.seat) or ""

    async def _judge_intent(self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt],
                            seat: Seat, seen: str) -> None:
        """Refuse an action whose sender saw another question than the seat's question now
        (design, trust invariant 4). ``seen`` is a ``prompt_token``, or "" when the seat was
        not asked when the action was sent.

        Raises NotYourTurnError (not asked then), OutdatedActionError (asked something else
        then, or nothing now, or the seat acted since)."""
        current = self._token_of(game, rec, state, prompts, seat)
        now = (f"You are asked now: {prompts[seat].text}" if current is not None else
               "Nothing is asked of you now; waiting for "
               + list_words([f"{self._who(rec, s)} ({p.text})" for s, p in sorted(prompts.items())]) + ".")
        if seen == "":
            raise NotYourTurnError("It was not your turn when you sent that, so nothing was applied. " + now)
        then = parse_token(seen)
        if then is None:
            raise OutdatedActionError("That choice is not understood any more; nothing was applied. " + now)
        outdated = ("Your action answered an earlier question; the game moved on before it arrived, so "
                    "nothing was applied. ")
        if current is None or then[0] > rec.seq or parse_token(current)[1] != then[1]:  # type: ignore[index]
            raise OutdatedActionError(outdated + now)
        if then[0] < rec.seq:
            rows = await self.storage.actions(rec.id, after=then[0], through=rec.seq)
            if any(r.seat == seat for r in rows):
                raise OutdatedActionError(outdated + now)

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
            for s in rec.seats:
                if s.user_id is None:
                    continue
                mine = private_lines.pop(s.user_id, [])
                prompt = next((p for p in prompts if p.seat == s.seat), None)
                told_end = ended and prefs[s.user_id].notify == "dm"
                if mine or prompt or told_end:
                    digest: tuple[str, ...] = ()
                    more = 0
                    if prompt:
                        digest, more = await self._digest(rec, s.user_id, known)
                        mine = [*mine, f"You are asked: {self._named(rec, prompt.text)}",
                                *self._not_offered(game, state, s.seat)]
                    if told_end:
                        mine = [*mine, text[-1]]
                    private.append(PrivatePart(s.user_id, s.seat, "\n".join(mine),
                                               game.view(state, s.seat), prompt, prefs[s.user_id].dms,
                                               prefs[s.user_id].notify, digest, more))
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
            image=None if state is None else ImageRequest(game.id, rec.id, rec.version, game.view(state, None),
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
                    told = any(e.visible_to is not None and row.seat in e.visible_to and e.text.startswith("You ")
                               for e in row.events)  # the game's own private line already says it
                    if row.seat in users and not told:
                        out.append((users[row.seat], f"You played: {notation_for(row, row.seat)}"))
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

    # ================================================================== lobby

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        game_id: str,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        join: bool = True,
        faction: str | None = None,
    ) -> Reply:
        """Open a lobby for ``game_id`` in ``channel_id``; the creator takes seat 0 unless
        ``join`` is False.

        Raises
        ------
        UnknownGameError
            No such game (the message lists the known ones).
        InvalidOptionError
            ``options`` that the game's Options model rejects.
        ChannelBusyError
            The channel already has an open game.
        """
        game = get_game(game_id)
        opts = self._validate_options(game, dict(options or {}))
        faction = None if faction is None else clean(faction, what="A nation or faction")
        now = self.clock()
        seats = (SeatRecord(0, user_id, faction, None, now),) if join else ()
        rec = await self.storage.create_session(
            NewSession(guild_id, channel_id, game.id, opts, self.seeds() if seed is None else seed, user_id, seats),
            now,
        )
        text = (f"{self.names.user(user_id)} opened a game of {game.title} "
                f"({game.min_players}–{game.max_players} players). Join with /game join; "
                "the creator starts it with /game start.")
        return Reply(text=text, embed=self._embed(game, rec), session_id=rec.id, version=rec.version,
                     status=rec.status)

    @staticmethod
    def _validate_options(game: Game, values: dict[str, Any]) -> dict[str, Any]:
        try:
            return game.Options.model_validate(values).model_dump(mode="json")
        except ValidationError as e:
            raise InvalidOptionError(options_message(game.title, game.Options, e)) from None

    async def join(self, channel_id: int, user_id: int, *, faction: str | None = None,
                   session_id: int | None = None) -> Reply:
        """Take the next free seat in the channel's lobby.

        Raises NoSessionError, LobbyError (started, full, already seated),
        InvalidOptionError (faction taken), GameOverError."""
        faction = None if faction is None else clean(faction, what="A nation or faction")
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "join it")
            if rec.seat_of(user_id) is not None:
                raise LobbyError(f"You already have seat {rec.seat_of(user_id).seat + 1} in this game.")
            if len(rec.seats) >= game.max_players:
                raise LobbyError(f"The game is full ({game.max_players} seats).")
            self._check_faction(rec, faction, user_id)
            seats = (*rec.seats, SeatRecord(len(rec.seats), user_id, faction, None, self.clock()))
            rec = await self._commit(rec, SessionUpdate(seats=seats))
        return await self._lobby_reply(game, rec, f"{self.names.user(user_id)} joined (seat {len(seats)}).")

    def _check_faction(self, rec: SessionRecord, faction: str | None, user_id: int | None) -> None:
        """Refuse a faction another seat wished for (compared normalised, ignoring case)."""
        if faction is None:
            return
        for s in rec.seats:
            if s.faction and same(s.faction, faction) and s.user_id != user_id:
                taken = list_words([self._typed(x.faction) for x in rec.seats if x.faction])
                raise InvalidOptionError(f"{self._typed(faction)} is already taken by seat {s.seat + 1}; "
                                         f"taken: {taken}.")

    async def _lobby_reply(self, game: Game, rec: SessionRecord, text: str) -> Reply:
        return Reply(text=text, embed=self._embed(game, rec), session_id=rec.id, version=rec.version,
                     status=rec.status)

    async def leave(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> Reply:
        """Leave your seat. In the lobby the seat is removed (later seats move up); in a
        started game an AI takes the seat over and plays it from now on.

        Raises NoSessionError, NotSeatedError, GameOverError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            seat = self._require_seat(rec, user_id)
            now = self.clock()
            if rec.status == "lobby":
                seats = tuple(
                    SeatRecord(i, s.user_id, s.faction, s.ai, s.joined_at, s.left_at)
                    for i, s in enumerate(x for x in rec.seats if x.seat != seat.seat)
                )
                rec = await self._commit(rec, SessionUpdate(seats=seats))
                return await self._lobby_reply(game, rec, f"{self.names.user(user_id)} left the table.")
            self._require_active(rec)
            return await self._reseat(game, rec, seat.seat, None, now,
                                      f"{self.names.user(user_id)} left; an AI plays seat {seat.seat + 1} now.")

    async def choose(self, channel_id: int, user_id: int, faction: str, *, session_id: int | None = None) -> Reply:
        """Choose your nation or faction before the start (games that draft in play, like
        Barbarian Hordes, keep it as a preference shown on the seat; a game whose Options
        has a ``factions`` field receives the choices, one per seat).

        Raises NoSessionError, NotSeatedError, LobbyError, InvalidOptionError (taken)."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "choose a faction")
            seat = self._require_seat(rec, user_id)
            faction = clean(faction, what="A nation or faction")
            self._check_faction(rec, faction, user_id)
            seats = tuple(
                SeatRecord(s.seat, s.user_id, faction, s.ai, s.joined_at, s.left_at) if s.seat == seat.seat else s
                for s in rec.seats
            )
            rec = await self._commit(rec, SessionUpdate(seats=seats))
        return await self._lobby_reply(game, rec, f"{self.names.user(user_id)} chose {self._typed(faction)}.")

    async def set_options(self, channel_id: int, user_id: int, values: Mapping[str, Any], *,
                          is_moderator: bool = False, session_id: int | None = None) -> Reply:
        """Change game options in the lobby (merged into the current ones).

        Raises PermissionDeniedError (not the creator), LobbyError, InvalidOptionError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "change the options")
            self._require_manager(rec, user_id, is_moderator, "change the options")
            unknown = sorted(set(values) - set(game.Options.model_fields))
            if unknown:
                unknown = [self._typed(clean(str(k), limit=100, what="An option name")) for k in unknown]
                raise InvalidOptionError(f"{game.title} has no option {list_words(unknown)}; options: "
                                         f"{list_words(sorted(game.Options.model_fields))}.")
            opts = self._validate_options(game, {**rec.options, **values})
            rec = await self._commit(rec, SessionUpdate(options=opts))
        shown = ", ".join(f"{k}={self._typed(self._short(str(v)))}" for k, v in opts.items())
        return await self._lobby_reply(game, rec, f"Options: {shown}.")

    async def add_ai(self, channel_id: int, user_id: int, count: int = 1, kind: str = "heuristic", *,
                     is_moderator: bool = False, session_id: int | None = None) -> Reply:
        """Add ``count`` AI seats (``kind`` heuristic or random) to the lobby.

        Raises PermissionDeniedError, LobbyError (full), InvalidOptionError (kind, count)."""
        if kind not in AI_KINDS:
            raise InvalidOptionError(f"Unknown AI kind {kind!r}; choose {list_words(AI_KINDS)}.")
        if count < 1:
            raise InvalidOptionError("Add at least one AI seat.")
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "add AI seats")
            self._require_manager(rec, user_id, is_moderator, "add AI seats")
            free = game.max_players - len(rec.seats)
            if count > free:
                raise LobbyError(f"Only {free} seat(s) left ({game.max_players} at most).")
            now = self.clock()
            seats = (*rec.seats, *(SeatRecord(len(rec.seats) + i, None, None, kind, now) for i in range(count)))
            rec = await self._commit(rec, SessionUpdate(seats=seats))
        return await self._lobby_reply(game, rec, f"Added {count} AI seat(s) ({kind}).")

    async def start(self, channel_id: int, user_id: int, *, is_moderator: bool = False,
                    session_id: int | None = None) -> Reply:
        """Start the lobby's game: set up from the seed (step 0), publish sha256(seed), and
        play AI seats until a human must act.

        Raises PermissionDeniedError, LobbyError (too few or too many seats), GameOverError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "start it")
            self._require_manager(rec, user_id, is_moderator, "start the game")
            n = len(rec.seats)
            if not game.min_players <= n <= game.max_players:
                raise LobbyError(f"{game.title} needs {game.min_players}–{game.max_players} seats; "
                                 f"there are {n}. Add players or AI seats.")
            options = rec.options
            if "factions" in game.Options.model_fields:
                # a faction picked in the lobby (/game nation) wins over the option's entry for that seat
                given = list(options.get("factions") or [])
                given += [None] * (n - len(given))
                picked = [s.faction or given[s.seat] for s in rec.seats]
                options = self._validate_options(game, {**options, "factions": picked})
                rec = SessionRecord(**{**rec.__dict__, "options": options})
            now = self.clock()
            try:
                step = start(game, seats_of(rec), options_of(game, rec), rec.seed)
                setup = _Applied(ActionRecord(0, None, "setup", None,
                                              tuple(_event_record(e) for e in step.events),
                                              None, False, True, None, now), step.state)
                ai = self._run_ai(game, rec, rec.seats, step.state, 0, now, auto=await self._auto(rec))
                state = ai[-1].state if ai else step.state
                change = self._close_change(game, rec, {}, state, [setup, *ai], now,
                                            *await self._timing(rec, game, state), fault=ai.fault,
                                            status="active", started_at=now, options=options)
            except GameError:
                raise
            except Exception as e:
                fault = self._incident(rec, None, "setting up the game", e, now)
                raise GameFaultError(f"Sorry, the game's set-up failed (incident `{fault['incident']}`); the game "
                                     "was not started. Try other options or another game.", fault["incident"]) from None
            rec = await self._commit(rec, change)
            self._remember(rec, state)
        feed = [*self._feed_rows(rec, [setup, *ai]), *self._fault_line(ai.fault)]
        head: list[str | tuple[int, str]] = [
            f"{game.title} begins with {count(n, 'seat')}. Seed commitment: sha256 `{rec.seed_hash}` "
            "(the seed is revealed at the end)."]
        return await self._status_reply(game, rec, state, head + feed)

    # ================================================================== play

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

    async def _answer_and_follow(
        self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt], seat: Seat, action: Any,
        *, user_id: int | None, interaction_id: str | None, now: float, times: int = 1,
        auto: _AutoPass | None = None,
        guild: Mapping[str, Any] | None = None,
    ) -> tuple[list[_Applied], Any, SessionUpdate, Any]:
        """Apply ``seat``'s ``action`` (``times`` times in a row: "place Italia ×3", each time
        as the seat's answer to the same question again, else IllegalActionError) and the AI
        moves that follow it: (the steps applied, the final state, the change to commit, the
        fault of an AI move that failed, if any). ``auto``: who the host may pass for
        afterwards (default: as ``_auto`` reads it); ``guild`` the server's settings when
        already read. Nothing is stored yet."""
        auto = auto if auto is not None else await self._auto(rec)
        mine = [self._apply(game, rec, state, seat, action, rec.seq + 1, prompts[seat],
                            user_id=user_id, interaction_id=interaction_id, now=now)]
        shape = re.sub(r"\d+", "#", prompts[seat].text)
        for _ in range(times - 1):
            asked = game.to_act(mine[-1].state)
            if (set(asked) != {seat} or re.sub(r"\d+", "#", asked[seat].text) != shape
                    or action not in list(game.legal_actions(mine[-1].state, seat))):
                raise IllegalActionError(
                    f"{game.format_action(state, action)} can be played {len(mine)} time(s) in a row "
                    f"here, not {times}; nothing was applied.")
            mine.append(self._apply(game, rec, mine[-1].state, seat, action, mine[-1].row.seq + 1, asked[seat],
                                    user_id=user_id, interaction_id=None, now=now,
                                    revealed=any(x.row.reveals for x in mine)))
        ai = self._run_ai(game, rec, rec.seats, mine[-1].state, mine[-1].row.seq, now,
                          revealed=any(x.row.reveals for x in mine), auto=auto)
        applied = [*mine, *ai]
        final = applied[-1].state
        change = self._close_change(game, rec, prompts, final, applied, now,
                                    *await self._timing(rec, game, final, guild), fault=ai.fault)
        return applied, final, change, ai.fault

    async def _duplicate_reply(self, session_id: int) -> Reply:
        rec = await self.storage.get_session(session_id)
        game = get_game(rec.game_id)
        state = await self._state(game, rec) if rec.status != "lobby" else None
        reply = await self._status_reply(game, rec, state, ["That was already done; nothing was applied twice."],
                                         notify=False, duplicate=True)
        return reply

    async def tick(self, now: float | None = None, *, owns: Callable[[int | None], bool] | None = None) -> list[Reply]:
        """Close every wait whose deadline has passed. A response window: apply the game's
        pass (the legal action whose kind is ``"pass"``, or whose notation is ``pass``) for
        each human seat still asked to respond. A turn or a secret choice waited on past
        the wait deadline: a heuristic AI answers that one decision for the seat (the seat
        stays its player's, whose next decision waits for them again). Then AI seats play.
        Returns one reply per session changed, to post in its channel.

        Orphaned sessions and sessions stopped by an incident are skipped. An exception
        from a game's code while closing one session is logged with an incident id, marks
        that session as needing attention (the reply tells the table) and does not stop the
        others.

        ``owns`` (a guild id, None for DMs -> bool) limits the pass to the sessions of this
        process's shards. Several processes may tick at once: each window is closed under the
        session's guard after re-reading its deadline, so exactly one of them closes it."""
        now = self.clock() if now is None else now
        if not self._deadlines_checked:
            await self._give_waits_a_deadline(now, owns)
            self._deadlines_checked = True
        replies = []
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
            if rec.orphaned is not None or rec.wait_deadline is not None or (owns and not owns(rec.guild_id)):
                continue
            if not any(s.user_id is not None and s.seat in rec.to_act for s in rec.seats):
                continue
            try:
                async with self._lock(rec.id):
                    fresh = await self.storage.get_session(rec.id)
                    if fresh.wait_deadline is None and fresh.status == "active":
                        await self._commit(fresh, SessionUpdate(wait_deadline=now + await self._wait_seconds(fresh)))
            except StaleStateError:
                continue

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
                    or not (window_due or wait_due)):
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
                                    revealed=any(x.row.reveals for x in applied))
                    applied.append(a)
                    state = a.state
                    progressed = True
                ai = self._run_ai(game, rec, rec.seats, state, seq, now,
                                  revealed=any(x.row.reveals for x in applied), auto=auto)
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
                                revealed=any(x.row.reveals for x in applied))
                applied.append(a)
                state = a.state
                lines.append(f"Time is up for {self.names.user(user)}: an AI answered for seat {seat + 1} "
                             "this time. The seat stays theirs: their next decision waits for them "
                             "again, and they play it as usual (/play); to hand the seat to an AI for good, "
                             "/game leave.")
            ai = self._run_ai(game, rec, rec.seats, state, seq, now, revealed=any(x.row.reveals for x in applied),
                              auto=auto)
            applied.extend(ai)
            if ai:
                state = ai[-1].state
            fault = ai.fault
        return applied, state, lines, fault

    @staticmethod
    def _pass_action(game: Game, state: Any, seat: Seat) -> Any:
        fallback = None
        for a in game.legal_actions(state, seat):
            if getattr(a, "kind", None) == "pass":
                return a
            if fallback is None and game.format_action(state, a).strip().lower() == "pass":
                fallback = a
        return fallback

    # ================================================================== undo

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
            revealed = [r for r in rows if r.reveals]
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
            raise await self._fault(rec, None, "taking back an action", e) from None
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

    # ================================================================== reading

    async def view(self, channel_id: int, user_id: int | None = None, *, session_id: int | None = None) -> Reply:
        """The game's public state (embed, board image request, who must act), plus the
        caller's private view when seated. Works on finished games too.

        Raises NoSessionError."""
        rec = await self._find(channel_id, session_id, readable=True)
        game = get_game(rec.game_id)
        if rec.status == "lobby" or (rec.status == "abandoned" and rec.started_at is None):
            return await self._lobby_reply(game, rec, f"{game.title}: {len(rec.seats)} seat(s) taken.")
        state = await self._state(game, rec)
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

    AID_LIMIT = 400  # options read for "What do these do?" when a decision has very many

    async def aid(self, channel_id: int, user_id: int, what: str, *, session_id: int | None = None) -> Reply:
        """Help with the caller's decision now, as an ephemeral reply: ``what`` "explain" gives
        the text of every card, nation, ability... its options name (games.core.explain), only
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
                legal = itertools.islice(game.legal_actions(state, seat.seat), self.AID_LIMIT)
                options = [game.format_action(state, a) for a in legal]
                text = f"You are asked: {prompt.text}\n" + explain_options(game.explanations(), [prompt.text, *options],
                                                                              game.explained)
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
        (autocomplete must stay quiet)."""
        try:
            rec = await self._find(channel_id, session_id)
        except GameError:
            return []
        seat = rec.seat_of(user_id)
        if rec.status != "active" or seat is None or seat.seat not in rec.to_act:
            return []
        game = get_game(rec.game_id)
        try:
            state = await self._state(game, rec)
            if seat.seat not in game.to_act(state):
                return []
            if suggest.TAG.search(prefix):  # a suggestion already chosen: name it in full
                action = suggest.resolve(game, state, seat.seat, prefix)
                return [game.format_action(state, action)] if action is not None else []
            found = list(game.complete(state, seat.seat, prefix))
        except GameError:
            return []
        except Exception:
            log.exception("autocomplete failed in game #%s (seat %s, %r)", rec.id, seat.seat, prefix)
            return []
        return found if limit is None else found[:limit]

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

    # ================================================================== people

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
        moderator, or by its creator.

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
        except GameFaultError:
            state = None
        return await self._status_reply(game, rec, state, [f"{self.names.user(user_id)} abandoned the game."])

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
