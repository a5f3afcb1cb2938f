"""PostgreSQL storage on asyncpg: the ``Storage`` protocol for several bot processes.

Selected by a database URL (``TABULA_DATABASE=postgresql://user@host/db``, see
``storage.url``). The guarantees are those of ``SqliteStorage``:

- Durable before a reply: every write is one transaction, committed with
  ``synchronous_commit = on`` (set on every connection, whatever the server default),
  so a commit that returned survives a crash of the server.
- Optimistic versions: ``update`` changes a session only ``WHERE version = expected``
  and raises ``StaleStateError`` otherwise, changing nothing.
- Interaction ids applied once: a partial unique index on ``actions.interaction_id``.
- One open session per channel: a partial unique index on ``sessions.channel_id``.

For several processes on one database it adds:

- ``session_guard``: a PostgreSQL advisory lock per session, held while the host reads,
  computes and writes one change, so two processes never apply actions to the same
  session at once (for instance while a shard moves from one process to another). The
  lock lives on its own connection pool, so a process waiting for it holds nothing the
  lock's owner needs; if a process dies, its connection closes and the lock is released.
- ``claim_reminder_ping``: a compare-and-set on ``reminder_pings``, so of several
  processes exactly one sends each reminder.

Migrations are the numbered files in ``storage/migrations/postgresql`` (the same numbers
and names as the SQLite ones), each applied in its own transaction under an advisory
lock and recorded in the table ``tabula_schema``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from games.core import StaleStateError

from .base import (
    KEEP,
    ActionRecord,
    ChannelBusyError,
    ContextChangedError,
    DuplicateInteractionError,
    EventRecord,
    GameResult,
    Home,
    NewSession,
    OutboxRecord,
    RatingRecord,
    SeatRecord,
    SessionContext,
    SessionRecord,
    SessionUpdate,
    Status,
    UnknownSessionError,
    UnsupportedOperationError,
    UserPrefs,
    dumps_json,
    group_results,
    seed_hash,
    tail_start,
)
from .migrations import read as read_migrations

# Advisory lock namespaces (the first key of pg_advisory_lock(int, int)): "Tb" + 1 / 2.
LOCK_MIGRATE = 0x5462_0001
LOCK_SESSION = 0x5462_0002

_SESSION_COLUMNS = (
    "id, guild_id, channel_id, game_id, options, seed, seed_hash, status, version, seq, to_act, "
    "outcome, created_by, created_at, updated_at, started_at, ended_at, deadline, pending_undo, "
    "attention, orphaned, wait_deadline, rules_version, suspended"
)
_SESSIONS_SELECT = (
    f"SELECT {_SESSION_COLUMNS}, (SELECT coalesce(json_agg(json_build_array(seat, user_id, faction, ai, "
    "joined_at, left_at) ORDER BY seat), '[]'::json) FROM seats WHERE seats.session_id = sessions.id) "
    "AS seats_json FROM sessions "
)
_ACTION_COLUMNS = ("seq, seat, user_id, notation, action, events, secret, reveals, interaction_id, at, "
                   "reveals_checked, reveals_chained")


_OUTBOX_COLUMNS = "id, session_id, kind, payload, created_at, attempts, next_at"


def _outbox(r: Any) -> OutboxRecord:
    return OutboxRecord(
        r["id"], r["session_id"], r["kind"], json.loads(r["payload"]), r["created_at"], r["attempts"], r["next_at"]
    )


def pg_migrations() -> list[tuple[int, str, str]]:
    """The PostgreSQL migrations: (number, file name, SQL), sorted, numbered 1.. without gaps."""
    return read_migrations("storage.migrations.postgresql")


PG_SCHEMA_VERSION = len(pg_migrations())


_dumps = dumps_json


def _lock_key(session_id: int) -> int:
    """The second advisory-lock key of a session: its id folded into a signed int4 (given as
    ``$2`` to ``_SESSION_KEY``)."""
    k = session_id & 0xFFFF_FFFF
    return k - (1 << 32) if k >= (1 << 31) else k


# The second key as the server computes it: the session's ``_lock_key`` ($2) mixed with the
# schema, so that deployments (and test runs) in other schemas of the same database never
# hold each other's session locks.
_SESSION_KEY = "($2::integer # hashtext(current_schema()))"


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The main pool's reset on release: nothing to send. asyncpg rolls back a transaction left
    open before calling it, and this storage leaves no other session state on those connections
    (no SET, LISTEN, cursors or session-level advisory locks: those live on the lock pool, which
    keeps asyncpg's reset query), so releasing a connection costs no round trip; its default
    reset would send one after every statement."""


async def _init_connection(conn: asyncpg.Connection) -> None:
    for name in ("json", "jsonb"):
        await conn.set_type_codec(name, encoder=_dumps, decoder=json.loads, schema="pg_catalog")



def _fingerprint_sql(sid: str) -> str:
    """SQL for ``SessionContext.fingerprint`` of the session whose id is the expression ``sid``:
    md5 of its server settings, followers, its seated humans' and followers' preferences and
    its standing passes (read in the statement's snapshot)."""
    return (
        "md5(json_build_array("
        f"(SELECT g.settings FROM guild_settings g, sessions x WHERE x.id = {sid} AND g.guild_id = x.guild_id), "
        f"(SELECT json_agg(json_build_array(f.user_id, f.mode) ORDER BY f.user_id) FROM followers f "
        f"WHERE f.session_id = {sid}), "
        "(SELECT json_agg(json_build_array(p.user_id, p.dms, p.reminder_hours, p.notify, p.auto_pass) "
        f"ORDER BY p.user_id) FROM user_prefs p WHERE p.user_id IN (SELECT user_id FROM seats WHERE session_id = {sid} "
        f"UNION SELECT user_id FROM followers WHERE session_id = {sid})), "
        "(SELECT json_agg(json_build_array(sp.seat, sp.mark) ORDER BY sp.seat) FROM standing_passes sp "
        f"WHERE sp.session_id = {sid}))::text)"
    )


