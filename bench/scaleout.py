"""Scale-out part of ``bench.storage``: the sessions acting at once split over several bot
processes (as a sharded deployment runs them: ``tabula run --shard-count N``), all on one
database: one SQLite file, then one PostgreSQL schema.

Each process is spawned with its own ``Host`` and storage, creates its share of the sessions
(each in its own channel), plays one warm-up action in each, waits for the others at a
barrier, then every session acts ``per_session`` times in its own task. Printed per backend:
the median and p95 commit (``Host.act``) milliseconds over all processes and the actions per
second of the whole run (all actions over the span from the first start to the last end).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import time
from typing import Any

GUILD = 1


def _worker(target: str, index: int, sessions: int, per_session: int, barrier: Any, results: Any) -> None:
    """A bot process of the run (spawned): its sessions' actions, reported as
    (start, end, latencies) in wall-clock seconds. ``index`` numbers the process across
    rounds, so that each round's sessions have channels of their own."""
    results.put(asyncio.run(_play(target, index, sessions, per_session, barrier)))


async def _play(target: str, index: int, sessions: int, per_session: int, barrier: Any
                ) -> tuple[float, float, list[float]]:
    import tests.toygame  # noqa: F401  (registers "count")
    from bot.host import Host, HostSettings
    from storage import SqliteStorage, storage_for

    postgres = target.startswith("postgres")
    st = storage_for(target) if postgres else SqliteStorage(target)
    await st.open()
    host = Host(st, HostSettings(database=target) if postgres else HostSettings(db=target), seeds=lambda: 12345)
    players: dict[int, list[int]] = {}
    try:
        for i in range(sessions):
            ch = 1_000_000 * (index + 1) + i
            alice, bob = 10 * ch, 10 * ch + 1
            await host.create(GUILD, ch, alice, "count", {"target": 10**6})
            await host.join(ch, bob)
            await host.start(ch, alice)
            rec = await st.open_session(ch)
            first = rec.seats[rec.to_act[0]].user_id
            players[ch] = [first, bob if first == alice else alice]
            await host.act(ch, first, "add", interaction_id=f"warm-{ch}")
        await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
        times: list[float] = []

        async def play(ch: int) -> None:
            turn, other = players[ch][1], players[ch][0]
            for j in range(per_session):
                t0 = time.perf_counter()
                await host.act(ch, turn, "add", interaction_id=f"p{index}-{ch}-{j}")
                times.append(time.perf_counter() - t0)
                turn, other = other, turn

        start = time.time()
        await asyncio.gather(*(play(ch) for ch in players))
        return start, time.time(), times
    finally:
        await st.close()


def run(target: str, processes: int, sessions: int, per_session: int, round_: int = 0
        ) -> tuple[float, float, float]:
    """``sessions`` sessions split over ``processes`` spawned bot processes on ``target`` (a
    SQLite path or a PostgreSQL URL whose schema is migrated already), ``round_`` numbering
    the run among others on the same database: (median commit seconds, p95 commit seconds,
    actions per second of the whole run)."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    share = [sessions // processes + (i < sessions % processes) for i in range(processes)]
    procs = [ctx.Process(target=_worker, args=(target, processes * round_ + i, share[i], per_session, barrier, results))
             for i in range(processes)]
    for p in procs:
        p.start()
    got = [results.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    times = [t for _, _, ts in got for t in ts]
    span = max(end for _, end, _ in got) - min(start for start, _, _ in got)
    ordered = sorted(times)
    return statistics.median(times), ordered[int(0.95 * (len(ordered) - 1))], len(times) / span
