"""Credo's session options."""

from __future__ import annotations

from pydantic import Field

from games.core import Model


class Options(Model):
    """Session options.

    ``ask_all``: in response windows and debates, ask every Church (default) or only
    those holding at least one card (RULINGS.md R21: whether a card could be played
    now is never what decides who is asked, so nobody learns about a hand). ``round_limit``: optional house rule ending the game after that many
    rounds, most Followers winning (RULINGS.md R19).
    """

    ask_all: bool = True
    round_limit: int | None = Field(default=None, ge=1)
