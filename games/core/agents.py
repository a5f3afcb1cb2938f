"""Players you can play against: one interface, a random agent, per-game heuristics.

An agent picks an action for a seat from the game's legal actions. Agents have
their own random generator (not the session's): their choices are recorded in the
action log like a human's, so replay never needs to re-run an agent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .game import Game
from .model import Seat


class Agent(Protocol):
    """Chooses an action for ``seat`` in state ``s``."""

    name: str

    def choose(self, game: Game, s: Any, seat: Seat) -> Any: ...


class RandomAgent:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rand = random.Random(seed)

    def choose(self, game: Game, s: Any, seat: Seat) -> Any:
        actions = game.legal_actions(s, seat)
        if not isinstance(actions, Sequence):
            actions = list(actions)
        if not actions:
            raise RuntimeError(f"{game.id}: seat {seat} is prompted but has no legal action")
        return actions[int(self.rand.random() * len(actions))]


_HEURISTICS: dict[str, Callable[[int | None], Agent]] = {}


def register_heuristic(game_id: str, factory: Callable[[int | None], Agent]) -> None:
    """Register the heuristic agent factory of a game (called by the game package)."""
    _HEURISTICS[game_id] = factory


def make_agent(game: Game, kind: str = "heuristic", seed: int | None = None) -> Agent:
    """An agent for ``game``: ``"heuristic"`` (the game's own, or random if it has none)
    or ``"random"``. Raises ValueError for another kind."""
    if kind == "random":
        return RandomAgent(seed)
    if kind == "heuristic":
        factory = _HEURISTICS.get(game.id)
        return factory(seed) if factory else RandomAgent(seed)
    raise ValueError(f"unknown agent kind {kind!r}; use 'heuristic' or 'random'")
