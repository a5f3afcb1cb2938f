"""Replay pages of long games: time to make each page and its size, for each of the five games.

    python -m bench.export [--games barbarian-hordes,credo,...] [--limit-mib 10]

Each game is played to its end through the host (one human seat whose moves the heuristic AI
chooses, the other seats AI) at its largest player count, then its page is made twice: whole
(every step, 1000-pixel boards) and fitted to Discord's upload limit. Prints per game: actions,
distinct boards, seconds and MiB for each page.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.host import Host, HostSettings  # noqa: E402
from bot.replaypage import build_page  # noqa: E402
from storage import SqliteStorage  # noqa: E402
from tests.finished_games import play_out  # noqa: E402

LONG = {  # game -> (players, options): the largest table of each game
    "barbarian-hordes": (6, {}),
    "credo": (6, {}),
    "promised-land": (6, {}),
    "soul-of-the-empire": (4, {}),
    "roman-war": (4, {}),
}


async def run(games: list[str], limit_mib: float, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        st = SqliteStorage(str(Path(tmp) / "bench.db"))
        await st.open()
        try:
            host = Host(st, HostSettings(db=":memory:"), seeds=lambda: seed)
            print(f"{'game':<20} {'actions':>7} {'boards':>6} {'whole s':>8} {'whole MiB':>9} "
                  f"{'fitted s':>8} {'fitted MiB':>10}  fitted how")
            for i, game_id in enumerate(games):
                players, options = LONG[game_id]
                t = time.perf_counter()
                sid = await play_out(host, game_id, [1000], ai=players - 1, options=options, channel=100 + i)
                played = time.perf_counter() - t
                whole = await build_page(st, sid)
                fitted = await build_page(st, sid, max_bytes=int(limit_mib * 2**20))
                print(f"{game_id:<20} {whole.actions:>7} {whole.images:>6} {whole.seconds:>8.1f} "
                      f"{whole.size / 2**20:>9.2f} {fitted.seconds:>8.1f} {fitted.size / 2**20:>10.2f}  "
                      f"{fitted.note or 'as is'} (played in {played:.0f} s)", flush=True)
        finally:
            await st.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default=",".join(LONG), help="comma-separated game ids")
    p.add_argument("--limit-mib", type=float, default=9.75, help="the fitted page's limit (MiB)")
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args()
    asyncio.run(run(a.games.split(","), a.limit_mib, a.seed))


if __name__ == "__main__":
    main()
