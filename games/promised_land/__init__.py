"""Promised Land 1250-587 BC (rule text: shared/seeds/002_22734f2d945f618a.txt; rulings: RULINGS.md)."""

from games.core import register
from games.core.agents import register_heuristic

from .agent import HeuristicAgent
from .game import GAME, Options, PromisedLand

register(GAME)
register_heuristic(GAME.id, HeuristicAgent)

__all__ = ["GAME", "HeuristicAgent", "Options", "PromisedLand"]
