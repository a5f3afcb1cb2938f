"""``tabula fuzz GAME``: random-agent games checking that no reachable position raises.

Every seat plays uniformly random legal actions; after every step the run checks the
game contract and the game's conservation invariants (``games.core.fuzz``). Game
``i`` of a run gets its own session seed from ``--seed`` and ``i`` and cycles through
the player counts (``--players``, default every count the game takes) and, for each
count, through the game's rule variants (``-o`` pins options instead). Each failure
is printed with its session seed, player count, options and the action sequence
that reproduces it (``tabula play GAME --players N --ai 0 --seed SEED -o ...`` and
those actions, or ``tabula fuzz GAME --session-seed SEED --players N -o ...``). Exit
status 1 if any game failed. Ctrl-C (or SIGTERM) stops a long run and prints the figures
of the games finished so far (exit status 1). ``--jobs N`` plays N games at once, each in
its own process (the same games and seeds, and the same report, as a serial run).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from typing import Any, TextIO

from bot.commands import whole_number
from games.core import UnknownGameError, get_game
from games.core import fuzz as engine

from . import seed as seed_type
from .play import option_pair
from .progress import bar

MAX_FAILURES_SHOWN = 10


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "fuzz",
        help="random-agent games checking rules invariants after every step",
        description="Play games with uniformly random legal actions; after every step check that "
        "nothing raised, someone is asked unless the game is over, every asked seat has a legal "
        "action, every legal action's notation reads back as itself, and the game's conservation "
        "invariants (cards, units, coins, dice). Prints games, steps and every failure with what "
        "reproduces it. Exit status 1 if any game failed.",
    )
    p.add_argument("game", help="game id, e.g. barbarian-hordes")
    p.add_argument("--games", type=whole_number, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=seed_type, default=1,
                   help="base seed, 0 to 2**63-1; game i gets its own seed (default 1)")
    p.add_argument(
        "--players",
        type=_players_arg,
        default=None,
        metavar="N[,M...]|A-B",
        help="player counts to cycle through (default: every count the game takes)",
    )
    p.add_argument(
        "--option",
        "-o",
        dest="options",
        action="append",
        type=option_pair,
        default=None,
        metavar="NAME=VALUE",
        help="pin a game option for every game instead of cycling through the game's variants",
    )
    p.add_argument(
        "--session-seed",
        type=seed_type,
        default=None,
        help="play exactly one game with this session seed (with --players N and -o), e.g. to "
        "reproduce a failure",
    )
    p.add_argument(
        "--max-steps",
        type=whole_number,
        default=engine.DEFAULT_MAX_STEPS,
        help=f"actions after which a game is stopped and counted unfinished (default {engine.DEFAULT_MAX_STEPS})",
    )
    p.add_argument(
        "--notation-cap",
        type=whole_number,
        default=engine.DEFAULT_NOTATION_CAP,
        help="legal actions per asked seat and step whose notation is read back (all of them up to "
        f"this many, a random sample beyond; default {engine.DEFAULT_NOTATION_CAP})",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=whole_number,
        default=1,
        help="games played at once, each in its own process (default 1); the games, their seeds "
        "and the report are those of a serial run",
    )
    p.set_defaults(func=run)
    return p


def _players_arg(text: str) -> list[int]:
    try:
        if "-" in text:
            lo, hi = (int(x) for x in text.split("-", 1))
            counts = list(range(lo, hi + 1))
        else:
            counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N, N,M,... or A-B, not {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"bad player count {text!r}")
    return counts


def _stop_on_sigterm() -> Any:
    """Make SIGTERM stop the run like Ctrl-C (a run in the background, where Ctrl-C cannot
    reach it, is ended with ``kill``); returns the handler to restore, or None where
    signals cannot be set (not the main thread)."""

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:
        return None


def print_failure(f: engine.Failure, out: TextIO) -> None:
    """One failure: kind, step, message, the case and the actions that reproduce it."""
    print(f"  {f.kind} at step {f.step} ({f.case.describe()}):", file=out)
    print(f"    {f.message}", file=out)
    if f.actions:
        print(f"    actions (seat: notation), {len(f.actions)}:", file=out)
        for n, (seat, text) in enumerate(f.actions, 1):
            print(f"      {n}. seat {seat + 1}: {text}", file=out)


def print_report(report: engine.Report, seconds: float, out: TextIO, *, title: str, seed: int) -> None:
    print(f"{title}: fuzz, {report.games} games, seed {seed}", file=out)
    print(
        f"games: {report.games} ({report.finished} finished, {report.games - report.finished - len(report.failures)} "
        f"stopped at the step limit)",
        file=out,
    )
    print(f"steps: {report.steps}", file=out)
    rate = report.steps / seconds if seconds > 0 else float("inf")
    print(f"time: {seconds:.1f} s ({rate:.0f} steps per second)", file=out)
    print(f"failures: {len(report.failures)}", file=out)
    for f in report.failures[:MAX_FAILURES_SHOWN]:
        print_failure(f, out)
    if len(report.failures) > MAX_FAILURES_SHOWN:
        print(f"  ... and {len(report.failures) - MAX_FAILURES_SHOWN} more", file=out)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        game = get_game(args.game)
    except UnknownGameError as e:
        print(e.message, file=sys.stderr)
        return 2
    counts = args.players
    if counts is not None and (min(counts) < game.min_players or max(counts) > game.max_players):
        print(f"{game.title} takes {game.min_players} to {game.max_players} players", file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("--jobs must be at least 1", file=sys.stderr)
        return 2
    pinned = dict(args.options) if args.options else None
    try:
        if pinned is not None:
            game.Options(**pinned)
    except Exception as e:
        fields = ", ".join(game.Options.model_fields)
        print(f"bad option for {game.title}: {e}\noptions: {fields}", file=sys.stderr)
        return 2
    if args.session_seed is not None:
        if counts is None or len(counts) != 1:
            print("--session-seed needs one player count: --players N", file=sys.stderr)
            return 2
        cases = [engine.Case(game.id, counts[0], pinned or {}, args.session_seed)]
    else:
        cases = engine.cases(game, args.games, args.seed, counts)
        if pinned is not None:
            cases = [engine.Case(c.game_id, c.players, pinned, c.seed) for c in cases]
    t0 = time.perf_counter()
    latest: list[engine.Report] = []
    interrupted = False
    before = _stop_on_sigterm()
    try:
        with bar(len(cases), "games", f"{game.title}: fuzz") as shown:

            def progress(done: int, so_far: engine.Report) -> None:
                latest[:] = [so_far]
                shown.set_postfix(steps=so_far.steps, failures=len(so_far.failures), refresh=False)
                shown.update(done - shown.n)

            report = engine.run(
                game,
                cases,
                max_steps=args.max_steps,
                notation_cap=args.notation_cap,
                progress=progress,
                jobs=args.jobs,
            )
    except KeyboardInterrupt:  # Ctrl-C or a SIGTERM ends a long run: report the games done
        interrupted = True
        report = latest[0] if latest else engine.Report(game.id)
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)
    title = game.title
    if interrupted:
        in_play = "the games in play are" if args.jobs > 1 and len(cases) > 1 else "the game in play is"
        title += f" (interrupted after {report.games} of {len(cases)} games; {in_play} not counted)"
    print_report(report, time.perf_counter() - t0, out, title=title, seed=args.seed)
    return 1 if report.failures or interrupted else 0
