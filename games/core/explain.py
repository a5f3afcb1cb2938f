"""Explaining what a game names: cards, nations, abilities, Artefacts... by name.

Each game lists the things its players meet by name, with their full text, cost and
when they can be played, read from the game's data files (``games/<game>/data``). The
terminal's ``explain <name>`` and Discord's ``/game explain`` look them up here. An
entry says what a thing *is*, never where a copy of it is or who holds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rapidfuzz.distance import Levenshtein

from .errors import list_words
from .model import Model
from .notation import fold, shorten
from .refusal import RULES_NOW

MAX_NAME = 100
"""The longest name ``explain`` looks up, in characters (the longest printed name is far
shorter); a longer text is refused before any matching."""


class Explanation(Model):
    """One named thing of a game.

    Attributes
    ----------
    name : str
        The name as printed ("Great Leader", "Huns").
    kind : str
        What it is, in the game's words ("card", "nation", "Artefact", "level ability").
    text : str
        What it does, in full.
    cost : str | None
        What playing or buying it costs, when it has a cost ("3 coins", "C4").
    when : str | None
        When it can be played or used, when the game says so.
    """

    name: str
    kind: str
    text: str
    cost: str | None = None
    when: str | None = None

    def render(self) -> str:
        """The entry as plain text: ``Name (kind): text`` and the cost and timing lines."""
        lines = [f"{self.name} ({self.kind}): {self.text}"]
        if self.cost:
            lines.append(f"  Cost: {self.cost}")
        if self.when:
            lines.append(f"  When: {self.when}")
        return "\n".join(lines)


def _distance(a: str, b: str) -> int:
    """Levenshtein edit distance between ``a`` and ``b`` (rapidfuzz, bit-parallel: linear
    in the longer string for names up to 64 characters)."""
    return Levenshtein.distance(a, b)


def too_long(text: str) -> str | None:
    """The refusal for a name longer than :data:`MAX_NAME` characters (echoing it shortened),
    or None when ``text`` is short enough to look up."""
    text = text.strip()
    if len(text) <= MAX_NAME:
        return None
    return (
        f"A name here is at most {MAX_NAME} characters; {shorten(text)!r} has {len(text):,}. "
        "Type the name as printed, e.g. the first words of it."
    )


def find(entries: Sequence[Explanation], text: str) -> list[Explanation]:
    """The entries ``text`` names, matched forgivingly (any case, no accents): every entry of
    that exact (folded) name first; else those whose name starts with it; else those with
    a word starting with it; ``[]`` when nothing matches, and for a name longer than
    :data:`MAX_NAME` characters (no entry's name is that long)."""
    if too_long(text):
        return []
    key = fold(text)
    if not key:
        return []
    for test in (
        lambda f: f == key,
        lambda f: f.startswith(key),
        lambda f: any(w.startswith(key) for w in f.split()) or (" " in key and key in f),
    ):
        hits = [e for e in entries if test(fold(e.name))]
        if hits:
            return hits
    return []


def nearest(names: Iterable[str], text: str, n: int = 5) -> list[str]:
    """Up to ``n`` names closest to ``text`` by edit distance on their folded forms (also
    against each word of a name), for "did you mean" suggestions. Only the first
    :data:`MAX_NAME` characters of ``text`` count."""
    key = fold(text.strip()[:MAX_NAME])
    scored = []
    for name in dict.fromkeys(names):
        f = fold(name)
        d = min([_distance(key, f)] + [_distance(key, w) + 1 for w in f.split()])
        scored.append((d, name))
    scored.sort()
    return [name for _, name in scored[:n]]


def unknown_message(names: Sequence[str], text: str) -> str:
    """The answer to an unknown name: says so and suggests the nearest names."""
    if not fold(text):
        return "Name something to explain, e.g. `explain " + (names[0] if names else "…") + "`."
    refused = too_long(text)
    if refused:
        return refused
    close = nearest(names, text)
    tail = f" Nearest: {list_words(close)}." if close else ""
    return f"Nothing called {shorten(text.strip())!r} in this game.{tail}"


def explain_text(entries: Sequence[Explanation], text: str) -> str:
    """What ``explain <text>`` answers: the matching entries rendered, or the unknown-name
    message with the nearest names; a name over :data:`MAX_NAME` characters is refused
    (shortened in the message) before any matching."""
    refused = too_long(text)
    if refused:
        return refused
    hits = find(entries, text)
    if not hits:
        return unknown_message([e.name for e in entries], text)
    return "\n".join(e.render() for e in hits)


class Explainable:
    """The explain hook of the Game protocol, with its default: a game names nothing.

    A game overrides :meth:`explanations` to list what it names, read from its data
    files; :meth:`explain` and :meth:`explainable` then work from that list.
    """

    #: What ``explain`` names in this game, in its own words, for help lines:
    #: ``"card, nation or nation ability"``.
    explained: str = "card"

    def explanations(self) -> Sequence[Explanation]:
        """Every named thing of the game (cards, nations, abilities...), each with its text,
        cost and timing from the game's data files. Default: ``()``."""
        return ()

    def explainable(self) -> list[str]:
        """The names :meth:`explain` knows, each once, in the game's order (for autocompletion)."""
        return list(dict.fromkeys(e.name for e in self.explanations()))

    def named_by(self, texts: Iterable[str]) -> list[Explanation]:
        """The entries a decision's prompt and options (``texts``) name, for ``explain`` alone.
        Default: :func:`named_in` over :meth:`explanations`; a game whose entries share a
        name with something else its options name (a territory) tells them apart here."""
        return named_in(self.explanations(), texts)

    def explain(self, name: str) -> list[Explanation]:
        """The entries ``name`` names, matched forgivingly (see :func:`find`); ``[]`` when
        none. Never says where a card is or who holds it: entries are the game's data only."""
        return find(self.explanations(), name)


_PATTERNS: dict[int, tuple[Sequence[Explanation], dict[str, list[Explanation]], re.Pattern[str] | None]] = {}


def _names_pattern(
    entries: Sequence[Explanation],
) -> tuple[dict[str, list[Explanation]], re.Pattern[str] | None]:
    """The entries by folded name and one pattern matching any name as whole words (longest
    first); kept per entries object, which the games build once."""
    kept = _PATTERNS.get(id(entries))
    if kept is not None and kept[0] is entries:
        return kept[1], kept[2]
    by_name: dict[str, list[Explanation]] = {}
    for e in entries:
        by_name.setdefault(fold(e.name), []).append(e)
    names = sorted((n for n in by_name if n), key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")(?!\w)") if names else None
    if len(_PATTERNS) > 64:
        _PATTERNS.clear()
    _PATTERNS[id(entries)] = (entries, by_name, pattern)
    return by_name, pattern


def named_in(entries: Sequence[Explanation], texts: Iterable[str]) -> list[Explanation]:
    """The entries whose name ``texts`` spell out as whole words (any case, no accents), in
    the order they are first named; a name inside a longer one named at the same place
    counts once ("Great Leader", not also "Leader"). Entries sharing a name all count."""
    by_name, pattern = _names_pattern(entries)
    if pattern is None:
        return []
    found: dict[str, None] = {}
    for text in texts:
        for m in pattern.finditer(fold(text)):
            found.setdefault(m.group(1))
    return [e for n in found for e in by_name[n]]


def explain_options(entries: Sequence[Explanation], texts: Iterable[str], explained: str = "card") -> str:
    """What "What do these do?" answers for a decision: the entries its options (and its
    prompt) name, rendered; a line saying that none is named otherwise and where the step's
    rule text is (``refusal.RULES_NOW``, which a host words for its adapter; ``explained``:
    what the game's entries are, e.g. ``"card, nation or nation ability"``)."""
    hits = named_in(entries, texts)
    if not hits:
        return f"None of these options names a {explained} of this game; {RULES_NOW}."
    return "\n".join(e.render() for e in hits)


def choices_summary(options: Sequence[str], limit: int = 8) -> str:
    """The options of a decision in one line: all of them when few ("pick Huns, pick Visigoths"),
    else by command word, with how many and the first few of what follows it ("marker (19):
    Rome, Italia, ..., and 13 more; end")."""
    if len(options) <= limit:
        return list_words(options, limit)
    words: dict[str, list[str]] = {}
    for o in options:
        words.setdefault(o.split(" ", 1)[0], []).append(o)
    return "; ".join(
        t[0] if len(t) == 1 else f"{w} ({len(t)}): {list_words([x.split(' ', 1)[-1] for x in t], 5)}"
        for w, t in words.items()
    )


def explain_decision(prompt: str, options: Sequence[str], hits: Sequence[Explanation], explained: str = "card") -> str:
    """What ``explain`` alone answers, in every game: the question asked now, what may be done
    (``choices_summary`` of ``options``), then the text of every entry the options name
    (``hits``, e.g. from ``named_in``) or, when none is named, that none is and where the
    step's rule text is (``refusal.RULES_NOW``)."""
    can = choices_summary(options)
    lines = [f"You are asked: {prompt}", f"What you can do now: {can}." if options else "Nothing to choose now."]
    if hits:
        lines += ["What these options name (explain <name> for anything else):", *(e.render() for e in hits)]
    else:
        lines.append(f"None of these options names a {explained} of this game; {RULES_NOW}.")
    return "\n".join(lines)
