"""The scratch of one Barbarian Hordes ``apply`` (games.core.base.ApplyContext) with its helpers."""

from __future__ import annotations

from games.core import Seat
from games.core.base import ApplyContext

from ..model import PlayerState


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def player(self, seat: Seat) -> PlayerState:
        return self.s.players[seat]
