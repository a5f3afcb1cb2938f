"""The registry of games: id -> game object.

Games register themselves on import; ``games.load_all()`` imports every game
package, so callers never need to know the list.
"""

from __future__ import annotations

from .errors import GameError
from .game import Game

_GAMES: dict[str, Game] = {}


class UnknownGameError(GameError):
    """No game has that id."""

    code = "unknown_game"


def register(game: Game) -> Game:
    """Add ``game`` under ``game.id``; returns it so it can be used as a decorator result."""
    _GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game:
    """The game with ``game_id``; accepts spaces or underscores for dashes and any case.

    Raises
    ------
    UnknownGameError
        With the list of known ids.
    """
    from games import load_all

    load_all()
    key = game_id.strip().lower().replace("_", "-").replace(" ", "-")
    if key in _GAMES:
        return _GAMES[key]
    matches = [g for g in _GAMES if g.startswith(key)] if key else []
    if len(matches) == 1:
        return _GAMES[matches[0]]
    raise UnknownGameError(f"Unknown game {game_id!r}; known games: {', '.join(sorted(_GAMES))}.")


def all_games() -> list[Game]:
    """Every registered game, sorted by id."""
    from games import load_all

    load_all()
    return [_GAMES[k] for k in sorted(_GAMES)]
