"""Credo's Event cards in the effect registries (games.core.effects; rule text: Event Cards):
every Event card has exactly one effect, and every card played from hand (timing "any")
exactly one function saying when it may be played; the cards played when drawn have none."""

from __future__ import annotations

from games.credo.game import GAME
from games.credo.rules.effects import effect, playable


def test_every_event_card_has_exactly_one_effect() -> None:
    """Event Cards: each card's text is carried out by one function, found by its id."""
    assert effect.check(GAME.data.events) == ([], [])


def test_every_card_played_from_hand_says_when_it_may_be_played() -> None:
    """Event Cards: "can be played at any time" (with the card's own condition); the Play
    Immediately cards are played when drawn (The Game), so they have no such function."""
    from_hand = {c for c, e in GAME.data.events.items() if e.timing == "any"}
    drawn = set(GAME.data.events) - from_hand
    assert from_hand and drawn
    assert playable.check(from_hand) == ([], [])
    assert not any(playable.get(c) for c in drawn)


def test_cards_sharing_a_rule_share_one_function() -> None:
    """The Proselytism cards are one rule of the data: one function serves them all."""
    ids = [c for c, e in GAME.data.events.items() if e.name == "Proselytism"]
    assert len(ids) >= 2
    assert len({effect[c] for c in ids}) == 1 and len({playable[c] for c in ids}) == 1
