"""Clicks per decision: how many decisions of whole games can be made by clicks, and with
how many clicks.

Usage::

    python bench/clicks.py                          # every game, 3 heuristic games each
    python bench/clicks.py soul-of-the-empire --games 5 --players 4 --seed 2

Every seat's decision of heuristic AI games is counted as if a human made it:

- before: a decision had buttons only when it had at most 25 legal actions (one click);
  above that the player had to type ``/play``;
- after: the steps of ``games.core.choices.ChoiceTree`` that reach the action chosen
  (a multi-select counts one click), and a decision whose only legal answers are ``pass``
  or ``done``, when the others know it already, is answered by auto-pass (no click; the
  host's own rule). Placements made several times in a row with a count are not counted
  here (each placement is counted as a decision).

Printed per game: decisions, decisions without buttons before, decisions reachable by
clicks after, auto-passed decisions, and the median, 90th percentile and maximum of
clicks per decision after (auto-passed ones excluded). Targets (issue 23): every decision
by clicks, at most 3 clicks for 90% of them.

``--emulator`` plays instead one whole game of each game through the real bot and the local
Discord API emulator (the set-up of ``bench/notifications.py``: three humans, a follower),
each human decision made by clicking the private prompt's steps to the action the heuristic
agent picks (``/play`` only when no prompt offers it), and prints: decisions, decisions made
by clicks (%), clicks per decision (median, p90), notifications per player (each player's
count), the most any one question got, and board images posted in the game's channel.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.host.service import Host  # noqa: E402
from games.core import all_games, apply_at, get_game, start  # noqa: E402
from games.core.agents import make_agent  # noqa: E402
from games.core.choices import ChoiceError, ChoiceTree  # noqa: E402
from storage import SeatRecord  # noqa: E402

PLAYERS = {"barbarian-hordes": 4, "credo": 4, "promised-land": 4, "roman-war": 2, "soul-of-the-empire": 4}
MAX_STEPS = 3000


def measure(game: Any, players: int, games: int, seed: int) -> dict[str, Any]:
    clicks: list[int] = []
    decisions = typed_before = unreachable = auto = 0
    for g in range(games):
        gseed = seed + 1000 * g
        seats = list(range(players))
        agents = [make_agent(game, "heuristic", gseed + x) for x in seats]
        s = start(game, seats, game.Options(), gseed).state
        humans = [SeatRecord(x, 1000 + x) for x in seats]
        step = 0
        while game.outcome(s) is None and step < MAX_STEPS:
            prompts = game.to_act(s)
            seat = min(prompts)
            action = agents[seat].choose(game, s, seat)
            # the seat that acts decides (a secret phase's other seats decide at their own step)
            notations = [game.format_action(s, a) for a in game.legal_actions(s, seat)]
            decisions += 1
            typed_before += len(notations) > 25
            if Host._lone_pass(game, s, {seat: prompts[seat]}, humans, gseed + step) is not None:
                auto += 1
            else:
                try:
                    clicks.append(ChoiceTree(notations).clicks(game.format_action(s, action)))
                except ChoiceError:
                    unreachable += 1
            step += 1
            s = apply_at(game, s, seat, action, gseed, step).state
    clicks.sort()
    p90 = clicks[min(len(clicks) - 1, int(0.9 * len(clicks)))] if clicks else 0
    return {
        "decisions": decisions,
        "typed_before": typed_before,
        "by_clicks": decisions - unreachable,
        "auto": auto,
        "median": statistics.median(clicks) if clicks else 0,
        "p90": p90,
        "max": clicks[-1] if clicks else 0,
        "within3": sum(c <= 3 for c in clicks) / len(clicks) if clicks else 1.0,
    }


def clicking_driver(fake: Any, bot: Any, sid: int) -> Any:
    """``play_through``'s ``decide``: the player clicks through their private prompt's steps
    to the action their heuristic agent picks; returns the clicks, or None when no prompt of
    the question offers steps (the player would type)."""
    from games.core.choices import encode_path
    from storage.replay import load_state
    from tests.e2e.clicking import pending_step, step_components

    agents: dict[int, Any] = {}

    async def done(rec: Any) -> Any:
        await rec.response(timeout=120.0)
        await bot.tracker.idle()
        return rec

    async def decide(user: Any) -> int | None:
        rec = await bot.host.storage.get_session(sid)
        game = get_game(rec.game_id)
        held = rec.seat_of(user.id)
        if held is None or held.seat not in rec.to_act:
            return None
        seat = held.seat
        state = await load_state(bot.host.storage, game, rec)
        agent = agents.setdefault(seat, make_agent(game, "heuristic", seat))
        notation = game.format_action(state, agent.choose(game, state, seat))
        message = pending_step(fake, user, sid, rec.seq)
        tree = await bot.host.choice_tree(sid, seat)
        if message is None or tree is None:
            return None
        times = max([int(a.rsplit("×", 1)[1]) for a in tree.actions if a.startswith(notation + " ×")] or [1])
        path, picks = tree.path_to(notation if times == 1 else f"{notation} ×{times}")
        steps: list[tuple[tuple[int, ...], int | None]] = [(path[:k], i) for k, i in enumerate(path)]
        if picks is not None:
            steps.append((path, None))
        clicks = 0
        first = step_components(fake.messages[message.id], sid)
        if not first:
            return None
        token = first[0]["custom_id"].split(":")[3]
        for at, i in steps:
            button = f"tabula:c:{sid}:{token}:{encode_path((*at, i))}" if i is not None else None
            menu = f"tabula:k:{sid}:{token}:{encode_path(at)}"
            none = f"tabula:n:{sid}:{token}:{encode_path(at)}"
            # the step is shown in place, or as a new private reply: the newest message offering it
            m = next((x for x in sorted(fake.visible_to(user), key=lambda x: x.id, reverse=True)
                      if x.audience is not None and not x.deleted
                      and {button, menu, none} & set(x.custom_ids())), None)
            if m is None:
                return None
            ids = set(m.custom_ids())
            clicks += 1
            if i is not None and button in ids:
                await done(await fake.click(user, m, button))
            elif i is not None:
                await done(await fake.select(user, m, menu, [str(i)]))
            elif picks:
                await done(await fake.select(user, m, menu, [str(p) for p in picks]))
            else:
                await done(await fake.click(user, m, none))
        return clicks

    return decide


def emulator(games: list[str], seed: int) -> int:
    import asyncio
    import logging

    from bench.notifications import GAMES, play_game

    logging.basicConfig(level=logging.CRITICAL)
    print(f"{'game':20} {'decisions':>9} {'by clicks':>9} {'median':>6} {'p90':>4} "
          f"{'notifications per player':>24} {'max/question':>12} {'board images':>12} {'actions':>8}")
    for gid in games:
        if gid not in GAMES:
            continue
        r = asyncio.run(play_game(gid, seed, driver=clicking_driver))
        clicks = sorted(r["clicks"])
        decisions = len(clicks) + r["typed"]
        p90 = clicks[min(len(clicks) - 1, int(0.9 * len(clicks)))] if clicks else 0
        print(f"{gid:20} {decisions:9} {len(clicks) / max(decisions, 1):9.0%} "
              f"{statistics.median(clicks) if clicks else 0:6} {p90:4} "
              f"{' '.join(map(str, r['per_player'])):>24} {r['max_per_question']:12} {r['board_images']:12} "
              f"{r['steps']:8}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", help="a game id (default: every game)")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--emulator", action="store_true",
                    help="one whole game of each through the bot and the Discord emulator, by clicks")
    args = ap.parse_args(argv)
    if args.emulator:
        return emulator([args.game] if args.game else sorted(g.id for g in all_games()), args.seed)
    ids = [args.game] if args.game else sorted(g.id for g in all_games())
    print(f"{'game':20} {'decisions':>9} {'typed before':>12} {'by clicks':>9} {'auto-pass':>9} "
          f"{'median':>6} {'p90':>4} {'max':>4} {'<=3 clicks':>10}")
    for gid in ids:
        game = get_game(gid)
        players = args.players or PLAYERS.get(gid, game.min_players)
        r = measure(game, players, args.games, args.seed)
        print(f"{gid:20} {r['decisions']:9} {r['typed_before']:12} {r['by_clicks']:9} {r['auto']:9} "
              f"{r['median']:6} {r['p90']:4} {r['max']:4} {r['within3']:10.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
