"""``tabula simulate GAME``: play AI-only games and report speed, length, win rates and errors.

Each game ``i`` of a run has its own session seed derived from ``--seed`` and
``i`` (printed with any error), so a failing game can be replayed alone. An
error (any exception, or a game that does not end within ``--max-steps``
actions) is reported with its type, message, game seed and step, and makes the
exit status 1.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.commands import whole_number
from games.core import Seat, UnknownGameError, apply_at, get_game, start
from games.core.agents import make_agent
from games.core.english import count

from . import seed as seed_type
from .progress import bar

DEFAULT_MAX_STEPS = 50_000
MAX_ERRORS_SHOWN = 20


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "simulate",
        help="play AI-only games and report speed, win rates and errors",
        description="Play AI-only games; print games per second, mean rounds and actions, "
        "win rate per nation (or seat) and every error. Exit status 1 if any game failed.",
    )
    p.add_argument("game", help="game id, e.g. barbarian-hordes")
    p.add_argument("--games", type=whole_number, default=1000, help="number of games (default 1000)")
    p.add_argument("--seed", type=seed_type, default=1,
                   help="base seed, 0 to 2**63-1; game i gets its own seed (default 1)")
    p.add_argument(
        "--players",
        type=_players_arg,
        default=(4, 4),
        metavar="N|A-B",
        help="seats per game: N, or A-B for a random count per game (default 4)",
    )
    p.add_argument("--agents", choices=("heuristic", "random"), default="heuristic", help="AI kind")
    p.add_argument(
        "--max-steps",
        type=whole_number,
        default=DEFAULT_MAX_STEPS,
        help=f"actions after which a game counts as an error (default {DEFAULT_MAX_STEPS})",
    )
    p.set_defaults(func=run)
    return p


def _players_arg(text: str) -> tuple[int, int]:
    try:
        if "-" in text:
            lo, hi = (int(x) for x in text.split("-", 1))
        else:
            lo = hi = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N or A-B, not {text!r}") from None
    if lo < 1 or hi < lo:
        raise argparse.ArgumentTypeError(f"bad player count {text!r}")
    return lo, hi


def game_seed(base: int, index: int) -> int:
    """The 63-bit session seed of game ``index`` in a run with base seed ``base``."""
    digest = hashlib.sha256(f"tabula-simulate:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class FailedGame:
    """One failed game."""

    index: int
    seed: int
    players: int
    step: int
    kind: str
    message: str


@dataclass
class GameRecord:
    """One finished game: actions applied, rounds (if the state counts them), winners'
    labels, and the labels of every seat at the end."""

    actions: int
    rounds: int | None
    labels: tuple[str, ...]
    winners: tuple[str, ...]
    sides: tuple[str, ...] = ()
    side_winners: tuple[str, ...] = ()


@dataclass
class Report:
    game_title: str
    no_winner_label: str = "games without a winner"
    seat_heading: str = "seat"  # "nation" where seats are labelled by their nations
    games: int = 0
    seconds: float = 0.0
    records: list[GameRecord] = field(default_factory=list)
    errors: list[FailedGame] = field(default_factory=list)


class StepLimitError(RuntimeError):
    """A simulated game did not end within the step limit."""


def seat_labels(game: Any, s: Any, seats: int | None = None, view: Any = None) -> tuple[str, ...]:
    """What to call each seat in the win table: its nation (from the spectator view's
    players) when the game has nations, else ``seat N`` (1-based). ``seats``: the
    number of seats, for views without a ``players`` list; ``view`` the spectator view of
    ``s`` when the caller has it."""
    view = game.view(s, None) if view is None else view
    players = getattr(view, "players", None)
    n = len(players) if players is not None else (seats if seats is not None else len(game.to_act(s)))
    labels = []
    for x in range(n):
        nation = getattr(players[x], "nation", None) if players is not None else None
        labels.append(nation if nation else game.seat_label(s, x))
    return tuple(labels)


def side_labels(game: Any, s: Any, labels: tuple[str, ...], winners: Sequence[int] = ()) -> tuple[
    tuple[str, ...], tuple[str, ...]
]:
    """What to call each side (``Game.sides``: seats that win or lose together) in the win
    table: its seats' labels joined with " + " ("Fabius + Scipio" for a Roman War team);
    and the labels of the sides holding one of the ``winners`` (seats)."""
    sides = game.sides(s, len(labels))
    members: dict[int, list[str]] = {}
    for seat, side in enumerate(sides):
        members.setdefault(side, []).append(labels[seat])
    named = {side: " + ".join(members[side]) for side in sorted(members)}
    won = {sides[w] for w in winners}
    return tuple(named.values()), tuple(named[side] for side in named if side in won)


def play_ai_game(
    game: Any,
    players: int,
    seed: int,
    agents: str = "heuristic",
    max_steps: int = DEFAULT_MAX_STEPS,
    options: Any = None,
) -> tuple[Any, int]:
    """Play one game with AI agents on every seat. Returns (final state, actions applied).

    When several seats are prompted at once (secret choices, response windows), one
    of them is picked at random (from a generator seeded by ``seed``), as if its
    player answered first.

    Raises
    ------
    StepLimitError
        The game did not end within ``max_steps`` actions.
    Exception
        Whatever the game or an agent raised; ``.step`` is set to the step number.
    """
    seats = list(range(players))
    pick = random.Random(seed)
    ags = [make_agent(game, agents, (seed + x) % (1 << 63)) for x in seats]
    step = 0
    try:
        s = start(game, seats, options if options is not None else game.Options(), seed).state
        while game.outcome(s) is None:
            if step >= max_steps:
                raise StepLimitError(f"no end after {count(max_steps, 'action')}")
            prompts = game.to_act(s)
            if not prompts:
                raise RuntimeError("nobody is prompted but the game is not over")
            seat: Seat = (
                sorted(prompts)[int(pick.random() * len(prompts))]
                if len(prompts) > 1
                else next(iter(prompts))
            )
            action = ags[seat].choose(game, s, seat)
            step += 1
            s = apply_at(game, s, seat, action, seed, step).state
    except Exception as e:
        e.step = step  # type: ignore[attr-defined]
        raise
    return s, step


def simulate(
    game: Any,
    games: int,
    seed: int,
    players: tuple[int, int] = (4, 4),
    agents: str = "heuristic",
    max_steps: int = DEFAULT_MAX_STEPS,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play ``games`` AI-only games and collect a Report (errors do not stop the run);
    ``progress(1)`` is called after each game."""
    report = Report(game_title=game.title,
                    no_winner_label=game.no_winner_label)
    counts = random.Random(f"tabula-simulate-players:{seed}")
    t0 = time.perf_counter()
    for i in range(games):
        n = players[0] if players[0] == players[1] else counts.randint(*players)
        gseed = game_seed(seed, i)
        try:
            s, steps = play_ai_game(game, n, gseed, agents, max_steps)
            outcome = game.outcome(s)
            view = game.view(s, None)
            labels = seat_labels(game, s, n, view)
            if any(getattr(p, "nation", None) for p in getattr(view, "players", None) or ()):
                report.seat_heading = "nation"
            sides, side_winners = side_labels(game, s, labels, outcome.winners)
            winners = tuple(labels[w] for w in outcome.winners)
            report.records.append(
                GameRecord(
                    actions=steps,
                    rounds=getattr(s, "round", None),
                    labels=labels,
                    winners=winners,
                    sides=sides,
                    side_winners=side_winners,
                )
            )
        except Exception as e:
            report.errors.append(
                FailedGame(
                    index=i,
                    seed=gseed,
                    players=n,
                    step=getattr(e, "step", -1),
                    kind=type(e).__name__,
                    message=str(e),
                )
            )
        report.games += 1
        if progress is not None:
            progress(1)
    report.seconds = time.perf_counter() - t0
    return report


