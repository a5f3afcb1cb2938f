"""SQLite storage on aiosqlite (ARCHITECTURE.md, "Sessions and storage").

One connection per ``SqliteStorage``; an asyncio lock keeps one transaction at a
time on it. Several processes may open the same file: writes take SQLite's write
lock with ``BEGIN IMMEDIATE`` (waiting up to the busy timeout), and the version
check inside the transaction rejects a stale writer with ``StaleStateError``.

Connection settings: WAL journal (file databases), ``synchronous=FULL`` (a commit
that returned survives a power cut), ``foreign_keys=ON``, a busy timeout.

Session updates (each stored action) are group-committed: those that arrive while a
commit is under way share the next transaction and its one flush (``update``). A file
database has a second, read-only connection for ``session_context``: what an action reads
before it is computed is not queued behind another batch's flush (WAL readers see every
commit that returned, and never wait for the writer).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import sqlite3
from collections.abc import Iterable
from typing import Any

import aiosqlite

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
    UserPrefs,
    dumps_json,
    group_results,
    seed_hash,
    tail_start,
)
from .migrations import read as read_migrations

_SESSION_COLUMNS = (
    "id, guild_id, channel_id, game_id, options, seed, seed_hash, status, version, seq, to_act, "
    "outcome, created_by, created_at, updated_at, started_at, ended_at, deadline, pending_undo, "
    "attention, orphaned, wait_deadline, rules_version, suspended"
)
_SESSION_SELECT = (
    f"SELECT {_SESSION_COLUMNS}, (SELECT json_group_array(json_array(seat, user_id, faction, ai, "
    f"joined_at, left_at)) FROM seats WHERE seats.session_id = sessions.id) AS seats_json"
)


class DamagedDatabaseError(Exception):
    """The file is not a SQLite database, or it is damaged (``sqlite3.DatabaseError``
    other than a busy or locked file). ``path`` and ``reason`` say which and why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path} is not a Tabula database or is damaged: {reason}")
        self.path = path
        self.reason = reason


