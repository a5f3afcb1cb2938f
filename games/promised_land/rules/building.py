"""Kingdom building: attack, build a city or temple, stack, move the Ark (RULINGS R10), play a
Kingdom-building Artefact, and Unused Units exchanged for coins.

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from typing import Any

from ..model import (
    Attack,
    Build,
    EndBuilding,
    MoveArk,
    PlayArtefact,
    Stack,
)
from ..queries import ACTIONS
from .actions import after_action
from .artefacts import play
from .coins import gain
from .combat import declare_attack
from .context import _Ctx


def apply_building(game: Any, ctx: _Ctx, a: Any) -> None:
    """Kingdom building: an attack, a building, a stack, the Ark's move, an Artefact, or the
    end of the phase; any action but a renewed attack on the land just failed against ends
    a continued attack (Continued Attacks)."""
    t = ctx.s.turn
    assert t is not None
    if not (isinstance(a, Attack) and game.idx[a.land] == t.last_failed):
        ctx.set_turn(last_failed=None, continued=0)
    if isinstance(a, Attack):
        declare_attack(game, ctx, a)
    elif isinstance(a, Build):
        build(game, ctx, a)
    elif isinstance(a, Stack):
        stack(game, ctx, a)
    elif isinstance(a, MoveArk):
        move_ark(game, ctx, a)
    elif isinstance(a, PlayArtefact):
        play(game, ctx, a)
    else:
        end_building(game, ctx, a)


def stack(game: Any, ctx: _Ctx, a: Stack) -> None:
    """Stack a second unit in a land of the kingdom (Kingdom building: Stack)."""
    t = ctx.s.turn
    assert t is not None
    i = game.idx[a.land]
    ctx.set_land(i, units=2)
    ctx.set_turn(units=t.units - 1)
    ctx.note(f"The {game.kingdom(t.kingdom).name} stack a unit in {game.land_name(i)}.")


def build(game: Any, ctx: _Ctx, a: Build) -> None:
    """Build a city (1 unit) or a temple (2 units, in a city); Masons: 2 cities for 1 unit, a
    temple for 1 unit (Kingdom building)."""
    t = ctx.s.turn
    assert t is not None
    i = game.idx[a.land]
    k = game.kingdom(t.kingdom)
    if a.what == "city":
        cost = game.city_cost(t)
        credit = 0
        if "masons" in t.effects:
            credit = 0 if t.mason_credit else 1
        ctx.set_land(i, city=True)
        ctx.update(cities=ctx.s.cities - 1)
        ctx.set_turn(units=t.units - cost, built_cities=t.built_cities + 1, mason_credit=credit)
    else:
        cost = game.temple_cost(t)
        ctx.set_land(i, temple=True)
        ctx.update(temples=ctx.s.temples - 1)
        ctx.set_turn(units=t.units - cost, built_temples=t.built_temples + 1)
    ctx.supply_add(k.counters, cost)
    ctx.note(
        f"The {k.name} build a {a.what} in {game.land_name(i)} ({cost} unit{'s' if cost != 1 else ''})."
    )


def move_ark(game: Any, ctx: _Ctx, a: MoveArk) -> None:
    """Move the Ark within the kingdom's portion, with the Priests there (the mover's own only if
    it chooses; RULINGS R10)."""
    s = ctx.s
    t = s.turn
    assert t is not None
    j = game.idx[a.land]
    moved = []
    pats = []
    for p in s.patriarchs:
        if p.land == s.ark and p.type == "priest" and (p.seat != t.seat or a.priest):
            pats.append(p.model_copy(update={"land": j}))
            moved.append(p.seat)
        else:
            pats.append(p)
    frm = game.land_name(s.ark)
    ctx.update(ark=j, patriarchs=tuple(pats))
    ctx.set_turn(ark_moved=True)
    with_ = f" with the Priest of seat {moved[0] + 1}" if moved else ""
    ctx.note(f"The Ark moves from {frm} to {game.land_name(j)}{with_}.")


def end_building(game: Any, ctx: _Ctx, a: EndBuilding) -> None:
    """Unused Units: exchanged 1:1 for coins; the half-space unit is removed."""
    t = ctx.s.turn
    assert t is not None
    k = game.kingdom(t.kingdom)
    ctx.supply_add(k.counters, t.units)
    if sum(a.coins):
        gain(game, ctx, t.seat, a.coins, "unused units")
    team = game.team_size(ctx.s, t.seat)
    free = 1 if game.has_royal(ctx.s, t.seat, "justice") else 0
    ctx.set_turn(
        units=0,
        shortfall=0,
        half=False,
        phase="actions",
        actions=ACTIONS[team],
        free_places=t.free_places + free,
    )
    ctx.note(f"Seat {t.seat + 1}: Actions.")
    after_action(game, ctx)
