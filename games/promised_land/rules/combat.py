"""Attacking, Force Victory, a Treaty played against an attack (RULINGS R18), conquest and
Retreating Patriarchs.

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.english import count

from ..model import Attack, Attacked, Combat, Pass, Patriarch, PendingAttack, PlayArtefact, Retreat, RetreatTo
from ..queries import MAX_CONTINUED
from .context import _Ctx, effect


def conquer(game: Any, ctx: _Ctx, land: int, keep_buildings: bool = False) -> None:
    """The active kingdom takes ``land`` with one unit: defenders back to their supply,
    a city and temple removed (unless kept), Patriarchs retreat."""
    s = ctx.s
    t = s.turn
    assert t is not None
    k = game.kingdom(t.kingdom)
    x = s.lands[land]
    if x.counters is not None and x.units:
        ctx.supply_add(x.counters, x.units)
    city, temple = x.city, x.temple
    if not keep_buildings:
        if x.city:
            ctx.update(cities=ctx.s.cities + 1)
            ctx.set_turn(destroyed_cities=ctx.s.turn.destroyed_cities + 1)  # type: ignore[union-attr]
            city = False
        if x.temple:
            ctx.update(temples=ctx.s.temples + 1)
            ctx.set_turn(destroyed_temples=ctx.s.turn.destroyed_temples + 1)  # type: ignore[union-attr]
            temple = False
    ctx.set_land(land, counters=k.counters, units=1, city=city, temple=temple)
    # Retreating Patriarchs
    leaving = [p for p in ctx.s.patriarchs if p.land == land]
    if leaving and x.counters is not None:
        ctx.update(patriarchs=tuple(p for p in ctx.s.patriarchs if p.land != land))
        pending = [Retreat(seat=p.seat, type=p.type, land=land, counters=x.counters) for p in leaving]
        ctx.set_turn(retreats=ctx.s.turn.retreats + tuple(pending))  # type: ignore[union-attr]


def settle_retreats(game: Any, ctx: _Ctx) -> None:
    """Patriarchs with nowhere to retreat go back to their owner's supply at once."""
    t = ctx.s.turn
    assert t is not None
    left = list(t.retreats)
    while left and not game.retreat_options(ctx.s, left[0]):
        r = left.pop(0)
        ctx.note(
            f"Seat {r.seat + 1}'s {r.type.title()} cannot retreat from {game.land_name(r.land)}: back to the supply."
        )
    ctx.set_turn(retreats=tuple(left))


def apply_retreat(game: Any, ctx: _Ctx, a: RetreatTo) -> None:
    """Retreating Patriarchs: the first one waiting retreats to the land chosen or to the supply."""
    t = ctx.s.turn
    assert t is not None
    r = t.retreats[0]
    if a.land is None:
        ctx.note(f"Seat {r.seat + 1}'s {r.type.title()} goes back to the supply.")
    else:
        j = game.idx[a.land]
        ctx.update(patriarchs=(*ctx.s.patriarchs, Patriarch(seat=r.seat, type=r.type, land=j)))
        ctx.note(
            f"Seat {r.seat + 1}'s {r.type.title()} retreats from {game.land_name(r.land)} to {game.land_name(j)}."
        )
    ctx.set_turn(retreats=t.retreats[1:])
    settle_retreats(game, ctx)


def declare_attack(game: Any, ctx: _Ctx, a: Attack) -> None:
    """An attack on a land holding Patriarchs of players with a face-up Treaty waits for
    them to play it or pass (Playing Artefacts: Treaty; RULINGS R18)."""
    t = ctx.s.turn
    assert t is not None
    j = game.idx[a.land]
    owners = sorted({p.seat for p in ctx.s.patriarchs if p.land == j and p.seat != t.seat})
    waiting = tuple(x for x in owners if game.treaties(ctx.s, x))
    if not waiting:
        resolve_attack(game, ctx, a)
        return
    ctx.set_turn(pending=PendingAttack(land=j, force=a.force, waiting=waiting))
    who = ", ".join(f"seat {x + 1}" for x in waiting)
    ctx.note(f"The {game.kingdom(t.kingdom).name} attack {game.land_name(j)}; {who} may play Treaty.")


