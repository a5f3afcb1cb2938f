"""games.core — the contract every game implements (ARCHITECTURE.md, "The game contract")."""

from .errors import (
    AmbiguousActionError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidNotationError,
    NotYourTurnError,
    StaleStateError,
)
from .game import Game, dump_events
from .model import Event, Model, Outcome, Prompt, PromptKind, Seat, Step, made_once, visible_events
from .registry import UnknownGameError, all_games, get_game, register
from .replay import apply_at, replay, start
from .rng import CountingRng, Rng, new_seed
from .space import ActionSpace
from .window import ResponseWindow

__all__ = [
    "ActionSpace",
    "ResponseWindow",
    "AmbiguousActionError",
    "Event",
    "CountingRng",
    "Game",
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "InvalidNotationError",
    "Model",
    "NotYourTurnError",
    "Outcome",
    "Prompt",
    "PromptKind",
    "Rng",
    "Seat",
    "StaleStateError",
    "Step",
    "UnknownGameError",
    "all_games",
    "made_once",
    "apply_at",
    "dump_events",
    "get_game",
    "new_seed",
    "register",
    "replay",
    "start",
    "visible_events",
]
