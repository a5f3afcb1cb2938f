"""The Actions phase: Place Patriarch, advance on the Royal and Kingdom tracks, collect coin;
the phase ends by itself when nothing is left to do in it.

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from typing import Any

from games.core.english import count

from ..model import AdvanceRoyal, CollectCoin, Patriarch, PlacePatriarch
from ..queries import coin_vec
from .coins import gain, pay
from .context import _Ctx
from .revenue import collect_revenue


def place(game: Any, ctx: _Ctx, a: PlacePatriarch) -> None:
    """Place Patriarch: from the supply or moved from the map into a land of the active kingdom
    (a free placement first, else an action)."""
    s = ctx.s
    t = s.turn
    assert t is not None
    i = game.idx[a.land]
    pats = list(s.patriarchs)
    if a.source is not None:
        src = game.idx[a.source]
        pats.remove(Patriarch(seat=t.seat, type=a.type, land=src))
    pats.append(Patriarch(seat=t.seat, type=a.type, land=i))
    ctx.update(patriarchs=tuple(pats))
    if t.free_places:
        ctx.set_turn(free_places=t.free_places - 1)
    else:
        ctx.set_turn(actions=t.actions - 1)
    frm = f" from {a.source and game.land_name(game.idx[a.source])}" if a.source else ""
    ctx.note(f"Seat {t.seat + 1} places a {a.type.title()} in {game.land_name(i)}{frm}.")
    after_action(game, ctx)


def advance_royal(game: Any, ctx: _Ctx, a: AdvanceRoyal) -> None:
    """Advance on the Royal track, paying the token's cost (Royal Track Tokens; Justice adds
    a free placement)."""
    t = ctx.s.turn
    assert t is not None
    p = ctx.s.players[t.seat]
    tok = game.data.royal_token[ctx.s.royal_track[p.royal]]
    pay(game, ctx, t.seat, a.pay, f"Royal track: {tok.name}")
    ctx.set_player(t.seat, royal=p.royal + 1)
    extra = 1 if tok.id == "justice" else 0
    ctx.set_turn(actions=t.actions - 1, free_places=t.free_places + extra)
    ctx.note(f"Seat {t.seat + 1} advances on the Royal track to {tok.name} ({count(tok.points, 'point')}).")
    after_action(game, ctx)


def advance_kingdom(game: Any, ctx: _Ctx) -> None:
    """Advance on the Kingdom track, using up what the kingdom achieved this turn (Kingdom
    Track Tokens)."""
    t = ctx.s.turn
    assert t is not None
    p = ctx.s.players[t.seat]
    tok_id = ctx.s.kingdom_track[p.kingdom]
    use = game.demand_met(ctx.s, tok_id)
    assert use is not None
    used = dict(t.used)
    for key, n in use.items():
        used[key] = used.get(key, 0) + n
    ctx.set_player(t.seat, kingdom=p.kingdom + 1)
    ctx.set_turn(actions=t.actions - 1, used=tuple(sorted(used.items())))
    tok = game.data.kingdom_token[tok_id]
    ctx.note(f"Seat {t.seat + 1} advances on the Kingdom track: {tok.text} ({count(tok.points, 'point')}).")
    after_action(game, ctx)


def after_action(game: Any, ctx: _Ctx) -> None:
    """Leave the Actions phase by itself when nothing is left to do in it."""
    t = ctx.s.turn
    assert t is not None
    if t.phase != "actions":
        return
    if t.actions == 0 and t.free_places == 0 and not game.plays(ctx.s, "A"):
        to_revenue(game, ctx)


def to_revenue(game: Any, ctx: _Ctx) -> None:
    """The Actions phase ends: to Collect Revenue, collected at once when no Artefact may be
    played first."""
    ctx.set_turn(phase="revenue", actions=0, free_places=0)
    if not game.plays(ctx.s, "CR"):
        collect_revenue(game, ctx)


def collect(game: Any, ctx: _Ctx, a: CollectCoin) -> None:
    """Collect coin: one coin of a metal (two with the Treasury Royal token)."""
    t = ctx.s.turn
    assert t is not None
    for c in a.coins:
        gain(game, ctx, t.seat, coin_vec(c), "Collect coin")
    ctx.set_turn(actions=ctx.s.turn.actions - 1)  # type: ignore[union-attr]
    after_action(game, ctx)
