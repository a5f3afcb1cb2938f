"""Credo: the Game of Dueling Dogmas (rule text: shared/seeds/003_a89d0bca05ff4a91.txt;
rulings: RULINGS.md)."""

from games.core import register
from games.core.agents import register_heuristic

from .agent import HeuristicAgent
from .game import GAME, Credo, Options

register(GAME)
register_heuristic(GAME.id, HeuristicAgent)

__all__ = ["GAME", "Credo", "HeuristicAgent", "Options"]
