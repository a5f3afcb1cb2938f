"""A random game walked step by step, for tests that try typed text at each position."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.core import Prompt, Seat, apply_at, get_game, start


@dataclass
class Position:
    """One position of the walk: the seat chosen among those asked, its first legal actions
    (at most the walk's ``cap``) and their notations, and the walk's generator (draws made
    between two positions come before the walk's own choice of the action played)."""

    game: Any
    state: Any
    step: int
    seat: Seat
    asked: dict[Seat, Prompt]
    legal: list[Any]
    texts: list[str]
    rnd: random.Random


def random_walk(game_id: str, players: int, seed: int, steps: int, cap: int) -> Iterator[Position]:
    """Positions of a game of ``players`` set up from ``seed``, each seat and action chosen by
    ``random.Random(seed)``, for up to ``steps - 1`` actions or until the game ends."""
    g = get_game(game_id)
    state = start(g, list(range(players)), g.Options(), seed).state
    rnd = random.Random(seed)
    for step in range(1, steps):
        if g.outcome(state) is not None:
            return
        asked = g.to_act(state)
        seat = rnd.choice(sorted(asked))
        legal = list(itertools.islice(g.legal_actions(state, seat), cap))
        yield Position(g, state, step, seat, asked, legal, [g.format_action(state, a) for a in legal], rnd)
        state = apply_at(g, state, seat, rnd.choice(legal), seed, step).state
