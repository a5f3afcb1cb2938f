"""The scratch of one Roman War ``apply`` (games.core.base.ApplyContext) with its helpers."""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.base import ApplyContext

from ..model import Roman, StackItem


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def roman(self, seat: Seat) -> Roman:
        return self.s.romans[seat]

    def set_roman(self, seat: Seat, **fields: Any) -> None:
        self.replace_in("romans", seat, **fields)

    def uid(self) -> int:
        n = self.s.next_uid
        self.update(next_uid=n + 1)
        return n

    def set_item(self, uid: int, **fields: Any) -> None:
        self.update(stack=tuple(i.model_copy(update=fields) if i.uid == uid else i for i in self.s.stack))

    def item(self, uid: int) -> StackItem | None:
        return next((i for i in self.s.stack if i.uid == uid), None)
