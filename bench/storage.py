"""Storage and host benchmark: prints medians (milliseconds) and ratios.

    python -m bench.storage [--commits 200] [--actions 2000] [--sessions 1000]
                            [--concurrent-actions 320] [--repeats 3] [--postgres URL]

1. Commit one action: ``Host.act`` on a file database (WAL, synchronous=FULL), and a
   bare ``sqlite3`` INSERT + COMMIT of the same bytes with the same settings, one of each
   in turn; their ratio.                          target < 5 ms, ratio <= 2x
   Also split: the durable commit within ``Host.act`` (its ``Storage.update`` call, which
   writes and flushes the action) against the bare commit, and the rest of ``Host.act``
   (parsing, the rules, composing the reply: CPU in the event loop).
2. Load a session of N actions with an empty cache: latest snapshot + replay
   (and, for scale, a full replay from the seed).                  target < 50 ms
3. First response after opening a database holding M sessions: open (migration
   check), find the channel's session, load it and build the reply. target < 1 s
4. SQLite and PostgreSQL side by side: ``Host.act`` with 1, 4 and 16 sessions acting
   at once (asyncio tasks, each session in its own channel, one host per backend as
   in one bot process), ``--repeats`` rounds with the backends in turn: median and p95
   milliseconds per commit, the median of the rounds' actions per second, the statements
   PostgreSQL was sent per action (target: one round trip),
   and the ratios PostgreSQL / SQLite (targets: one session's median commit at most 1.5x
   SQLite's; with 16 sessions more actions per second than SQLite). SQLite commits concurrent actions together (group
   commit); "SQLite 1/commit" is the same storage committing each action alone, and
   "group / 1" their ratios. Target with 16 sessions: group commit at least 3x the actions
   per second. PostgreSQL runs in a schema the bench creates
   and drops, in the database ``--postgres`` (default ``$TABULA_BENCH_POSTGRES``, else
   ``postgresql://root@127.0.0.1:5432/test``); without a reachable server that column
   is skipped with a message.

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
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.toygame  # noqa: E402,F401  (registers "count")
from bot.host import Host, HostSettings  # noqa: E402
from games.core import get_game  # noqa: E402
from storage import SqliteStorage, Storage, redact, storage_for  # noqa: E402
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
    """``Host.act`` and a bare INSERT + COMMIT of the same bytes, alternating one of each so
    that both meet the same disk and the same load."""
    path = os.path.join(dirname, "commit.db")
    host = await open_host(path)
    await two_player_game(host, 1, 10**6)
    user = await whose_turn(host, 1)
    await host.act(1, user, "add", interaction_id="bench-warm")
    user = BOB if user == ALICE else ALICE
    rows = await host.storage.actions((await host.storage.open_session(1)).id, after=0, through=1)
    payload = (rows[0].notation, json.dumps(rows[0].action), json.dumps([e.to_json() for e in rows[0].events]),
               rows[0].interaction_id)

    bare_path = os.path.join(dirname, "bare.db")
    con = sqlite3.connect(bare_path, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA synchronous = FULL")
    con.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, notation TEXT, action TEXT, events TEXT, iid TEXT)")
    times, bare, commits = [], [], []
    update = host.storage.update

    async def timed_update(*args, **kwargs):  # the durable commit inside Host.act, timed
        t0 = time.perf_counter()
        try:
            return await update(*args, **kwargs)
        finally:
            commits.append(time.perf_counter() - t0)

    host.storage.update = timed_update  # type: ignore[method-assign]
    for i in range(n):
        t0 = time.perf_counter()
        await host.act(1, user, "add", interaction_id=f"bench-{i}")
        times.append(time.perf_counter() - t0)
        user = BOB if user == ALICE else ALICE
        t0 = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", (i, *payload))
        con.execute("COMMIT")
        bare.append(time.perf_counter() - t0)
    con.close()
    await host.storage.close()
    ratio = statistics.median(times) / statistics.median(bare)
    print(f"commit one action (Host.act, {n} runs, alternating with the bare commit): median {ms(times)}  "
          "[target < 5 ms]")
    print(f"bare sqlite3 INSERT + COMMIT, same bytes ({len(''.join(map(str, payload)))} B): median {ms(bare)}")
    print(f"ratio Host.act / bare commit: {ratio:.1f}x  [target <= 2x: {'ok' if ratio <= 2 else 'MISSED'}]")
    inner = statistics.median(commits) / statistics.median(bare)
    rest = [t - c for t, c in zip(times, commits, strict=True)]  # one Storage.update per Host.act
    print(f"  of which the durable commit (Host.act's Storage.update: write + flush): median {ms(commits)}, "
          f"{inner:.1f}x the bare commit  [<= 2x: {'ok' if inner <= 2 else 'MISSED'}]")
    print(f"  and the rest of Host.act (parsing, the rules, composing the reply; CPU): median {ms(rest)}")


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
            cols = [r[1] for r in con.execute("PRAGMA table_info(sessions)") if r[1] not in ("id", "channel_id")]
            con.execute(f"INSERT INTO sessions (id, channel_id, {', '.join(cols)}) SELECT ?, ?, {', '.join(cols)} "
                        "FROM sessions WHERE id = 1", (i, i))
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


CONCURRENCY = (1, 4, 16)
DEFAULT_PG = os.environ.get("TABULA_BENCH_POSTGRES", "postgresql://root@127.0.0.1:5432/test")


def p95(seconds: list[float]) -> float:
    return statistics.quantiles(seconds, n=20, method="inclusive")[18] if len(seconds) > 1 else seconds[0]


async def postgres_schema_url(url: str) -> tuple[str | None, str, object]:
    """(URL of a new schema, schema name, admin connection), or (None, why not, None)."""
    try:
        import asyncpg
    except ImportError:
        return None, "asyncpg is not installed", None
    try:
        admin = await asyncpg.connect(url, timeout=5)
    except Exception as e:  # noqa: BLE001  (any failure to connect means: no server to measure)
        return None, f"no PostgreSQL server at {redact(url)} ({type(e).__name__}: {e})", None
    schema = f"tabula_bench_{uuid.uuid4().hex[:12]}"
    await admin.execute(f"CREATE SCHEMA {schema}")
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}", schema, admin


def count_postgres_statements() -> list[str]:
    """Every statement asyncpg sends from now on, appended to the list returned (round trips
    to the server; the PostgreSQL column's set-up is subtracted by the caller)."""
    sent: list[str] = []
    try:
        import asyncpg.connection
    except ImportError:
        return sent
    for name in ("execute", "_execute"):
        method = getattr(asyncpg.connection.Connection, name)

        async def counted(self: object, query: str, *args: object, _method=method, **kw: object) -> object:
            sent.append(query)
            return await _method(self, query, *args, **kw)

        setattr(asyncpg.connection.Connection, name, counted)
    return sent


async def concurrent_round(host: Host, sessions: int, per_session: int, base: int,
                           statements: list[str] | None = None, sent: list[int] | None = None,
                           ) -> tuple[list[float], float]:
    """``sessions`` games (channels base+1..), one warm-up action each, then every session
    acts ``per_session`` times in its own task at once: (latencies, actions per second).
    ``sent[0]`` is set to how many ``statements`` were appended while they acted."""
    players: dict[int, list[int]] = {}
    for i in range(1, sessions + 1):
        ch, alice, bob = base + i, 10 * (base + i), 10 * (base + i) + 1
        await host.create(GUILD, ch, alice, "count", {"target": 10**6})
        await host.join(ch, bob)
        await host.start(ch, alice)
        first = await whose_turn(host, ch)
        players[ch] = [first, bob if first == alice else alice]
        await host.act(ch, first, "add", interaction_id=f"warm-{ch}")  # loads the state into the cache
    times: list[float] = []

    async def play(ch: int) -> None:
        turn = players[ch][1]
        other = players[ch][0]
        for j in range(per_session):
            t0 = time.perf_counter()
            await host.act(ch, turn, "add", interaction_id=f"c-{ch}-{j}")
            times.append(time.perf_counter() - t0)
            turn, other = other, turn

    mark = len(statements or ())
    t0 = time.perf_counter()
    await asyncio.gather(*(play(ch) for ch in players))
    wall = time.perf_counter() - t0
    if sent is not None:
        sent[0] = len(statements or ()) - mark
    return times, len(times) / wall


async def bench_concurrent(dirname: str, actions: int, pg_url: str, repeats: int = 3) -> None:
    per = {n: max(20, actions // n) for n in CONCURRENCY}
    statements = count_postgres_statements()
    print(f"concurrent commits through Host.act, SQLite and PostgreSQL side by side "
          f"({', '.join(f'{n} x {per[n]}' for n in CONCURRENCY)} actions; each session its own channel):")
    hosts: dict[str, Host] = {}
    path = os.path.join(dirname, "concurrent.db")
    lite = SqliteStorage(path)
    await lite.open()
    hosts["SQLite"] = Host(lite, HostSettings(db=path), seeds=lambda: 12345)
    single_path = os.path.join(dirname, "concurrent-single.db")
    single = SqliteStorage(single_path, group_commit=False)
    await single.open()
    hosts["SQLite 1/commit"] = Host(single, HostSettings(db=single_path), seeds=lambda: 12345)
    schema_url, schema, admin = await postgres_schema_url(pg_url)
    pg: Storage | None = None
    try:
        if schema_url is None:
            print(f"  PostgreSQL: {schema}; PostgreSQL column skipped")
        else:
            settings = {r["name"]: r["setting"] for r in await admin.fetch(  # type: ignore[attr-defined]
                "SELECT name, setting FROM pg_settings WHERE name IN "
                "('server_version', 'fsync', 'synchronous_commit', 'wal_sync_method')")}
            print(f"  PostgreSQL {settings.get('server_version')} at {redact(pg_url)}, schema {schema} "
                  f"(fsync={settings.get('fsync')}, wal_sync_method={settings.get('wal_sync_method')}; "
                  "the storage commits with synchronous_commit=on), default pool sizes")
            pg = storage_for(schema_url)
            await pg.open()
            hosts["PostgreSQL"] = Host(pg, HostSettings(database=schema_url), seeds=lambda: 12345)
        print(f"  {'sessions':>8}  {'backend':<15} {'median':>10} {'p95':>10} {'actions/s':>10}"
              f"   (medians of {repeats} rounds, the backends in turn)")
        for n in CONCURRENCY:
            runs: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in hosts}
            sent, acted = 0, 0
            for r in range(repeats):  # the backends in turn, so that each meets the machine's load alike
                for name, host in hosts.items():
                    played = [0] if name == "PostgreSQL" else None
                    times, rate = await concurrent_round(host, n, per[n], base=100_000 * r + 1000 * n,
                                                         statements=statements, sent=played)
                    if played is not None:
                        sent, acted = sent + played[0], acted + len(times)
                    runs[name][0].extend(times)
                    runs[name][1].append(rate)
            results = {}
            for name, (times, rates) in runs.items():
                results[name] = (statistics.median(times), p95(times), statistics.median(rates))
                med, q95, rate = results[name]
                print(f"  {n:>8}  {name:<15} {med * 1000:>7.2f} ms {q95 * 1000:>7.2f} ms {rate:>10.0f}")
            if acted:
                trips = sent / acted
                print(f"  {n:>8}  {'PG statements':<15} {trips:>10.2f} per action, set-up excluded"
                      f"  [target 1 round trip: {'ok' if trips <= 1.0 else 'MISSED'}]")
            (gm, gq, gr), (sm, sq, sr) = results["SQLite"], results["SQLite 1/commit"]
            goal = f"  [target with 16 sessions >= 3x: {'ok' if gr >= 3 * sr else 'MISSED'}]" if n == 16 else ""
            print(f"  {n:>8}  {'group / 1':<15} {gm / sm:>9.2f}x {gq / sq:>9.2f}x {gr / sr:>9.2f}x{goal}")
            if "PostgreSQL" in results:
                (lm, lq, lr), (pm, pq, pr) = results["SQLite"], results["PostgreSQL"]
                target = ""
                if n == 1:
                    target = f"  [target median <= 1.5x: {'ok' if pm <= 1.5 * lm else 'MISSED'}]"
                elif n == 16:
                    target = f"  [target actions/s > SQLite's: {'ok' if pr > lr else 'MISSED'}]"
                print(f"  {n:>8}  {'PG / SQLite':<15} {pm / lm:>9.2f}x {pq / lq:>9.2f}x {pr / lr:>9.2f}x{target}")
    finally:
        await lite.close()
        await single.close()
        if pg is not None:
            await pg.close()
        if admin is not None:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")  # type: ignore[attr-defined]
            await admin.close()  # type: ignore[attr-defined]


async def bench_scaleout(dirname: str, pg_url: str, processes: int = 2, sessions: int = 16,
                         per_session: int = 20, repeats: int = 3) -> None:
    """16 sessions acting at once split over ``processes`` bot processes on one database
    (``bench.scaleout``): SQLite (one file) against PostgreSQL (one schema)."""
    from bench import scaleout

    path = os.path.join(dirname, "scaleout.db")
    lite = SqliteStorage(path)
    await lite.open()  # migrated once, before the processes open it
    await lite.close()
    targets = {"SQLite": path}
    schema_url, schema, admin = await postgres_schema_url(pg_url)
    try:
        if schema_url is None:
            print(f"  PostgreSQL: {schema}; PostgreSQL row skipped")
        else:
            pg = storage_for(schema_url)
            await pg.open()
            await pg.close()
            targets["PostgreSQL"] = schema_url
        print(f"scale-out: {sessions} sessions at once split over {processes} bot processes (as shards) on one "
              f"database, {per_session} actions each (medians of {repeats} rounds, the backends in turn):")
        runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in targets}
        loop = asyncio.get_running_loop()
        for r in range(repeats):
            for name, target in targets.items():
                runs[name].append(await loop.run_in_executor(
                    None, scaleout.run, target, processes, sessions, per_session, r))
        results = {name: tuple(statistics.median(x[k] for x in rows) for k in range(3))
                   for name, rows in runs.items()}
        for name, (med, q95, rate) in results.items():
            print(f"  {processes} procs  {name:<15} {med * 1000:>7.2f} ms {q95 * 1000:>7.2f} ms {rate:>10.0f}")
        if "PostgreSQL" in results:
            (lm, lq, lr), (pm, pq, pr) = results["SQLite"], results["PostgreSQL"]
            print(f"  {processes} procs  {'PG / SQLite':<15} {pm / lm:>9.2f}x {pq / lq:>9.2f}x {pr / lr:>9.2f}x"
                  f"  [target actions/s > SQLite's: {'ok' if pr > lr else 'MISSED'}]")
    finally:
        if admin is not None:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")  # type: ignore[attr-defined]
            await admin.close()  # type: ignore[attr-defined]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--concurrent-actions", type=int, default=320,
                        help="actions per concurrency level and backend (split over the sessions)")
    parser.add_argument("--postgres", default=DEFAULT_PG, help="PostgreSQL database for a throwaway schema")
    parser.add_argument("--repeats", type=int, default=3,
                        help="rounds per concurrency level, the backends in turn (medians printed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabula-bench-") as d:
        print(f"SQLite {sqlite3.sqlite_version}, Python {sys.version.split()[0]}, files in {d}")
        await bench_commit(d, args.commits)
        await bench_load(d, args.actions)
        await bench_first_response(d, args.sessions)
        await bench_concurrent(d, args.concurrent_actions, args.postgres, args.repeats)
        await bench_scaleout(d, args.postgres, repeats=args.repeats)


if __name__ == "__main__":
    asyncio.run(main())
