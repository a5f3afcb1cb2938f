"""Rebuild a state from a session's seed and action log (ARCHITECTURE.md, "Sessions and storage").

Step numbering: setup draws from ``Rng(seed, 0)``; the n-th action (1-based)
draws from ``Rng(seed, n)``. The host and every test use this numbering, so a
log replays to the same state in any process.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .game import Game
from .model import Event, Seat, Step
from .rng import Rng


def start(game: Game, seats: Sequence[Seat], options: Any, seed: int) -> Step[Any]:
    """Set up a new game: step 0."""
    return game.setup(seats, options, Rng(seed, 0))


def apply_at(game: Game, state: Any, seat: Seat, action: Any, seed: int, step: int) -> Step[Any]:
    """Apply ``action`` as the ``step``-th action (1-based) of the session with ``seed``."""
    return game.apply(state, seat, action, Rng(seed, step))


def replay(
    game: Game,
    seats: Sequence[Seat],
    options: Any,
    seed: int,
    actions: Iterable[tuple[Seat, Any]],
    *,
    state: Any = None,
    first_step: int = 1,
) -> tuple[Any, list[Event]]:
    """Replay ``actions`` (seat, action) from setup, or from ``state`` taken after
    step ``first_step - 1`` (a snapshot). Returns the final state and every event
    produced (setup events included when starting from scratch).

    Raises whatever GameError an action raises: a log that does not replay is corrupt.
    """
    events: list[Event] = []
    if state is None:
        step0 = start(game, seats, options, seed)
        state = step0.state
        events.extend(step0.events)
        first_step = 1
    n = first_step
    for seat, action in actions:
        st = game.apply(state, seat, action, Rng(seed, n))
        state = st.state
        events.extend(st.events)
        n += 1
    return state, events
