"""Record the seeded games that `tests/games/core/test_recorded_games.py` replays.

One game per registered game, player count and variant (the option sets the fuzz
covers, `games.core.fuzz.variants_of`), played by the heuristic agents, written to
`tests/fixtures/<game>/<players>p-<variant>.json`.

    python -m tests.record_fixtures                 # all games
    python -m tests.record_fixtures credo roman-war # some games
    python -m tests.record_fixtures --views promised-land
    python -m tests.record_fixtures --state promised-land

Re-record a game only when a change to its rules is meant to change how recorded games
play, and say so in the commit. ``--views`` keeps every recorded game and only recomputes
its spectator-view hashes, for a change to what the View shows; ``--state`` recomputes
the final-state hash too, for a field the State records that changes no play; both
refuse (and write nothing for that game) when anything else differs: then the rules
changed too.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import games  # noqa: F401  (registers the games)
from games.core.fuzz import variants_of
from games.core.record import record_game, rehash_views
from games.core.registry import all_games, get_game

FIXTURES = Path(__file__).parent / "fixtures"


def variant_name(options: dict) -> str:
    """`defaults` or the options as `key=value` joined by `,`, safe as a file name."""
    if not options:
        return "defaults"
    def value(v: object) -> str:
        return re.sub(r"[\[\]\"' ]", "", json.dumps(v)).replace(",", "+")

    text = ",".join(f"{k}={value(v)}" for k, v in sorted(options.items()))
    return re.sub(r"[^A-Za-z0-9=,+_.-]", "_", text)


def fixture_seed(game_id: str, players: int, index: int) -> int:
    """A fixed seed per fixture, derived from its name (stable across runs)."""
    return sum(ord(c) * 131**i for i, c in enumerate(f"{game_id}:{players}:{index}")) % (2**62)


def record(game_id: str) -> list[Path]:
    game = get_game(game_id)
    folder = FIXTURES / game_id
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    written = []
    for players in range(game.min_players, game.max_players + 1):
        for i, options in enumerate(variants_of(game, players)):
            rec = record_game(game, players, options, fixture_seed(game_id, players, i))
            path = folder / f"{players}p-{variant_name(options)}.json"
            path.write_text(json.dumps(rec, separators=(",", ":")) + "\n")
            written.append(path)
            print(f"{path.relative_to(FIXTURES.parent.parent)}: {len(rec['actions'])} actions")
    return written


def rehash(game_id: str, *, final: bool = False) -> None:
    game = get_game(game_id)
    paths = sorted((FIXTURES / game_id).glob("*.json"))
    new = {}
    for path in paths:
        rec, problems = rehash_views(game, json.loads(path.read_text()), final=final)
        if problems:
            what = "the views and the final state" if final else "the views"
            raise SystemExit(f"{path.name}: not only {what} changed: " + "; ".join(problems[:3]))
        new[path] = rec
    for path, rec in new.items():
        path.write_text(json.dumps(rec, separators=(",", ":")) + "\n")
        print(f"{path.relative_to(FIXTURES.parent.parent)}: views{' and final state' if final else ''} recomputed")


def main(argv: list[str] | None = None) -> None:
    ids = [g.id for g in all_games()]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"game ids (default: all of {', '.join(ids)})")
    parser.add_argument("--views", action="store_true",
                        help="keep the recorded games; recompute only their spectator-view hashes")
    parser.add_argument("--state", action="store_true",
                        help="like --views, and recompute the final-state hash (a State field that changes no play)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in ids]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; games: {', '.join(ids)}")
    for game_id in args.games or ids:
        rehash(game_id, final=args.state) if args.views or args.state else record(game_id)


if __name__ == "__main__":
    main()
