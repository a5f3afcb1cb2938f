"""Harvest's notation: ``gather``, ``play <card>``, ``block``, ``pass`` (any case, a card's
name or an unambiguous prefix of it). Imports the model and data only."""

from __future__ import annotations

from typing import Any

from games.core.errors import InvalidNotationError
from games.core.notation import completions, fold, match_name, unique_prefix, unknown_command
from games.core.refusal import asked

from . import data
from .model import ACTION, Play

VERBS = ("gather", "play", "block", "pass")


def format_action(game: Any, s: Any, a: Any) -> str:
    """``a`` as typed: ``play Harvest`` or its verb."""
    return f"play {data.cards()[a.card].name}" if isinstance(a, Play) else a.kind


def parse(game: Any, s: Any, seat: int, text: str) -> Any:
    """The action ``text`` names. Raises GameOverError or NotYourTurnError (not asked),
    InvalidNotationError (no action of the game) or AmbiguousActionError (a card prefix)."""
    game.require_turn(s, seat)
    legal = {format_action(game, s, a): a for a in game.legal_actions(s, seat)}
    hit = unique_prefix(text, legal)
    if hit is not None:
        return legal[hit]
    words = text.split()
    if not words:
        raise InvalidNotationError("Type an action: " + ", ".join(legal) + ".")
    verb = fold(words[0])
    if verb == "play":
        if len(words) < 2:
            raise InvalidNotationError("Say which card to play, e.g. 'play Harvest'.")
        names = {c.name: c.id for c in data.cards().values()}
        return Play(card=match_name(" ".join(words[1:]), names, "card"))
    if verb in VERBS and len(words) == 1:
        return ACTION.validate_python({"kind": verb})
    raise unknown_command(text, [t.split()[0] for t in legal], VERBS, asked(game, s, seat))


def complete(game: Any, s: Any, seat: int, prefix: str) -> list[str]:
    """The legal actions in notation that ``prefix`` starts."""
    return completions([format_action(game, s, a) for a in game.legal_actions(s, seat)], prefix)