# ``PostgresStorage.session_context`` in one statement: $1 session id, $2 interaction id
# (or NULL), $3 how many rows of the log at most. The latest action of each seated human
# is found newest first along the primary key; the tail reaches back to the earliest of
# them (``storage.base.tail_start``, which the reader applies again to be exact).
_CONTEXT_SELECT = (
    f"WITH s AS ({_SESSIONS_SELECT}WHERE id = $1), "
    "humans AS (SELECT DISTINCT user_id FROM seats WHERE session_id = $1 AND user_id IS NOT NULL), "
    "fol AS (SELECT user_id, mode, since FROM followers WHERE session_id = $1), "
    "last AS (SELECT h.user_id, (SELECT a.seq FROM actions a, s WHERE a.session_id = $1 AND a.user_id = h.user_id "
    "AND a.seq <= s.seq ORDER BY a.seq DESC LIMIT 1) AS seq FROM humans h) "
    "SELECT s.*, "
    "(SELECT session_id FROM actions WHERE interaction_id = $2::text) AS handled, "
    "(SELECT settings FROM guild_settings g WHERE g.guild_id = s.guild_id) AS guild_settings, "
    "(SELECT coalesce(json_agg(json_build_array(user_id, mode) ORDER BY since, user_id), '[]'::json) FROM fol) "
    "AS followers_json, "
    "(SELECT coalesce(json_agg(json_build_array(p.user_id, p.dms, p.reminder_hours, p.notify, p.auto_pass)), "
    "'[]'::json) "
    "FROM user_prefs p WHERE p.user_id IN (SELECT user_id FROM humans UNION SELECT user_id FROM fol)) AS prefs_json, "
    "(SELECT coalesce(json_agg(json_build_array(user_id, seq)), '[]'::json) FROM last WHERE seq IS NOT NULL) "
    "AS last_json, "
    "(SELECT coalesce(json_agg(json_build_array(seat, mark)), '[]'::json) FROM standing_passes "
    "WHERE session_id = $1) AS standing_json, "
    "(SELECT coalesce(json_agg(json_build_array(a.seq, a.seat, a.user_id, a.notation, a.action, a.events, "
    "a.secret, a.reveals, a.interaction_id, a.at, a.reveals_checked, a.reveals_chained) ORDER BY a.seq), "
    "'[]'::json) FROM actions a "
    "WHERE a.session_id = $1 AND a.seq <= s.seq AND a.seq > greatest(s.seq - $3::integer, "
    "coalesce((SELECT min(seq) FROM last) - 1, s.seq), 0)) AS tail_json, "
    f"{_fingerprint_sql('$1')} AS fingerprint "
    "FROM s"
)


def _update_conflict(e: Exception) -> Exception:
    """The storage error for a unique violation while appending actions: a redelivered
    interaction, another open game in the channel, or ``e`` itself."""
    name = getattr(e, "constraint_name", None)
    if name == "actions_interaction":
        return DuplicateInteractionError("This interaction was already handled; nothing was applied twice.")
    if name == "sessions_one_open_per_channel":
        return ChannelBusyError("This channel already has another open game.")
    return e


async def _not_updated(c: Any, session_id: int, expected_version: int) -> Exception:
    """Why an update guarded by ``expected_version`` changed no row: the session is unknown,
    or another writer moved it on (the version now stored)."""
    version = await c.fetchval("SELECT version FROM sessions WHERE id = $1", session_id)
    if version is None:
        return UnknownSessionError(f"There is no game session #{session_id}.")
    return StaleStateError(
        f"The game changed while you were deciding (version {version}, you saw "
        f"{expected_version}); look at the current state and try again."
    )

def _context_changed() -> ContextChangedError:
    return ContextChangedError("The game or its settings changed since this process last read them, or another "
                               "process is changing it; nothing was applied.")


