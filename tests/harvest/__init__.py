"""Harvest, a toy game of the test suite built only on games.core's flow engine
(README.md here). Importing the package registers it."""

from games.core import register

from .game import GAME, Harvest

register(GAME)

__all__ = ["GAME", "Harvest"]
