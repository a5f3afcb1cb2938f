"""Conversion (RULINGS.md R10): the Christian units' sources, the spread over the 6-unit limit, and the revolts that leave the board."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
    Prompt,
)

from ..model import (
    Convert,
    Pass,
    Spread,
    State,
)
from ..queries import (
    CONVERT_WIN,
    UNIT_LIMIT,
)
from .context import _Ctx


def default_sources(game: Any, s: State, limit: int | None = None) -> tuple[tuple[str, int], ...]:
    """Up to ``count`` units: supply first, then the Captured Unit Area, then the largest
    stacks elsewhere."""
    c = s.conversion
    left = c.count if limit is None else limit
    have = game.convert_sources(s, c.territory)
    order = [x for x in ("supply", "captured") if x in have]
    order += sorted((x for x in have if x not in ("supply", "captured")), key=lambda x: (-have[x], x))
    out = []
    for x in order:
        k = min(left, have[x])
        if k > 0:
            out.append((x, k))
            left -= k
    return tuple(out)


def default_spread(game: Any, s: State) -> tuple[tuple[str, int], ...]:
    """The spread taken on a pass: the excess units to the adjacent territories with room, in map
    order (RULINGS.md R10)."""
    left, out = s.conversion.excess, []
    for u, room in game.spread_room(s).items():
        k = min(left, room)
        if k > 0:
            out.append((u, k))
            left -= k
    return tuple(out)


def conversion_options(game: Any, s: State) -> list[Any]:
    """The conversion choices offered (the notation accepts any legal one): convert,
    as many as possible from the usual sources, from each source alone, or fewer;
    then, over the 6-unit limit, where the excess goes (RULINGS.md R10)."""
    c = s.conversion
    if c.stage == "spread":
        out: list[Any] = [Spread(moves=game._default_spread(s))]
        for u, room in game.spread_room(s).items():
            if room >= c.excess and Spread(moves=((u, c.excess),)) not in out:
                out.append(Spread(moves=((u, c.excess),)))
        return out
    out = [Convert(sources=game._default_sources(s))]
    for x, k in game.convert_sources(s, c.territory).items():
        a = Convert(sources=((x, min(k, c.count)),))
        if a not in out:
            out.append(a)
    for n in range(c.count - 1, 0, -1):
        a = Convert(sources=game._default_sources(s, n))
        if a not in out:
            out.append(a)
    return out + [Pass()]


def conversion_prompt(game: Any, s: State) -> Prompt:
    """The question of a conversion: where the Christian units come from, or where the excess over 6
    goes (RULINGS.md R10)."""
    c = s.conversion
    own = s.active == "christians"
    if c.stage == "spread":
        return Prompt(
            kind="turn" if own else "respond",
            text=f"Conversion: {c.excess} Christian unit{'s' if c.excess != 1 else ''} over the 6-unit limit "
            f"in {game.tname(c.territory)} move to adjacent territories (free move): spread <units> "
            "<territory>, ...",
        )
    have = game.convert_sources(s, c.territory)
    where = [f"{k} {game.source_name(x)}" for x, k in have.items()]
    return Prompt(
        kind="turn" if own else "respond",
        text=f"Conversion in {game.tname(c.territory)}: replace up to {c.count} removed unit"
        f"{'s' if c.count != 1 else ''} with Christian units (convert <units> <source>, ...; sources: "
        + ", ".join(where)
        + "), or pass.",
    )


def apply_conversion(game: Any, ctx: _Ctx, a: Any) -> None:
    """Conversion's answer: the sources of the Christian units (or the spread of the excess),
    checked against what is there (RULINGS.md R10)."""
    c = ctx.s.conversion
    if c.stage == "spread":
        game._apply_spread(ctx, a)
        return
    t = c.territory
    have = game.convert_sources(ctx.s, t)
    example = ", ".join(f"{k} {game.source_name(x)}" for x, k in game._default_sources(ctx.s))
    if isinstance(a, Pass):
        sources: tuple[tuple[str, int], ...] = ()
    elif isinstance(a, Convert):
        sources = a.sources
    else:
        raise IllegalActionError(f"Conversion: convert {example}, fewer, or pass.")
    total = sum(k for _, k in sources)
    if any(k < 1 for _, k in sources) or len({x for x, _ in sources}) != len(sources):
        raise IllegalActionError(f"Conversion: name each source once with a number of units: convert {example}.")
    if total > c.count:
        raise IllegalActionError(
            f"Conversion: at most {c.count} unit{'s' if c.count != 1 else ''} were removed, so at most "
            f"{c.count} convert (you named {total})."
        )
    for x, k in sources:
        if k > have.get(x, 0):
            if x == t:
                why = f"the units in {game.tname(t)} are the ones converting"
            else:
                why = f"{game.source_name(x)} has {have.get(x, 0)}"
            raise IllegalActionError(
                f"Conversion: {k} from {game.source_name(x)} is not possible ({why}); sources: "
                + ", ".join(f"{n} {game.source_name(y)}" for y, n in have.items())
                + "."
            )
    for x, k in sources:
        if x == "supply":
            ctx.from_supply(t, "christians", k)
        elif x == "captured":
            cap = dict(ctx.f("rome").captured)
            cap["christians"] -= k
            if not cap["christians"]:
                del cap["christians"]
            ctx.set_f("rome", captured=cap)  # the capture track stays (Resolving Combat)
            ctx.add_units(t, "christians", k)
        else:
            ctx.move_units(x, t, "christians", k)
    # the tracker stops at 18, the special victory's count (RULINGS.md R24)
    ctx.set_f("christians", converted=min(CONVERT_WIN, ctx.f("christians").converted + total))
    ctx.note(
        f"Conversion in {game.tname(t)}: {total} unit{'s' if total != 1 else ''} converted"
        + (" (" + ", ".join(f"{k} from {game.source_name(x)}" for x, k in sources) + ")" if sources else "")
        + f"; conversion tracker {ctx.f('christians').converted}."
    )
    excess = game.units(ctx.s, t, "christians") - UNIT_LIMIT
    if excess <= 0:
        ctx.update(conversion=None)
        return
    ctx.update(conversion=c.model_copy(update={"stage": "spread", "excess": excess}))
    room = game.spread_room(ctx.s)
    if sum(room.values()) <= excess or len(room) <= 1:
        game._apply_spread(ctx, Spread(moves=game._default_spread(ctx.s)))  # no choice left


def apply_spread(game: Any, ctx: _Ctx, a: Any) -> None:
    """Move the excess over the 6-unit limit to adjacent territories with room; what no
    adjacent territory has room for returns to supply (RULINGS.md R10)."""
    c = ctx.s.conversion
    t = c.territory
    room = game.spread_room(ctx.s)
    need = min(c.excess, sum(room.values()))
    moves = game._default_spread(ctx.s) if isinstance(a, Pass) else a.moves if isinstance(a, Spread) else None
    example = ", ".join(f"{k} {game.tname(u)}" for u, k in game._default_spread(ctx.s))
    if moves is None:
        raise IllegalActionError(f"Move the {c.excess} Christian units over the limit: spread {example}.")
    if any(k < 1 for _, k in moves) or len({u for u, _ in moves}) != len(moves) or sum(k for _, k in moves) != need:
        raise IllegalActionError(
            f"Conversion: move {need} Christian unit{'s' if need != 1 else ''} out of {game.tname(t)} "
            f"to adjacent territories, each named once: spread {example}."
        )
    for u, k in moves:
        if k > room.get(u, 0):
            raise IllegalActionError(
                f"Conversion: {game.tname(u) if u in game.data.territories else u} "
                + ("is not adjacent to " + game.tname(t) if u not in game.data.adjacent[t] else f"has room for {room[u]}")
                + "; adjacent with room: "
                + ", ".join(f"{game.tname(x)} ({n})" for x, n in room.items())
                + "."
            )
    for u, k in moves:
        ctx.move_units(t, u, "christians", k)
    left = game.units(ctx.s, t, "christians") - UNIT_LIMIT
    ctx.to_supply(t, "christians", left)
    ctx.update(conversion=None)
    ctx.note(
        f"Conversion: the Christian units over the limit in {game.tname(t)} move to "
        + (", ".join(f"{game.tname(u)} ({k})" for u, k in moves) or "nowhere")
        + (f"; {left} with no room return to supply" if left > 0 else "")
        + "."
    )


def overflow(game: Any, ctx: _Ctx, t: str, f: str) -> None:
    """Units of ``f`` over the 6-unit limit in ``t`` move to adjacent territories with room
    (Important Terms)."""
    excess = game.units(ctx.s, t, f) - UNIT_LIMIT
    for u in game.data.adjacent[t]:
        if excess <= 0:
            break
        k = min(excess, game.room(ctx.s, u, f))
        if k > 0:
            ctx.add_units(t, f, -k)
            ctx.add_units(u, f, k)
            excess -= k
    if excess > 0:
        ctx.to_supply(t, f, excess)


def revolt_check(game: Any, ctx: _Ctx) -> None:
    """Each revolt that has lost all of its own units ends on its own: its card is
    discarded face up into the Jewish discard pile and its yellow dice return to the
    Extra Dice Pool; the other revolts go on (RULINGS.md R13: "If a revolt loses all
    of its units, discard the revolt card face up into the Jewish Power Card Discard
    pile. Return the yellow die to the extra dice pool.")."""
    keep, back = [], 0
    for r in ctx.s.revolts:
        if r.on_board > 0:
            keep.append(r)
            continue
        back += len(r.dice)
        if not r.discarded:
            game._to_discard(ctx, r.card)
            ctx.set_f("jews", durable=tuple(x for x in ctx.f("jews").durable if x != r.card))
            ctx.note(
                f"{game.card_name(r.card)} is crushed: the card is discarded and its yellow "
                + ("die returns" if len(r.dice) == 1 else "dice return")
                + " to the Extra Dice Pool."
            )
    if len(keep) != len(ctx.s.revolts):
        ctx.update(revolts=tuple(keep), yellow=ctx.s.yellow + back)
