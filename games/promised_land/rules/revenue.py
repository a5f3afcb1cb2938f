"""Collect Revenue and Buy Artefact, the last two phases of a Player Turn.

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from typing import Any

from ..model import Buy, OwnedArtefact
from ..queries import coin_vec
from .coins import gain, pay
from .context import _Ctx
from .time import end_turn


def collect_revenue(game: Any, ctx: _Ctx) -> None:
    """Collect Revenue, then Buy Artefact (the turn ends at once when nothing can be bought)."""
    t = ctx.s.turn
    assert t is not None
    rev = game.revenue(ctx.s, t.seat, t.effects)
    gain(game, ctx, t.seat, rev, "revenue")
    ctx.set_turn(phase="buy")
    if not game.buys(ctx.s):
        end_turn(game, ctx)


def buy(game: Any, ctx: _Ctx, a: Buy) -> None:
    """Buy Artefact: pay its cost, take it from the array; the turn ends when no more can be bought."""
    t = ctx.s.turn
    assert t is not None
    art = game.data.artefacts[a.artefact]
    pay(game, ctx, t.seat, coin_vec(art.coin, art.cost), f"bought {art.display}")
    arr = list(ctx.s.array)
    arr.remove(a.artefact)
    p = ctx.s.players[t.seat]
    ctx.update(array=tuple(arr))
    ctx.set_player(t.seat, artefacts=(*p.artefacts, OwnedArtefact(id=a.artefact)))
    ctx.set_turn(buys=t.buys + 1)
    ctx.note(f"Seat {t.seat + 1} buys {art.display}.")
    if not game.buys(ctx.s):
        end_turn(game, ctx)

