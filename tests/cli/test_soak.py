"""Sessions that never stall or leak, at scale (issue 16, item 4 and the soak of "Done
when"): a thousand finished sessions leave nothing behind in the host, and a bounded soak
of many games with random leaves, deleted channels, removed servers and restarts ends with
every session finished, abandoned, orphaned or waiting on a deadline that exists.

SQLite only: these are about the host's own bookkeeping, not the backend."""

from __future__ import annotations

from bench.soak import soak, stuck_reason
from tests.host_helpers import ALICE, BOB, host_on, new_game, turn_of


async def test_a_thousand_finished_sessions_leave_nothing_behind_in_the_host():
    """Issue 16, item 4: 1,000 sessions created, played a few moves and finished (or
    abandoned) in one process: no host lock and no cached state stays, and the memory
    the host holds returns to its baseline (measured with tracemalloc)."""
    import gc
    import tracemalloc

    async with host_on(snapshot_every=50) as host:
        async def one(i: int) -> None:
            channel = 10_000 + i
            r = await new_game(host, (ALICE, BOB), channel=channel, options={"target": 6 if i % 2 else 1000})
            for _ in range(3):
                if r.status != "active":
                    break
                user, kind = turn_of(r)
                r = await host.act(channel, user, "pass" if kind == "respond" else "roll")
            if r.status == "active":
                await host.abandon(channel, ALICE)

        await one(0)
        gc.collect()
        tracemalloc.start()
        try:
            base, _ = tracemalloc.get_traced_memory()
            for i in range(1, 1000):
                await one(i)
            gc.collect()
            after, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert host._locks == {}
        assert len(host._cache) == 0
        assert after - base < 256 * 1024, f"{(after - base) / 1024:.0f} KiB kept after 1,000 finished games"
        assert peak - base < 16 * 1024 * 1024


async def test_a_bounded_soak_leaves_no_session_stuck(tmp_path):
    """Done when: "A soak test runs many games for a bounded time with random leaves,
    deletes and restarts, and ends with every session finished, orphaned or waiting on a
    deadline that exists, none stuck." (The long run: python -m bench.soak.)"""
    report = await soak(str(tmp_path / "soak.db"), seconds=12, games=8, seed=7)
    assert report.stuck == [], report.line()
    assert report.steps["restarts"] and report.steps["channels deleted"] and report.steps["leaves"]
    assert report.steps["actions"] > 20 and report.steps["games started"] > 8
    assert sum(report.ends.values()) >= report.steps["games started"]


def test_stuck_means_no_deadline_for_a_waiting_human():
    """The soak's judge: an active game waiting on a human with no deadline is stuck."""
    from storage import SeatRecord, SessionRecord

    rec = SessionRecord(1, 1, 10, "count", {}, 1, "", "active", 3, 2, (0,), None, 1, 0.0, 0.0, 0.0, None,
                        None, None, (SeatRecord(0, ALICE), SeatRecord(1, None, ai="heuristic")))
    assert "no deadline" in stuck_reason(rec, 10.0)
    assert stuck_reason(SessionRecord(**{**rec.__dict__, "wait_deadline": 5.0}), 10.0) is None
    assert "no human" in stuck_reason(SessionRecord(**{**rec.__dict__, "to_act": (1,)}), 10.0)
    assert stuck_reason(SessionRecord(**{**rec.__dict__, "orphaned": {"why": "x"}}), 10.0) is None
