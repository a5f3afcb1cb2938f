"""Roman War (rule text: shared/seeds/001_62f93fed39493365.txt; rulings: RULINGS.md)."""

from games.core import register
from games.core.agents import register_heuristic

from .agent import HeuristicAgent
from .game import GAME, Options, RomanWar

register(GAME)
register_heuristic(GAME.id, HeuristicAgent)

__all__ = ["GAME", "HeuristicAgent", "Options", "RomanWar"]
