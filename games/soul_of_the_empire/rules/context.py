"""The scratch of one Soul of the Empire ``apply`` (games.core.base.ApplyContext) with its helpers
(units placed, moved and returned within the 6-unit limit; Important Terms), and the registry of
the Power Cards' effects."""

from __future__ import annotations

from typing import Any

from games.core.base import ApplyContext
from games.core.effects import Effects

from ..model import FactionState, Note

effect: Effects[Any] = Effects("soul-of-the-empire")
"""The Power Cards' effects, by card id (tests/games/core/test_card_effects.py: one per card)."""


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def note(self, text: str) -> None:
        """A public line for the log."""
        self.events.append(Note(text=text))

    def f(self, faction: str) -> FactionState:
        """The state of ``faction`` now."""
        return self.s.factions[faction]

    def set_f(self, faction: str, **fields: Any) -> None:
        """Replace fields of ``faction``'s state."""
        factions = dict(self.s.factions)
        factions[faction] = factions[faction].model_copy(update=fields)
        self.s = self.s.model_copy(update={"factions": factions})

    def set_die(self, faction: str, i: int, **fields: Any) -> None:
        """Replace fields of die ``i`` of ``faction``."""
        dice = list(self.f(faction).dice)
        dice[i] = dice[i].model_copy(update=fields)
        self.set_f(faction, dice=tuple(dice))

    def add_units(self, territory: str, faction: str, n: int, revolt: str | None = None) -> dict[str, int]:
        """Add ``n`` (may be negative) units of ``faction`` in ``territory``; the
        supply is not touched. Gray units belong to a revolt (RULINGS.md R13): ``revolt``
        (a revolt card id) names it, else the revolt with the most units there is
        chosen (the earlier card on a tie). Returns the change per revolt card."""
        board = dict(self.s.board)  # the other territories' cells are shared, never changed
        cell = board[territory] = dict(board.get(territory, ()))
        cell[faction] = cell.get(faction, 0) + n
        if cell[faction] < 0:
            raise AssertionError(f"negative units of {faction} in {territory}")
        left = cell[faction]
        if cell[faction] == 0:
            del cell[faction]
        if not cell:
            del board[territory]
        self.s = self.s.model_copy(update={"board": board})
        if faction != "gray" or not self.s.revolts or n == 0:
            return {}
        return self._track_gray(territory, n, revolt, left)

    def _track_gray(self, territory: str, n: int, revolt: str | None, left: int) -> dict[str, int]:
        """Keep each revolt's own units in step with the board's Gray units in
        ``territory`` (``left`` Gray units there now)."""
        revolts = list(self.s.revolts)
        have = [r.units.get(territory, 0) for r in revolts]
        cards = [r.card for r in revolts]
        change = [0] * len(revolts)
        if n > 0:
            if revolt in cards:
                k = cards.index(revolt)
            else:
                k = max(range(len(revolts)), key=lambda i: (have[i], -i))
            change[k] = n
        else:
            if revolt in cards:
                k = cards.index(revolt)
                change[k] = -min(-n, have[k])
            # units beyond what the board holds leave the revolt with the most there
            while sum(have) + sum(change) > left:
                k = max(range(len(revolts)), key=lambda i: (have[i] + change[i], -i))
                change[k] -= 1
        out: dict[str, int] = {}
        for i, d in enumerate(change):
            if d:
                units = dict(revolts[i].units)
                units[territory] = units.get(territory, 0) + d
                if units[territory] <= 0:
                    del units[territory]
                revolts[i] = revolts[i].model_copy(update={"units": units})
                out[cards[i]] = d
        self.s = self.s.model_copy(update={"revolts": tuple(revolts)})
        return out

    def move_units(self, source: str, destination: str, faction: str, n: int, revolt: str | None = None) -> None:
        """Move ``n`` units of ``faction`` from ``source`` to ``destination``; Gray units
        keep their revolt (``revolt`` names whose units move, RULINGS.md R13)."""
        change = self.add_units(source, faction, -n, revolt)
        if not change:
            self.add_units(destination, faction, n)
            return
        moved = 0
        for card, d in change.items():
            self.add_units(destination, faction, -d, card)
            moved -= d
        if n - moved:
            self.add_units(destination, faction, n - moved)

    def to_supply(self, territory: str, faction: str, n: int, revolt: str | None = None) -> None:
        """Return ``n`` units of ``faction`` from ``territory`` to its supply."""
        if n <= 0:
            return
        self.add_units(territory, faction, -n, revolt)
        self.set_f(faction, supply=self.f(faction).supply + n)

    def from_supply(self, territory: str, faction: str, n: int, revolt: str | None = None) -> None:
        """Place ``n`` units of ``faction`` from its supply in ``territory``."""
        if n <= 0:
            return
        self.set_f(faction, supply=self.f(faction).supply - n)
        self.add_units(territory, faction, n, revolt)
