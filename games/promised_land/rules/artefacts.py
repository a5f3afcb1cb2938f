"""Playing Artefacts (List of Artefacts): each kind's effect registered by its kind
(``@effect``; the Treaty's, played against an attack, is in rules/combat.py).

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from typing import Any

from games.core import Seat

from ..model import Attacked, Combat, PlayArtefact
from ..queries import coin_vec
from .actions import after_action
from .coins import gain, pay
from .combat import conquer, settle_retreats
from .context import _Ctx, effect


def play(game: Any, ctx: _Ctx, a: PlayArtefact) -> None:
    """Playing Artefacts: the active player turns the Artefact face down and carries out its
    text (its kind's effect); in the Actions phase, the phase may then end by itself."""
    t = ctx.s.turn
    assert t is not None
    art = game.data.artefacts[a.artefact]
    ctx.turn_face_down(t.seat, a.artefact)
    ctx.set_turn(plays=t.plays + 1)
    ctx.note(f"Seat {t.seat + 1} plays {art.display}.")
    effect[art.kind](game, ctx, t.seat, a)
    if t.phase == "actions":
        after_action(game, ctx)


@effect("treachery", "siegecraft", "chariots", "masons", "boom-farming", "boom-trade", "boom-culture")
def for_this_turn(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Treachery (the next attack uses 3 dice), Siegecraft (cities' defence bonus ignored),
    Chariots (3 dice on plains), Masons (2 cities or 1 temple for 1 unit), Boom (double
    revenue of one Patriarch type): in force for the rest of the turn, read where they apply."""
    kind = game.data.artefacts[a.artefact].kind
    ctx.set_turn(effects=(*ctx.s.turn.effects, kind))  # type: ignore[union-attr]


@effect("plague")
def plague(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Plague: any stacked unit in the lands adjacent to the chosen land of the active kingdom
    is removed (Heathen and Hebrew alike)."""
    centre = game.idx[a.land or ""]
    for j in game.adj[centre]:
        x = ctx.s.lands[j]
        if x.units >= 2 and x.counters:
            ctx.set_land(j, units=1)
            ctx.supply_add(x.counters, 1)
            ctx.note(f"Plague: the stacked unit in {game.land_name(j)} is removed.")


@effect("populate")
def populate(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Populate: a unit from the supply stacked in each of two lands of the active kingdom (one
    when only one land can take it or the supply holds one unit)."""
    k = game.kingdom(ctx.s.turn.kingdom)  # type: ignore[union-attr]
    for lid in (a.land, a.land2):
        if lid is None or game.supply(ctx.s, k.counters) <= 0:
            continue
        ctx.set_land(game.idx[lid], units=2)
        ctx.supply_add(k.counters, -1)


@effect("tribute-2", "tribute-4")
def tribute(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Tribute: collect 2 (Tribute 2) or 4 (Tribute 4) coins of one type."""
    art = game.data.artefacts[a.artefact]
    gain(game, ctx, seat, coin_vec(a.coin or "gold", 2 if art.kind == "tribute-2" else 4), art.name)


@effect("proliferate-1", "proliferate-2")
def proliferate(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Proliferate: place any 1 (or 2) Patriarchs in the active kingdom, without spending actions."""
    n = 1 if game.data.artefacts[a.artefact].kind == "proliferate-1" else 2
    ctx.set_turn(free_places=ctx.s.turn.free_places + n)  # type: ignore[union-attr]


@effect("recruit-1", "recruit-2")
def recruit(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Recruit: receive 1 (or 2) units from the supply, as far as it holds them."""
    k = game.kingdom(ctx.s.turn.kingdom)  # type: ignore[union-attr]
    want = 1 if game.data.artefacts[a.artefact].kind == "recruit-1" else 2
    n = min(want, game.supply(ctx.s, k.counters))
    ctx.supply_add(k.counters, -n)
    ctx.set_turn(units=ctx.s.turn.units + n)  # type: ignore[union-attr]


@effect("commerce")
def commerce(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Commerce: "Exchange any number of coins for an equal number of any other coins": one
    metal for another, or (``give``/``take``) one metal for two others or two for the third
    (RULINGS R21)."""
    if a.give and a.take:
        pay(game, ctx, seat, a.give, "Commerce")
        gain(game, ctx, seat, a.take, "Commerce")
        return
    assert a.coin and a.coin2 and a.count
    pay(game, ctx, seat, coin_vec(a.coin, a.count), "Commerce")
    gain(game, ctx, seat, coin_vec(a.coin2, a.count), "Commerce")


@effect("assault", "capitulation")
def take_land(game: Any, ctx: _Ctx, seat: Seat, a: PlayArtefact) -> None:
    """Assault (a land without a temple; its city destroyed) and Capitulation (its city and
    temple stay; RULINGS R17): the kingdom conquers an adjacent land for 1 unit, without dice."""
    kind = game.data.artefacts[a.artefact].kind
    k = game.kingdom(ctx.s.turn.kingdom)  # type: ignore[union-attr]
    j = game.idx[a.land or ""]
    ctx.set_turn(units=ctx.s.turn.units - 1, last_failed=None, continued=0)  # type: ignore[union-attr]
    conquer(game, ctx, j, keep_buildings=kind == "capitulation")
    combat = Combat(
        kingdom=k.id,
        land=a.land or "",
        method=kind,  # type: ignore[arg-type]
        text=f"{game.data.artefacts[a.artefact].name}: the {k.name} take {game.land_name(j)} for 1 unit.",
    )
    ctx.update(last_combat=combat)
    ctx.emit(Attacked(combat=combat))
    settle_retreats(game, ctx)
