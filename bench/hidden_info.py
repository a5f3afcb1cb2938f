"""Hidden-information property check, the long run (ARCHITECTURE.md, trust invariants 2 and 3).

Usage::

    python bench/hidden_info.py                           # every game, 20 seeds x 200 actions
    python bench/hidden_info.py credo --seeds 50 --steps 300

Plays random games of each configuration of each game (``games.core.secretcheck``:
seat counts and options such as solo, duel, teams, ``ask_all``), heuristic and random
players alternating by seed, and at every state checks that the perturbation helpers
keep what their seats see, that the public prompts do not change when only hidden
information does, and that an action marked non-revealing gives the same views,
events and prompts on fresh perturbations. Prints per game the states and actions
checked, the non-revealing actions, the mismatches found (and the first few), and the
time. Exit status 1 when anything was found. The test suite runs a bounded slice
(``tests/host/test_secrets_property.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import all_games, get_game  # noqa: E402
from games.core.secretcheck import check_all  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="game ids (default: every game)")
    ap.add_argument("--seeds", type=int, default=20, help="seeds per configuration (default 20)")
    ap.add_argument("--steps", type=int, default=200, help="actions per game at most (default 200)")
    ap.add_argument("--tries", type=int, default=3, help="perturbations per check (default 3)")
    args = ap.parse_args(argv)
    games = [get_game(g) for g in args.games] if args.games else all_games()
    found = 0
    for game in games:
        t = time.perf_counter()
        r = check_all([game], range(args.seeds), args.steps, tries=args.tries)
        found += len(r.findings)
        print(f"{game.id}: states checked {r.states}, actions {r.actions} ({r.non_revealing} non-revealing), "
              f"mismatches: {len(r.findings)}  [{time.perf_counter() - t:.0f} s]")
        for f in r.findings[:5]:
            print(f"  {f}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
