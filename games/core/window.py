"""Response windows: seats that may answer or pass (ARCHITECTURE.md, "Prompts and response windows").

A window is opened by the rules (a Leader card was played, an attack was
declared...). Every seat in it is prompted with ``respond`` (or ``secret``); each
answers or passes, and the window closes when none is left. The host closes a
window on a deadline by applying the game's Pass for whoever has not answered,
so windows replay deterministically from the action log.
"""

from __future__ import annotations

from .model import Model, Seat


class ResponseWindow(Model):
    """The seats still to answer, in the order they were asked.

    ``reason`` is a short public text ("Great Leader was played: negate it?").
    """

    reason: str
    waiting: tuple[Seat, ...]

    def is_open(self) -> bool:
        """True while someone may still answer."""
        return bool(self.waiting)

    def done(self, seat: Seat) -> ResponseWindow:
        """The window after ``seat`` has answered or passed for good."""
        return self.model_copy(update={"waiting": tuple(s for s in self.waiting if s != seat)})


def seats_after(
    order: tuple[Seat, ...], first: Seat, exclude: set[Seat] | frozenset[Seat] = frozenset()
) -> tuple[Seat, ...]:
    """``order`` rotated to start after ``first``, without ``first`` and ``exclude``:
    the order in which the others are asked."""
    if first in order:
        i = order.index(first)
        order = order[i + 1 :] + order[: i + 1]
    return tuple(s for s in order if s != first and s not in exclude)
