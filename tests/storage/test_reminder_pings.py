"""Storage of reminders already sent (migration 0003), so a restart does not ping early,
and the claim that lets exactly one of several processes send a reminder."""

from __future__ import annotations

import asyncio

import pytest

from storage import NewSession
from tests.host_helpers import make_storage

pytestmark = pytest.mark.usefixtures("backend")


async def test_reminder_pings_survive_reopening_and_replace_older_waits(tmp_path) -> None:
    path = str(tmp_path / "t.db")
    async with await make_storage(path) as st:
        rec = await st.create_session(NewSession(1, 10, "barbarian-hordes", {}, 7, 100), 0.0)
        assert await st.reminder_pings(rec.id) == {}
        await st.set_reminder_ping(rec.id, 100, 50.0, 1, 60.0)
        await st.set_reminder_ping(rec.id, 200, 50.0, 2, 61.0)
        await st.set_reminder_ping(rec.id, 100, 50.0, 2, 70.0)
    async with await make_storage(path) as st:
        assert await st.reminder_pings(rec.id) == {100: (50.0, 2), 200: (50.0, 2)}
        await st.set_reminder_ping(rec.id, 100, 80.0, 1, 90.0)  # a new wait
        assert (await st.reminder_pings(rec.id))[100] == (80.0, 1)


async def test_a_reminder_is_claimed_once_per_ping_and_wait(tmp_path) -> None:
    path = str(tmp_path / "c.db")
    stores = [await make_storage(path) for _ in range(3)]
    for st in stores:
        await st.open()
    try:
        rec = await stores[0].create_session(NewSession(1, 10, "barbarian-hordes", {}, 7, 100), 0.0)
        won = await asyncio.gather(*(st.claim_reminder_ping(rec.id, 100, 50.0, 1, 60.0)
                                     for st in stores for _ in range(4)))
        assert sum(won) == 1
        assert not await stores[1].claim_reminder_ping(rec.id, 100, 50.0, 1, 61.0)  # the same ping again
        assert await stores[2].claim_reminder_ping(rec.id, 100, 50.0, 2, 62.0)  # the next interval
        assert await stores[0].claim_reminder_ping(rec.id, 100, 80.0, 1, 90.0)  # a new wait
        assert await stores[1].reminder_pings(rec.id) == {100: (80.0, 1)}
    finally:
        for st in stores:
            await st.close()
