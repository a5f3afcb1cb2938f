"""Random-agent fuzz throughput: games and steps per second for each game, with every
check of ``tabula fuzz`` on (games.core.fuzz).

    python bench/fuzz.py [--games 6] [--repeat 3] [--seed 1] [GAME ...]

Each repeat fuzzes the same ``--games`` cases (cycling through player counts and
variants, as ``tabula fuzz`` does); the median over the repeats is printed, with the
steps per game and the failures found (0 expected). The slowest parts were the
notation round trip of up to 40 legal actions per asked seat and step, and the
conservation ledger: see games.core.memo. ``cpu st/s``: steps per second of this
process's CPU time, comparable between runs on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import fuzz as engine  # noqa: E402
from games.core import get_game  # noqa: E402

GAMES = ("barbarian-hordes", "credo", "promised-land", "soul-of-the-empire", "roman-war")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games_ids", nargs="*", metavar="GAME", help="game ids (default: all five)")
    p.add_argument("--games", type=int, default=6, help="fuzzed games per repeat (default 6)")
    p.add_argument("--repeat", type=int, default=3, help="repeats; the median is shown (default 3)")
    p.add_argument("--seed", type=int, default=1, help="base seed of the cases (default 1)")
    args = p.parse_args()
    print(f"{'game':20} {'games/s':>8} {'steps/s':>8} {'cpu st/s':>8} {'steps/game':>10} failures")
    for gid in args.games_ids or GAMES:
        game = get_game(gid)
        cases = engine.cases(game, args.games, args.seed)
        rates, step_rates, cpu_rates, steps, failures = [], [], [], 0, 0
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            report = engine.run(game, cases)
            dt, cpu = time.perf_counter() - t0, max(time.process_time() - c0, 1e-9)
            rates.append(report.games / dt)
            step_rates.append(report.steps / dt)
            cpu_rates.append(report.steps / cpu)
            steps, failures = report.steps, len(report.failures)
        print(
            f"{gid:20} {statistics.median(rates):8.2f} {statistics.median(step_rates):8.0f} "
            f"{statistics.median(cpu_rates):8.0f} "
            f"{steps / args.games:10.0f} {failures}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
