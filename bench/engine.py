"""Engine benchmark: median microseconds per ``apply`` and full AI games per second.

Usage::

    python bench/engine.py                      # every registered game
    python bench/engine.py barbarian-hordes --games 200 --players 6

For each game:

- ``apply``: a corpus of (state, seat, action) is recorded from heuristic AI games;
  then every ``apply`` of the corpus is timed on its own, several times over, the
  agents' thinking excluded. Printed: the median (the figure to watch), the 90th
  percentile and the median per action kind.
- AI decision: the milliseconds of each heuristic agent's ``choose`` while the corpus
  games are played; printed: median and p95, beside the target (p95 under 20 ms).
- games per second: full games with heuristic agents on every seat (agent time
  included), in batches; printed: the median rate over the batches, beside the target
  (at least 10 games/s at 4 players).
- Both also in this process's CPU time: on a machine shared with other work, the wall
  clock counts the time others had the cores; the CPU-time figures stay comparable.

Targets: median ``apply`` under 500 µs for Barbarian Hordes; AI decision p95 under 20 ms
and at least 10 full games per second for every game.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.core import Rng, all_games, apply_at, get_game, start  # noqa: E402
from games.core.agents import make_agent  # noqa: E402

TARGET_US = {"barbarian-hordes": 500.0}
TARGET_DECISION_MS = 20.0  # p95 of one AI decision
TARGET_GAMES_PER_S = 10.0


def record_corpus(
    game: Any,
    players: int,
    games: int,
    seed: int,
    decisions: list[float] | None = None,
    cpu: list[float] | None = None,
) -> list[tuple[Any, int, Any, int, int]]:
    """(state, seat, action, seed, step) of every action of ``games`` heuristic AI games;
    each agent decision's seconds are appended to ``decisions`` (wall clock) and ``cpu``
    (this process's CPU time: steadier on a shared machine)."""
    corpus = []
    for g in range(games):
        gseed = seed + 1000 * g
        seats = list(range(players))
        agents = [make_agent(game, "heuristic", gseed + x) for x in seats]
        s = start(game, seats, game.Options(), gseed).state
        step = 0
        while game.outcome(s) is None:
            seat = min(game.to_act(s))
            t0, c0 = time.perf_counter(), time.process_time()
            a = agents[seat].choose(game, s, seat)
            if decisions is not None:
                decisions.append(time.perf_counter() - t0)
            if cpu is not None:
                cpu.append(time.process_time() - c0)
            step += 1
            corpus.append((s, seat, a, gseed, step))
            s = apply_at(game, s, seat, a, gseed, step).state
    return corpus


def time_applies(game: Any, corpus: list[tuple[Any, int, Any, int, int]], repeats: int) -> list[float]:
    """Per corpus entry, the median over ``repeats`` runs of one ``apply``, in µs."""
    clock = time.perf_counter_ns
    runs: list[list[int]] = [[] for _ in corpus]
    gc.collect()
    for _ in range(repeats):
        for i, (s, seat, a, seed, step) in enumerate(corpus):
            rng = Rng(seed, step)
            t0 = clock()
            game.apply(s, seat, a, rng)
            runs[i].append(clock() - t0)
    return [statistics.median(r) / 1000 for r in runs]


def games_per_second(
    game: Any, players: int, games: int, batches: int, seed: int, cpu_rates: list[float] | None = None
) -> list[float]:
    """Rates (games per second) of ``batches`` batches of full heuristic AI games, by the
    wall clock; the same rates by this process's CPU time are appended to ``cpu_rates``."""
    per_batch = max(1, games // batches)
    rates = []
    n = 0
    for _ in range(batches):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(per_batch):
            gseed = seed + 7 * n
            n += 1
            seats = list(range(players))
            agents = [make_agent(game, "heuristic", gseed + x) for x in seats]
            s = start(game, seats, game.Options(), gseed).state
            step = 0
            while game.outcome(s) is None:
                seat = min(game.to_act(s))
                step += 1
                s = apply_at(game, s, seat, agents[seat].choose(game, s, seat), gseed, step).state
        rates.append(per_batch / (time.perf_counter() - t0))
        if cpu_rates is not None:
            cpu_rates.append(per_batch / max(time.process_time() - c0, 1e-9))
    return rates


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(game: Any, args: argparse.Namespace) -> None:
    players = max(game.min_players, min(args.players, game.max_players))
    print(f"{game.title} ({game.id}), {players} players")
    decisions: list[float] = []
    cpu: list[float] = []
    corpus = record_corpus(game, players, args.corpus_games, args.seed, decisions, cpu)
    micros = time_applies(game, corpus, args.repeats)
    by_kind: dict[str, list[float]] = defaultdict(list)
    for (_s, _seat, a, _seed, _step), us in zip(corpus, micros, strict=True):
        by_kind[type(a).__name__].append(us)
    med = statistics.median(micros)
    target = TARGET_US.get(game.id)
    verdict = "" if target is None else f"  (target < {target:.0f} µs: {'met' if med < target else 'MISSED'})"
    print(
        f"  apply: median {med:.1f} µs, p90 {percentile(micros, 0.9):.1f} µs, "
        f"over {len(micros)} applies from {args.corpus_games} games x {args.repeats} runs{verdict}"
    )
    for kind in sorted(by_kind, key=lambda k: -len(by_kind[k])):
        values = by_kind[kind]
        print(f"    {kind:<12} median {statistics.median(values):8.1f} µs  ({len(values)} applies)")
    q95 = percentile(decisions, 0.95) * 1000
    print(
        f"  AI decision (heuristic): median {statistics.median(decisions) * 1000:.2f} ms, p95 {q95:.2f} ms "
        f"over {len(decisions)} decisions  (target p95 < {TARGET_DECISION_MS:.0f} ms: "
        f"{'met' if q95 < TARGET_DECISION_MS else 'MISSED'})"
    )
    c95 = percentile(cpu, 0.95) * 1000
    print(
        f"    in CPU time: median {statistics.median(cpu) * 1000:.2f} ms, p95 {c95:.2f} ms  "
        f"(target p95 < {TARGET_DECISION_MS:.0f} ms: {'met' if c95 < TARGET_DECISION_MS else 'MISSED'})"
    )
    cpu_rates: list[float] = []
    rates = games_per_second(game, players, args.games, args.batches, args.seed, cpu_rates)
    rate = statistics.median(rates)
    print(
        f"  full AI games (heuristic): median {rate:.1f} games/s "
        f"over {len(rates)} batches of {max(1, args.games // args.batches)} games "
        f"(min {min(rates):.1f}, max {max(rates):.1f})  (target >= {TARGET_GAMES_PER_S:.0f} games/s: "
        f"{'met' if rate >= TARGET_GAMES_PER_S else 'MISSED'})"
    )
    cpu_rate = statistics.median(cpu_rates)
    print(
        f"    in CPU time: median {cpu_rate:.1f} games/s  (target >= {TARGET_GAMES_PER_S:.0f} games/s: "
        f"{'met' if cpu_rate >= TARGET_GAMES_PER_S else 'MISSED'})"
    )
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", nargs="*", help="game ids (default: every registered game)")
    p.add_argument("--games", type=int, default=200, help="full AI games for games/s (default 200)")
    p.add_argument("--batches", type=int, default=5, help="batches the games are timed in (default 5)")
    p.add_argument(
        "--corpus-games", type=int, default=30, help="AI games whose applies are timed (default 30)"
    )
    p.add_argument("--repeats", type=int, default=3, help="timed runs of each apply (default 3)")
    p.add_argument(
        "--players", type=int, default=4, help="seats (default 4, or the game's minimum if higher)"
    )
    p.add_argument("--seed", type=int, default=20240601, help="base seed (default 20240601)")
    args = p.parse_args(argv)
    games = [get_game(g) for g in args.game] if args.game else all_games()
    print(f"Python {sys.version.split()[0]}; medians, not single timings.")
    for game in games:
        bench(game, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
