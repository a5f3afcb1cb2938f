"""A toy game with a deliberate fault, for the fuzz's own tests: "Count" (tests.toygame)
whose reader takes ``play 7`` for ``play 6`` once the total has reached 10, so that
``tabula fuzz count-faulty`` finds failures part-way through some games, each with the
actions that lead to it."""

from __future__ import annotations

from typing import Any, ClassVar

from games.core import Seat, register

from .toygame import CountGame, Play, State


class FaultyCount(CountGame):
    """Count with a misreading notation (the fault the fuzz must report)."""

    id: ClassVar[str] = "count-faulty"
    title: ClassVar[str] = "Count (faulty)"

    def parse_action(self, s: State, seat: Seat, text: str) -> Any:
        a = super().parse_action(s, seat, text)
        if isinstance(a, Play) and a.card == 7 and s.total >= 10:
            return Play(card=6)
        return a


GAME = register(FaultyCount())
