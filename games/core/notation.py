"""Helpers for reading the games' notations: forgiving name matching.

Players type names as they come: any case, without accents, an unambiguous
prefix. These helpers turn that into one candidate or a specific error.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import TypeVar

from .errors import AmbiguousActionError, InvalidNotationError, list_words

T = TypeVar("T")


def fold(text: str) -> str:
    """Lower-case, strip accents and punctuation other than letters/digits/space; collapse spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    kept = kept.replace("&", " and ")
    out = "".join(c.lower() if c.isalnum() else " " for c in kept)
    return " ".join(out.split())


def shorten(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters with an ellipsis, for echoing input back."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def match_name(text: str, names: Mapping[str, T], what: str) -> T:
    """The value whose name matches ``text``: exact (folded) match first, then a
    unique prefix, then a unique word-prefix ("leader" -> "Great Leader" if unique).

    Parameters
    ----------
    text : str
        What the player typed.
    names : Mapping[str, T]
        Display name -> value, the candidates legal here.
    what : str
        The kind of thing, for messages ("card", "nation").

    Raises
    ------
    InvalidNotationError
        Nothing matches; the message lists the candidates.
    AmbiguousActionError
        Several match; ``candidates`` lists their names.
    """
    key = fold(text)
    folded = {fold(n): n for n in names}
    if key in folded:
        return names[folded[key]]
    if not key:
        raise InvalidNotationError(f"Name a {what}; choose from: {list_words(sorted(names))}.")
    starts = sorted({folded[f] for f in folded if f.startswith(key)})
    if len(starts) == 1:
        return names[starts[0]]
    if len(starts) > 1:
        raise AmbiguousActionError(f"{shorten(text)!r} could be {list_words(starts)}; which {what}?", starts)
    words = sorted({folded[f] for f in folded if any(w.startswith(key) for w in f.split())})
    if len(words) == 1:
        return names[words[0]]
    if len(words) > 1:
        raise AmbiguousActionError(f"{shorten(text)!r} could be {list_words(words)}; which {what}?", words)
    raise InvalidNotationError(
        f"No {what} called {shorten(text)!r} here; choose from: {list_words(sorted(names))}."
    )


def completions(candidates: Sequence[str], prefix: str, limit: int | None = None) -> list[str]:
    """Candidates whose folded form starts with the folded ``prefix``; all of them unless
    ``limit`` is given (callers cut to what they show: Discord's autocomplete shows 25)."""
    key = fold(prefix)
    out = [c for c in candidates if fold(c).startswith(key)]
    if not out and key:
        out = [c for c in candidates if key in fold(c)]
    return out[:limit]
