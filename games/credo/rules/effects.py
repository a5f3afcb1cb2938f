"""The registries of Credo's Event cards (games.core.effects), by card id: ``effect``, what
every Event card of the data (data/events.toml) does, exactly one function each; and
``playable``, when each card played from hand may be played, with its choices. The data
names the rule that resolves each card (its ``effect``); a function is registered for every
card naming that rule (:func:`resolves`, :func:`playable_when`)."""

from __future__ import annotations

from typing import Any

from games.core.effects import Effects

from ..data import load

effect: Effects[Any] = Effects("credo")
"""What each Event card does when played (rules/events.py, rules/events_empire.py)."""

playable: Effects[Any] = Effects("credo")
"""When each Event card played from hand may be played, and its choices (rules/playable.py)."""


def cards_of(rule: str, from_hand: bool = False) -> tuple[str, ...]:
    """The ids of the Event cards whose data names ``rule`` as their effect; with
    ``from_hand``, only those played from hand (timing "any", not Play Immediately)."""
    return tuple(
        e.id for e in load().events.values() if e.effect == rule and (not from_hand or e.timing == "any")
    )


def resolves(*rules: str) -> Any:
    """Register the decorated function as the effect of every Event card resolved by one of
    ``rules`` (the data's ``effect`` names). Raises ValueError, through the registry, for a
    rule no card names or a card given two effects."""
    return effect(*(card for rule in rules for card in cards_of(rule)))


def playable_when(*rules: str) -> Any:
    """Register the decorated function as the conditions and choices of every Event card
    played from hand that one of ``rules`` (the data's ``effect`` names) resolves."""
    return playable(*(card for rule in rules for card in cards_of(rule, from_hand=True)))
