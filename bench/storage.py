"""Storage and host benchmark: prints medians (milliseconds) and ratios.

    python -m bench.storage [--commits 200] [--actions 2000] [--sessions 1000]

1. Commit one action: ``Host.act`` on a file database (WAL, synchronous=FULL), and a
   bare ``sqlite3`` INSERT + COMMIT of the same bytes with the same settings, in the
   same run; their ratio.                                          target < 5 ms
2. Load a session of N actions with an empty cache: latest snapshot + replay
   (and, for scale, a full replay from the seed).                  target < 50 ms
3. First response after opening a database holding M sessions: open (migration
   check), find the channel's session, load it and build the reply. target < 1 s

The toy game "Count" from tests/ is used because it can run to 2,000 actions; a
full Barbarian Hordes game is loaded too, for its bigger states.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.toygame  # noqa: E402,F401  (registers "count")
from bot.host import Host, HostSettings  # noqa: E402
from games.core import get_game  # noqa: E402
from storage import SqliteStorage  # noqa: E402
from storage.replay import load_state, replay_session  # noqa: E402

GUILD, ALICE, BOB = 1, 100, 200


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.2f} ms"


async def open_host(path: str, **kw) -> Host:
    st = SqliteStorage(path)
    await st.open()
    return Host(st, HostSettings(db=path, **kw), seeds=lambda: 12345)


async def two_player_game(host: Host, channel: int, target: int) -> None:
    await host.create(GUILD, channel, ALICE, "count", {"target": target})
    await host.join(channel, BOB)
    await host.start(channel, ALICE)


async def whose_turn(host: Host, channel: int) -> int:
    rec = await host.storage.open_session(channel)
    return rec.seats[rec.to_act[0]].user_id


async def bench_commit(dirname: str, n: int) -> None:
    path = os.path.join(dirname, "commit.db")
    host = await open_host(path)
    await two_player_game(host, 1, 10**6)
    user = await whose_turn(host, 1)
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        await host.act(1, user, "add", interaction_id=f"bench-{i}")
        times.append(time.perf_counter() - t0)
        user = BOB if user == ALICE else ALICE
    rows = await host.storage.actions((await host.storage.open_session(1)).id, after=n - 1, through=n)
    row = rows[0]
    payload = (row.notation, json.dumps(row.action), json.dumps([e.to_json() for e in row.events]),
               row.interaction_id)
    await host.storage.close()

    bare_path = os.path.join(dirname, "bare.db")
    con = sqlite3.connect(bare_path, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA synchronous = FULL")
    con.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, notation TEXT, action TEXT, events TEXT, iid TEXT)")
    bare = []
    for i in range(n):
        t0 = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", (i, *payload))
        con.execute("COMMIT")
        bare.append(time.perf_counter() - t0)
    con.close()
    ratio = statistics.median(times) / statistics.median(bare)
    print(f"commit one action (Host.act, {n} runs): median {ms(times)}  [target < 5 ms]")
    print(f"bare sqlite3 INSERT + COMMIT, same bytes ({len(''.join(map(str, payload)))} B): median {ms(bare)}")
    print(f"ratio Host.act / bare commit: {ratio:.1f}x")


async def bench_load(dirname: str, n: int) -> None:
    path = os.path.join(dirname, "load.db")
    host = await open_host(path)
    await two_player_game(host, 2, 10**6)
    user = await whose_turn(host, 2)
    for _ in range(n):
        await host.act(2, user, "add")
        user = BOB if user == ALICE else ALICE
    await host.storage.close()
    game = get_game("count")
    loads, fulls = [], []
    async with SqliteStorage(path) as st:
        rec = await st.open_session(2)
        assert rec.seq == n
        for _ in range(20):
            t0 = time.perf_counter()
            await load_state(st, game, rec)
            loads.append(time.perf_counter() - t0)
        # worst case: the most actions after the last snapshot (snapshot_every - 1)
        worst_rec = dataclasses.replace(rec, seq=n - 1 if n % 50 == 0 else n)
        behind = worst_rec.seq - (await st.latest_snapshot(rec.id, worst_rec.seq))[0]
        worst = []
        for _ in range(20):
            t0 = time.perf_counter()
            await load_state(st, game, worst_rec)
            worst.append(time.perf_counter() - t0)
        for _ in range(3):
            t0 = time.perf_counter()
            await replay_session(st, rec)
            fulls.append(time.perf_counter() - t0)
    print(f"load a session of {n} actions (snapshot every 50 + replay): median {ms(loads)}  [target < 50 ms]")
    print(f"  worst case, {behind} actions replayed after the snapshot: median {ms(worst)}")
    print(f"  full replay from the seed with snapshot checks, for scale: median {ms(fulls)}")

    bh_path = os.path.join(dirname, "bh.db")
    host = await open_host(bh_path)
    await host.create(GUILD, 3, ALICE, "barbarian-hordes", join=False)
    await host.add_ai(3, ALICE, 5)
    reply = await host.start(3, ALICE)
    rec = await host.storage.get_session(reply.session_id)
    bh = get_game("barbarian-hordes")
    bh_loads = []
    for _ in range(20):
        t0 = time.perf_counter()
        await load_state(host.storage, bh, rec)
        bh_loads.append(time.perf_counter() - t0)
    await host.storage.close()
    print(f"load a finished Barbarian Hordes game of {rec.seq} actions: median {ms(bh_loads)}")


async def bench_first_response(dirname: str, sessions: int) -> None:
    path = os.path.join(dirname, "many.db")
    host = await open_host(path)
    await two_player_game(host, 1, 10**6)
    user = await whose_turn(host, 1)
    for _ in range(120):
        await host.act(1, user, "add")
        user = BOB if user == ALICE else ALICE
    await host.storage.close()
    # clone the session (rows, seats, snapshots) into `sessions` channels in one transaction
    con = sqlite3.connect(path)
    with con:
        for i in range(2, sessions + 1):
            con.execute("INSERT INTO sessions SELECT ?, guild_id, ?, game_id, options, seed, seed_hash, status, "
                        "version, seq, to_act, outcome, created_by, created_at, updated_at, started_at, ended_at, "
                        "deadline, pending_undo FROM sessions WHERE id = 1", (i, i))
            for table in ("seats", "actions", "snapshots"):
                cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
                rest = ", ".join(c for c in cols if c != "session_id")
                con.execute(f"INSERT INTO {table} (session_id, {rest}) SELECT ?, {rest} FROM {table} "
                            "WHERE session_id = 1", (i,))
    con.close()
    size = os.path.getsize(path)
    times = []
    for k in range(5):
        channel = max(1, sessions - k * sessions // 5)
        t0 = time.perf_counter()
        host = await open_host(path)
        try:
            reply = await host.view(channel, ALICE)
            times.append(time.perf_counter() - t0)
            assert reply.status == "active"
        finally:
            await host.storage.close()
    print(f"first response after opening a database of {sessions} sessions ({size / 1e6:.1f} MB): "
          f"median {ms(times)}  [target < 1 s]")
    code = ("import asyncio, sys, time; t0 = time.perf_counter(); sys.path.insert(0, '.');"
            "import tests.toygame; from bot.host import open_host\n"
            "async def m():\n"
            f"    async with open_host({path!r}) as h: await h.view({sessions}, {ALICE})\n"
            "asyncio.run(m()); print(time.perf_counter() - t0)")
    root = Path(__file__).resolve().parent.parent
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                                        check=True)
    wall = time.perf_counter() - t0
    print(f"  a new process, from interpreter start (imports included): {wall * 1000:.0f} ms wall, "
          f"{float(out.stdout) * 1000:.0f} ms after start-up")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--sessions", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabula-bench-") as d:
        print(f"SQLite {sqlite3.sqlite_version}, Python {sys.version.split()[0]}, files in {d}")
        await bench_commit(d, args.commits)
        await bench_load(d, args.actions)
        await bench_first_response(d, args.sessions)


if __name__ == "__main__":
    asyncio.run(main())