class ForeignDatabaseError(DamagedDatabaseError):
    """The SQLite file holds another application's tables and no Tabula schema: it is left
    untouched (never migrated into)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)
        Exception.__init__(self, f"{path} is not a Tabula database: {reason}")


def migrations() -> list[tuple[int, str, str]]:
    """The schema migrations shipped in ``storage/migrations``: (number, file name, SQL),
    sorted by number. Numbers start at 1 and have no gaps."""
    return read_migrations("storage.migrations")


SCHEMA_VERSION = len(migrations())


_OUTBOX_COLUMNS = "id, session_id, kind, payload, created_at, attempts, next_at"


def _outbox(r: Any) -> OutboxRecord:
    return OutboxRecord(
        r["id"], r["session_id"], r["kind"], json.loads(r["payload"]), r["created_at"], r["attempts"], r["next_at"]
    )


_dumps = dumps_json


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class SqliteStorage:
    """``storage.base.Storage`` on a SQLite file (or ``":memory:"``).

    Parameters
    ----------
    path : str
        Database file path, or ``":memory:"`` for a private in-memory database.
    busy_timeout_ms : int
        How long a writer waits for another process's write lock, milliseconds.
    migrate_to : int | None
        Apply migrations up to this schema number only (tests of old schemas);
        None applies all.
    group_commit : bool
        Commit concurrent session updates together (``update``); False commits each
        alone (for comparison in ``bench/storage.py``).

    ``open`` raises ``DamagedDatabaseError`` when the file is not a SQLite database or
    is damaged; the connection is closed in every error path.

    Use as ``async with SqliteStorage(path) as st: ...`` or call ``open``/``close``.
    """

    def __init__(self, path: str, *, busy_timeout_ms: int = 5000, migrate_to: int | None = None,
                 read_only: bool = False, group_commit: bool = True) -> None:
        self.path = str(path)
        self.read_only = read_only
        self.busy_timeout_ms = busy_timeout_ms
        self.migrate_to = migrate_to
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.group_commit = group_commit
        self._pending: list[_Write] = []  # updates waiting for the next group commit
        self._writer: asyncio.Task[None] | None = None
        self._reader: aiosqlite.Connection | None = None  # file databases: reads beside the writer
        self._read_lock = asyncio.Lock()

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> SqliteStorage:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open; call open() first")
        return self._db

    async def open(self) -> None:
        """Connect, set the pragmas and apply pending migrations (each in one transaction)."""
        if self._db is not None:
            return
        if self.read_only and self.path != ":memory:":
            from urllib.parse import quote

            db = await aiosqlite.connect(f"file:{quote(self.path)}?mode=ro", uri=True, isolation_level=None)
        else:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        try:  # whatever fails, close the connection: its worker thread would keep the process alive
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            if self.read_only:
                self._db = db
                await self._check_readable()
                return
            self._db = db
            await self._refuse_foreign(await self.schema_version())  # before WAL mode rewrites its header
            if self.path != ":memory:":
                await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            self._db = db
            await self._migrate()
            if self.path != ":memory:":
                self._reader = await self._open_reader()
        except BaseException as e:
            self._db = None
            with contextlib.suppress(Exception):
                await db.close()
            if isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError):
                raise DamagedDatabaseError(self.path, str(e)) from e
            raise

    async def _open_reader(self) -> aiosqlite.Connection:
        """The read-only connection beside the writer (a file database in WAL mode)."""
        reader = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            reader.row_factory = sqlite3.Row
            await reader.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await reader.close()
            raise
        return reader

    async def _check_readable(self) -> None:
        """For a read-only open: the file must hold Tabula's tables (an empty or zero-length file
        is reported, never given a schema)."""
        version = await self.schema_version()
        await self._refuse_foreign(version)
        if version == 0:
            raise DamagedDatabaseError(self.path, "it has no Tabula tables (an empty SQLite file; nothing was "
                                                  "written to it)")
        if version > SCHEMA_VERSION:
            raise DamagedDatabaseError(self.path, f"its schema {version} is newer than this program's "
                                                  f"{SCHEMA_VERSION}; upgrade Tabula")

    async def _refuse_foreign(self, version: int) -> None:
        """Raise ``DamagedDatabaseError`` when the file holds tables but no Tabula schema
        (``user_version`` 0): another application's database, never to be written to."""
        if version != 0:
            return
        async with self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                "ORDER BY name LIMIT 4") as cur:
            names = [row[0] for row in await cur.fetchall()]
        if names:
            shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
            raise ForeignDatabaseError(self.path, f"it holds another application's tables ({shown}) and no "
                                                  "Tabula schema; Tabula did not write to it: name a new file "
                                                  "or a Tabula database")

    async def close(self) -> None:
        """Store the updates still waiting for their commit, then close the connection."""
        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await self._writer
        if self._reader is not None:
            reader, self._reader = self._reader, None
            await reader.close()
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def schema_version(self) -> int:
        """The database's ``PRAGMA user_version``: the number of migrations applied."""
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def _migrate(self) -> None:
        target = SCHEMA_VERSION if self.migrate_to is None else self.migrate_to
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                current = await self.schema_version()
                await self._refuse_foreign(current)
                if current > SCHEMA_VERSION:
                    raise RuntimeError(
                        f"database schema {current} is newer than this program's {SCHEMA_VERSION}; "
                        "upgrade Tabula"
                    )
                for number, _name, sql in migrations():
                    if current < number <= target:
                        for statement in _statements(sql):
                            await self.db.execute(statement)
                        await self.db.execute(f"PRAGMA user_version = {number}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    def session_guard(self, session_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Nothing to hold on SQLite: a writer takes the file's write lock for each
        transaction, and the version check in ``update`` rejects another process's
        stale change."""
        return contextlib.nullcontext()

    # ------------------------------------------------------------------ helpers

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return list(await self.db.execute_fetchall(sql, tuple(params)))

    async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self.db.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    async def _sessions(self, where: str, params: Iterable[Any] = ()) -> list[SessionRecord]:
        """Sessions with their seats, read in one statement (seats as a JSON array)."""
        rows = await self._fetchall(f"{_SESSION_SELECT} FROM sessions {where}", params)
        return [_session(r, _seats(r["seats_json"])) for r in rows]

    async def _session_or_raise(self, session_id: int) -> SessionRecord:
        found = await self._sessions("WHERE id = ?", (session_id,))
        if not found:
            raise UnknownSessionError(f"There is no game session #{session_id}.")
        return found[0]

    # ------------------------------------------------------------------ sessions

    async def create_session(self, new: NewSession, now: float) -> SessionRecord:
        """Insert a lobby session (version 0) and its seats.

        Raises
        ------
        ChannelBusyError
            The channel already has a lobby or active session.
        """
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(
                    "INSERT INTO sessions (guild_id, channel_id, game_id, options, seed, seed_hash, "
                    "status, version, seq, created_by, created_at, updated_at, rules_version) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'lobby', 0, 0, ?, ?, ?, ?)",
                    (
                        new.guild_id,
                        new.channel_id,
                        new.game_id,
                        _dumps(new.options),
                        new.seed,
                        seed_hash(new.seed),
                        new.created_by,
                        now,
                        now,
                        new.rules_version,
                    ),
                )
                session_id = int(cur.lastrowid)
                await self._write_seats(session_id, new.seats)
                await self.db.execute("COMMIT")
            except sqlite3.IntegrityError as e:
                await self.db.execute("ROLLBACK")
                if "channel_id" in str(e) or "sessions_one_open_per_channel" in str(e):
                    raise ChannelBusyError(
                        "This channel already has a game that is not finished; finish or abandon it "
                        "first, or start the new game in a thread."
                    ) from None
                raise
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            return await self._session_or_raise(session_id)

    async def _write_seats(self, session_id: int, seats: Iterable[SeatRecord]) -> None:
        await self.db.executemany(
            "INSERT INTO seats (session_id, seat, user_id, faction, ai, joined_at, left_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(session_id, s.seat, s.user_id, s.faction, s.ai, s.joined_at, s.left_at) for s in seats],
        )

    async def get_session(self, session_id: int) -> SessionRecord:
        """The session with its seats. Raises UnknownSessionError."""
        async with self._lock:
            return await self._session_or_raise(session_id)

    async def open_session(self, channel_id: int) -> SessionRecord | None:
        async with self._lock:
            found = await self._sessions(
                "WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
            )
        return found[0] if found else None

    async def sessions_in_channel(self, channel_id: int, limit: int = 10) -> list[SessionRecord]:
        async with self._lock:
            return await self._sessions(
                "WHERE channel_id = ? ORDER BY id DESC LIMIT ?", (channel_id, int(limit))
            )

    async def sessions_for_user(self, user_id: int, *, include_closed: bool = False) -> list[SessionRecord]:
        status = "" if include_closed else "AND status IN ('lobby', 'active')"
        async with self._lock:
            return await self._sessions(
                f"WHERE id IN (SELECT session_id FROM seats WHERE user_id = ?) {status} "
                "ORDER BY updated_at DESC, id DESC",
                (user_id,),
            )

    async def sessions_with_status(self, *statuses: Status) -> list[SessionRecord]:
        marks = ",".join("?" * len(statuses))
        async with self._lock:
            return await self._sessions(f"WHERE status IN ({marks}) ORDER BY id", statuses)

    async def due_sessions(self, now: float) -> list[int]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT id FROM sessions WHERE status = 'active' AND orphaned IS NULL AND attention IS NULL "
                "AND suspended IS NULL "
                "AND ((deadline IS NOT NULL AND deadline <= ?) OR (wait_deadline IS NOT NULL AND wait_deadline <= ?)) "
                "ORDER BY min(coalesce(deadline, wait_deadline), coalesce(wait_deadline, deadline))",
                (now, now),
            )
        return [r[0] for r in rows]

    async def update(
        self, session_id: int, expected_version: int, change: SessionUpdate, now: float,
        *, context: str | None = None,
    ) -> SessionRecord:
        """Apply ``change`` in one transaction if the version is ``expected_version`` (and,
        with ``context``, the session's context still has that fingerprint: ``Storage.update``).

        Group commit: the updates that arrive while a commit is under way are stored
        together in the next transaction, one savepoint each (a refused one changes
        nothing and does not hold back the others), with one COMMIT, so one flush to disk
        serves them all. Each caller returns only after the COMMIT that holds its change;
        a change whose caller is cancelled meanwhile may still be stored.

        Returns
        -------
        SessionRecord
            The session after the change, version ``expected_version + 1``.

        Raises
        ------
        StaleStateError
            The stored version differs (someone else changed the session first).
        UnknownSessionError
            No such session.
        DuplicateInteractionError
            An appended action's interaction id is already stored.
        ChannelBusyError
            Reopening a session in a channel that has another open one.
        ContextChangedError
            With ``context``: the version or the context is not the one given.
        """
        fut: asyncio.Future[SessionRecord] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(session_id, expected_version, change, now, fut, context))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        return await asyncio.shield(fut)

    async def _write_batches(self) -> None:
        """Store the pending updates, a batch per transaction, until none is left."""
        while self._pending:
            if self.group_commit:
                batch, self._pending = self._pending, []
            else:
                batch, self._pending = self._pending[:1], self._pending[1:]
            try:
                async with self._lock:
                    # one call into the connection's thread for the whole transaction
                    results = await self.db._execute(self._store_batch, batch)  # noqa: SLF001
            except BaseException as e:  # the transaction failed as a whole: nothing of it is stored
                for w in batch:
                    if not w.future.done():
                        w.future.set_exception(e if isinstance(e, Exception) else RuntimeError(str(e)))
                if not isinstance(e, Exception):
                    raise
                continue
            for w, result in zip(batch, results, strict=True):
                if w.future.done():
                    continue
                if isinstance(result, BaseException):
                    w.future.set_exception(result)
                else:
                    w.future.set_result(result)

    def _store_batch(self, batch: list[_Write]) -> list[SessionRecord | Exception]:
        """In the connection's thread: one transaction, a savepoint per update."""
        conn: sqlite3.Connection = self.db._conn  # noqa: SLF001
        conn.execute("BEGIN IMMEDIATE")
        try:
            out: list[SessionRecord | Exception] = []
            for w in batch:
                conn.execute("SAVEPOINT tabula_update")
                try:
                    out.append(_store_update(conn, w.session_id, w.expected_version, w.change, w.now, w.context))
                except (sqlite3.IntegrityError, StaleStateError, UnknownSessionError) as e:
                    conn.execute("ROLLBACK TO tabula_update")
                    out.append(_refusal(e))
                finally:
                    conn.execute("RELEASE tabula_update")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return out

    async def session_context(self, session_id: int, *, interaction_id: str | None = None,
                              tail: int = 64) -> SessionContext:
        """``Storage.session_context``: one read transaction in one call into the connection's
        thread. Raises UnknownSessionError."""
        db, lock = (self.db, self._lock) if self._reader is None else (self._reader, self._read_lock)
        async with lock:
            return await db._execute(_read_context, db._conn, session_id, interaction_id, tail)  # noqa: SLF001

    # ------------------------------------------------------------------ the log

    async def actions(
        self, session_id: int, *, after: int = -1, through: int | None = None
    ) -> list[ActionRecord]:
        hi = (1 << 62) if through is None else through
        async with self._lock:
            rows = await self._fetchall(
                f"{_ACTION_SELECT} WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
                (session_id, after, hi),
            )
        return [_action(r) for r in rows]

    async def action_by_interaction(self, interaction_id: str) -> tuple[int, ActionRecord] | None:
        async with self._lock:
            row = await self._fetchone(
                "SELECT session_id, seq, seat, user_id, notation, action, events, secret, reveals, "
                "interaction_id, at, reveals_checked, reveals_chained FROM actions WHERE interaction_id = ?",
                (interaction_id,),
            )
        return None if row is None else (row["session_id"], _action(row))

    async def latest_snapshot(self, session_id: int, at_most: int) -> tuple[int, dict[str, Any]] | None:
        async with self._lock:
            row = await self._fetchone(
                "SELECT seq, state FROM snapshots WHERE session_id = ? AND seq <= ? "
                "ORDER BY seq DESC LIMIT 1",
                (session_id, at_most),
            )
        return None if row is None else (row["seq"], json.loads(row["state"]))

    async def snapshots(self, session_id: int) -> list[tuple[int, dict[str, Any]]]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT seq, state FROM snapshots WHERE session_id = ? ORDER BY seq", (session_id,)
            )
        return [(r["seq"], json.loads(r["state"])) for r in rows]

    async def session_log(
        self, session_id: int
    ) -> tuple[SessionRecord, list[ActionRecord], list[tuple[int, dict[str, Any]]]]:
        async with self._lock:
            await self.db.execute("BEGIN")  # a read transaction: one snapshot of the file (WAL)
            try:
                rec = await self._session_or_raise(session_id)
                rows = await self._fetchall(
                    f"{_ACTION_SELECT} WHERE session_id = ? ORDER BY seq", (session_id,))
                snaps = await self._fetchall(
                    "SELECT seq, state FROM snapshots WHERE session_id = ? ORDER BY seq", (session_id,))
            finally:
                await self.db.execute("COMMIT")
        return rec, [_action(r) for r in rows], [(r["seq"], json.loads(r["state"])) for r in snaps]

    # ------------------------------------------------------------------ people

    async def _write(self, sql: str, params: Iterable[Any]) -> int:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(sql, tuple(params))
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            return cur.rowcount

    async def follow(self, session_id: int, user_id: int, now: float, mode: str = "move") -> bool:
        try:
            n = await self._write(
                "INSERT INTO followers (session_id, user_id, since, mode) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (session_id, user_id) DO UPDATE SET mode = excluded.mode "
                "WHERE followers.mode <> excluded.mode",
                (session_id, user_id, now, mode),
            )
        except sqlite3.IntegrityError:
            raise UnknownSessionError(f"There is no game session #{session_id}.") from None
        return n == 1

    async def follower_modes(self, session_id: int) -> dict[int, str]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT user_id, mode FROM followers WHERE session_id = ? ORDER BY since, user_id", (session_id,)
            )
        return {r[0]: r[1] for r in rows}

    async def homes(self, session_id: int) -> dict[int, Home]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT user_id, channel_id, kind, message_id, question FROM homes WHERE session_id = ?",
                (session_id,),
            )
        return {r[0]: Home(session_id, r[0], r[1], r[2], r[3], r[4]) for r in rows}

    async def set_home(self, home: Home, now: float) -> None:
        await self._write(
            "INSERT INTO homes (session_id, user_id, channel_id, kind, message_id, question, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, user_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, kind = excluded.kind, message_id = excluded.message_id, "
            "question = excluded.question, updated_at = excluded.updated_at",
            (home.session_id, home.user_id, home.channel_id, home.kind, home.message_id, home.question, now),
        )

    async def standing_passes(self, session_id: int) -> dict[int, str]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT seat, mark FROM standing_passes WHERE session_id = ?", (session_id,)
            )
        return {r[0]: r[1] for r in rows}

    async def set_standing_pass(self, session_id: int, seat: int, mark: str | None, now: float) -> bool:
        if mark is None:
            n = await self._write(
                "DELETE FROM standing_passes WHERE session_id = ? AND seat = ?", (session_id, seat)
            )
        else:
            n = await self._write(
                "INSERT INTO standing_passes (session_id, seat, mark, since) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (session_id, seat) DO UPDATE SET mark = excluded.mark, since = excluded.since",
                (session_id, seat, mark, now),
            )
        return n == 1

    async def unfollow(self, session_id: int, user_id: int) -> bool:
        n = await self._write(
            "DELETE FROM followers WHERE session_id = ? AND user_id = ?", (session_id, user_id)
        )
        return n == 1

    async def followers(self, session_id: int) -> list[int]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT user_id FROM followers WHERE session_id = ? ORDER BY since, user_id", (session_id,)
            )
        return [r[0] for r in rows]

    async def get_prefs(self, user_id: int) -> UserPrefs:
        async with self._lock:
            row = await self._fetchone(
                "SELECT dms, reminder_hours, notify, auto_pass FROM user_prefs WHERE user_id = ?", (user_id,)
            )
        if row is None:
            return UserPrefs(user_id)
        return UserPrefs(user_id, bool(row["dms"]), row["reminder_hours"], row["notify"],
                         None if row["auto_pass"] is None else bool(row["auto_pass"]))

    async def set_prefs(self, prefs: UserPrefs, now: float) -> None:
        await self._write(
            "INSERT INTO user_prefs (user_id, dms, reminder_hours, notify, auto_pass, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dms = excluded.dms, notify = excluded.notify, "
            "reminder_hours = excluded.reminder_hours, auto_pass = excluded.auto_pass, "
            "updated_at = excluded.updated_at",
            (prefs.user_id, int(prefs.dms), prefs.reminder_hours, prefs.notify,
             None if prefs.auto_pass is None else int(prefs.auto_pass), now),
        )

    async def get_prefs_many(self, user_ids: Iterable[int]) -> dict[int, UserPrefs]:
        ids = sorted(set(user_ids))
        out = {u: UserPrefs(u) for u in ids}
        if ids:
            async with self._lock:
                rows = await self._fetchall(
                    f"SELECT user_id, dms, reminder_hours, notify, auto_pass FROM user_prefs WHERE user_id IN "
                    f"({','.join('?' * len(ids))})",
                    ids,
                )
            for r in rows:
                out[r["user_id"]] = UserPrefs(r["user_id"], bool(r["dms"]), r["reminder_hours"], r["notify"],
                                              None if r["auto_pass"] is None else bool(r["auto_pass"]))
        return out

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self._lock:
            row = await self._fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {} if row is None else json.loads(row[0])

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any], now: float) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
            "updated_at = excluded.updated_at",
            (guild_id, _dumps(settings), now),
        )

    async def reminder_pings(self, session_id: int) -> dict[int, tuple[float, int]]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT user_id, waiting_since, pings FROM reminder_pings WHERE session_id = ?",
                (session_id,),
            )
        return {r["user_id"]: (r["waiting_since"], r["pings"]) for r in rows}

    async def set_reminder_ping(
        self, session_id: int, user_id: int, waiting_since: float, pings: int, now: float
    ) -> None:
        await self._write(
            "INSERT INTO reminder_pings (session_id, user_id, waiting_since, pings, last_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, user_id) DO UPDATE SET "
            "waiting_since = excluded.waiting_since, pings = excluded.pings, last_at = excluded.last_at",
            (session_id, user_id, waiting_since, pings, now),
        )

    async def claim_reminder_ping(
        self, session_id: int, user_id: int, waiting_since: float, pings: int, now: float
    ) -> bool:
        """Record ping number ``pings`` of the wait that began at ``waiting_since`` unless it (or a
        later one) is recorded already; True when this call recorded it (and should send it)."""
        n = await self._write(
            "INSERT INTO reminder_pings AS r (session_id, user_id, waiting_since, pings, last_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, user_id) DO UPDATE SET "
            "waiting_since = excluded.waiting_since, pings = excluded.pings, last_at = excluded.last_at "
            "WHERE r.waiting_since <> excluded.waiting_since OR r.pings < excluded.pings",
            (session_id, user_id, waiting_since, pings, now),
        )
        return n == 1

    # ------------------------------------------------------------------ outbox

    async def outbox_add(
        self, session_id: int, kind: str, payload: dict[str, Any], now: float, due: float | None = None
    ) -> int:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(
                    "INSERT INTO outbox (session_id, kind, payload, created_at, next_at) VALUES (?, ?, ?, ?, ?)",
                    (session_id, kind, _dumps(payload), now, now if due is None else due),
                )
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            return int(cur.lastrowid or 0)

    async def outbox_due(self, now: float, limit: int = 50) -> list[OutboxRecord]:
        async with self._lock:
            rows = await self._fetchall(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE done_at IS NULL AND next_at <= ? "
                "ORDER BY next_at, id LIMIT ?",
                (now, limit),
            )
        return [_outbox(r) for r in rows]

    async def outbox_get(self, outbox_id: int) -> OutboxRecord | None:
        async with self._lock:
            row = await self._fetchone(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id = ? AND done_at IS NULL", (outbox_id,)
            )
        return None if row is None else _outbox(row)

    async def outbox_retry(
        self, outbox_id: int, payload: dict[str, Any], attempts: int, next_at: float, error: str
    ) -> None:
        await self._write(
            "UPDATE outbox SET payload = ?, attempts = ?, next_at = ?, last_error = ? WHERE id = ?",
            (_dumps(payload), attempts, next_at, error[:500], outbox_id),
        )

    async def outbox_done(self, outbox_id: int, now: float, message_id: int | None, error: str | None = None) -> None:
        await self._write(
            "UPDATE outbox SET done_at = ?, message_id = ?, last_error = COALESCE(?, last_error) WHERE id = ?",
            (now, message_id, error[:500] if error else None, outbox_id),
        )

    async def outbox_prune(self, before: float) -> int:
        return await self._write("DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?", (before,))

    async def closed_dms(self, user_ids: Iterable[int]) -> dict[int, float]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        async with self._lock:
            rows = await self._fetchall(
                f"SELECT user_id, closed_at FROM closed_dms WHERE user_id IN ({','.join('?' * len(ids))})", ids
            )
        return {r["user_id"]: r["closed_at"] for r in rows}

    async def set_closed_dms(self, user_id: int, closed_at: float | None) -> None:
        if closed_at is None:
            await self._write("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))
        else:
            await self._write(
                "INSERT INTO closed_dms (user_id, closed_at) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET closed_at = excluded.closed_at",
                (user_id, closed_at),
            )

    async def claim_closed_dm_notice(self, session_id: int, user_id: int, now: float) -> bool:
        try:
            n = await self._write(
                "INSERT OR IGNORE INTO closed_dm_notices (session_id, user_id, at) VALUES (?, ?, ?)",
                (session_id, user_id, now),
            )
        except sqlite3.IntegrityError:
            raise UnknownSessionError(f"There is no game session #{session_id}.") from None
        return n == 1

    async def clear_closed_dm_notices(self, user_id: int) -> None:
        await self._write("DELETE FROM closed_dm_notices WHERE user_id = ?", (user_id,))

    # ------------------------------------------------------------------ results, ratings, mirrors

    async def seat_actors(self, session_id: int) -> dict[int, dict[int | None, int]]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT seat, user_id, COUNT(*) AS n FROM actions WHERE session_id = ? AND seat IS NOT NULL "
                "GROUP BY seat, user_id", (session_id,))
        out: dict[int, dict[int | None, int]] = {}
        for r in rows:
            out.setdefault(r["seat"], {})[r["user_id"]] = r["n"]
        return out

    async def _insert_result(self, result: GameResult) -> None:
        await self.db.executemany(
            "INSERT INTO result_seats (session_id, seat, guild_id, game_id, ended_at, players, user_id, faction, "
            "side, won, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(result.session_id, x.seat, result.guild_id, result.game_id, result.ended_at, result.players,
              x.user_id, x.faction, x.side, int(x.won), int(x.rated)) for x in result.seats])

    async def _upsert_ratings(self, ratings: Iterable[RatingRecord], now: float) -> None:
        await self.db.executemany(
            "INSERT INTO ratings (game_id, user_id, mu, sigma, games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at",
            [(r.game_id, r.user_id, r.mu, r.sigma, r.games, r.wins, now) for r in ratings])

    async def record_result(self, result: GameResult, ratings: Iterable[RatingRecord], now: float) -> bool:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                if await self._fetchone("SELECT 1 FROM result_seats WHERE session_id = ?", (result.session_id,)):
                    await self.db.execute("ROLLBACK")
                    return False
                await self._insert_result(result)
                await self._upsert_ratings(ratings, now)
                await self.db.execute("COMMIT")
            except sqlite3.IntegrityError:
                await self.db.execute("ROLLBACK")
                raise UnknownSessionError(f"There is no game session #{result.session_id}.") from None
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
        return True

    async def results(self, *, guild_id: int | None = None, game_id: str | None = None) -> list[GameResult]:
        where, params = [], []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        sql = ("SELECT session_id, seat, guild_id, game_id, ended_at, user_id, faction, side, won, rated FROM result_seats"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY ended_at, session_id, seat")
        async with self._lock:
            rows = await self._fetchall(sql, params)
        return group_results(rows)

    async def ratings(self, game_id: str) -> list[RatingRecord]:
        async with self._lock:
            rows = await self._fetchall(
                "SELECT game_id, user_id, mu, sigma, games, wins FROM ratings WHERE game_id = ? ORDER BY user_id",
                (game_id,))
        return [RatingRecord(r["game_id"], r["user_id"], r["mu"], r["sigma"], r["games"], r["wins"]) for r in rows]

    async def replace_results(self, results: Iterable[GameResult], ratings: Iterable[RatingRecord],
                              now: float) -> None:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                await self.db.execute("DELETE FROM result_seats")
                await self.db.execute("DELETE FROM ratings")
                for result in results:
                    await self._insert_result(result)
                await self._upsert_ratings(ratings, now)
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def mirrors(self, session_id: int) -> list[int]:
        async with self._lock:
            rows = await self._fetchall("SELECT channel_id FROM mirrors WHERE session_id = ? ORDER BY since, channel_id",
                                        (session_id,))
        return [r["channel_id"] for r in rows]

    async def set_mirror(self, session_id: int, channel_id: int, user_id: int, now: float) -> bool:
        try:
            n = await self._write(
                "INSERT OR IGNORE INTO mirrors (session_id, channel_id, set_by, since) VALUES (?, ?, ?, ?)",
                (session_id, channel_id, user_id, now))
        except sqlite3.IntegrityError:
            raise UnknownSessionError(f"There is no game session #{session_id}.") from None
        return n == 1

    async def clear_mirrors(self, session_id: int, channel_id: int | None = None) -> int:
        if channel_id is None:
            return await self._write("DELETE FROM mirrors WHERE session_id = ?", (session_id,))
        return await self._write("DELETE FROM mirrors WHERE session_id = ? AND channel_id = ?", (session_id, channel_id))

    # ------------------------------------------------------------------ maintenance

    async def backup(self, path: str) -> None:
        """Copy the database to ``path`` with SQLite's online backup API (readers and
        writers may go on meanwhile); the copy is a consistent snapshot."""
        async with self._lock:
            target = await aiosqlite.connect(str(path))
            try:
                await self.db.backup(target)
            finally:
                await target.close()

    async def integrity(self) -> tuple[list[str], list[str]]:
        """(``integrity_check`` lines, each naming the table or index of the pages it mentions, then
        one line per unreadable value found by reading every row (``storage.audit``); foreign-key
        problems). A file is audited on a read-only connection of its own."""
        async with self._lock:
            try:
                fks = await self._fetchall("PRAGMA foreign_key_check")
            except sqlite3.DatabaseError:  # damage on the way: the audit below names it
                fks = []
            if self.path == ":memory:":
                lines = [r[0] for r in await self._fetchall("PRAGMA integrity_check")]
            else:
                from .audit import audit_file

                lines, rows = await asyncio.to_thread(audit_file, self.path)
                if rows:
                    lines = [line for line in lines if line != "ok"] + rows
        return lines, [f"{r[0]} row {r[1]} -> {r[2]}" for r in fks]


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (complete per ``sqlite3.complete_statement``)."""
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in buf.splitlines()
    ):
        raise RuntimeError(f"incomplete SQL statement in migration: {buf.strip()[:80]!r}")
    return out


def _seats(text: str | None) -> list[SeatRecord]:
    seats = [SeatRecord(*row) for row in json.loads(text or "[]")]
    seats.sort(key=lambda s: s.seat)
    return seats


def _session(r: sqlite3.Row, seats: list[SeatRecord]) -> SessionRecord:
    return SessionRecord(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        game_id=r["game_id"],
        options=json.loads(r["options"]),
        seed=r["seed"],
        seed_hash=r["seed_hash"],
        status=r["status"],
        version=r["version"],
        seq=r["seq"],
        to_act=tuple(json.loads(r["to_act"])),
        outcome=_loads(r["outcome"]),
        created_by=r["created_by"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        started_at=r["started_at"],
        ended_at=r["ended_at"],
        deadline=r["deadline"],
        pending_undo=_loads(r["pending_undo"]),
        seats=tuple(seats),
        attention=_loads(r["attention"]),
        orphaned=_loads(r["orphaned"]),
        wait_deadline=r["wait_deadline"],
        rules_version=r["rules_version"],
        suspended=_loads(r["suspended"]),
    )


def _action(r: sqlite3.Row) -> ActionRecord:
    return ActionRecord(
        seq=r["seq"],
        seat=r["seat"],
        notation=r["notation"],
        action=_loads(r["action"]),
        events=tuple(EventRecord.from_json(e) for e in json.loads(r["events"])),
        user_id=r["user_id"],
        secret=bool(r["secret"]),
        reveals=bool(r["reveals"]),
        interaction_id=r["interaction_id"],
        at=r["at"],
        reveals_checked=bool(r["reveals_checked"]),
        reveals_chained=bool(r["reveals_chained"]),
    )


_ACTION_SELECT = ("SELECT seq, seat, user_id, notation, action, events, secret, reveals, interaction_id, at, "
                  "reveals_checked, reveals_chained FROM actions")


def _read_context(conn: sqlite3.Connection, session_id: int, interaction_id: str | None,
                  tail: int) -> SessionContext:
    """In the connection's thread: ``SessionContext`` of ``session_id`` from one read
    transaction (one snapshot of the file in WAL mode)."""
    conn.execute("BEGIN")
    try:
        row = conn.execute(f"{_SESSION_SELECT} FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise UnknownSessionError(f"There is no game session #{session_id}.")
        rec = _session(row, _seats(row["seats_json"]))
        handled = None
        if interaction_id is not None:
            found = conn.execute("SELECT session_id FROM actions WHERE interaction_id = ?",
                                 (interaction_id,)).fetchone()
            handled = None if found is None else found[0]
        humans = sorted({s.user_id for s in rec.seats if s.user_id is not None})
        settings, modes, prefs, standing = _context_parts(conn, session_id, rec.guild_id, humans)
        last: dict[int, int] = {}
        for u in humans:  # newest first along the primary key: stops at the user's latest action
            found = conn.execute("SELECT seq FROM actions WHERE session_id = ? AND user_id = ? AND seq <= ? "
                                 "ORDER BY seq DESC LIMIT 1", (session_id, u, rec.seq)).fetchone()
            if found is not None:
                last[u] = found[0]
        after = tail_start(rec.seq, last.values(), tail)
        rows = conn.execute(f"{_ACTION_SELECT} WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
                            (session_id, after, rec.seq)).fetchall()
    finally:
        conn.execute("COMMIT")
    return SessionContext(rec, handled, settings, modes, prefs, last, standing, after,
                          tuple(_action(r) for r in rows), _fingerprint(settings, modes, prefs, standing))


def _context_parts(conn: sqlite3.Connection, session_id: int, guild_id: int | None, humans: list[int],
                   ) -> tuple[dict[str, Any], dict[int, str], dict[int, UserPrefs], dict[int, str]]:
    """In the connection's thread: a session's server settings, followers, the preferences of
    its seated ``humans`` and followers, and its standing passes."""
    settings: dict[str, Any] = {}
    if guild_id is not None:
        found = conn.execute("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone()
        settings = {} if found is None else json.loads(found[0])
    modes = {r[0]: r[1] for r in conn.execute(
        "SELECT user_id, mode FROM followers WHERE session_id = ? ORDER BY since, user_id", (session_id,))}
    users = sorted({*humans, *modes})
    prefs = {u: UserPrefs(u) for u in users}
    if users:
        for r in conn.execute("SELECT user_id, dms, reminder_hours, notify, auto_pass FROM user_prefs WHERE "
                              f"user_id IN ({','.join('?' * len(users))})", users):
            prefs[r[0]] = UserPrefs(r[0], bool(r[1]), r[2], r[3], None if r[4] is None else bool(r[4]))
    standing = {r[0]: r[1] for r in conn.execute(
        "SELECT seat, mark FROM standing_passes WHERE session_id = ?", (session_id,))}
    return settings, modes, prefs, standing


def _fingerprint(settings: dict[str, Any], modes: dict[int, str], prefs: dict[int, UserPrefs],
                 standing: dict[int, str]) -> str:
    """``SessionContext.fingerprint`` of the parts ``_context_parts`` read."""
    text = _dumps([settings, sorted(modes.items()), sorted(dataclasses.astuple(p) for p in prefs.values()),
                   sorted(standing.items())])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _check_context(conn: sqlite3.Connection, session_id: int, expected_version: int, context: str) -> None:
    """Inside the write transaction: raise ``ContextChangedError`` unless the session is still at
    ``expected_version`` with the context whose fingerprint is ``context``."""
    row = conn.execute("SELECT version, guild_id FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is not None and row[0] == expected_version:
        humans = sorted({r[0] for r in conn.execute(
            "SELECT user_id FROM seats WHERE session_id = ? AND user_id IS NOT NULL", (session_id,))})
        if _fingerprint(*_context_parts(conn, session_id, row[1], humans)) == context:
            return
    raise ContextChangedError("The game or its settings changed since this process last read them; "
                              "nothing was applied.")


class _Write:
    """An update waiting for the next group commit."""

    __slots__ = ("session_id", "expected_version", "change", "now", "future", "context")

    def __init__(
        self,
        session_id: int,
        expected_version: int,
        change: SessionUpdate,
        now: float,
        future: asyncio.Future[SessionRecord],
        context: str | None = None,
    ) -> None:
        self.session_id = session_id
        self.expected_version = expected_version
        self.change = change
        self.now = now
        self.future = future
        self.context = context


def _refusal(e: Exception) -> Exception:
    """The storage error a caller gets for an update refused inside its savepoint."""
    if isinstance(e, sqlite3.IntegrityError):
        text = str(e)
        if "interaction_id" in text:
            return DuplicateInteractionError("This interaction was already handled; nothing was applied twice.")
        if "channel_id" in text:
            return ChannelBusyError("This channel already has another open game.")
    return e


def _store_update(
    conn: sqlite3.Connection, session_id: int, expected_version: int, change: SessionUpdate, now: float,
    context: str | None = None,
) -> SessionRecord:
    """The statements of ``SqliteStorage.update`` on ``conn``, inside the caller's transaction."""
    if context is not None:
        _check_context(conn, session_id, expected_version, context)
    sets = ["version = version + 1", "updated_at = ?"]
    params: list[Any] = [now]

    def put(column: str, value: Any, encode: Any = None) -> None:
        if value is not KEEP:
            sets.append(f"{column} = ?")
            params.append(encode(value) if encode and value is not None else value)

    put("status", change.status)
    put("options", change.options, _dumps)
    put("to_act", change.to_act, lambda v: _dumps(list(v)))
    put("outcome", change.outcome, _dumps)
    put("deadline", change.deadline)
    put("pending_undo", change.pending_undo, _dumps)
    put("started_at", change.started_at)
    put("ended_at", change.ended_at)
    put("attention", change.attention, _dumps)
    put("orphaned", change.orphaned, _dumps)
    put("wait_deadline", change.wait_deadline)
    put("rules_version", change.rules_version)
    put("suspended", change.suspended, _dumps)
    if change.append:
        put("seq", change.append[-1].seq)
    elif change.truncate_after is not None:
        put("seq", change.truncate_after)

    cur = conn.execute(
        f"UPDATE sessions SET {', '.join(sets)} WHERE id = ? AND version = ?",
        (*params, session_id, expected_version),
    )
    if cur.rowcount != 1:
        row = conn.execute("SELECT version FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise UnknownSessionError(f"There is no game session #{session_id}.")
        raise StaleStateError(
            f"The game changed while you were deciding (version {row[0]}, you saw "
            f"{expected_version}); look at the current state and try again."
        )
    if change.truncate_after is not None:
        conn.execute("DELETE FROM actions WHERE session_id = ? AND seq > ?", (session_id, change.truncate_after))
        conn.execute("DELETE FROM snapshots WHERE session_id = ? AND seq > ?", (session_id, change.truncate_after))
    if change.seats is not KEEP:
        conn.execute("DELETE FROM seats WHERE session_id = ?", (session_id,))
        conn.executemany(
            "INSERT INTO seats (session_id, seat, user_id, faction, ai, joined_at, left_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(session_id, x.seat, x.user_id, x.faction, x.ai, x.joined_at, x.left_at) for x in change.seats],
        )
    if change.append:
        conn.executemany(
            "INSERT INTO actions (session_id, seq, seat, user_id, notation, action, events, "
            "secret, reveals, interaction_id, at, reveals_checked, reveals_chained) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    session_id,
                    a.seq,
                    a.seat,
                    a.user_id,
                    a.notation,
                    None if a.action is None else _dumps(a.action),
                    _dumps([e.to_json() for e in a.events]),
                    int(a.secret),
                    int(a.reveals),
                    a.interaction_id,
                    a.at or now,
                    int(a.reveals_checked),
                    int(a.reveals_chained),
                )
                for a in change.append
            ],
        )
    if change.snapshots:
        conn.executemany(
            "INSERT OR REPLACE INTO snapshots (session_id, seq, state, at) VALUES (?, ?, ?, ?)",
            [(session_id, seq, _dumps(state), now) for seq, state in change.snapshots],
        )
    row = conn.execute(f"{_SESSION_SELECT} FROM sessions WHERE id = ?", (session_id,)).fetchone()
    return _session(row, _seats(row["seats_json"]))
