"""The storage interface: records and the ``Storage`` protocol (ARCHITECTURE.md, "Sessions and storage").

The host talks to storage only through ``Storage``; ``storage.sqlite.SqliteStorage``
is the SQLite implementation and ``storage.postgres.PostgresStorage`` the PostgreSQL
one (several bot processes on one database); ``storage.url.storage_for`` picks one
from a database URL.

Conventions
-----------
- Ids (guild, channel, user) are Discord snowflakes or any other int.
- Times are float seconds since the Unix epoch (UTC), supplied by the caller.
- JSON payloads are plain ``dict``/``list`` values (already dumped with
  ``model_dump(mode="json")``); storage never sees a pydantic game model.
- Every change to a session goes through ``Storage.update`` with the version the
  caller last saw: a mismatch raises ``games.core.StaleStateError`` and changes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from games.core import GameError, StaleStateError

Status = Literal["lobby", "active", "finished", "abandoned"]
OPEN_STATUSES: tuple[Status, ...] = ("lobby", "active")


class UnsupportedOperationError(Exception):
    """The backend does not do this; the message says what to use instead."""


class ChannelBusyError(GameError):
    """The channel already has an open (lobby or active) session."""

    code = "channel_busy"


class DuplicateInteractionError(GameError):
    """An action with this interaction id is already stored."""

    code = "duplicate_interaction"


class ContextChangedError(StaleStateError):
    """``Storage.update`` with ``context``: what the change was computed from is no longer
    current (the session's version, its context's fingerprint, or, on PostgreSQL, another
    process holds the session's guard); nothing was changed. The caller reads the session
    again and recomputes."""

    code = "context_changed"


class UnknownSessionError(GameError):
    """No session has that id."""

    code = "unknown_session"


def seed_hash(seed: int) -> str:
    """The public commitment to a seed: sha256 of its decimal text, 64 hex digits."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


class _Keep:
    """Marker for "leave this field as it is" in ``SessionUpdate``."""

    _instance: _Keep | None = None

    def __new__(cls) -> _Keep:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Any = _Keep()


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a session.

    ``user_id`` is None exactly when ``ai`` names an agent kind ("heuristic",
    "random"). ``left_at`` is when the last human left (the seat then went to AI).
    """

    seat: int
    user_id: int | None
    faction: str | None = None
    ai: str | None = None
    joined_at: float = 0.0
    left_at: float | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai is not None


@dataclass(frozen=True)
class EventRecord:
    """A stored event: its ``kind``, ``visible_to`` (None = public), the player-facing
    ``text`` (``Event.describe()``) and the full ``data`` (``model_dump(mode="json")``)."""

    kind: str
    visible_to: tuple[int, ...] | None
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def visible(self, viewer: int | None) -> bool:
        """Whether ``viewer`` (a seat, None = spectator) may see it."""
        return self.visible_to is None or (viewer is not None and viewer in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "visible_to": None if self.visible_to is None else list(self.visible_to),
            "text": self.text,
            "data": self.data,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EventRecord:
        vt = d.get("visible_to")
        return cls(d.get("kind", ""), None if vt is None else tuple(vt), d.get("text", ""), d.get("data", {}))


@dataclass(frozen=True)
class ActionRecord:
    """One row of the action log.

    ``seq`` 0 is the setup step (no seat, no action); the n-th action has seq n and
    drew its randomness from ``Rng(seed, n)``. ``secret`` means the notation is for
    its seat's eyes only; ``reveals`` means what anyone could see after it
    depended on information hidden from its player before, as the game establishes
    it (``games.core.secrets``); undo past it then needs everyone's consent. A row that
    follows a revealing row of the same host operation (the AI moves after a revealing
    answer) is stored as revealing without the check: any undo reaching it reaches the
    earlier one too.

    ``reveals_checked`` False: the verdict is not established yet (the host runs the
    costly part of the check only when an undo needs it, ``bot.host.undo``); ``reveals``
    is then True, so the row never claims to reveal nothing unchecked. ``reveals_chained``
    (on such a row only): it follows, in the same host operation, a row not established
    either, and reveals if that row does.
    """

    seq: int
    seat: int | None
    notation: str
    action: dict[str, Any] | None
    events: tuple[EventRecord, ...] = ()
    user_id: int | None = None
    secret: bool = False
    reveals: bool = False
    interaction_id: str | None = None
    at: float = 0.0
    reveals_checked: bool = True
    reveals_chained: bool = False


@dataclass(frozen=True)
class SessionRecord:
    """A session row with its seats.

    ``seq`` is the seq of the last action (0 after setup, and in the lobby);
    ``to_act`` the seats prompted now; ``deadline`` when the open response window
    closes (None when none is open); ``pending_undo`` an undo awaiting consent.
    ``attention`` is the incident that stopped the game (an exception in the game's
    code: ``{"incident", "seat", "at", "what"}``) until a moderator resolves it;
    ``orphaned`` (``{"at", "why"}``) is set once its channel, thread or server is gone
    for the bot; ``wait_deadline`` is when the AI answers for the human seats asked now.
    ``rules_version`` is the version of the game's rules the session was started under
    (``Game.rules_version``; 1 for sessions stored before versions were recorded);
    ``suspended`` (``{"at", "rules_version", "plays", "why", "told"}``) is set on an active
    session whose log or snapshot no longer loads under the rules this bot plays (``plays``,
    a newer version): it takes no more actions and waits for nobody until it is abandoned;
    ``told`` says whether its channel was told.
    """

    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    options: dict[str, Any]
    seed: int
    seed_hash: str
    status: Status
    version: int
    seq: int
    to_act: tuple[int, ...]
    outcome: dict[str, Any] | None
    created_by: int
    created_at: float
    updated_at: float
    started_at: float | None
    ended_at: float | None
    deadline: float | None
    pending_undo: dict[str, Any] | None
    seats: tuple[SeatRecord, ...] = ()
    attention: dict[str, Any] | None = None
    orphaned: dict[str, Any] | None = None
    wait_deadline: float | None = None
    rules_version: int = 1
    suspended: dict[str, Any] | None = None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def shown_status(self) -> str:
        """The status as players read it: ``orphaned`` for an open game whose channel or
        server is gone, ``suspended`` for one saved under older rules that no longer load,
        ``active, needs attention`` for a game stopped by an incident."""
        if self.is_open and self.orphaned is not None:
            return "orphaned"
        if self.status == "active" and self.suspended is not None:
            return "suspended"
        if self.status == "active" and self.attention is not None:
            return "active, needs attention"
        return self.status

    def seat_of(self, user_id: int) -> SeatRecord | None:
        """The seat ``user_id`` holds, or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None


@dataclass(frozen=True)
class NewSession:
    """What ``Storage.create_session`` needs. The creator is not seated by it.
    ``rules_version``: the game's ``rules_version`` (set again when the game starts)."""

    guild_id: int | None
    channel_id: int
    game_id: str
    options: dict[str, Any]
    seed: int
    created_by: int
    seats: tuple[SeatRecord, ...] = ()
    rules_version: int = 1


@dataclass(frozen=True)
class SessionUpdate:
    """One atomic change to a session; fields left at ``KEEP`` are unchanged.

    ``truncate_after`` drops actions and snapshots with seq greater than it (undo)
    before ``append`` adds rows; ``seats`` replaces the whole seat list;
    ``snapshots`` are (seq, state JSON) pairs. ``seq`` is set from the last appended
    row, or from ``truncate_after`` when nothing is appended.
    """

    status: Any = KEEP
    options: Any = KEEP
    seats: Any = KEEP
    truncate_after: int | None = None
    append: tuple[ActionRecord, ...] = ()
    snapshots: tuple[tuple[int, dict[str, Any]], ...] = ()
    to_act: Any = KEEP
    outcome: Any = KEEP
    deadline: Any = KEEP
    pending_undo: Any = KEEP
    started_at: Any = KEEP
    ended_at: Any = KEEP
    attention: Any = KEEP
    orphaned: Any = KEEP
    wait_deadline: Any = KEEP
    rules_version: Any = KEEP
    suspended: Any = KEEP


@dataclass(frozen=True)
class UserPrefs:
    """Per-user preferences: private parts and updates by DM; reminder after hours;
    ``notify`` how a player is told they are asked something: "thread" (a ping in the
    game's thread, the prompt in their private thread) or "dm" (the prompt by direct
    message, no ping); ``auto_pass`` whether the host answers for them a question whose
    only legal answer is a pass (None: the host's default, ``TABULA_AUTO_PASS``)."""

    user_id: int
    dms: bool = True
    reminder_hours: int | None = None
    notify: str = "thread"
    auto_pass: bool | None = None


NOTIFY_MODES = ("thread", "dm")
FOLLOW_MODES = ("move", "turn", "round")


@dataclass(frozen=True)
class Home:
    """A player's private home in one game: ``channel_id`` their private thread (``kind``
    "thread") or their direct-message channel ("dm"); ``message_id`` the message holding
    their live prompt and ``question`` the prompt token it answers (None: no live prompt)."""

    session_id: int
    user_id: int
    channel_id: int
    kind: str
    message_id: int | None = None
    question: str | None = None


@dataclass(frozen=True)
class SessionContext:
    """What the host needs to change a session and compose its reply, read together
    (``Storage.session_context``): one consistent picture, one call into the database.

    ``session`` the session with its seats; ``handled`` the id of the session holding an
    action stored with the interaction id asked about (None: not stored, or none asked);
    ``guild_settings`` the session's server settings (``{}`` when none are set or it has no
    server); ``follower_modes`` its followers and their modes; ``prefs`` the preferences of
    every seated human and follower (defaults for those who set none); ``last_acted`` the
    seq of each seated human's latest action (users who never acted are absent);
    ``standing_passes`` the seats passing for the rest of a phase (seat -> phase mark); ``tail``
    the log rows with ``tail_after < seq <= session.seq``, by seq, reaching back to the
    earliest of those latest actions when that is at most ``tail`` rows back (else the last
    ``tail`` rows). ``fingerprint`` sums up the server settings, followers, preferences and
    standing passes read (not the session or its log, which its version covers): an
    ``update`` given it as ``context`` is applied only while they are still those."""

    session: SessionRecord
    handled: int | None
    guild_settings: dict[str, Any]
    follower_modes: dict[int, str]
    prefs: dict[int, UserPrefs]
    last_acted: dict[int, int]
    standing_passes: dict[int, str]
    tail_after: int
    tail: tuple[ActionRecord, ...]
    fingerprint: str | None = None


def tail_start(session_seq: int, last_acted: Iterable[int], tail: int) -> int:
    """``SessionContext.tail_after`` for a session at ``session_seq``: the seq just before
    the earliest of the humans' latest actions, but at most ``tail`` rows back; the
    session's seq itself (no rows) when no human acted."""
    firsts = list(last_acted)
    if not firsts:
        return session_seq
    return max(min(firsts) - 1, session_seq - tail, 0)


@dataclass(frozen=True)
class CheckReport:
    """What ``db check`` found: SQLite's own checks and per-session replay problems.

    ``old_rules``: one line per session saved under another version of its game's rules
    whose log no longer replays under this version (not a problem of the database: such a
    game is suspended and can only be ended, ``storage.replay.replay_session``)."""

    integrity: list[str]
    foreign_keys: list[str]
    sessions_checked: int
    problems: list[str]
    old_rules: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.integrity == ["ok"] and not self.foreign_keys and not self.problems


@dataclass(frozen=True)
class OutboxRecord:
    """One message waiting in the delivery outbox: ``kind`` public / dm, ``payload`` what to
    send and where (JSON-able dict), ``attempts`` made so far, ``next_at`` when to try again
    (epoch seconds)."""

    id: int
    session_id: int
    kind: str
    payload: dict[str, Any]
    created_at: float
    attempts: int
    next_at: float


@dataclass(frozen=True)
class SeatResult:
    """How one seat of a finished game ended: the human who played it (``user_id``; None for an
    AI seat), the nation or faction it played, its ``side`` (seats with the same side played as
    one team; a game with a single side played against a fixed opponent, such as Roman War's
    Hannibal deck), whether it won, and whether the game changed that player's rating."""

    seat: int
    user_id: int | None
    faction: str | None
    side: int
    won: bool
    rated: bool


@dataclass(frozen=True)
class GameResult:
    """A finished game's result, one ``SeatResult`` per seat (statistics and ratings)."""

    session_id: int
    guild_id: int | None
    game_id: str
    ended_at: float
    seats: tuple[SeatResult, ...]

    @property
    def players(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class RatingRecord:
    """A player's skill rating in one game: openskill's ``mu`` and ``sigma``, and the rated
    games played and won."""

    game_id: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int


@runtime_checkable
class Storage(Protocol):
    """Durable sessions. Every method is a coroutine; every write is one transaction,
    durable when it returns.

    Raises
    ------
    games.core.StaleStateError
        ``update`` with a version that is not the stored one.
    ChannelBusyError
        ``create_session`` in a channel with an open session.
    DuplicateInteractionError
        ``update`` appending an interaction id already stored.
    UnknownSessionError
        A session id that does not exist.
    """

    async def open(self) -> None:
        """Connect and apply pending migrations."""
        ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int:
        """How many numbered migrations the database has applied."""
        ...

    def session_guard(self, session_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Held around reading, computing and writing one change to a session, so that no other
        process changes the same session meanwhile (PostgreSQL: an advisory lock; SQLite: nothing,
        the version check in ``update`` rejects the later writer). Raises StaleStateError when
        another process holds the session for too long."""
        ...

    async def create_session(self, new: NewSession, now: float) -> SessionRecord: ...

    async def get_session(self, session_id: int) -> SessionRecord: ...

    async def open_session(self, channel_id: int) -> SessionRecord | None:
        """The lobby or active session in ``channel_id``, or None."""
        ...

    async def sessions_in_channel(self, channel_id: int, limit: int = 10) -> list[SessionRecord]:
        """The channel's sessions, newest first."""
        ...

    async def sessions_for_user(self, user_id: int, *, include_closed: bool = False) -> list[SessionRecord]:
        """Sessions where ``user_id`` holds a seat, most recently updated first."""
        ...

    async def sessions_with_status(self, *statuses: Status) -> list[SessionRecord]: ...

    async def due_sessions(self, now: float) -> list[int]:
        """Ids of active sessions, neither orphaned, suspended nor stopped by an incident,
        whose response-window deadline or wait deadline is <= ``now``."""
        ...

    async def update(
        self, session_id: int, expected_version: int, change: SessionUpdate, now: float,
        *, context: str | None = None,
    ) -> SessionRecord:
        """Apply ``change`` atomically if the stored version is ``expected_version``;
        returns the session with version + 1.

        ``context`` (a ``SessionContext.fingerprint``): a change computed outside the
        ``session_guard`` from what this process read earlier. It is applied only if that
        is still current: the version, the context's fingerprint, and no other process
        holding the session's guard (checked in the same transaction; on PostgreSQL in the
        same statement). Otherwise ``ContextChangedError`` and nothing changes."""
        ...

    async def session_context(self, session_id: int, *, interaction_id: str | None = None,
                              tail: int = 64) -> SessionContext:
        """The session and what changing it needs (``SessionContext``), read in one
        transaction and one call into the database (on PostgreSQL one statement).

        Raises UnknownSessionError."""
        ...

    async def actions(
        self, session_id: int, *, after: int = -1, through: int | None = None
    ) -> list[ActionRecord]:
        """Log rows with ``after < seq <= through`` (all when ``through`` is None), by seq."""
        ...

    async def action_by_interaction(self, interaction_id: str) -> tuple[int, ActionRecord] | None:
        """(session id, row) of the action stored with ``interaction_id``, or None."""
        ...

    async def latest_snapshot(self, session_id: int, at_most: int) -> tuple[int, dict[str, Any]] | None:
        """(seq, state JSON) of the newest snapshot with seq <= ``at_most``, or None."""
        ...

    async def snapshots(self, session_id: int) -> list[tuple[int, dict[str, Any]]]: ...

    async def session_log(
        self, session_id: int
    ) -> tuple[SessionRecord, list[ActionRecord], list[tuple[int, dict[str, Any]]]]:
        """The session, its whole action log (seq order) and its snapshots ((seq, state) in seq
        order), read in one transaction: a consistent picture while other processes write.

        Raises UnknownSessionError."""
        ...

    async def follow(self, session_id: int, user_id: int, now: float, mode: str = "move") -> bool:
        """Add a follower (``mode`` one of ``FOLLOW_MODES``); False when already following
        with that mode (another mode is changed to this one, True)."""
        ...

    async def follower_modes(self, session_id: int) -> dict[int, str]:
        """Followers of a session and their modes (``FOLLOW_MODES``)."""
        ...

    async def homes(self, session_id: int) -> dict[int, Home]:
        """The private homes of a session's players, by user id."""
        ...

    async def set_home(self, home: Home, now: float) -> None:
        """Store (insert or replace) a player's private home and live prompt."""
        ...

    async def standing_passes(self, session_id: int) -> dict[int, str]:
        """The seats of a session passing for the rest of a phase: seat -> the phase's mark."""
        ...

    async def set_standing_pass(self, session_id: int, seat: int, mark: str | None, now: float) -> bool:
        """Start (``mark``: the phase's mark) or end (None) a seat's passing for the rest of a
        phase; True when something changed."""
        ...

    async def unfollow(self, session_id: int, user_id: int) -> bool:
        """Remove a follower; False when not following."""
        ...

    async def followers(self, session_id: int) -> list[int]: ...

    async def get_prefs(self, user_id: int) -> UserPrefs: ...

    async def set_prefs(self, prefs: UserPrefs, now: float) -> None: ...

    async def get_prefs_many(self, user_ids: Iterable[int]) -> dict[int, UserPrefs]:
        """Preferences of several users (defaults for those who set none)."""
        ...

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]: ...

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any], now: float) -> None: ...

    async def reminder_pings(self, session_id: int) -> dict[int, tuple[float, int]]:
        """Reminders sent in a session: user id -> (waiting_since, pings) of the last wait
        they were reminded of."""
        ...

    async def set_reminder_ping(
        self, session_id: int, user_id: int, waiting_since: float, pings: int, now: float
    ) -> None:
        """Record that ``user_id`` has been pinged ``pings`` times for the wait that began at
        ``waiting_since`` (replaces what was recorded for an earlier wait)."""
        ...

    async def claim_reminder_ping(
        self, session_id: int, user_id: int, waiting_since: float, pings: int, now: float
    ) -> bool:
        """Atomically record ping number ``pings`` for the wait that began at ``waiting_since``
        unless that ping (or a later one) is recorded already. True means this caller won the
        claim and sends the reminder: of several processes, exactly one gets True."""
        ...

    async def outbox_add(
        self, session_id: int, kind: str, payload: dict[str, Any], now: float, due: float | None = None
    ) -> int:
        """Store a message to deliver, due at ``due`` (default ``now``); returns its id."""
        ...

    async def outbox_due(self, now: float, limit: int = 50) -> list[OutboxRecord]:
        """Undelivered messages due at ``now`` (oldest first, at most ``limit``)."""
        ...

    async def outbox_get(self, outbox_id: int) -> OutboxRecord | None:
        """One undelivered message, or None when delivered, given up or unknown."""
        ...

    async def outbox_retry(
        self, outbox_id: int, payload: dict[str, Any], attempts: int, next_at: float, error: str
    ) -> None:
        """Record a failed attempt: the payload as the fallbacks left it, when to try again."""
        ...

    async def outbox_done(self, outbox_id: int, now: float, message_id: int | None, error: str | None = None) -> None:
        """The message was delivered (``message_id``), or given up for good (``error``)."""
        ...

    async def outbox_prune(self, before: float) -> int:
        """Forget messages delivered (or given up) before ``before``; returns how many."""
        ...

    async def closed_dms(self, user_ids: Iterable[int]) -> dict[int, float]:
        """When a DM to each of these users was last refused as closed (epoch s), for the
        users marked so."""
        ...

    async def set_closed_dms(self, user_id: int, closed_at: float | None) -> None:
        """Mark the user's DMs closed as of ``closed_at``, or clear the mark (None)."""
        ...

    async def claim_closed_dm_notice(self, session_id: int, user_id: int, now: float) -> bool:
        """Record that the game's channel is told the user's DMs are closed; True when this
        call recorded it (the caller posts the notice), False when it was told already."""
        ...

    async def clear_closed_dm_notices(self, user_id: int) -> None:
        """Forget the user's notices in every game (their DMs work again: a later closing is
        told again)."""
        ...

    async def seat_actors(self, session_id: int) -> dict[int, dict[int | None, int]]:
        """Who played each seat's actions: seat -> {user id (None: the AI or the host) -> actions}."""
        ...

    async def record_result(self, result: GameResult, ratings: Iterable[RatingRecord], now: float) -> bool:
        """Store a finished game's result and its players' new ratings in one transaction; False
        (and nothing changed) when that session's result is stored already."""
        ...

    async def results(self, *, guild_id: int | None = None, game_id: str | None = None) -> list[GameResult]:
        """Stored results (of one server, of one game, or all), by (ended_at, session id)."""
        ...

    async def ratings(self, game_id: str) -> list[RatingRecord]:
        """Every rating of ``game_id``, by user id."""
        ...

    async def replace_results(self, results: Iterable[GameResult], ratings: Iterable[RatingRecord],
                              now: float) -> None:
        """Replace every stored result and rating (``tabula ratings rebuild``), in one transaction."""
        ...

    async def mirrors(self, session_id: int) -> list[int]:
        """The channels a session's public updates are mirrored to."""
        ...

    async def set_mirror(self, session_id: int, channel_id: int, user_id: int, now: float) -> bool:
        """Mirror the session's public updates to ``channel_id``; False when it is already."""
        ...

    async def clear_mirrors(self, session_id: int, channel_id: int | None = None) -> int:
        """Stop mirroring to ``channel_id`` (None: to every channel); returns how many stopped."""
        ...

    async def backup(self, path: str) -> None:
        """Write a consistent copy of the whole database to ``path``."""
        ...

    async def integrity(self) -> tuple[list[str], list[str]]:
        """(integrity_check rows, foreign_key_check problems)."""
        ...


def group_results(rows: Iterable[Any]) -> list[GameResult]:
    """``result_seats`` rows (mappings ordered by session, then seat) as one ``GameResult`` per session."""
    out: list[GameResult] = []
    for r in rows:
        seat = SeatResult(r["seat"], r["user_id"], r["faction"], r["side"], bool(r["won"]), bool(r["rated"]))
        if out and out[-1].session_id == r["session_id"]:
            last = out[-1]
            out[-1] = GameResult(last.session_id, last.guild_id, last.game_id, last.ended_at, (*last.seats, seat))
        else:
            out.append(GameResult(r["session_id"], r["guild_id"], r["game_id"], r["ended_at"], (seat,)))
    return out


def dumps_json(value: Any) -> str:
    """Compact, key-sorted JSON text, as the backends store options, actions and states."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
