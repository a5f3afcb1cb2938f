"""storage/: migrations, connection settings, the open-session index, optimistic
versions, interaction ids, snapshots, backup and check. The tests marked with the
``backend`` fixture run on SQLite and on PostgreSQL; the others are one backend's own."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from games.core import StaleStateError, get_game
from storage import (
    SCHEMA_VERSION,
    ActionRecord,
    ChannelBusyError,
    DuplicateInteractionError,
    NewSession,
    SeatRecord,
    SessionUpdate,
    SqliteStorage,
    Storage,
    UnknownSessionError,
    UserPrefs,
    migrations,
    seed_hash,
)
from storage.base import ContextChangedError, UnsupportedOperationError
from storage.replay import check_database, load_state, replay_session
from tests.host_helpers import ALICE, BOB, CHANNEL, host_on, make_storage, new_game, play_moves, raw_sql

both = pytest.mark.usefixtures("backend")


def new(channel: int = CHANNEL) -> NewSession:
    return NewSession(1, channel, "count", {"target": 30}, 7, ALICE, (SeatRecord(0, ALICE), SeatRecord(1, BOB)))


def test_migrations_are_numbered_without_gaps():
    numbers = [n for n, _, _ in migrations()]
    assert numbers == list(range(1, SCHEMA_VERSION + 1))
    assert SCHEMA_VERSION >= 2


def test_postgresql_has_the_same_migrations_as_sqlite():
    from storage.postgres import PG_SCHEMA_VERSION, pg_migrations

    assert PG_SCHEMA_VERSION == SCHEMA_VERSION
    assert [(n, name) for n, name, _ in pg_migrations()] == [(n, name) for n, name, _ in migrations()]


async def test_a_fresh_postgresql_schema_gets_every_migration_and_durable_commits(pg_schema):
    from storage.postgres import PostgresStorage

    async with PostgresStorage(pg_schema) as st:
        assert isinstance(st, Storage)
        assert await st.schema_version() == SCHEMA_VERSION
        async with st.pool.acquire() as c:
            assert await c.fetchval("SHOW synchronous_commit") == "on"
            tables = {r[0] for r in await c.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
            indexes = {r[0] for r in await c.fetch("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")}
        assert {"sessions", "seats", "actions", "snapshots", "followers", "user_prefs", "guild_settings",
                "reminder_pings", "tabula_schema"} <= tables
        assert {"sessions_one_open_per_channel", "actions_interaction"} <= indexes
        assert await st.integrity() == (["ok"], [])
        with pytest.raises(UnsupportedOperationError, match="pg_dump"):
            await st.backup("/nonexistent")
    async with PostgresStorage(pg_schema) as st:  # reopening applies nothing twice
        assert await st.schema_version() == SCHEMA_VERSION


async def test_postgresql_migration_from_the_previous_schema_keeps_the_data(pg_schema):
    from storage.postgres import PostgresStorage

    async with PostgresStorage(pg_schema, migrate_to=SCHEMA_VERSION - 1) as st:
        assert await st.schema_version() == SCHEMA_VERSION - 1
        await raw_sql(st, "INSERT INTO sessions (id, guild_id, channel_id, game_id, options, seed, seed_hash, status, "
                          "created_by, created_at, updated_at) VALUES (5, 1, 77, 'count', '{}', 9, ?, 'lobby', ?, 1, 1)",
                      seed_hash(9), ALICE)
        await raw_sql(st, "INSERT INTO seats (session_id, seat, user_id, joined_at) VALUES (5, 0, ?, 1)", ALICE)
    async with PostgresStorage(pg_schema) as st:
        assert await st.schema_version() == SCHEMA_VERSION
        rec = await st.get_session(5)
        assert rec.channel_id == 77 and rec.seats == (SeatRecord(0, ALICE, joined_at=1.0),)
        await st.set_reminder_ping(5, ALICE, 1.0, 1, 2.0)
        assert await st.reminder_pings(5) == {ALICE: (1.0, 1)}


async def test_a_postgresql_schema_newer_than_the_program_is_refused(pg_schema):
    from storage.postgres import PostgresStorage

    async with PostgresStorage(pg_schema) as st:
        await raw_sql(st, "INSERT INTO tabula_schema (version, name) VALUES (?, 'from the future')", SCHEMA_VERSION + 1)
    with pytest.raises(RuntimeError, match="newer"):
        await PostgresStorage(pg_schema).open()


async def test_fresh_file_gets_every_migration_and_the_pragmas(tmp_path):
    path = tmp_path / "fresh.db"
    async with SqliteStorage(str(path), busy_timeout_ms=1234) as st:
        assert isinstance(st, Storage)
        assert await st.schema_version() == SCHEMA_VERSION

        async def pragma(name: str):
            async with st.db.execute(f"PRAGMA {name}") as cur:
                return (await cur.fetchone())[0]

        assert await pragma("journal_mode") == "wal"
        assert await pragma("synchronous") == 2  # FULL
        assert await pragma("foreign_keys") == 1
        assert await pragma("busy_timeout") == 1234
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"sessions", "seats", "actions", "snapshots", "followers", "user_prefs", "guild_settings"} <= tables


async def test_an_empty_file_is_migrated(tmp_path):
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    async with SqliteStorage(str(path)) as st:
        assert await st.schema_version() == SCHEMA_VERSION
        assert await st.open_session(CHANNEL) is None
    async with SqliteStorage(str(path)) as st:  # reopening applies nothing twice
        assert await st.schema_version() == SCHEMA_VERSION


async def test_migration_from_the_previous_schema_keeps_the_data(tmp_path):
    path = str(tmp_path / "old.db")
    async with SqliteStorage(path, migrate_to=SCHEMA_VERSION - 1) as st:
        assert await st.schema_version() == SCHEMA_VERSION - 1
        # write with plain SQL as the previous version of the program would
        await st.db.execute(
            "INSERT INTO sessions (id, guild_id, channel_id, game_id, options, seed, seed_hash, status, "
            "created_by, created_at, updated_at) VALUES (5, 1, 77, 'count', '{}', 9, ?, 'lobby', ?, 1, 1)",
            (seed_hash(9), ALICE),
        )
        await st.db.execute("INSERT INTO seats (session_id, seat, user_id, joined_at) VALUES (5, 0, ?, 1)", (ALICE,))
    async with SqliteStorage(path) as st:
        assert await st.schema_version() == SCHEMA_VERSION
        rec = await st.get_session(5)
        assert rec.channel_id == 77 and rec.seats == (SeatRecord(0, ALICE, joined_at=1.0),)
        assert rec.deadline is None and rec.pending_undo is None
        assert await st.follow(5, BOB, 2.0)
        assert await st.followers(5) == [BOB]


async def test_a_database_newer_than_the_program_is_refused(tmp_path):
    path = str(tmp_path / "new.db")
    async with SqliteStorage(path):
        pass
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(RuntimeError, match="newer"):
        await SqliteStorage(path).open()


@both
async def test_one_open_session_per_channel_any_number_finished():
    async with await make_storage() as st:
        rec = await st.create_session(new(), 1.0)
        with pytest.raises(ChannelBusyError):
            await st.create_session(new(), 2.0)
        await st.update(rec.id, rec.version, SessionUpdate(status="finished"), 3.0)
        second = await st.create_session(new(), 4.0)
        await st.update(second.id, second.version, SessionUpdate(status="abandoned"), 5.0)
        third = await st.create_session(new(), 6.0)
        assert (await st.open_session(CHANNEL)).id == third.id
        assert [r.id for r in await st.sessions_in_channel(CHANNEL)] == [third.id, second.id, rec.id]
        assert await st.create_session(new(channel=11), 7.0)


@both
async def test_a_stale_version_raises_and_changes_nothing():
    async with await make_storage() as st:
        rec = await st.create_session(new(), 1.0)
        row = ActionRecord(0, None, "setup", None)
        after = await st.update(rec.id, rec.version, SessionUpdate(status="active", append=(row,)), 2.0)
        assert after.version == rec.version + 1
        with pytest.raises(StaleStateError):
            await st.update(rec.id, rec.version, SessionUpdate(status="finished",
                                                               append=(ActionRecord(1, 0, "add", {"kind": "add"}),)),
                            3.0)
        again = await st.get_session(rec.id)
        assert again.status == "active" and again.version == after.version and again.seq == 0
        assert [a.seq for a in await st.actions(rec.id)] == [0]
        with pytest.raises(UnknownSessionError):
            await st.update(12345, 0, SessionUpdate(status="finished"), 3.0)


@both
async def test_an_interaction_id_is_stored_once():
    async with await make_storage() as st:
        rec = await st.create_session(new(), 1.0)
        rec = await st.update(rec.id, rec.version, SessionUpdate(
            append=(ActionRecord(0, None, "setup", None), ActionRecord(1, 0, "add", {"kind": "add"},
                                                                      interaction_id="i-1"))), 2.0)
        with pytest.raises(DuplicateInteractionError):
            await st.update(rec.id, rec.version, SessionUpdate(
                append=(ActionRecord(2, 1, "add", {"kind": "add"}, interaction_id="i-1"),)), 3.0)
        assert (await st.get_session(rec.id)).version == rec.version
        found = await st.action_by_interaction("i-1")
        assert found is not None and found[0] == rec.id and found[1].seq == 1


@both
async def test_outbox_keeps_a_message_until_it_is_delivered_or_given_up():
    async with await make_storage() as st:
        rec = await st.create_session(new(), 1.0)
        first = await st.outbox_add(rec.id, "public", {"channel": 77, "content": "Now alice"}, 10.0)
        second = await st.outbox_add(rec.id, "dm", {"user": ALICE}, 11.0)
        assert [o.id for o in await st.outbox_due(11.0)] == [first, second]
        await st.outbox_retry(first, {"channel": 77, "content": "Now alice", "image": "jpeg"}, 1, 20.0, "413")
        due = await st.outbox_due(12.0)
        assert [o.id for o in due] == [second]
        got = await st.outbox_get(first)
        assert got is not None and got.payload["image"] == "jpeg" and got.attempts == 1 and got.next_at == 20.0
        await st.outbox_done(second, 13.0, 555)
        await st.outbox_done(first, 21.0, None, "gone")
        assert await st.outbox_due(1e12) == [] and await st.outbox_get(first) is None
        assert await st.outbox_prune(15.0) == 1 and await st.outbox_prune(100.0) == 1


@both
async def test_prefs_guild_settings_and_followers():
    async with await make_storage() as st:
        assert await st.get_prefs(ALICE) == UserPrefs(ALICE)
        await st.set_prefs(UserPrefs(ALICE, False, 6), 1.0)
        assert await st.get_prefs(ALICE) == UserPrefs(ALICE, False, 6)
        assert await st.get_guild_settings(1) == {}
        await st.set_guild_settings(1, {"respond_seconds": 600}, 1.0)
        assert await st.get_guild_settings(1) == {"respond_seconds": 600}
        rec = await st.create_session(new(), 1.0)
        assert await st.follow(rec.id, 5, 1.0) and not await st.follow(rec.id, 5, 1.0)
        assert await st.unfollow(rec.id, 5) and not await st.unfollow(rec.id, 5)
        with pytest.raises(UnknownSessionError):
            await st.follow(424242, 5, 1.0)


@both
async def test_session_context_reads_what_an_action_needs_in_one_call():
    """``session_context``: the session, whether an interaction id is stored, the server's
    settings, followers and their modes, everyone's preferences, each human's latest action,
    the standing passes and the log back to the earliest of them (at most ``tail`` rows)."""
    async with await make_storage() as st:
        rec = await st.create_session(new(), 1.0)
        await st.set_guild_settings(1, {"wait_seconds": 60}, 1.0)
        await st.set_prefs(UserPrefs(BOB, False, 6, "dm", True), 1.0)
        await st.follow(rec.id, 5, 1.0, "turn")
        rows = [ActionRecord(0, None, "setup", None)]
        for seq in range(1, 11):  # ALICE plays 1..3, BOB 4..9, the host 10
            user = ALICE if seq <= 3 else BOB if seq < 10 else None
            rows.append(ActionRecord(seq, 0 if user == ALICE else 1, "add", {"kind": "add"}, user_id=user,
                                     interaction_id=f"i-{seq}"))
        rec = await st.update(rec.id, rec.version, SessionUpdate(status="active", append=tuple(rows)), 2.0)
        await st.set_standing_pass(rec.id, 1, "phase 2", 2.0)

        ctx = await st.session_context(rec.id, interaction_id="i-4")
        assert ctx.session == await st.get_session(rec.id) and ctx.handled == rec.id
        assert ctx.guild_settings == {"wait_seconds": 60}
        assert ctx.follower_modes == {5: "turn"}
        assert ctx.prefs == {ALICE: UserPrefs(ALICE), BOB: UserPrefs(BOB, False, 6, "dm", True), 5: UserPrefs(5)}
        assert ctx.last_acted == {ALICE: 3, BOB: 9} and ctx.standing_passes == {1: "phase 2"}
        assert ctx.tail_after == 2 and [r.seq for r in ctx.tail] == list(range(3, 11))
        assert ctx.tail[0] == (await st.actions(rec.id, after=2, through=3))[0]

        capped = await st.session_context(rec.id, interaction_id="unknown", tail=4)
        assert capped.handled is None and capped.tail_after == 6 and [r.seq for r in capped.tail] == [7, 8, 9, 10]
        lobby = await st.session_context((await st.create_session(new(channel=12), 3.0)).id)
        assert lobby.last_acted == {} and lobby.tail == () and lobby.tail_after == 0
        with pytest.raises(UnknownSessionError):
            await st.session_context(424242)


@both
async def test_update_with_context_applies_only_while_what_was_read_is_current():
    """``update(context=fingerprint)``, a change computed from an earlier read without the
    session's guard: applied while the version and the context (server settings, followers,
    preferences, standing passes) are those read; any change to them refuses it with
    ContextChangedError and changes nothing."""
    async with await make_storage() as st:
        rec = await st.create_session(new(), 1.0)
        rec = await st.update(rec.id, rec.version, SessionUpdate(status="active"), 1.0)
        ctx = await st.session_context(rec.id)
        assert ctx.fingerprint and ctx.fingerprint == (await st.session_context(rec.id)).fingerprint

        def row(seq: int) -> SessionUpdate:
            return SessionUpdate(append=(ActionRecord(seq, 0, "add", {"kind": "add"}, user_id=ALICE),))

        rec = await st.update(rec.id, rec.version, row(1), 2.0, context=ctx.fingerprint)
        assert rec.seq == 1 and (await st.session_context(rec.id)).fingerprint == ctx.fingerprint
        with pytest.raises(ContextChangedError):  # the version moved on
            await st.update(rec.id, rec.version - 1, row(2), 3.0, context=ctx.fingerprint)
        changes = [lambda: st.set_prefs(UserPrefs(BOB, False, 6), 3.0),
                   lambda: st.follow(rec.id, 5, 3.0),
                   lambda: st.set_standing_pass(rec.id, 0, "round 1", 3.0),
                   lambda: st.set_guild_settings(1, {"wait_seconds": 60}, 3.0)]
        for change in changes:
            before = (await st.session_context(rec.id)).fingerprint
            await change()
            with pytest.raises(ContextChangedError):
                await st.update(rec.id, rec.version, row(2), 3.0, context=before)
            assert (await st.get_session(rec.id)).version == rec.version
        fresh = (await st.session_context(rec.id)).fingerprint
        rec = await st.update(rec.id, rec.version, row(2), 4.0, context=fresh)
        assert [r.seq for r in await st.actions(rec.id)] == [1, 2]


@both
async def test_snapshots_every_n_actions_and_load_equals_full_replay(tmp_path):
    async with host_on(str(tmp_path / "s.db"), snapshot_every=5) as host:
        await new_game(host, options={"target": 500})
        await play_moves(host, 23)
        st = host.storage
        rec = await st.open_session(CHANNEL)
        assert rec.seq == 23
        assert [s for s, _ in await st.snapshots(rec.id)] == [0, 5, 10, 15, 20]
        game = get_game("count")
        loaded = await load_state(st, game, rec)
        full = await replay_session(st, rec)
        assert full.problems == []
        assert loaded == full.state


async def test_backup_is_a_readable_copy(tmp_path):
    async with host_on(str(tmp_path / "live.db")) as host:
        await new_game(host)
        await play_moves(host, 5)
        await host.storage.backup(str(tmp_path / "copy.db"))
        original = await host.storage.open_session(CHANNEL)
    async with SqliteStorage(str(tmp_path / "copy.db")) as copy:
        rec = await copy.open_session(CHANNEL)
        assert rec == original
        assert (await check_database(copy)).ok


@both
async def test_check_finds_a_tampered_snapshot_and_a_broken_log(tmp_path):
    async with host_on(str(tmp_path / "t.db"), snapshot_every=2) as host:
        await new_game(host)
        await play_moves(host, 6)
        st = host.storage
        report = await check_database(st)
        assert report.ok and report.sessions_checked == 1
        if isinstance(st, SqliteStorage):
            await raw_sql(st, "UPDATE snapshots SET state = json_set(state, '$.total', 999) WHERE seq = 4")
        else:
            await raw_sql(st, "UPDATE snapshots SET state = jsonb_set(state, '{total}', '999') WHERE seq = 4")
        report = await check_database(st)
        assert not report.ok and "snapshot at action 4" in report.problems[0]
        await raw_sql(st, "DELETE FROM actions WHERE seq = 3")
        report = await check_database(st)
        assert any("without gaps" in p for p in report.problems)


async def test_concurrent_updates_share_one_commit_and_each_gets_its_own_verdict(tmp_path, monkeypatch):
    """Group commit on SQLite: updates arriving while a commit is under way share the next
    transaction (one flush); within it a stale version or a duplicate interaction id is
    refused alone, the others are stored; every caller returns after its commit."""
    batches: list[int] = []
    real = SqliteStorage._store_batch

    def counting(self, batch):
        batches.append(len(batch))
        return real(self, batch)

    monkeypatch.setattr(SqliteStorage, "_store_batch", counting)
    path = str(tmp_path / "group.db")
    async with SqliteStorage(path) as st:
        recs = []
        for k in range(8):
            rec = await st.create_session(new(CHANNEL + k), 1.0)
            recs.append(await st.update(rec.id, rec.version, SessionUpdate(
                status="active", append=(ActionRecord(0, None, "setup", None),)), 2.0))
        batches.clear()

        def add(rec, seq, version=None, iid=None):
            row = ActionRecord(seq, 0, "add", {"kind": "add"}, interaction_id=iid)
            return st.update(rec.id, rec.version if version is None else version, SessionUpdate(append=(row,)), 3.0)

        results = await asyncio.gather(
            *(add(r, 1, iid=f"g-{k}") for k, r in enumerate(recs)),
            add(recs[0], 1, version=recs[0].version + 5),  # stale
            add(recs[1], 2, version=recs[1].version + 1, iid="g-0"),  # after g-1, but g-0's id again
            return_exceptions=True,
        )
        assert [r.version for r in results[:8]] == [r.version + 1 for r in recs]
        assert isinstance(results[8], StaleStateError)
        assert isinstance(results[9], DuplicateInteractionError)
        assert max(batches) > 1 and sum(batches) == 10, batches
    async with SqliteStorage(path) as st:  # what was acknowledged is in the file
        for r in recs:
            assert [a.seq for a in await st.actions(r.id)] == [0, 1]


@both
async def test_whether_a_reveals_verdict_was_established_is_stored_and_read_everywhere():
    """``reveals_checked`` and ``reveals_chained`` (a verdict left to an undo that needs it,
    bot.host.undo) are written by both ways of storing an action (``update``, and on
    PostgreSQL the one-statement update with a context) and read back by every read of the
    log: ``actions``, ``action_by_interaction``, ``session_log``, ``session_context``."""
    async with await make_storage() as st:
        rec = await st.create_session(new(), 1.0)
        kinds = [(False, True, False), (True, True, False), (True, False, False), (True, False, True)]
        rows = tuple(ActionRecord(seq, seq % 2, "add", {"kind": "add"}, user_id=(BOB, ALICE)[seq % 2], reveals=reveals,
                                  reveals_checked=checked, reveals_chained=chained, interaction_id=f"i-{seq}",
                                  at=2.0)
                     for seq, (reveals, checked, chained) in enumerate(kinds, start=1))
        rec = await st.update(rec.id, rec.version, SessionUpdate(status="active", append=rows[:2]), 2.0)
        fingerprint = (await st.session_context(rec.id)).fingerprint
        rec = await st.update(rec.id, rec.version, SessionUpdate(append=rows[2:]), 2.0, context=fingerprint)
        assert tuple(await st.actions(rec.id, after=0)) == rows
        assert [await st.action_by_interaction(f"i-{r.seq}") for r in rows] == [(rec.id, r) for r in rows]
        assert tuple((await st.session_log(rec.id))[1]) == rows
        assert (await st.session_context(rec.id)).tail == rows[2:]  # back to Alice's last action, seq 3
