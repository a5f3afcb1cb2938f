"""The registry of Credo's Event card effects (games.core.effects): every Event card of the
data (data/events.toml) has exactly one effect, found by its card id. The data names the
rule that resolves each card (its ``effect``); a function is registered for every card
naming that rule (:func:`resolves`)."""

from __future__ import annotations

from typing import Any

from games.core.effects import Effects

from ..data import load

effect: Effects[Any] = Effects("credo")


def cards_of(rule: str) -> tuple[str, ...]:
    """The ids of the Event cards whose data names ``rule`` as their effect."""
    return tuple(e.id for e in load().events.values() if e.effect == rule)


def resolves(*rules: str) -> Any:
    """Register the decorated function as the effect of every Event card resolved by one of
    ``rules`` (the data's ``effect`` names). Raises ValueError, through the registry, for a
    rule no card names or a card given two effects."""
    return effect(*(card for rule in rules for card in cards_of(rule)))
