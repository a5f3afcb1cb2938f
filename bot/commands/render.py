"""``tabula render GAME --seed N --steps K --out FILE.png``: play K AI steps and
write the board image, so anyone can look at a board without Discord."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.commands import whole_number
from games.core.english import count

from . import game_ids_help
from . import seed as seed_type
from .play import option_pair


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "render",
        help="play AI steps and write the board image (PNG)",
        description="Play K steps with AI seats from a seed, then write the public board image "
                    "(or one seat's own view with --viewer). Seats are numbered from 1, as everywhere in Tabula.",
    )
    p.add_argument("game", help=f"game id: {game_ids_help()}")
    p.add_argument("--seed", type=seed_type, default=1, help="session seed, 0 to 2**63-1 (default 1)")
    p.add_argument("--steps", type=whole_number, default=40, help="AI actions to play first (default 40)")
    p.add_argument("--players", type=whole_number, default=4, help="number of seats (default 4)")
    p.add_argument("--viewer", type=whole_number, default=None, metavar="SEAT",
                   help="render seat SEAT's own view (its hand too) instead of the public board; "
                        "seats are numbered 1 to --players")
    p.add_argument("--agents", choices=("heuristic", "random"), default="heuristic", help="how AI seats play")
    p.add_argument("--out", default="board.png",
                   help="PNG file to write (default board.png); the name must end in .png, as only PNG is written")
    p.add_argument("--option", "-o", dest="options", action="append", type=option_pair, default=None,
                   metavar="NAME=VALUE",
                   help="a game option, repeatable, as for tabula play: e.g. -o mode=duel -o hannibals=2 "
                        "(Roman War)")
    p.set_defaults(func=run)
    return p


def playout(
    game_id: str,
    seed: int,
    steps: int,
    players: int = 4,
    agents: str = "heuristic",
    options: dict[str, Any] | None = None,
) -> tuple[Any, Any, int]:
    """Set up ``game_id`` for ``players`` seats with ``seed`` and the game ``options``
    (NAME -> value), and play up to ``steps`` actions; each step the lowest prompted seat
    acts with an AI agent.

    Returns (game, state, steps played); fewer steps are played if the game ends.
    Raises GameError for options the game does not have or accept.
    """
    from games.core import get_game
    from games.core.agents import make_agent
    from games.core.replay import apply_at, start

    game = get_game(game_id)
    seats = list(range(players))
    state = start(game, seats, game_options(game, options or {}), seed).state
    bots = {s: make_agent(game, agents, seed=seed * 1000 + s) for s in seats}
    played = 0
    for n in range(1, steps + 1):
        prompts = game.to_act(state)
        if not prompts:
            break
        seat = min(prompts)
        action = bots[seat].choose(game, state, seat)
        state = apply_at(game, state, seat, action, seed, n).state
        played = n
    return game, state, played


def game_options(game: Any, values: dict[str, Any]) -> Any:
    """``game.Options`` from NAME -> value; a wrong name or value raises GameError listing
    the game's options and their defaults."""
    from pydantic import ValidationError

    from games.core import GameError
    from games.core.options import options_message

    try:
        return game.Options.model_validate(values)
    except ValidationError as e:
        raise GameError(options_message(game.title, game.Options, e)) from None


def run(args: argparse.Namespace) -> int:
    import render
    from games.core import GameError

    def fail(message: str) -> int:
        print(f"tabula render: {message}", file=sys.stderr)
        return 2

    if args.viewer is not None and not 1 <= args.viewer <= args.players:
        return fail(f"--viewer is a seat number from 1 to {args.players} (the number of players), "
                    f"not {args.viewer}.")
    if args.steps < 0:
        return fail("--steps cannot be negative.")
    if Path(args.out).suffix.lower() != ".png":
        return fail(f"--out {args.out}: the image is written as PNG, so the file name must end in .png "
                    f"(e.g. --out {Path(args.out).with_suffix('.png').name if Path(args.out).name else 'board.png'}).")
    try:
        game, state, played = playout(
            args.game, args.seed, args.steps, args.players, args.agents, dict(args.options or [])
        )
        viewer = None if args.viewer is None else args.viewer - 1
        view = game.view(state, viewer)
    except GameError as e:
        return fail(e.message)
    if getattr(view, "game", None) not in render.supported_games():
        return fail(f"{game.id} has no board image yet; have: {', '.join(render.supported_games())}")
    png = render.render_view(view)
    out = Path(args.out)
    try:
        out.write_bytes(png)
    except OSError as e:
        return fail(f"cannot write {out}: {e.strerror or e}.")
    who = "public view" if viewer is None else f"seat {viewer + 1}'s view"
    print(f"{out}: {game.title}, seed {args.seed}, {count(played, 'step')}, {who}, {len(png) / 1024:.0f} KiB")
    return 0
