"""Tab completion and history at the `tabula play` prompt (bot.lineedit)."""

from __future__ import annotations

import io
from typing import Any

from bot.console import Console
from bot.lineedit import LineEditor


class FakeReadline:
    """The part of the readline module the editor uses."""

    __doc__ = "GNU readline"

    def __init__(self) -> None:
        self.history = ["attack Huns"]

    def clear_history(self) -> None:
        self.history.clear()


def test_tab_completes_the_whole_line_forgivingly() -> None:
    """Tab completes the line typed so far against what is offered: any case, several words."""
    e = LineEditor(stream=io.StringIO())
    assert not e.active  # piped input: nothing to edit
    e.offer(["attack Visigoths", "attack Huns", "done", "done"])
    assert e.matches("att") == ["attack Visigoths", "attack Huns"]
    assert e.matches("ATTACK h") == ["attack Huns"]
    assert [e.complete("d", 0), e.complete("d", 1)] == ["done", None]


def test_the_history_is_cleared_at_a_hot_seat_handover() -> None:
    """Two humans at one keyboard: after the handover the arrow keys show nothing the previous
    player typed; each prompt offers the asked player's legal actions to Tab."""
    offered: list[list[str]] = []
    rl = FakeReadline()

    class Editor(LineEditor):
        def __init__(self) -> None:
            super().__init__(stream=io.StringIO())
            self.readline = rl

        def offer(self, words: Any) -> None:
            offered.append(list(words))
            super().offer(words)

    out = io.StringIO()
    lines = iter(["", "pick huns", "", "quit"])
    console = Console("barbarian-hordes", 2, 0, seed=1, out=out, read=lambda _p: next(lines))
    console.editor = Editor()
    console.run()
    assert rl.history == []
    assert offered and any(w.startswith("pick ") for w in offered[0]) and "rules now" in offered[0]
