"""Line editing at the ``tabula play`` prompt: tab completion of what is legal now and a
command history, through the standard ``readline`` module when the input is a terminal.

The console sets the words to complete before each prompt (the asked player's legal actions
in notation and the console's own commands); Tab completes the whole line typed so far
against them, forgivingly (any case, accents optional). The history is kept per player:
at a hot-seat handover it is cleared, so the arrow keys never show the next player what
the previous one typed (a secret choice included).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from games.core.notation import completions


class LineEditor:
    """Tab completion and history for ``input()`` on a terminal; does nothing otherwise
    (piped input, tests, a platform without ``readline``)."""

    def __init__(self, stream: Any = None) -> None:
        self.words: list[str] = []
        self._matches: list[str] = []
        self.readline: Any = None
        stream = sys.stdin if stream is None else stream
        if not (hasattr(stream, "isatty") and stream.isatty()):
            return
        try:
            import readline
        except ImportError:  # pragma: no cover - a Python built without readline
            return
        self.readline = readline
        readline.set_completer_delims("")  # the whole line is completed, names have spaces
        readline.set_completer(self.complete)
        if "libedit" in (readline.__doc__ or ""):  # macOS
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    @property
    def active(self) -> bool:
        return self.readline is not None

    def offer(self, words: Sequence[str]) -> None:
        """What Tab completes to at the next prompt."""
        self.words = list(dict.fromkeys(words))

    def matches(self, text: str) -> list[str]:
        """The offered words the line ``text`` is the start of (forgiving case and accents)."""
        return completions(self.words, text, limit=None)

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th match of ``text`` (the whole line)."""
        if state == 0:
            self._matches = self.matches(text)
        return self._matches[state] if state < len(self._matches) else None

    def forget(self) -> None:
        """Clear the history (a hot-seat handover: the next player must not read it)."""
        if self.readline is not None:
            self.readline.clear_history()
