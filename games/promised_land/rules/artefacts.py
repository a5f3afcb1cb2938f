"""Playing Artefacts (List of Artefacts).

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from typing import Any

from ..model import Attacked, Combat, PlayArtefact
from ..queries import coin_vec
from .actions import after_action
from .coins import gain, pay
from .combat import conquer, settle_retreats
from .context import _Ctx


def play(game: Any, ctx: _Ctx, a: PlayArtefact) -> None:
    """Playing Artefacts (List of Artefacts)."""
    s = ctx.s
    t = s.turn
    assert t is not None
    art = game.data.artefacts[a.artefact]
    p = s.players[t.seat]
    arts = list(p.artefacts)
    i = next(n for n, o in enumerate(arts) if o.id == a.artefact and not o.face_down)
    arts[i] = arts[i].model_copy(update={"face_down": True})
    ctx.set_player(t.seat, artefacts=tuple(arts))
    ctx.set_turn(plays=t.plays + 1)
    k = game.kingdom(t.kingdom)
    kind = art.kind
    ctx.note(f"Seat {t.seat + 1} plays {art.display}.")
    if kind in ("treachery", "siegecraft", "chariots", "masons") or kind.startswith("boom"):
        ctx.set_turn(effects=(*ctx.s.turn.effects, kind))  # type: ignore[union-attr]
    elif kind == "plague":
        centre = game.idx[a.land or ""]
        for j in game.adj[centre]:
            x = ctx.s.lands[j]
            if x.units >= 2 and x.counters:
                ctx.set_land(j, units=1)
                ctx.supply_add(x.counters, 1)
                ctx.note(f"Plague: the stacked unit in {game.land_name(j)} is removed.")
    elif kind == "populate":
        for lid in (a.land, a.land2):
            if lid is None or game.supply(ctx.s, k.counters) <= 0:
                continue
            ctx.set_land(game.idx[lid], units=2)
            ctx.supply_add(k.counters, -1)
    elif kind.startswith("tribute"):
        gain(game, ctx, t.seat, coin_vec(a.coin or "gold", 2 if kind == "tribute-2" else 4), art.name)
    elif kind.startswith("proliferate"):
        ctx.set_turn(free_places=ctx.s.turn.free_places + (1 if kind == "proliferate-1" else 2))  # type: ignore[union-attr]
    elif kind.startswith("recruit"):
        n = min(1 if kind == "recruit-1" else 2, game.supply(ctx.s, k.counters))
        ctx.supply_add(k.counters, -n)
        ctx.set_turn(units=ctx.s.turn.units + n)  # type: ignore[union-attr]
    elif kind == "commerce":
        assert a.coin and a.coin2 and a.count
        pay(game, ctx, t.seat, coin_vec(a.coin, a.count), "Commerce")
        gain(game, ctx, t.seat, coin_vec(a.coin2, a.count), "Commerce")
    elif kind in ("assault", "capitulation"):
        j = game.idx[a.land or ""]
        ctx.set_turn(units=ctx.s.turn.units - 1, last_failed=None, continued=0)  # type: ignore[union-attr]
        conquer(game, ctx, j, keep_buildings=kind == "capitulation")
        combat = Combat(
            kingdom=k.id,
            land=a.land or "",
            method=kind,  # type: ignore[arg-type]
            text=f"{art.name}: the {k.name} take {game.land_name(j)} for 1 unit.",
        )
        ctx.update(last_combat=combat)
        ctx.emit(Attacked(combat=combat))
        settle_retreats(game, ctx)
    if t.phase == "actions":
        after_action(game, ctx)