def apply_treaty(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """A Treaty played against the pending attack makes it fail (the unit is lost); a pass lets
    it go ahead once every player asked has passed (RULINGS R18)."""
    t = ctx.s.turn
    assert t is not None and t.pending is not None
    pending = t.pending
    attack = Attack(land=game.data.lands[pending.land].id, force=pending.force)
    if isinstance(a, Pass):
        left = tuple(x for x in pending.waiting if x != seat)
        ctx.set_turn(pending=pending.model_copy(update={"waiting": left}))
        ctx.note(f"Seat {seat + 1} lets the attack go ahead.")
        if not left:
            ctx.set_turn(pending=None)
            resolve_attack(game, ctx, attack)
        return
    ctx.turn_face_down(seat, a.artefact)
    effect[game.data.artefacts[a.artefact].kind](game, ctx, seat, a)


@effect("treaty")
def treaty(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Treaty, played against the pending attack on a land holding ``seat``'s Patriarch: the
    attack fails and its unit goes back to the supply (RULINGS R18)."""
    t = ctx.s.turn
    assert t is not None and t.pending is not None
    pending = t.pending
    k = game.kingdom(t.kingdom)
    ctx.supply_add(k.counters, 1)
    ctx.set_turn(pending=None, units=t.units - 1, last_failed=None, continued=0)
    combat = Combat(
        kingdom=k.id,
        land=game.data.lands[pending.land].id,
        method="treaty",
        won=False,
        text=f"Seat {seat + 1} plays Treaty: the {k.name} attack on {game.land_name(pending.land)} fails.",
    )
    ctx.update(last_combat=combat)
    ctx.emit(Attacked(combat=combat))


def resolve_attack(game: Any, ctx: _Ctx, a: Attack) -> None:
    """Attacking and Force Victory."""
    s = ctx.s
    t = s.turn
    assert t is not None
    j = game.idx[a.land]
    k = game.kingdom(t.kingdom)
    name = game.land_name(j)
    defence = game.defence(s, j)
    dice = game.attack_dice(s, j)
    effects = tuple(e for e in t.effects if e != "treachery")
    if a.force:
        halves = game.force_halves(s, j)
        assert halves is not None
        units, half = game.units_for_halves(t.half, halves)
        ctx.supply_add(k.counters, units)  # the extra units spent go back to the supply
        ctx.set_turn(units=t.units - 1 - units, half=half, effects=effects)
        extra = {0: "", 1: ", spending an extra half unit", 2: ", spending an extra unit"}.get(
            halves, f", spending {halves / 2:g} extra units"
        )
        conquer(game, ctx, j)
        combat = Combat(
            kingdom=k.id,
            land=a.land,
            method="force",
            defence=defence,
            text=f"The {k.name} force victory in {name} ({count(dice, 'die', 'dice')}, defence {defence:+d}){extra}.",
        )
        ctx.update(last_combat=combat)
        ctx.emit(Attacked(combat=combat))
        settle_retreats(game, ctx)
        return
    rolls = ctx.rng.dice(dice)
    droll = ctx.rng.die()
    bonus = t.continued if t.last_failed == j else 0
    attack = max(rolls) + bonus
    dtotal = droll + defence
    won = dtotal < attack
    ctx.set_turn(units=t.units - 1, effects=effects)
    detail = (
        f"rolled {', '.join(map(str, rolls))}"
        + (f" +{bonus} continued" if bonus else "")
        + f" = {attack} against {droll}{defence:+d} = {dtotal}"
    )
    if won:
        conquer(game, ctx, j)
        ctx.set_turn(last_failed=None, continued=0)
        text_ = f"The {k.name} conquer {name}: {detail}."
    else:
        ctx.supply_add(k.counters, 1)
        ctx.set_turn(last_failed=j, continued=min(MAX_CONTINUED, bonus + 1))
        text_ = f"The {k.name} attack on {name} fails: {detail}."
    combat = Combat(
        kingdom=k.id,
        land=a.land,
        method="dice",
        dice=rolls,
        attack=attack,
        defence_roll=droll,
        defence=defence,
        won=won,
        text=text_,
    )
    ctx.update(last_combat=combat)
    ctx.emit(Attacked(combat=combat))
    settle_retreats(game, ctx)