class PostgresStorage:
    """``storage.base.Storage`` on a PostgreSQL database.

    Parameters
    ----------
    url : str
        ``postgresql://user:password@host:port/database``; extra query parameters are
        server settings (``?search_path=tabula`` keeps the tables in that schema).
    min_connections, max_connections : int
        Size of the pool used for reads and writes (connections).
    max_lock_connections : int
        Size of the separate pool that holds session advisory locks (connections): at most
        this many sessions are being changed at once by this process.
    lock_timeout_ms : int
        How long ``session_guard`` waits for another process to finish a change to the
        same session (milliseconds) before giving up with ``StaleStateError``.
    migrate_to : int | None
        Apply migrations up to this number only (tests of old schemas); None applies all.
    read_only : bool
        Open without applying migrations or writing anything (``tabula db check``/``info``);
        a database without Tabula's tables raises ``RuntimeError`` saying so.
    """

    def __init__(
        self,
        url: str,
        *,
        min_connections: int = 1,
        max_connections: int = 10,
        max_lock_connections: int = 10,
        lock_timeout_ms: int = 30_000,
        migrate_to: int | None = None,
        read_only: bool = False,
    ) -> None:
        self.url = url
        self.read_only = read_only
        self.min_connections = min_connections
        self.max_connections = max_connections
        self.max_lock_connections = max_lock_connections
        self.lock_timeout_ms = lock_timeout_ms
        self.migrate_to = migrate_to
        self._pool: asyncpg.Pool | None = None
        self._lock_pool: asyncpg.Pool | None = None

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> PostgresStorage:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("storage is not open; call open() first")
        return self._pool

    async def open(self) -> None:
        """Connect (two pools), then apply pending migrations."""
        if self._pool is not None:
            return
        settings = {"synchronous_commit": "on", "application_name": "tabula"}
        self._pool = await asyncpg.create_pool(
            self.url, min_size=min(self.min_connections, self.max_connections), max_size=self.max_connections,
            init=_init_connection, reset=_keep_session, server_settings=settings,
        )
        try:
            self._lock_pool = await asyncpg.create_pool(
                self.url, min_size=0, max_size=self.max_lock_connections,
                server_settings={**settings, "lock_timeout": str(int(self.lock_timeout_ms))},
            )
            if not self.read_only:
                await self._migrate()
            elif await self.schema_version() == 0:
                raise RuntimeError("the database has no Tabula tables (nothing was created: a check never writes)")
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        pools, self._pool, self._lock_pool = (self._pool, self._lock_pool), None, None
        for pool in pools:
            if pool is not None:
                await pool.close()

    async def schema_version(self) -> int:
        """How many migrations the database has applied (0 for an empty database)."""
        async with self.pool.acquire() as c:
            exists = await c.fetchval("SELECT to_regclass('tabula_schema') IS NOT NULL")
            if not exists:
                return 0
            return int(await c.fetchval("SELECT coalesce(max(version), 0) FROM tabula_schema"))

    async def _migrate(self) -> None:
        target = PG_SCHEMA_VERSION if self.migrate_to is None else self.migrate_to
        async with self.pool.acquire() as c, c.transaction():
            await c.execute("SELECT pg_advisory_xact_lock($1, 0)", LOCK_MIGRATE)
            await c.execute(
                "CREATE TABLE IF NOT EXISTS tabula_schema (version integer PRIMARY KEY, name text NOT NULL, "
                "applied_at timestamptz NOT NULL DEFAULT now())"
            )
            current = int(await c.fetchval("SELECT coalesce(max(version), 0) FROM tabula_schema"))
            if current > PG_SCHEMA_VERSION:
                raise RuntimeError(
                    f"database schema {current} is newer than this program's {PG_SCHEMA_VERSION}; upgrade Tabula"
                )
            for number, name, sql in pg_migrations():
                if current < number <= target:
                    await c.execute(sql)
                    await c.execute("INSERT INTO tabula_schema (version, name) VALUES ($1, $2)", number, name)

    # ------------------------------------------------------------------ guards

    @asynccontextmanager
    async def session_guard(self, session_id: int) -> AsyncIterator[None]:
        """Hold the session's advisory lock: no other process changes the session meanwhile.

        Raises
        ------
        StaleStateError
            Another process held the lock for longer than ``lock_timeout_ms``.
        """
        if self._lock_pool is None:
            raise RuntimeError("storage is not open; call open() first")
        async with self._lock_pool.acquire() as c:
            try:
                await c.execute(f"SELECT pg_advisory_lock($1, {_SESSION_KEY})", LOCK_SESSION, _lock_key(session_id))
            except asyncpg.LockNotAvailableError:
                raise StaleStateError(
                    "Another bot process is still changing this game; try again in a moment."
                ) from None
            try:
                yield
            finally:
                # if this fails the pool resets the connection, which releases every lock it held
                await c.execute(f"SELECT pg_advisory_unlock($1, {_SESSION_KEY})", LOCK_SESSION,
                                _lock_key(session_id))

    # ------------------------------------------------------------------ helpers

    async def _sessions(self, conn: Any, where: str, *params: Any) -> list[SessionRecord]:
        rows = await conn.fetch(_SESSIONS_SELECT + where, *params)
        return [_session(r) for r in rows]

    async def _read_sessions(self, where: str, *params: Any) -> list[SessionRecord]:
        async with self.pool.acquire() as c:
            return await self._sessions(c, where, *params)

    # ------------------------------------------------------------------ sessions

    async def create_session(self, new: NewSession, now: float) -> SessionRecord:
        """Insert a lobby session (version 0) and its seats. Raises ChannelBusyError."""
        async with self.pool.acquire() as c:
            try:
                async with c.transaction():
                    session_id = await c.fetchval(
                        "INSERT INTO sessions (guild_id, channel_id, game_id, options, seed, seed_hash, status, "
                        "version, seq, created_by, created_at, updated_at, rules_version) "
                        "VALUES ($1, $2, $3, $4, $5, $6, 'lobby', 0, 0, $7, $8, $8, $9) RETURNING id",
                        new.guild_id, new.channel_id, new.game_id, new.options, new.seed, seed_hash(new.seed),
                        new.created_by, now, new.rules_version,
                    )
                    await _write_seats(c, session_id, new.seats)
            except asyncpg.UniqueViolationError as e:
                if e.constraint_name == "sessions_one_open_per_channel":
                    raise ChannelBusyError(
                        "This channel already has a game that is not finished; finish or abandon it "
                        "first, or start the new game in a thread."
                    ) from None
                raise
            return (await self._sessions(c, "WHERE id = $1", session_id))[0]

    async def get_session(self, session_id: int) -> SessionRecord:
        found = await self._read_sessions("WHERE id = $1", session_id)
        if not found:
            raise UnknownSessionError(f"There is no game session #{session_id}.")
        return found[0]

    async def open_session(self, channel_id: int) -> SessionRecord | None:
        found = await self._read_sessions("WHERE channel_id = $1 AND status IN ('lobby', 'active')", channel_id)
        return found[0] if found else None

    async def sessions_in_channel(self, channel_id: int, limit: int = 10) -> list[SessionRecord]:
        return await self._read_sessions("WHERE channel_id = $1 ORDER BY id DESC LIMIT $2", channel_id, int(limit))

    async def sessions_for_user(self, user_id: int, *, include_closed: bool = False) -> list[SessionRecord]:
        status = "" if include_closed else "AND status IN ('lobby', 'active')"
        return await self._read_sessions(
            f"WHERE id IN (SELECT session_id FROM seats WHERE user_id = $1) {status} "
            "ORDER BY updated_at DESC, id DESC",
            user_id,
        )

    async def sessions_with_status(self, *statuses: Status) -> list[SessionRecord]:
        return await self._read_sessions("WHERE status = ANY($1::text[]) ORDER BY id", list(statuses))

    async def due_sessions(self, now: float) -> list[int]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                "SELECT id FROM sessions WHERE status = 'active' AND orphaned IS NULL AND attention IS NULL "
                "AND suspended IS NULL "
                "AND ((deadline IS NOT NULL AND deadline <= $1) OR (wait_deadline IS NOT NULL AND wait_deadline <= $1)) "
                "ORDER BY least(deadline, wait_deadline)",
                now,
            )
        return [r[0] for r in rows]

    async def update(
        self, session_id: int, expected_version: int, change: SessionUpdate, now: float,
        *, context: str | None = None,
    ) -> SessionRecord:
        """Apply ``change`` in one transaction if the version is ``expected_version``.

        With ``context`` (``Storage.update``) the change is applied only if no other process
        holds the session's guard (``pg_try_advisory_xact_lock`` on its key: a guarded change
        and this one never overlap) and the context's fingerprint is still ``context``;
        otherwise ContextChangedError. An action's change is one statement either way.

        Raises StaleStateError, UnknownSessionError, DuplicateInteractionError,
        ChannelBusyError, ContextChangedError (see ``SqliteStorage.update``)."""
        sets = ["version = version + 1", "updated_at = $1"]
        params: list[Any] = [now]

        def put(column: str, value: Any) -> None:
            if value is not KEEP:
                params.append(value)
                sets.append(f"{column} = ${len(params)}")

        put("status", change.status)
        put("options", change.options)
        put("to_act", KEEP if change.to_act is KEEP else list(change.to_act))
        put("outcome", change.outcome)
        put("deadline", change.deadline)
        put("pending_undo", change.pending_undo)
        put("started_at", change.started_at)
        put("ended_at", change.ended_at)
        put("attention", change.attention)
        put("orphaned", change.orphaned)
        put("wait_deadline", change.wait_deadline)
        put("rules_version", change.rules_version)
        put("suspended", change.suspended)
        if change.append:
            put("seq", change.append[-1].seq)
        elif change.truncate_after is not None:
            put("seq", change.truncate_after)
        n = len(params)
        sql = f"UPDATE sessions SET {', '.join(sets)} WHERE id = ${n + 1} AND version = ${n + 2}"
        if change.truncate_after is None and change.seats is KEEP:
            return await self._update_in_one_statement(session_id, expected_version, change, now, sets, params,
                                                       context)
        async with self.pool.acquire() as c:
            try:
                async with c.transaction():
                    if context is not None and not await c.fetchval(
                            f"SELECT pg_try_advisory_xact_lock($1, {_SESSION_KEY}) AND {_fingerprint_sql('$3::bigint')} = $4",
                            LOCK_SESSION, _lock_key(session_id), session_id, context):
                        raise _context_changed()
                    status = await c.execute(sql, *params, session_id, expected_version)
                    if status != "UPDATE 1":
                        raise await _not_updated(c, session_id, expected_version)
                    if change.truncate_after is not None:
                        await c.execute(
                            "DELETE FROM actions WHERE session_id = $1 AND seq > $2", session_id, change.truncate_after
                        )
                        await c.execute(
                            "DELETE FROM snapshots WHERE session_id = $1 AND seq > $2",
                            session_id, change.truncate_after,
                        )
                    if change.seats is not KEEP:
                        await c.execute("DELETE FROM seats WHERE session_id = $1", session_id)
                        await _write_seats(c, session_id, change.seats)
                    if change.append:
                        await _write_actions(c, session_id, change.append, now)
                    if change.snapshots:
                        await c.executemany(
                            "INSERT INTO snapshots (session_id, seq, state, at) VALUES ($1, $2, $3, $4) "
                            "ON CONFLICT (session_id, seq) DO UPDATE SET state = excluded.state, at = excluded.at",
                            [(session_id, seq, state, now) for seq, state in change.snapshots],
                        )
                    found = await self._sessions(c, "WHERE id = $1", session_id)
            except asyncpg.UniqueViolationError as e:
                raise _update_conflict(e) from None
        return found[0]

    async def _update_in_one_statement(
        self,
        session_id: int,
        expected_version: int,
        change: SessionUpdate,
        now: float,
        sets: list[str],
        params: list[Any],
        context: str | None = None,
    ) -> SessionRecord:
        """``update`` of a change that appends (and snapshots) only, as one statement: the
        session's UPDATE, the action and snapshot INSERTs (data-modifying CTEs) and the
        updated session read back, so a stored action costs one round trip (the statement
        commits on its own). A refused one reads the version once more to say why; one
        refused with ``context`` does not (ContextChangedError: the caller reads again)."""
        rows = change.append
        snaps = change.snapshots or ()
        n = len(params)
        p = [*params, session_id, expected_version]
        arrays = [
            [a.seq for a in rows], [a.seat for a in rows], [a.user_id for a in rows], [a.notation for a in rows],
            [None if a.action is None else _dumps(a.action) for a in rows],
            [_dumps([e.to_json() for e in a.events]) for a in rows],
            [bool(a.secret) for a in rows], [bool(a.reveals) for a in rows], [a.interaction_id for a in rows],
            [a.at or now for a in rows], [seq for seq, _ in snaps], [_dumps(state) for _, state in snaps], now,
            [bool(a.reveals_checked) for a in rows], [bool(a.reveals_chained) for a in rows],
        ]
        k = len(p)
        guard, ok = "", ""
        if context is not None:
            arrays += [context, LOCK_SESSION, _lock_key(session_id)]
            guard = (f"ok AS (SELECT pg_try_advisory_xact_lock(${k + 17}::integer, "
                     f"{_SESSION_KEY.replace('$2', f'${k + 18}')}) "
                     f"AND {_fingerprint_sql(f'${n + 1}::bigint')} = ${k + 16}::text AS ok), ")
            ok = " AND (SELECT ok FROM ok)"
        sql = (
            f"WITH {guard}upd AS (UPDATE sessions SET {', '.join(sets)} WHERE id = ${n + 1} AND version = ${n + 2}"
            f"{ok} RETURNING {_SESSION_COLUMNS}), "
            f"ins AS (INSERT INTO actions (session_id, {_ACTION_COLUMNS}) SELECT upd.id, t.seq, t.seat, t.user_id, "
            "t.notation, t.action::jsonb, t.events::jsonb, t.secret, t.reveals, t.interaction_id, t.at, "
            "t.reveals_checked, t.reveals_chained FROM upd, "
            f"unnest(${k + 1}::integer[], ${k + 2}::integer[], ${k + 3}::bigint[], ${k + 4}::text[], "
            f"${k + 5}::text[], ${k + 6}::text[], ${k + 7}::boolean[], ${k + 8}::boolean[], ${k + 9}::text[], "
            f"${k + 10}::double precision[], ${k + 14}::boolean[], ${k + 15}::boolean[]) AS t(seq, seat, user_id, "
            "notation, action, events, secret, reveals, interaction_id, at, reveals_checked, reveals_chained) "
            "RETURNING 1), "
            f"snap AS (INSERT INTO snapshots (session_id, seq, state, at) SELECT upd.id, s.seq, s.state::jsonb, "
            f"${k + 13}::double precision FROM upd, unnest(${k + 11}::integer[], ${k + 12}::text[]) AS s(seq, state) "
            "ON CONFLICT (session_id, seq) DO UPDATE SET state = excluded.state, at = excluded.at RETURNING 1) "
            "SELECT upd.*, (SELECT coalesce(json_agg(json_build_array(seat, user_id, faction, ai, joined_at, "
            "left_at) ORDER BY seat), '[]'::json) FROM seats WHERE seats.session_id = upd.id) AS seats_json, "
            "(SELECT count(*) FROM ins) AS appended, (SELECT count(*) FROM snap) AS snapshotted FROM upd"
        )
        async with self.pool.acquire() as c:
            try:
                row = await c.fetchrow(sql, *p, *arrays)
            except asyncpg.UniqueViolationError as e:
                raise _update_conflict(e) from None
            if row is None:
                if context is not None:
                    raise _context_changed()
                raise await _not_updated(c, session_id, expected_version)
        return _session(row)

    async def session_context(self, session_id: int, *, interaction_id: str | None = None,
                              tail: int = 64) -> SessionContext:
        """``Storage.session_context`` as one statement (one round trip, one snapshot).
        Raises UnknownSessionError."""
        async with self.pool.acquire() as c:
            row = await c.fetchrow(_CONTEXT_SELECT, session_id, interaction_id, tail)
        if row is None:
            raise UnknownSessionError(f"There is no game session #{session_id}.")
        rec = _session(row)
        modes = {u: m for u, m in row["followers_json"]}
        prefs = {u: UserPrefs(u) for u in {*(s.user_id for s in rec.seats if s.user_id is not None), *modes}}
        for u, dms, hours, notify, auto_pass in row["prefs_json"]:
            prefs[u] = UserPrefs(u, bool(dms), hours, notify, auto_pass)
        last = {u: seq for u, seq in row["last_json"]}
        after = tail_start(rec.seq, last.values(), tail)
        rows = tuple(
            ActionRecord(seq=r[0], seat=r[1], user_id=r[2], notation=r[3], action=r[4],
                         events=tuple(EventRecord.from_json(e) for e in r[5]), secret=bool(r[6]),
                         reveals=bool(r[7]), interaction_id=r[8], at=float(r[9]), reveals_checked=bool(r[10]),
                         reveals_chained=bool(r[11]))
            for r in row["tail_json"] if r[0] > after
        )
        standing = {seat: mark for seat, mark in row["standing_json"]}
        return SessionContext(rec, row["handled"], row["guild_settings"] or {}, modes, prefs, last, standing, after,
                              rows, row["fingerprint"])

    # ------------------------------------------------------------------ the log

    async def actions(
        self, session_id: int, *, after: int = -1, through: int | None = None
    ) -> list[ActionRecord]:
        hi = (1 << 31) - 1 if through is None else through
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                f"SELECT {_ACTION_COLUMNS} FROM actions WHERE session_id = $1 AND seq > $2 AND seq <= $3 "
                "ORDER BY seq",
                session_id, after, hi,
            )
        return [_action(r) for r in rows]

    async def action_by_interaction(self, interaction_id: str) -> tuple[int, ActionRecord] | None:
        async with self.pool.acquire() as c:
            row = await c.fetchrow(
                f"SELECT session_id, {_ACTION_COLUMNS} FROM actions WHERE interaction_id = $1", interaction_id
            )
        return None if row is None else (row["session_id"], _action(row))

    async def latest_snapshot(self, session_id: int, at_most: int) -> tuple[int, dict[str, Any]] | None:
        async with self.pool.acquire() as c:
            row = await c.fetchrow(
                "SELECT seq, state FROM snapshots WHERE session_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 1",
                session_id, at_most,
            )
        return None if row is None else (row["seq"], row["state"])

    async def snapshots(self, session_id: int) -> list[tuple[int, dict[str, Any]]]:
        async with self.pool.acquire() as c:
            rows = await c.fetch("SELECT seq, state FROM snapshots WHERE session_id = $1 ORDER BY seq", session_id)
        return [(r["seq"], r["state"]) for r in rows]

    async def session_log(
        self, session_id: int
    ) -> tuple[SessionRecord, list[ActionRecord], list[tuple[int, dict[str, Any]]]]:
        async with self.pool.acquire() as c, c.transaction(isolation="repeatable_read", readonly=True):
            found = await self._sessions(c, "WHERE id = $1", session_id)
            if not found:
                raise UnknownSessionError(f"There is no game session #{session_id}.")
            rows = await c.fetch(f"SELECT {_ACTION_COLUMNS} FROM actions WHERE session_id = $1 ORDER BY seq",
                                 session_id)
            snaps = await c.fetch("SELECT seq, state FROM snapshots WHERE session_id = $1 ORDER BY seq",
                                  session_id)
        return found[0], [_action(r) for r in rows], [(r["seq"], r["state"]) for r in snaps]

    # ------------------------------------------------------------------ people

    async def follow(self, session_id: int, user_id: int, now: float, mode: str = "move") -> bool:
        async with self.pool.acquire() as c:
            try:
                status = await c.execute(
                    "INSERT INTO followers (session_id, user_id, since, mode) VALUES ($1, $2, $3, $4) "
                    "ON CONFLICT (session_id, user_id) DO UPDATE SET mode = excluded.mode "
                    "WHERE followers.mode <> excluded.mode",
                    session_id, user_id, now, mode,
                )
            except asyncpg.ForeignKeyViolationError:
                raise UnknownSessionError(f"There is no game session #{session_id}.") from None
        return status == "INSERT 0 1"

    async def follower_modes(self, session_id: int) -> dict[int, str]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                "SELECT user_id, mode FROM followers WHERE session_id = $1 ORDER BY since, user_id", session_id
            )
        return {r[0]: r[1] for r in rows}

    async def homes(self, session_id: int) -> dict[int, Home]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                "SELECT user_id, channel_id, kind, message_id, question FROM homes WHERE session_id = $1",
                session_id,
            )
        return {r[0]: Home(session_id, r[0], r[1], r[2], r[3], r[4]) for r in rows}

    async def set_home(self, home: Home, now: float) -> None:
        async with self.pool.acquire() as c:
            await c.execute(
                "INSERT INTO homes (session_id, user_id, channel_id, kind, message_id, question, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id, user_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, kind = excluded.kind, message_id = excluded.message_id, "
                "question = excluded.question, updated_at = excluded.updated_at",
                home.session_id, home.user_id, home.channel_id, home.kind, home.message_id, home.question, now,
            )

    async def standing_passes(self, session_id: int) -> dict[int, str]:
        async with self.pool.acquire() as c:
            rows = await c.fetch("SELECT seat, mark FROM standing_passes WHERE session_id = $1", session_id)
        return {r[0]: r[1] for r in rows}

    async def set_standing_pass(self, session_id: int, seat: int, mark: str | None, now: float) -> bool:
        async with self.pool.acquire() as c:
            if mark is None:
                status = await c.execute(
                    "DELETE FROM standing_passes WHERE session_id = $1 AND seat = $2", session_id, seat
                )
            else:
                status = await c.execute(
                    "INSERT INTO standing_passes (session_id, seat, mark, since) VALUES ($1, $2, $3, $4) "
                    "ON CONFLICT (session_id, seat) DO UPDATE SET mark = excluded.mark, since = excluded.since",
                    session_id, seat, mark, now,
                )
        return status.endswith(" 1")

    async def unfollow(self, session_id: int, user_id: int) -> bool:
        async with self.pool.acquire() as c:
            status = await c.execute(
                "DELETE FROM followers WHERE session_id = $1 AND user_id = $2", session_id, user_id
            )
        return status == "DELETE 1"

    async def followers(self, session_id: int) -> list[int]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                "SELECT user_id FROM followers WHERE session_id = $1 ORDER BY since, user_id", session_id
            )
        return [r[0] for r in rows]

    async def get_prefs(self, user_id: int) -> UserPrefs:
        return (await self.get_prefs_many([user_id]))[user_id]

    async def set_prefs(self, prefs: UserPrefs, now: float) -> None:
        async with self.pool.acquire() as c:
            await c.execute(
                "INSERT INTO user_prefs (user_id, dms, reminder_hours, notify, auto_pass, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT (user_id) DO UPDATE SET dms = excluded.dms, notify = excluded.notify, "
                "reminder_hours = excluded.reminder_hours, auto_pass = excluded.auto_pass, "
                "updated_at = excluded.updated_at",
                prefs.user_id, bool(prefs.dms), prefs.reminder_hours, prefs.notify, prefs.auto_pass, now,
            )

    async def get_prefs_many(self, user_ids: Iterable[int]) -> dict[int, UserPrefs]:
        ids = sorted(set(user_ids))
        out = {u: UserPrefs(u) for u in ids}
        if ids:
            async with self.pool.acquire() as c:
                rows = await c.fetch(
                    "SELECT user_id, dms, reminder_hours, notify, auto_pass FROM user_prefs "
                    "WHERE user_id = ANY($1::bigint[])",
                    ids,
                )
            for r in rows:
                out[r["user_id"]] = UserPrefs(r["user_id"], bool(r["dms"]), r["reminder_hours"], r["notify"],
                                              r["auto_pass"])
        return out

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self.pool.acquire() as c:
            value = await c.fetchval("SELECT settings FROM guild_settings WHERE guild_id = $1", guild_id)
        return {} if value is None else value

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any], now: float) -> None:
        async with self.pool.acquire() as c:
            await c.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                guild_id, settings, now,
            )

    async def reminder_pings(self, session_id: int) -> dict[int, tuple[float, int]]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                "SELECT user_id, waiting_since, pings FROM reminder_pings WHERE session_id = $1", session_id
            )
        return {r["user_id"]: (r["waiting_since"], r["pings"]) for r in rows}

    async def set_reminder_ping(
        self, session_id: int, user_id: int, waiting_since: float, pings: int, now: float
    ) -> None:
        async with self.pool.acquire() as c:
            await c.execute(
                "INSERT INTO reminder_pings (session_id, user_id, waiting_since, pings, last_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (session_id, user_id) DO UPDATE SET "
                "waiting_since = excluded.waiting_since, pings = excluded.pings, last_at = excluded.last_at",
                session_id, user_id, waiting_since, pings, now,
            )

    async def claim_reminder_ping(
        self, session_id: int, user_id: int, waiting_since: float, pings: int, now: float
    ) -> bool:
        """Record ping number ``pings`` of the wait that began at ``waiting_since`` unless it (or a
        later one) is recorded already; True when this call recorded it (and should send it)."""
        async with self.pool.acquire() as c:
            won = await c.fetchval(
                "INSERT INTO reminder_pings AS r (session_id, user_id, waiting_since, pings, last_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (session_id, user_id) DO UPDATE SET "
                "waiting_since = excluded.waiting_since, pings = excluded.pings, last_at = excluded.last_at "
                "WHERE r.waiting_since <> excluded.waiting_since OR r.pings < excluded.pings RETURNING 1",
                session_id, user_id, waiting_since, pings, now,
            )
        return won is not None

    # ------------------------------------------------------------------ outbox

    async def outbox_add(
        self, session_id: int, kind: str, payload: dict[str, Any], now: float, due: float | None = None
    ) -> int:
        async with self.pool.acquire() as c:
            return int(await c.fetchval(
                "INSERT INTO outbox (session_id, kind, payload, created_at, next_at) "
                "VALUES ($1, $2, $3, $4, $5) RETURNING id",
                session_id, kind, dumps_json(payload), now, now if due is None else due,
            ))

    async def outbox_due(self, now: float, limit: int = 50) -> list[OutboxRecord]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE done_at IS NULL AND next_at <= $1 "
                "ORDER BY next_at, id LIMIT $2",
                now, limit,
            )
        return [_outbox(r) for r in rows]

    async def outbox_get(self, outbox_id: int) -> OutboxRecord | None:
        async with self.pool.acquire() as c:
            row = await c.fetchrow(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id = $1 AND done_at IS NULL", outbox_id
            )
        return None if row is None else _outbox(row)

    async def outbox_retry(
        self, outbox_id: int, payload: dict[str, Any], attempts: int, next_at: float, error: str
    ) -> None:
        async with self.pool.acquire() as c:
            await c.execute(
                "UPDATE outbox SET payload = $1, attempts = $2, next_at = $3, last_error = $4 WHERE id = $5",
                dumps_json(payload), attempts, next_at, error[:500], outbox_id,
            )

    async def outbox_done(self, outbox_id: int, now: float, message_id: int | None, error: str | None = None) -> None:
        async with self.pool.acquire() as c:
            await c.execute(
                "UPDATE outbox SET done_at = $1, message_id = $2, last_error = COALESCE($3, last_error) WHERE id = $4",
                now, message_id, error[:500] if error else None, outbox_id,
            )

    async def outbox_prune(self, before: float) -> int:
        async with self.pool.acquire() as c:
            done = await c.execute("DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < $1", before)
        return int(done.split()[-1])

    async def closed_dms(self, user_ids: Iterable[int]) -> dict[int, float]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        async with self.pool.acquire() as c:
            rows = await c.fetch("SELECT user_id, closed_at FROM closed_dms WHERE user_id = ANY($1::bigint[])", ids)
        return {r["user_id"]: r["closed_at"] for r in rows}

    async def set_closed_dms(self, user_id: int, closed_at: float | None) -> None:
        async with self.pool.acquire() as c:
            if closed_at is None:
                await c.execute("DELETE FROM closed_dms WHERE user_id = $1", user_id)
            else:
                await c.execute(
                    "INSERT INTO closed_dms (user_id, closed_at) VALUES ($1, $2) "
                    "ON CONFLICT (user_id) DO UPDATE SET closed_at = excluded.closed_at",
                    user_id, closed_at,
                )

    async def claim_closed_dm_notice(self, session_id: int, user_id: int, now: float) -> bool:
        async with self.pool.acquire() as c:
            try:
                status = await c.execute(
                    "INSERT INTO closed_dm_notices (session_id, user_id, at) VALUES ($1, $2, $3) "
                    "ON CONFLICT DO NOTHING",
                    session_id, user_id, now,
                )
            except asyncpg.ForeignKeyViolationError:
                raise UnknownSessionError(f"There is no game session #{session_id}.") from None
        return status == "INSERT 0 1"

    async def clear_closed_dm_notices(self, user_id: int) -> None:
        async with self.pool.acquire() as c:
            await c.execute("DELETE FROM closed_dm_notices WHERE user_id = $1", user_id)

    # ------------------------------------------------------------------ results, ratings, mirrors

    async def seat_actors(self, session_id: int) -> dict[int, dict[int | None, int]]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                "SELECT seat, user_id, COUNT(*) AS n FROM actions WHERE session_id = $1 AND seat IS NOT NULL "
                "GROUP BY seat, user_id", session_id)
        out: dict[int, dict[int | None, int]] = {}
        for r in rows:
            out.setdefault(r["seat"], {})[r["user_id"]] = r["n"]
        return out

    @staticmethod
    async def _insert_result(c: Any, result: GameResult) -> None:
        await c.executemany(
            "INSERT INTO result_seats (session_id, seat, guild_id, game_id, ended_at, players, user_id, faction, "
            "side, won, rated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            [(result.session_id, x.seat, result.guild_id, result.game_id, result.ended_at, result.players,
              x.user_id, x.faction, x.side, int(x.won), int(x.rated)) for x in result.seats])

    @staticmethod
    async def _upsert_ratings(c: Any, ratings: Iterable[RatingRecord], now: float) -> None:
        await c.executemany(
            "INSERT INTO ratings (game_id, user_id, mu, sigma, games, wins, updated_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at",
            [(r.game_id, r.user_id, r.mu, r.sigma, r.games, r.wins, now) for r in ratings])

    async def record_result(self, result: GameResult, ratings: Iterable[RatingRecord], now: float) -> bool:
        async with self.pool.acquire() as c, c.transaction():
            await c.execute("LOCK TABLE result_seats IN SHARE ROW EXCLUSIVE MODE")
            if await c.fetchval("SELECT 1 FROM result_seats WHERE session_id = $1", result.session_id):
                return False
            try:
                await self._insert_result(c, result)
            except asyncpg.ForeignKeyViolationError:
                raise UnknownSessionError(f"There is no game session #{result.session_id}.") from None
            await self._upsert_ratings(c, ratings, now)
        return True

    async def results(self, *, guild_id: int | None = None, game_id: str | None = None) -> list[GameResult]:
        where, params = [], []
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"guild_id = ${len(params)}")
        if game_id is not None:
            params.append(game_id)
            where.append(f"game_id = ${len(params)}")
        sql = ("SELECT session_id, seat, guild_id, game_id, ended_at, user_id, faction, side, won, rated FROM result_seats"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY ended_at, session_id, seat")
        async with self.pool.acquire() as c:
            rows = await c.fetch(sql, *params)
        return group_results(rows)

    async def ratings(self, game_id: str) -> list[RatingRecord]:
        async with self.pool.acquire() as c:
            rows = await c.fetch(
                "SELECT game_id, user_id, mu, sigma, games, wins FROM ratings WHERE game_id = $1 ORDER BY user_id",
                game_id)
        return [RatingRecord(r["game_id"], r["user_id"], r["mu"], r["sigma"], r["games"], r["wins"]) for r in rows]

    async def replace_results(self, results: Iterable[GameResult], ratings: Iterable[RatingRecord],
                              now: float) -> None:
        async with self.pool.acquire() as c, c.transaction():
            await c.execute("LOCK TABLE result_seats IN SHARE ROW EXCLUSIVE MODE")
            await c.execute("DELETE FROM result_seats")
            await c.execute("DELETE FROM ratings")
            for result in results:
                await self._insert_result(c, result)
            await self._upsert_ratings(c, ratings, now)

    async def mirrors(self, session_id: int) -> list[int]:
        async with self.pool.acquire() as c:
            rows = await c.fetch("SELECT channel_id FROM mirrors WHERE session_id = $1 ORDER BY since, channel_id",
                                 session_id)
        return [r["channel_id"] for r in rows]

    async def set_mirror(self, session_id: int, channel_id: int, user_id: int, now: float) -> bool:
        async with self.pool.acquire() as c:
            try:
                status = await c.execute(
                    "INSERT INTO mirrors (session_id, channel_id, set_by, since) VALUES ($1, $2, $3, $4) "
                    "ON CONFLICT DO NOTHING", session_id, channel_id, user_id, now)
            except asyncpg.ForeignKeyViolationError:
                raise UnknownSessionError(f"There is no game session #{session_id}.") from None
        return status == "INSERT 0 1"

    async def clear_mirrors(self, session_id: int, channel_id: int | None = None) -> int:
        async with self.pool.acquire() as c:
            if channel_id is None:
                done = await c.execute("DELETE FROM mirrors WHERE session_id = $1", session_id)
            else:
                done = await c.execute("DELETE FROM mirrors WHERE session_id = $1 AND channel_id = $2",
                                       session_id, channel_id)
        return int(done.split()[-1])

    # ------------------------------------------------------------------ maintenance

    async def backup(self, path: str) -> None:
        """Not done by Tabula on PostgreSQL: use ``pg_dump`` (or the server's own backups)."""
        raise UnsupportedOperationError(
            "Back up a PostgreSQL database with pg_dump (e.g. pg_dump -Fc -f tabula.dump DBNAME)."
        )

    async def integrity(self) -> tuple[list[str], list[str]]:
        """PostgreSQL enforces foreign keys itself; this checks that the connection works and the
        log has no orphans (rows of a session that does not exist)."""
        async with self.pool.acquire() as c:
            orphans = await c.fetchval(
                "SELECT count(*) FROM actions a WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = a.session_id)"
            )
        return ["ok"], [] if not orphans else [f"actions: {orphans} row(s) of missing sessions"]

    # ------------------------------------------------------------------ bulk copy (tabula migrate)

    async def import_session(
        self,
        rec: SessionRecord,
        rows: list[ActionRecord],
        snapshots: list[tuple[int, dict[str, Any]]],
        followers: list[tuple[int, float]],
        pings: list[tuple[int, float, int, float]],
    ) -> None:
        """Insert a session exactly as given (its id, version and times included), in one
        transaction, with its seats, log, snapshots, followers and reminder pings
        (user id, waiting_since, pings, last_at). Raises asyncpg's UniqueViolationError when
        the id is taken."""
        async with self.pool.acquire() as c, c.transaction():
            await c.execute(
                f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES "
                "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, "
                "$20, $21, $22, $23, $24)",
                rec.id, rec.guild_id, rec.channel_id, rec.game_id, rec.options, rec.seed, rec.seed_hash,
                rec.status, rec.version, rec.seq, list(rec.to_act), rec.outcome, rec.created_by,
                rec.created_at, rec.updated_at, rec.started_at, rec.ended_at, rec.deadline, rec.pending_undo,
                rec.attention, rec.orphaned, rec.wait_deadline, rec.rules_version, rec.suspended,
            )
            await _write_seats(c, rec.id, rec.seats)
            await _write_actions(c, rec.id, rows, 0.0)
            await c.executemany(
                "INSERT INTO snapshots (session_id, seq, state, at) VALUES ($1, $2, $3, $4)",
                [(rec.id, seq, state, rec.updated_at) for seq, state in snapshots],
            )
            await c.executemany(
                "INSERT INTO followers (session_id, user_id, since) VALUES ($1, $2, $3)",
                [(rec.id, user, since) for user, since in followers],
            )
            await c.executemany(
                "INSERT INTO reminder_pings (session_id, user_id, waiting_since, pings, last_at) "
                "VALUES ($1, $2, $3, $4, $5)",
                [(rec.id, *p) for p in pings],
            )

    async def finish_import(self) -> None:
        """Move the session id sequence past the imported ids."""
        async with self.pool.acquire() as c:
            await c.execute(
                "SELECT setval(pg_get_serial_sequence('sessions', 'id'), "
                "greatest(coalesce((SELECT max(id) FROM sessions), 0), 1), "
                "(SELECT count(*) > 0 FROM sessions))"
            )

    async def count_sessions(self) -> int:
        async with self.pool.acquire() as c:
            return int(await c.fetchval("SELECT count(*) FROM sessions"))


async def _write_seats(c: Any, session_id: int, seats: Iterable[SeatRecord]) -> None:
    await c.executemany(
        "INSERT INTO seats (session_id, seat, user_id, faction, ai, joined_at, left_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [(session_id, s.seat, s.user_id, s.faction, s.ai, s.joined_at, s.left_at) for s in seats],
    )


async def _write_actions(c: Any, session_id: int, rows: Iterable[ActionRecord], now: float) -> None:
    await c.executemany(
        f"INSERT INTO actions (session_id, {_ACTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, "
        "$12, $13)",
        [
            (session_id, a.seq, a.seat, a.user_id, a.notation, a.action, [e.to_json() for e in a.events],
             bool(a.secret), bool(a.reveals), a.interaction_id, a.at or now, bool(a.reveals_checked),
             bool(a.reveals_chained))
            for a in rows
        ],
    )


def _session(r: Any) -> SessionRecord:
    seats = [
        SeatRecord(seat, user, faction, ai, float(joined), None if left is None else float(left))
        for seat, user, faction, ai, joined, left in r["seats_json"]
    ]
    return SessionRecord(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        game_id=r["game_id"],
        options=r["options"],
        seed=r["seed"],
        seed_hash=r["seed_hash"],
        status=r["status"],
        version=r["version"],
        seq=r["seq"],
        to_act=tuple(r["to_act"]),
        outcome=r["outcome"],
        created_by=r["created_by"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        started_at=r["started_at"],
        ended_at=r["ended_at"],
        deadline=r["deadline"],
        pending_undo=r["pending_undo"],
        seats=tuple(seats),
        attention=r["attention"],
        orphaned=r["orphaned"],
        wait_deadline=r["wait_deadline"],
        rules_version=r["rules_version"],
        suspended=r["suspended"],
    )


def _action(r: Any) -> ActionRecord:
    return ActionRecord(
        seq=r["seq"],
        seat=r["seat"],
        notation=r["notation"],
        action=r["action"],
        events=tuple(EventRecord.from_json(e) for e in r["events"]),
        user_id=r["user_id"],
        secret=bool(r["secret"]),
        reveals=bool(r["reveals"]),
        interaction_id=r["interaction_id"],
        at=r["at"],
        reveals_checked=bool(r["reveals_checked"]),
        reveals_chained=bool(r["reveals_chained"]),
    )
