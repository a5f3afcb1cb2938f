"""Credo: the Game of Dueling Dogmas (rule text: shared/seeds/003_a89d0bca05ff4a91.txt;
rulings: RULINGS.md)."""

from games.core import register
from games.core.agents import register_heuristic
from games.core.fuzz import register_variants
from games.core.invariants import register_invariants

from .agent import HeuristicAgent
from .game import GAME, Credo, Options
from .invariants import check, fuzz_variants

register(GAME)
register_heuristic(GAME.id, HeuristicAgent)
register_invariants(GAME.id, check)
register_variants(GAME.id, fuzz_variants)

__all__ = ["GAME", "Credo", "HeuristicAgent", "Options"]