def print_report(report: Report, out: TextIO, *, players: tuple[int, int], agents: str, seed: int) -> None:
    seats = count(players[0], "player") if players[0] == players[1] else f"{players[0]}-{players[1]} players"
    print(
        f"{report.game_title}: {count(report.games, 'game')}, {seats}, {agents} agents, seed {seed}", file=out
    )
    rate = report.games / report.seconds if report.seconds > 0 else float("inf")
    print(f"games per second: {rate:.1f} ({report.seconds:.2f} s)", file=out)
    done = report.records
    if done:
        actions = [r.actions for r in done]
        rounds = [r.rounds for r in done if r.rounds is not None]
        print(f"finished games: {len(done)}", file=out)
        if rounds:
            print(f"mean turns (rounds): {sum(rounds) / len(rounds):.2f} (max {max(rounds)})", file=out)
        print(f"mean actions per game: {sum(actions) / len(actions):.1f} (max {max(actions)})", file=out)
        # seats that win or lose together (a Roman War team) are counted once, as their side
        teams = any(len(r.sides) < len(r.labels) for r in done)
        seated: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        for r in done:
            seated.update(set(r.sides if teams else r.labels))
            wins.update(r.side_winners if teams else r.winners)
        no_winner = sum(1 for r in done if not r.winners)
        width = max(len(x) for x in seated) if seated else 6
        if teams:
            print("win rate by side (seats that win or lose together):", file=out)
            heading = "side"
        else:
            print("win rate (wins / games in which it held a seat at the end):", file=out)
            heading = report.seat_heading
        print(f"  {heading:<{width}}  {'games':>6}  {'wins':>5}  {'rate':>6}", file=out)
        for label in sorted(seated, key=lambda k: (-wins[k] / seated[k], k)):
            print(
                f"  {label:<{width}}  {seated[label]:>6}  {wins[label]:>5}  {wins[label] / seated[label]:>6.1%}",
                file=out,
            )
        print(f"{report.no_winner_label}: {no_winner}", file=out)
    print(f"errors: {len(report.errors)}", file=out)
    for e in report.errors[:MAX_ERRORS_SHOWN]:
        print(
            f"  game {e.index} (seed {e.seed}, {count(e.players, 'player')}) at step {e.step}: {e.kind}: {e.message}",
            file=out,
        )
    if len(report.errors) > MAX_ERRORS_SHOWN:
        print(f"  ... and {len(report.errors) - MAX_ERRORS_SHOWN} more", file=out)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        game = get_game(args.game)
    except UnknownGameError as e:
        print(e.message, file=sys.stderr)
        return 2
    lo, hi = args.players
    if lo < game.min_players or hi > game.max_players:
        print(
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {lo}"
            + (f"-{hi}" if hi != lo else ""),
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    with bar(args.games, "games", f"{game.title}: simulate") as shown:
        report = simulate(game, args.games, args.seed, args.players, args.agents, args.max_steps, shown.update)
    print_report(report, out, players=args.players, agents=args.agents, seed=args.seed)
    return 1 if report.errors else 0
