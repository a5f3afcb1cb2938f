"""Conservation invariants: every game's components stay where the rules can find them.

Each game registers one function, next to the game (``games/<game>/invariants.py``),
that takes a State and returns the list of violations found (empty when the state is
sound): every card in exactly one place (deck, discard, hands, committed, in play, out
of the game), and units, coins, votes and dice likewise, counted from the rule text's
component lists. The fuzz (``games.core.fuzz``) and the conformance playouts run it
after every step.

``ledger`` does the bookkeeping for the common case: a fixed set of components (a
multiset of ids) and the places that hold them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Check = Callable[[Any, Any], list[str]]
"""(game, state) -> violations, each a sentence naming the component and its places."""

_CHECKS: dict[str, Check] = {}


def register_invariants(game_id: str, check: Check) -> None:
    """Register the conservation check of a game (called by the game package)."""
    _CHECKS[game_id] = check


def invariants_of(game_id: str) -> Check | None:
    """The registered check of ``game_id``, or None."""
    return _CHECKS.get(game_id)


def check_invariants(game: Any, s: Any) -> list[str]:
    """The violations of ``game``'s conservation invariants in ``s`` (empty when sound,
    or when the game registered no check)."""
    check = _CHECKS.get(game.id)
    return check(game, s) if check is not None else []


def ledger(what: str, components: Iterable[str], places: Mapping[str, Iterable[str]]) -> list[str]:
    """Check that the multiset ``components`` is held exactly by ``places`` together.

    ``what`` names the kind ("card", "Power Card"); ``places`` maps a place's name to
    the ids it holds (an id may repeat when the game has several copies). Returns one
    sentence per id that is missing, held too often (with every place holding it), or
    unknown.
    """
    expected = Counter(iter(components))  # a mapping counts its keys once each
    held: Counter[str] = Counter()
    for ids in places.values():
        held.update(ids)
    if dict.__eq__(held, expected):  # no zero counts in either; the usual case: nothing more to do
        return []
    where: dict[str, list[str]] = {}
    for place, ids in places.items():
        for c in ids:
            where.setdefault(c, []).append(place)
    problems = []
    for c in sorted(set(expected) | set(held)):
        want, got = expected.get(c, 0), held.get(c, 0)
        if want == got:
            continue
        if want == 0:
            problems.append(f"unknown {what} {c!r} in {', '.join(where[c])}")
        elif got < want:
            at = f" (held: {', '.join(where[c])})" if c in where else ""
            problems.append(f"{what} {c!r}: {want - got} of {want} missing{at}")
        else:
            problems.append(f"{what} {c!r}: {got} copies for {want} (in {', '.join(where[c])})")
    return problems


def total(what: str, expected: int, parts: Mapping[str, int]) -> list[str]:
    """Check that the counts in ``parts`` are each non-negative and add up to ``expected``."""
    problems = [f"{what}: {place} holds {n}" for place, n in parts.items() if n < 0]
    got = sum(parts.values())
    if got != expected:
        detail = ", ".join(f"{place} {n}" for place, n in parts.items() if n)
        problems.append(f"{what}: {got} in all, not {expected} ({detail or 'none anywhere'})")
    return problems
