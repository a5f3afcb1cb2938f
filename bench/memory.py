"""Resident memory per active session, and what stays after the sessions end.

    python -m bench.memory [--sessions 1000] [--moves 4] [--game count]

Opens a host on a temporary SQLite file, creates ``--sessions`` games (two human seats,
each in its own channel), plays ``--moves`` moves in each, and prints the resident set
size (RSS, from /proc/self/status) before and after, per active session; then finishes
(abandons) them all and prints what the host still keeps (locks, cached states) and the
Python heap still allocated (tracemalloc) compared with before the games. RSS rarely
shrinks (the allocator keeps freed pages), so the heap figure is the one to watch.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tests.toygame  # noqa: E402,F401  (registers "count")
from bot.host import Host, HostSettings  # noqa: E402
from storage import SqliteStorage  # noqa: E402

ALICE, BOB = 100, 200


def rss_kib() -> int:
    """This process's resident set size in KiB (Linux /proc; else peak RSS from getrusage)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


async def run(sessions: int, moves: int, game: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        storage = SqliteStorage(str(Path(tmp) / "memory.db"))
        await storage.open()
        host = Host(storage, HostSettings(db=":memory:"), seeds=iter(range(1, 10**9)).__next__)
        # one game first, ended, so that imports and first-use caches are not counted
        await host.create(1, 1, ALICE, game, {})
        await host.join(1, BOB)
        await host.start(1, ALICE)
        await host.abandon(1, ALICE)
        gc.collect()
        tracemalloc.start()
        heap0, _ = tracemalloc.get_traced_memory()
        rss0 = rss_kib()
        start = time.perf_counter()
        for i in range(sessions):
            channel = 10_000 + i
            await host.create(1, channel, ALICE, game, {"target": 10**6} if game == "count" else {})
            await host.join(channel, BOB)
            reply = await host.start(channel, ALICE)
            for _ in range(moves):
                asked = [p for p in reply.prompts if p.user_id is not None]
                if reply.status != "active" or not asked:
                    break
                choices = await host.complete(channel, asked[0].user_id, "", limit=None)
                if not choices:
                    break
                reply = await host.act(channel, asked[0].user_id, choices[0])
        gc.collect()
        heap1, _ = tracemalloc.get_traced_memory()
        rss1 = rss_kib()
        active = len(await storage.sessions_with_status("active"))
        print(f"{active} active sessions ({game}, {moves} moves each) in {time.perf_counter() - start:.1f} s")
        print(f"resident memory: {rss0 / 1024:.1f} MiB before, {rss1 / 1024:.1f} MiB with them: "
              f"{(rss1 - rss0) / max(active, 1):.1f} KiB per active session")
        print(f"Python heap: {(heap1 - heap0) / max(active, 1) / 1024:.1f} KiB per active session "
              f"(cached states: {len(host._cache)}, at most {host.settings.cache_size}; locks held: "
              f"{len(host._locks)})")
        for i in range(sessions):
            await host.abandon(10_000 + i, ALICE)
        gc.collect()
        heap2, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"after all ended: Python heap {(heap2 - heap0) / 1024:+.0f} KiB against the start, "
              f"cached states {len(host._cache)}, locks {len(host._locks)}, RSS {rss_kib() / 1024:.1f} MiB")
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__.split("\n\n")[0])
    p.add_argument("--sessions", type=int, default=1000)
    p.add_argument("--moves", type=int, default=4)
    p.add_argument("--game", default="count")
    args = p.parse_args(argv)
    asyncio.run(run(args.sessions, args.moves, args.game))
    return 0


if __name__ == "__main__":
    sys.exit(main())
