"""The scratch of one Promised Land ``apply`` (games.core.base.ApplyContext) with its helpers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core import Seat
from games.core.base import ApplyContext
from games.core.effects import Effects

from ..model import Note, PlayArtefact


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

    def turn_face_down(self, seat: Seat, artefact: str) -> None:
        """``seat`` turns a face-up Artefact of type ``artefact`` face down (played: Playing Artefacts)."""
        arts = list(self.s.players[seat].artefacts)
        i = next(n for n, o in enumerate(arts) if o.id == artefact and not o.face_down)
        arts[i] = arts[i].model_copy(update={"face_down": True})
        self.set_player(seat, artefacts=tuple(arts))


ArtefactEffect = Callable[[Any, _Ctx, Seat, PlayArtefact], None]

effect: Effects[ArtefactEffect] = Effects("promised-land")
"""The effects of the Artefacts by Artefact kind (List of Artefacts): ``fn(game, ctx, seat,
action)`` carries out the text of the Artefact ``seat`` has just turned face down. The
Bonus Artefacts are never played: their standing extra coin is counted in the revenue
(``queries.Queries.revenue``), so they have no effect here (``PromisedLand.card_ids``)."""
