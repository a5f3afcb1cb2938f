"""Helpers for Barbarian Hordes rules tests: build states directly, script the dice."""

from __future__ import annotations

from collections.abc import Sequence

from games.barbarian_hordes.game import GAME
from games.barbarian_hordes.model import PlayerState, State
from games.core import Rng


class Dice(Rng):
    """An Rng whose die rolls come from a script (in order); shuffles keep order.

    Raises AssertionError when the rules roll more dice than scripted.
    """

    def __init__(self, *rolls: int) -> None:
        super().__init__(0, 0)
        self.rolls = list(rolls)

    def die(self, sides: int = 6) -> int:
        assert self.rolls, "the rules rolled more dice than the test scripted"
        value = self.rolls.pop(0)
        assert 1 <= value <= sides, f"scripted {value} on a {sides}-sided die"
        return value

    def shuffle(self, items):
        return tuple(items)


def nation_id(name: str) -> str:
    return next(
        n.id
        for n in list(GAME.data.nations.values()) + list(GAME.data.variant_nations.values())
        if n.name == name
    )


def card_id(name: str) -> str:
    matches = [c.id for c in GAME.data.cards.values() if c.display == name or c.id == name]
    assert len(matches) == 1, name
    return matches[0]


def make_state(
    nations: Sequence[str],
    *,
    armies: Sequence[int] | None = None,
    territories: Sequence[int] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    phase: str = "event",
    active: int = 0,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    conquests_left: int = 1,
    variant: str = "standard",
    wins: Sequence[int] | None = None,
) -> State:
    """A state with seats 0..n-1 seated clockwise in seat order and in turn order,
    ``active`` to act in ``phase``. Cards and nations by display name."""
    n = len(nations)
    hands = hands or [[] for _ in range(n)]
    used = {card_id(c) for h in hands for c in h} | {card_id(c) for c in discard}
    if deck is None:
        deck_ids = tuple(c for c in GAME.data.cards if c not in used)
    else:
        deck_ids = tuple(card_id(c) for c in deck)
    players = tuple(
        PlayerState(
            nation=nation_id(nations[x]),
            armies=(armies or [10] * n)[x],
            territories=(territories or [5] * n)[x],
            hand=tuple(card_id(c) for c in hands[x]),
            status="in",
            wins=(wins or [0] * n)[x],
        )
        for x in range(n)
    )
    return State(
        variant=variant,
        players=players,
        seating=tuple(range(n)),
        turn_order=tuple(range(n)),
        turn=active,
        phase=phase,
        deck=deck_ids,
        discard=tuple(card_id(c) for c in discard),
        nations_played=tuple(p.nation for p in players),
        conquests_left=conquests_left,
    )


def act(s: State, seat: int, text: str, *rolls: int) -> State:
    """Parse ``text`` for ``seat`` and apply it with scripted dice; returns the new state."""
    action = GAME.parse_action(s, seat, text)
    return GAME.apply(s, seat, action, Dice(*rolls)).state


def act_events(s: State, seat: int, text: str, *rolls: int):
    action = GAME.parse_action(s, seat, text)
    return GAME.apply(s, seat, action, Dice(*rolls))


def hand_names(s: State, seat: int) -> list[str]:
    return [GAME.card(c).display for c in s.players[seat].hand]
