"""The error family every game raises (ARCHITECTURE.md, "The game contract").

Each error has a stable ``code`` (used by the host, the database and tests) and a
``message`` that is safe to show to a player: it says what was wrong and, where it
can, what would be legal instead.
"""

from __future__ import annotations

from collections.abc import Sequence


class GameError(Exception):
    """Root of every rule-level error. ``code`` is stable; ``message`` is player-safe."""

    code = "game_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidNotationError(GameError):
    """The text could not be read as an action in the game's notation."""

    code = "invalid_notation"


class IllegalActionError(GameError):
    """The action is well formed but the rules do not allow it now."""

    code = "illegal_action"


class AmbiguousActionError(GameError):
    """The text matches more than one action; ``candidates`` lists them in notation."""

    code = "ambiguous_action"

    def __init__(self, message: str, candidates: Sequence[str]) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class NotYourTurnError(GameError):
    """The seat is not being asked for input now."""

    code = "not_your_turn"


class GameOverError(GameError):
    """The game has ended; no more actions are accepted."""

    code = "game_over"


class StaleStateError(GameError):
    """The state changed since the caller last saw it (optimistic concurrency)."""

    code = "stale_state"


def list_words(items: Sequence[str], limit: int = 12) -> str:
    """Join ``items`` for a message: ``"a, b, c"``; cut to ``limit`` with a count of the rest
    (``"..., and 3 more"``), never hiding a single name behind "and 1 more"."""
    items = list(items)
    if not items:
        return "none"
    if len(items) > limit + 1:
        return ", ".join(items[:limit]) + f", and {len(items) - limit} more"
    return ", ".join(items)
