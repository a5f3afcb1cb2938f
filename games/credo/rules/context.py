"""The scratch of one Credo ``apply`` (games.core.base.ApplyContext) with its helpers."""

from __future__ import annotations

from games.core.base import ApplyContext

from ..model import Note


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def note(self, text: str) -> None:
        """Tell the table ``text`` (a public Note)."""
        self.events.append(Note(text=text))
