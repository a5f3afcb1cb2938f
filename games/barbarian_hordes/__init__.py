"""Barbarian Hordes (rule text: shared/seeds/004_d98ff79b6a56a13b.txt; rulings: RULINGS.md)."""

from games.core import register
from games.core.agents import register_heuristic

from .agent import HeuristicAgent
from .game import GAME, BarbarianHordes, Options

register(GAME)
register_heuristic(GAME.id, HeuristicAgent)

__all__ = ["GAME", "BarbarianHordes", "HeuristicAgent", "Options"]
