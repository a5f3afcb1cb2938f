"""Helpers for reading the games' notations: forgiving name matching.

Players type names as they come: any case, without accents, an unambiguous
prefix. These helpers turn that into one candidate or a specific error.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TypeVar

from .errors import AmbiguousActionError, InvalidNotationError, list_words

T = TypeVar("T")


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


@functools.lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Lower-case, strip accents and punctuation other than letters/digits/space; collapse spaces.

    A comma between digit groups is a thousands separator: ``"20,000"`` folds to ``"20000"``.
    Pure, and called on the same names and notations over and over while reading typed
    input against the legal actions, so its results are cached (a bounded LRU cache).
    """
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if text.isascii():  # nothing to decompose: what _fold_unicode gives, by a table
        return " ".join(text.replace("&", " and ").translate(_ASCII_FOLD).split())
    return _fold_unicode(text)


def _fold_unicode(text: str) -> str:
    """``fold`` of any text (thousands separators already dropped): accents stripped, then
    letters and digits lower-cased, "&" read as "and", anything else a space."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    kept = kept.replace("&", " and ")
    out = "".join(c.lower() if c.isalnum() else " " for c in kept)
    return " ".join(out.split())


_ASCII_FOLD = {i: chr(i).lower() if chr(i).isalnum() else " " for i in range(128)}
"""``fold``'s work on each ASCII character: a letter or digit lower-cased, any other a space."""


def shorten(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters with an ellipsis, for echoing input back."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


@functools.lru_cache(maxsize=1024)
def _folded_names(names: tuple[str, ...]) -> Mapping[str, str]:
    """Folded name -> name (the last name of each fold), for ``match_name``: the same
    candidate lists are read again and again, so the mapping is cached."""
    return MappingProxyType({fold(n): n for n in names})


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
    folded = _folded_names(tuple(names))
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


def whole_word_fits(typed: Sequence[str], fits: Sequence[tuple[str, T]]) -> list[tuple[str, T]]:
    """Among several candidates ``(text, value)`` that all fit the typed words as prefixes,
    those in which every typed number is a whole word: ``20000`` means 20,000, not 200,000.

    Returns ``fits`` unchanged when no typed word is a number or no candidate has them all.
    """
    numbers = [t for t in typed if t.isdigit()]
    if not numbers:
        return list(fits)
    whole = [(c, v) for c, v in fits if all(n in fold(c).split() for n in numbers)]
    return whole or list(fits)


def nearest_word(word: str, words: Iterable[str]) -> str | None:
    """The word of ``words`` nearest to ``word`` by edit similarity (a swapped, dropped or
    wrong letter: ``"mvoe"`` -> ``"move"``), or None when none is close."""
    key = fold(word)
    near = difflib.get_close_matches(key, sorted(set(words)), n=1, cutoff=0.6)
    return near[0] if near else None


def unknown_command(
    typed: str, legal_now: Iterable[str], known: Iterable[str] = (), prompt: str = ""
) -> InvalidNotationError:
    """The error for text whose first word is no command word.

    When the word is near a command word legal now (or, failing that, any of ``known``),
    the message spells the text out with that word ("did you mean 'move 4: 2 Rome-Italia'?");
    it always lists the command words legal now.

    Parameters
    ----------
    typed : str
        What the player typed (not empty).
    legal_now : Iterable[str]
        The command words of the actions legal now.
    known : Iterable[str]
        Every command word of the game.
    prompt : str
        The question asked now: when the nearest word is a command word not asked now, the
        message quotes it as the reason.
    """
    words = typed.split()
    now = sorted({fold(w) for w in legal_now})
    listed = f"command words legal now: {list_words(now)}" if now else "nothing is legal for you now"
    head = f"Unknown action {shorten(words[0] if words else typed, 20)!r}"
    near = nearest_word(words[0], now) if words else None
    if near is not None:
        meant = shorten(" ".join([near, *words[1:]]))
        return InvalidNotationError(f"{head}; did you mean {meant!r}? {listed[0].upper()}{listed[1:]}.")
    other = nearest_word(words[0], known) if words else None
    if other is not None:
        from .refusal import step_clause

        return InvalidNotationError(f"{head}; did you mean {other!r}? It is not possible now: {step_clause(prompt)}; {listed}.")
    return InvalidNotationError(f"{head}; {listed}.")


def unfinished(typed: str, texts: Iterable[str], limit: int = 10) -> AmbiguousActionError | None:
    """The question for text that stops where an action needs more: ``typed`` is, word for
    word, the start of some of ``texts`` (a command word alone, ``fight with`` with nothing
    after it) and none of them itself. The answer lists those actions: "'play' could be play
    Conquest, play Tribes; which one?" (or "'play' needs more; legal now: play Tribes." when
    one fits). None when ``typed`` is an action of ``texts`` or the start of none."""
    key = fold(typed)
    if not key:
        return None
    fits: list[str] = []
    for t in dict.fromkeys(texts):
        f = fold(t)
        if f == key:
            return None
        if f.startswith(key + " "):
            fits.append(t)
    if not fits:
        return None
    if len(fits) == 1:
        return AmbiguousActionError(f"{shorten(typed)!r} needs more; legal now: {fits[0]}.", fits)
    return AmbiguousActionError(f"{shorten(typed)!r} could be {list_words(fits, limit)}; which one?", fits)


def unique_prefix(typed: str, texts: Iterable[str] | TextIndex) -> str | None:
    """The one legal action's text that ``typed`` is a cut-short form of, or None.

    ``typed`` (folded) must be the start of exactly one of ``texts`` (folded), and must end
    inside a word of it (``"move 1: 1 Rome-It"`` is ``move 1: 1 Rome-Italia``, but
    ``"move 1: 1 Rome"`` is not ``move 1: 1 Rome-Italia``: that may be a different action
    the game refuses with its reason). A number typed last must be whole.
    Equal texts count as one. ``texts`` may be a :class:`TextIndex` of them, built once
    for a position whose texts are read again and again.
    """
    key = fold(typed)
    if not key:
        return None
    index = texts if isinstance(texts, TextIndex) else _text_index(tuple(texts))
    first, folded = index.first, index.folded
    if key in first:
        return first[key]
    # the folded texts starting with ``key`` lie together in sorted order
    i = bisect.bisect_left(folded, key)
    if i >= len(folded) or not folded[i].startswith(key):
        return None
    if i + 1 < len(folded) and folded[i + 1].startswith(key):
        return None
    f = folded[i]
    if f[len(key)] == " " or key.split()[-1].isdigit():
        return None
    return first[f]


class TextIndex:
    """Texts indexed for :func:`unique_prefix`: folded text -> the first text folding to
    it (``first``), and the folded texts sorted, each once (``folded``). A game builds one
    for the legal actions' texts of a state (games.core.memo) when it reads every typed
    action against them."""

    __slots__ = ("first", "folded")

    def __init__(self, texts: Iterable[str]) -> None:
        first: dict[str, str] = {}
        for t in texts:
            first.setdefault(fold(t), t)
        self.first: Mapping[str, str] = MappingProxyType(first)
        self.folded: tuple[str, ...] = tuple(sorted(first))


@functools.lru_cache(maxsize=64)
def _text_index(texts: tuple[str, ...]) -> TextIndex:
    """The index of ``texts`` for ``unique_prefix`` (a step reads several typed actions
    against one list)."""
    return TextIndex(texts)
