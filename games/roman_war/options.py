"""Roman War's session options."""

from __future__ import annotations

from pydantic import Field, model_validator

from games.core import Model

from .model import Mode
from .queries import DECK_ORDER


class Options(Model):
    """Session options.

    ``mode``: ``coop`` (the deck plays Hannibal; 1-4 Romans, solo with one) or ``duel``
    (the last ``hannibals`` seats play the Hannibal side; 2-4 seats, at least one Roman:
    1 v 1 to 3 v 1, 2 v 2, 1 v 2, 1 v 3; R17). ``hannibals``: Hannibal seats in a duel. ``level_abilities``: the whole
    level-ability system on or off ("Toggle the whole system on/off"). ``fee``: the solo
    Target-Change fee, C1 (or C2/C3 "for a harder game"). ``manual``: allow the public
    house-rule action that sets your own Power or Maneuver level. ``decks``: a starter
    deck id per Roman seat (default fabius, scipio, marcellus, nero in seat order).
    """

    mode: Mode = "coop"
    level_abilities: bool = True
    fee: int = Field(default=1, ge=1, le=3)
    manual: bool = False
    decks: tuple[str, ...] | None = None
    hannibals: int = Field(default=1, ge=1, le=3)

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.decks is not None:
            unknown = [d for d in self.decks if d not in DECK_ORDER]
            if unknown:
                raise ValueError(f"unknown deck {unknown[0]!r}; decks: {', '.join(DECK_ORDER)}")
        return self
