"""Random-agent fuzz throughput: games and steps per second for each game, with every
check of ``tabula fuzz`` on (games.core.fuzz).

    python bench/fuzz.py [--games 6] [--repeat 3] [--seed 1] [--split] [GAME ...]

Each repeat fuzzes the same ``--games`` cases (cycling through player counts and
variants, as ``tabula fuzz`` does); the median over the repeats is printed, with the
steps per game and the failures found (0 expected). ``cpu st/s``: steps per second of
this process's CPU time, comparable between runs on a machine shared with other work.

``--split`` also prints where a step's time goes (median share over the repeats): the
notation round trip (``format_action`` and ``parse_action`` of up to 40 legal actions
per asked seat), ``legal_actions``, ``apply`` (and setup), ``outcome``/``to_act``, the
conservation invariants, and the fuzz loop's own work (the rest). The game's methods
are timed as the fuzz calls them, so work a method does for another (``parse_action``
asking for the legal actions again) counts where it is asked for. Below each game, its
functions remembered for the last state (games.core.memo) with how often per step they
were asked and had to compute (1.00 computed per step: nothing computed twice).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import fuzz as engine  # noqa: E402
from games.core import get_game, memo  # noqa: E402
from games.core.invariants import check_invariants  # noqa: E402

GAMES = ("barbarian-hordes", "credo", "promised-land", "soul-of-the-empire", "roman-war")
PARTS = ("notation", "legal_actions", "apply", "outcome/to_act", "invariants")


class Timed:
    """``game`` with the methods the fuzz calls timed into ``spent`` (seconds by part)."""

    def __init__(self, game: Any, spent: Counter[str]) -> None:
        self._game, self._spent = game, spent
        self.legal_actions = self._timed("legal_actions", game.legal_actions)
        self.format_action = self._timed("notation", game.format_action)
        self.parse_action = self._timed("notation", game.parse_action)
        self.apply = self._timed("apply", game.apply)
        self.setup = self._timed("apply", game.setup)
        self.outcome = self._timed("outcome/to_act", game.outcome)
        self.to_act = self._timed("outcome/to_act", game.to_act)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def _timed(self, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        spent, clock = self._spent, time.perf_counter

        def call(*args: Any) -> Any:
            t0 = clock()
            try:
                return fn(*args)
            finally:
                spent[part] += clock() - t0

        return call


def split_run(game: Any, cases: list[engine.Case]) -> tuple[engine.Report, Counter[str]]:
    """Fuzz ``cases`` as ``engine.run`` does, timing each part of a step."""
    spent: Counter[str] = Counter()
    timed = Timed(game, spent)
    clock = time.perf_counter

    def invariants(g: Any, s: Any) -> list[str]:
        t0 = clock()
        try:
            return check_invariants(game, s)
        finally:
            spent["invariants"] += clock() - t0

    report = engine.Report(game.id)
    t0 = clock()
    for case in cases:
        r = engine.fuzz_game(timed, case, invariants=invariants)
        report.games += 1
        report.steps += r.steps
        report.finished += r.finished
        if r.failure is not None:
            report.failures.append(r.failure)
    spent["fuzz loop"] = clock() - t0 - sum(spent[p] for p in PARTS)
    return report, spent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games_ids", nargs="*", metavar="GAME", help="game ids (default: all five)")
    p.add_argument("--games", type=int, default=6, help="fuzzed games per repeat (default 6)")
    p.add_argument("--repeat", type=int, default=3, help="repeats; the median is shown (default 3)")
    p.add_argument("--seed", type=int, default=1, help="base seed of the cases (default 1)")
    p.add_argument("--split", action="store_true", help="also print the share of each part of a step")
    args = p.parse_args()
    head = f"{'game':20} {'games/s':>8} {'steps/s':>8} {'cpu st/s':>8} {'steps/game':>10} {'failures':>8}"
    if args.split:
        head += " " + " ".join(f"{part:>14}" for part in (*PARTS, "fuzz loop"))
    print(head)
    for gid in args.games_ids or GAMES:
        game = get_game(gid)
        cases = engine.cases(game, args.games, args.seed)
        rates, step_rates, cpu_rates, steps, failures = [], [], [], 0, 0
        shares: dict[str, list[float]] = {part: [] for part in (*PARTS, "fuzz loop")}
        memo.reset_counts()
        all_steps = 0
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            if args.split:
                report, spent = split_run(game, cases)
            else:
                report, spent = engine.run(game, cases), Counter()
            dt, cpu = time.perf_counter() - t0, max(time.process_time() - c0, 1e-9)
            rates.append(report.games / dt)
            step_rates.append(report.steps / dt)
            cpu_rates.append(report.steps / cpu)
            steps, failures = report.steps, len(report.failures)
            all_steps += steps
            for part in shares:
                shares[part].append(spent[part] / dt)
        line = (
            f"{gid:20} {statistics.median(rates):8.2f} {statistics.median(step_rates):8.0f} "
            f"{statistics.median(cpu_rates):8.0f} "
            f"{steps / args.games:10.0f} {failures:8d}"
        )
        if args.split:
            line += " " + " ".join(f"{statistics.median(v):14.0%}" for v in shares.values())
        print(line)
        if args.split:
            for name, (asked, computed) in memo.counts().items():
                per = max(all_steps, 1)
                print(f"  {name}: asked {asked / per:.2f}, computed {computed / per:.2f} per step")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
