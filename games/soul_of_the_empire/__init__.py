"""Soul of the Empire (rule text: shared/seeds/000_ee59181bd146d771.txt; rulings: RULINGS.md)."""

from games.core import register
from games.core.agents import register_heuristic

from .agent import HeuristicAgent
from .game import GAME, Options, SoulOfTheEmpire

register(GAME)
register_heuristic(GAME.id, HeuristicAgent)

__all__ = ["GAME", "HeuristicAgent", "Options", "SoulOfTheEmpire"]
