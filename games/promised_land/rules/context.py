"""The scratch of one Promised Land ``apply`` (games.core.base.ApplyContext) with its helpers."""

from __future__ import annotations

from typing import Any

from games.core.base import ApplyContext

from ..model import Note


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def note(self, text: str) -> None:
        """A public line of the log."""
        self.events.append(Note(text=text))

    def set_turn(self, **fields: Any) -> None:
        """Replace fields of the Player Turn in progress."""
        assert self.s.turn is not None
        self.s = self.s.model_copy(update={"turn": self.s.turn.model_copy(update=fields)})

    def set_land(self, i: int, **fields: Any) -> None:
        """Replace fields of land ``i``."""
        self.replace_in("lands", i, **fields)

    def supply_add(self, counters: str, n: int) -> None:
        """Add ``n`` units (negative: take) to the supply of ``counters``."""
        self.s = self.s.model_copy(
            update={"unit_supply": tuple((c, v + n if c == counters else v) for c, v in self.s.unit_supply)}
        )
