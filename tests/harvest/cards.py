"""The effect of every Harvest card, by card id (``data/cards.toml``; games.core.effects)."""

from __future__ import annotations

from typing import Any

from games.core.base import ApplyContext
from games.core.effects import Effects
from games.core.model import Seat

from .model import Said

effect: Effects[Any] = Effects("harvest")
"""Card id -> ``effect(game, ctx, seat)``; tests/games/core/test_card_effects.py holds it to the data."""


def gain(ctx: ApplyContext, seat: Seat, n: int) -> None:
    """``seat`` gains ``n`` grain (``n`` < 0: loses it)."""
    grain = list(ctx.s.grain)
    grain[seat] += n
    ctx.update(grain=tuple(grain))


def draw(ctx: ApplyContext, seat: Seat, n: int) -> None:
    """``seat`` draws ``n`` cards, seen by it alone; the discards are shuffled into a new
    deck when the deck runs out (rule 2). Draws fewer when no card is left anywhere."""
    for _ in range(n):
        if not ctx.s.deck:
            if not ctx.s.discard:
                return
            ctx.update(deck=ctx.rng.shuffle(ctx.s.discard), discard=())
            ctx.emit(Said(text="The discards are shuffled into a new deck."))
        card, deck = ctx.s.deck[0], ctx.s.deck[1:]
        hands = list(ctx.s.hands)
        hands[seat] = tuple(sorted((*hands[seat], card)))
        ctx.update(deck=deck, hands=tuple(hands))
        ctx.emit(Said(text=f"You draw a {card.title()}.", visible_to=(seat,)))


@effect("harvest")
def harvest(game: Any, ctx: ApplyContext, seat: Seat) -> None:
    """Harvest: "Gain 2 grain." """
    gain(ctx, seat, 2)


@effect("feast")
def feast(game: Any, ctx: ApplyContext, seat: Seat) -> None:
    """Feast: "Gain 1 grain and draw 1 card." """
    gain(ctx, seat, 1)
    draw(ctx, seat, 1)


@effect("raid")
def raid(game: Any, ctx: ApplyContext, seat: Seat) -> None:
    """Raid: opens the next seat's answer (rule 4); the grain moves when it passes."""
    ctx.update(raid=seat)


@effect("shield")
def shield(game: Any, ctx: ApplyContext, seat: Seat) -> None:
    """Shield: "the Raid takes nothing" - the Raid being answered ends."""
    ctx.update(raid=None)
    ctx.emit(Said(text=f"{game.seat_label(ctx.s, seat).capitalize()} blocks the Raid with a Shield."))
