"""``tabula migrate``: a SQLite database of many finished and running games copied to
PostgreSQL, verified by replay, and played on from there."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.cli import main
from bot.host import Host
from storage import NewSession, SqliteStorage, UserPrefs
from storage.postgres import PostgresStorage
from storage.replay import check_database, replay_session
from tests.host_helpers import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    Clock,
    host_on,
    new_game,
    play_moves,
    settings,
    turn_of,
)

GAMES = 14


async def build(path: str) -> dict[int, str]:
    """Finished, running (some inside a response window), lobby and abandoned games; followers,
    preferences, guild settings and reminder pings. Returns session id -> status."""
    rand = random.Random(3)
    async with host_on(path, snapshot_every=5) as host:
        for i in range(GAMES):
            channel = 1000 + i
            r = await new_game(host, (ALICE, BOB, CAROL)[: 2 + i % 2], ai=i % 3 == 0, channel=channel,
                               options={"target": rand.choice([12, 25, 60])})
            r = await play_moves(host, rand.randint(0, 40), channel=channel, prefer=rand.choice(["add", "roll"]),
                                 reply=r)
            if r.status == "active" and i in (5, 6):
                await host.abandon(channel, ALICE)
        await host.create(GUILD, 2000, ALICE, "count")  # a lobby
        await host.join(2000, BOB)
        await host.create(GUILD, 2001, BOB, "count")  # abandoned before the start
        await host.abandon(2001, BOB)
        followed = (await host.storage.sessions_with_status("active"))[-1]
        await host.follow(followed.channel_id, 999)
        await host.set_prefs(ALICE, dms=False, reminder_hours=6)
        await host.set_guild_settings(GUILD, is_moderator=True, respond_seconds=900)
        st = host.storage
        active = await st.sessions_with_status("active")
        await st.set_reminder_ping(active[0].id, BOB, active[0].updated_at, 2, 5.0)
        return {r.id: r.status for r in await st.sessions_with_status("lobby", "active", "finished", "abandoned")}


def test_migrate_copies_every_session_and_verifies_by_replay(tmp_path, pg_schema, capsys):
    path = str(tmp_path / "old.db")
    statuses = asyncio.run(build(path))
    assert {"lobby", "active", "finished", "abandoned"} <= set(statuses.values())
    assert main(["migrate", "--from", path, "--to", pg_schema]) == 0
    out = capsys.readouterr().out
    assert f"{len(statuses)} sessions" in out and "VERIFIED" in out and "PROBLEM" not in out
    asyncio.run(compare_and_play_on(path, pg_schema, statuses))

    # a second run refuses to copy into a database that is no longer empty
    assert main(["migrate", "--from", path, "--to", pg_schema]) == 2
    assert "already holds" in capsys.readouterr().err


async def compare_and_play_on(path: str, pg_schema: str, statuses: dict[int, str]) -> None:
    async with SqliteStorage(path) as src, PostgresStorage(pg_schema) as dst:
        for sid in statuses:
            a, b = await src.get_session(sid), await dst.get_session(sid)
            assert a == b
            assert await src.actions(sid) == await dst.actions(sid)
            if b.started_at is not None:
                assert (await replay_session(dst, b)).problems == []
        assert await dst.get_prefs(ALICE) == UserPrefs(ALICE, False, 6)
        assert await dst.get_guild_settings(GUILD) == {"respond_seconds": 900}
        assert [999] in [await dst.followers(sid) for sid in statuses]
        assert (await check_database(dst)).ok

        # the bot goes on where it stopped: running games continue, new ones get fresh ids
        host = Host(dst, settings(), clock=Clock(), seeds=lambda: 7)
        running = (await dst.sessions_with_status("active"))[0]
        r = await host.view(running.channel_id)
        user, _ = turn_of(r)
        r = await play_moves(host, 3, channel=running.channel_id, reply=r)
        r = await new_game(host, channel=3000)
        assert r.session_id > max(statuses)
        assert (await check_database(dst)).ok



async def test_db_check_on_postgresql_writes_nothing(pg_schema):
    """``db check`` opens PostgreSQL read-only: an empty schema is reported, never given tables."""
    import asyncpg

    from storage import storage_for

    with pytest.raises(RuntimeError, match="no Tabula tables"):
        async with storage_for(pg_schema, read_only=True):
            pass
    conn = await asyncpg.connect(pg_schema)
    try:
        assert await conn.fetchval("SELECT to_regclass('tabula_schema')") is None
    finally:
        await conn.close()
    async with storage_for(pg_schema) as st:  # a normal open migrates
        await st.create_session(NewSession(GUILD, 1, "count", {}, 5, ALICE), 1.0)
    async with storage_for(pg_schema, read_only=True) as st:
        report = await check_database(st)
    assert report.ok and report.sessions_checked == 0
