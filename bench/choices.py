"""Choice trees: the CPU time to build a seat's ``ChoiceTree`` and its first step, for every
decision of heuristic AI games.

Usage::

    python bench/choices.py                      # every game, 2 games of 4 seats each
    python bench/choices.py credo --games 3 --players 5

The host builds the tree of every human seat asked after each action (``bot.host.questions``,
for the prompt's buttons), on the bot's event loop: a slow tree delays every other player's
answer behind it. Each decision's legal actions (at most ``MAX_TREE``, as the host lists
them) are formatted once, untimed; the tree and its first step are timed twice and the
faster kept. Printed per game: decisions, the median, p95 and maximum milliseconds, and the
total over the games.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402,F401  (registers the games)
from bot.host.common import MAX_TREE  # noqa: E402
from games.core import get_game  # noqa: E402
from games.core.agents import make_agent  # noqa: E402
from games.core.choices import ChoiceTree  # noqa: E402
from games.core.registry import all_games  # noqa: E402
from games.core.replay import apply_at, start  # noqa: E402


def decisions(game_id: str, players: int, games_: int, seed: int, steps: int = 400) -> list[list[str]]:
    """The legal actions (as notations) of every seat asked at every position of ``games_``
    heuristic games, the lowest asked seat acting each step."""
    game = get_game(game_id)
    players = max(players, game.min_players)
    out = []
    for g in range(games_):
        state = start(game, list(range(players)), game.Options(), seed + g).state
        bots = {s: make_agent(game, "heuristic", seed=(seed + g) * 1000 + s) for s in range(players)}
        for n in range(1, steps):
            prompts = game.to_act(state)
            if not prompts:
                break
            for seat in prompts:
                legal = list(itertools.islice(game.legal_actions(state, seat), MAX_TREE + 1))
                if 0 < len(legal) <= MAX_TREE:
                    out.append([game.format_action(state, a) for a in legal])
            seat = min(prompts)
            state = apply_at(game, state, seat, bots[seat].choose(game, state, seat), seed + g, n).state
    return out


def timed(notations: list[str]) -> float:
    """Seconds of CPU to build the tree and its first step, the faster of two runs."""
    best = float("inf")
    for _ in range(2):
        t = time.process_time()
        ChoiceTree(notations).step()
        best = min(best, time.process_time() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", nargs="*", help="game ids (default: every registered game)")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(f"{'game':20} {'decisions':>9} {'median ms':>9} {'p95 ms':>7} {'max ms':>7} {'total ms':>9}")
    for game_id in args.game or sorted(g.id for g in all_games()):
        times = sorted(timed(n) for n in decisions(game_id, args.players, args.games, args.seed))
        print(f"{game_id:20} {len(times):9} {statistics.median(times) * 1000:9.2f} "
              f"{times[int(0.95 * (len(times) - 1))] * 1000:7.2f} {times[-1] * 1000:7.1f} {sum(times) * 1000:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
