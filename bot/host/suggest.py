"""Autocomplete suggestions that always mean exactly the action they name.

Discord caps an autocomplete choice's name and value at 100 characters each. An action whose
notation fits is suggested as itself. A longer one (a Credo Church Father refuting an Article
of a named Church, say) is suggested with a value that keeps its beginning, an ellipsis and a
tag of 8 hex digits naming the whole notation::

    play Church Father with Bishop of Serdica to refute Article 10 populist (lo… #1f0c93ab

The host resolves such a value to the one legal action whose notation carries that tag and
begins that way (``resolve``), so a suggestion cut to fit never becomes ambiguous or names
another action. Its name shows the beginning and the end of the notation, which is where long
actions differ.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from games.core import Game, IllegalActionError, Seat

LIMIT = 100  # Discord: characters of a choice's name and of its value
TAG = re.compile(r"…\s*#([0-9a-f]{8})\s*$")


def tag_of(notation: str) -> str:
    """8 hex digits naming ``notation`` (a hash of its text)."""
    return hashlib.blake2b(notation.encode("utf-8"), digest_size=4).hexdigest()


def suggestion(notation: str) -> tuple[str, str]:
    """``(name, value)`` of the autocomplete choice for ``notation``, both at most 100
    characters. Either is the notation itself when it fits; otherwise the name is its
    beginning and end around an ellipsis, and the value its beginning, an ellipsis and
    ``#`` + ``tag_of(notation)``."""
    if len(notation) <= LIMIT:
        return notation, notation
    tail = 38
    name = notation[: LIMIT - tail - 1].rstrip() + "…" + notation[-tail:]
    mark = f"… #{tag_of(notation)}"
    value = notation[: LIMIT - len(mark)].rstrip() + mark
    return name, value


def resolve(game: Game, state: Any, seat: Seat, text: str) -> Any | None:
    """The legal action a tagged suggestion value names, or None when ``text`` is not one
    (it is then read as notation).

    Raises IllegalActionError when no legal action of ``seat`` carries the tag (the game
    moved on since the suggestion was made)."""
    found = TAG.search(text)
    if found is None:
        return None
    head = text[: found.start()].strip().casefold()
    for action in game.legal_actions(state, seat):
        notation = game.format_action(state, action)
        if tag_of(notation) == found.group(1) and notation.casefold().startswith(head):
            return action
    raise IllegalActionError(
        f"“{text[: found.start()].strip()}…” is not legal any more; start typing in /play again "
        "to see what is legal now."
    )
