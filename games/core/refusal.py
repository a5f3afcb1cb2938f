"""Refusals that say why: the wording every game uses when a readable action is not legal now.

A refusal names its cause. When the kind of action is not asked at all (``attack`` during
the Event Phase), the cause is the step the game is at: the refusal quotes the question
asked now, whose rule text the "Rules for this step" button (``rules now`` in the terminal,
whose host rewords ``RULES_NOW`` through its adapter's ``rules_now_hint``) quotes. When
the kind is asked but not with what was typed (a card not held, a land not offered), the
refusal names the part that is not among the choices and quotes the question. A game
that knows a more precise cause (a land occupied, no coins) says that instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .errors import list_words
from .notation import fold


def asked(game: Any, state: Any, seat: int) -> str:
    """The text of the question ``seat`` is asked now ("" when it is not asked)."""
    prompt = game.to_act(state).get(seat)
    return prompt.text if prompt is not None else ""


RULES_NOW = "“Rules for this step” gives its rule text"
"""Where a player finds the rule text of the step asked now, worded for Discord (the button's
name); a host replaces it with its adapter's wording (the terminal: type `rules now`)."""


def step_clause(prompt: str) -> str:
    """"the question now is “<prompt>”; “Rules for this step” gives its rule text" (one clause,
    no brackets, so a refusal can put it in its own)."""
    prompt = prompt.strip().rstrip(".")
    return f"the question now is “{prompt}”; {RULES_NOW}" if prompt else RULES_NOW


def not_now(verb: str, prompt: str, legal: str) -> str:
    """The refusal of a kind of action not asked at this step: ``'attack' is not possible now:
    the question now is “…” (…); legal now: …`` (``legal`` the "legal now: ..." tail, with its
    own wording and full stop)."""
    return f"{verb!r} is not possible now: {step_clause(prompt)}; {legal}"


def cannot(game: Any, state: Any, seat: int, verb: str, legal: str, prompt: str | None = None) -> str:
    """The refusal of ``verb`` for ``seat`` now: the game's own reason when it has one (its
    ``why_not(state, seat, verb)``, or the ``"<verb>: <why>"`` line of its
    ``not_offered(state, seat)`` (games.core.base.GameDefaults), naming the rule), else the step asked now
    (``prompt``, by default the seat's question); ``legal`` the tail listing what is legal."""
    reason = game.why_not(state, seat, verb)
    if not reason:
        lines = game.not_offered(state, seat)
        reason = next((line.split(": ", 1)[1] for line in lines if line.startswith(f"{verb}: ")), None)
    if reason:
        return f"{verb!r} is not possible now: {reason}; {legal}"
    return not_now(verb, asked(game, state, seat) if prompt is None else prompt, legal)


def missing_part(typed: str, options: Sequence[str]) -> str:
    """What ``typed`` names after its command word when some of its words are in no option
    (as typed); "" when every word is found in some option."""
    have = {w for o in options for w in fold(o).replace(",", " ").split()}
    words = typed.replace(",", " ").split()[1:]
    if all(fold(w) in have for w in words):
        return ""
    return typed.strip().split(None, 1)[1] if len(typed.split()) > 1 else ""


def not_this(typed: str, prompt: str, options: Sequence[str], *, limit: int = 10) -> str:
    """The refusal of an action of a kind asked now but not with what was typed:
    ``'pick 75,000 Followers' is not legal now: 75,000 is not among the choices (the
    question now is “…”); you may: …``; words each offered but not together are named whole
    ("Article 3 Orthodox is not among the choices")."""
    rest = typed.strip().split(None, 1)[1] if len(typed.split()) > 1 else ""
    part = missing_part(typed, options) or rest  # each word is offered, but not together: name the whole
    what = f"{part} is not among the choices" if part else "that is not among the choices"
    return f"{typed.strip()!r} is not legal now: {what}; {step_clause(prompt)}; you may: {list_words(options, limit)}."


def is_bare(message: str) -> bool:
    """Whether a refusal gives no cause: "… is not legal now;", "You cannot … now." or
    "That is not allowed now;" with nothing between "now" and the list of what is legal."""
    return bool(re.search(r"(not legal|not allowed|not possible|cannot [\w' ]{1,30}?) now\s*[;.]", message))
