"""Remembering the answer for the last state asked about.

States are frozen models, so the same state object always has the same legal actions
and the same notation for them. Reading one typed action asks for those lists again
(to resolve a cut-short action, to name what is legal), and a step reads several
actions against the same state; remembering the last answer makes that one computation.

``counts`` tells, for each remembered function, how often it was asked and how often
it had to compute (``bench/fuzz.py --split`` prints them per step of the fuzz).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_asked: Counter[str] = Counter()
_computed: Counter[str] = Counter()


def last_state(fn: F) -> F:
    """Decorate ``fn(owner, state, *args)`` (a method, or a function of the game and a
    state) to remember its answer for the last call, matched by the identity of
    ``owner`` and ``state`` and the equality of the other arguments. A list answer is
    kept as a tuple and handed out as a fresh list each time, so a caller may change
    its copy. Only for functions of the state alone (no randomness, no outside data)."""
    last: list[Any] = [None]
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def wrapper(owner: Any, s: Any, *args: Any) -> Any:
        _asked[name] += 1
        m = last[0]
        if m is not None and m[0] is owner and m[1] is s and m[2] == args:
            out = m[3]
        else:
            _computed[name] += 1
            out = fn(owner, s, *args)
            if isinstance(out, list):
                out = tuple(out)
                last[0] = (owner, s, args, out, True)
            else:
                last[0] = (owner, s, args, out, False)
            m = last[0]
        return list(out) if m[4] else out

    return wrapper  # type: ignore[return-value]


def counts() -> dict[str, tuple[int, int]]:
    """Each remembered function (``module.qualname``) that was asked since the last
    ``reset_counts``: (times asked, times computed)."""
    return {name: (n, _computed[name]) for name, n in sorted(_asked.items())}


def reset_counts() -> None:
    """Start counting afresh."""
    _asked.clear()
    _computed.clear()


_views: list[Any] = [None, None, {}]  # [game, state, {viewer: view}]: the last state's views


def view(game: Any, s: Any, viewer: Any) -> Any:
    """``game.view(s, viewer)``, remembered for the last state asked about (matched by the
    identity of ``game`` and ``s``; views are frozen models, shared by their askers). The
    reveals check builds the views of an action's resulting state for its player, the
    spectators and (its second round) every seat, and the host's reply shows that same
    state to the same viewers: one computation each."""
    if _views[0] is not game or _views[1] is not s:
        _views[:] = [game, s, {}]
    views = _views[2]
    if viewer not in views:
        views[viewer] = game.view(s, viewer)
    return views[viewer]
