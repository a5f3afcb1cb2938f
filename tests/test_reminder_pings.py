"""Storage of reminders already sent (migration 0003), so a restart does not ping early."""

from __future__ import annotations

from storage import NewSession, SqliteStorage


async def test_reminder_pings_survive_reopening_and_replace_older_waits(tmp_path) -> None:
    path = str(tmp_path / "t.db")
    async with SqliteStorage(path) as st:
        rec = await st.create_session(NewSession(1, 10, "barbarian-hordes", {}, 7, 100), 0.0)
        assert await st.reminder_pings(rec.id) == {}
        await st.set_reminder_ping(rec.id, 100, 50.0, 1, 60.0)
        await st.set_reminder_ping(rec.id, 200, 50.0, 2, 61.0)
        await st.set_reminder_ping(rec.id, 100, 50.0, 2, 70.0)
    async with SqliteStorage(path) as st:
        assert await st.reminder_pings(rec.id) == {100: (50.0, 2), 200: (50.0, 2)}
        await st.set_reminder_ping(rec.id, 100, 80.0, 1, 90.0)  # a new wait
        assert (await st.reminder_pings(rec.id))[100] == (80.0, 1)
