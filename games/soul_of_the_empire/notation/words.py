"""The command words of Soul of the Empire's notation and their prefixes."""

from __future__ import annotations

from collections.abc import Callable

from games.core import AmbiguousActionError
from games.core.errors import list_words
from games.core.notation import fold, shorten

FACTION_WORDS = {
    "Rome": "rome",
    "Roman": "rome",
    "Jewish": "jews",
    "Jews": "jews",
    "Coalition": "coalition",
    "Christian": "christians",
    "Christians": "christians",
    "Gray": "gray",
    "Grey": "gray",
}


# The command words, in the order their prefixes are listed when one is ambiguous.
VERBS = (
    "attack",
    "block",
    "buy",
    "claim",
    "commit",
    "conscript",
    "convert",
    "crucify",
    "discard",
    "done",
    "elder",
    "end",
    "exploit",
    "finish",
    "give",
    "grace",
    "keep",
    "lower",
    "marker",
    "move",
    "no",
    "none",
    "pass",
    "place",
    "play",
    "rage",
    "raise",
    "rampage",
    "ready",
    "recruit",
    "redirect",
    "regroup",
    "reroll",
    "retrieve",
    "reveal",
    "salvage",
    "score",
    "shift",
    "skip",
    "spread",
    "take",
    "unblock",
)


SAME_AS = {"none": "no", "finish": "done", "skip": "pass"}  # words that mean the same


# the command words whose action list holds only some of the legal choices (RULINGS.md R5, R12, R22)
PARTIAL_LISTS = frozenset({"move", "shift", "redirect", "regroup", "rampage"})


def _verb(word: str, now: Callable[[], set[str]] | None = None) -> str:
    """The command word ``word`` stands for: itself, or the one command word it is an
    unambiguous prefix of (among all, else among those legal ``now``). An unknown word is
    returned folded (the caller reports it).

    Raises AmbiguousActionError listing the command words it could be."""
    key = fold(word)
    if key in VERBS or not key:
        return key
    cands = [v for v in VERBS if v.startswith(key)]
    if len({SAME_AS.get(v, v) for v in cands}) == 1:
        return cands[0]
    if cands and now is not None:
        legal = now()
        fits = [v for v in cands if SAME_AS.get(v, v) in legal]
        if len({SAME_AS.get(v, v) for v in fits}) == 1:
            return fits[0]
        if fits:
            cands = fits
    if cands:
        raise AmbiguousActionError(f"{shorten(word)!r} could be {list_words(cands)}; which one?", cands)
    return key
