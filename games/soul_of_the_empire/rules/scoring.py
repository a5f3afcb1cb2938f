"""Objectives and scoring (Objective Cards, Objective Point Markers, regions): completed objectives scored in the Start and End Phases, points gained, and the Coalition's regrouping."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
    Prompt,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    Pass,
    Regroup,
    Regrouping,
    Score,
    Scored,
    Scoring,
    State,
    TakeUnit,
)
from .context import _Ctx


def scoring_options(game: Any, s: State) -> list[str]:
    """The claimed objectives of the scoring faction whose requirements are met now
    (Rome's "Score in Start Phase" ones only in its Start Phase)."""
    sc = s.scoring
    return game.completed(s, sc.faction, sc.start)


def score_objectives(game: Any, ctx: _Ctx, faction: str, start: bool) -> None:
    """Scoring a Claimed Objective Card: "if you have completed the requirements of any
    Objective(s) you claimed, you may score the Objective Card(s)". With one or more
    completed, ``faction`` is asked which to score (``score <card>``) or ``pass``; the
    callers go on once ``scoring`` is None again."""
    if game.completed(ctx.s, faction, start):
        ctx.update(scoring=Scoring(faction=faction, start=start))


def scoring_prompt(game: Any, s: State) -> Prompt:
    """The question of scoring: the completed objectives, to score one or leave them claimed."""
    cards = [game.data.objectives[c].name for c in game.scoring_options(s)]
    return Prompt(
        kind="turn",
        text=f"{game.fname(s.scoring.faction)}: objectives completed on "
        + list_words(cards)
        + ": score <card> to score one, or pass to leave them claimed.",
    )


def apply_scoring(game: Any, ctx: _Ctx, a: Any) -> None:
    """Score a completed objective (its points, the dice return), or pass to leave the rest claimed;
    then the phase goes on."""
    sc = ctx.s.scoring
    opts = game.scoring_options(ctx.s)
    if isinstance(a, Score) and a.card in opts:
        o = game.data.objectives[a.card].for_faction(sc.faction)
        game._score_card(ctx, sc.faction, a.card, o.points)
        if ctx.s.phase == "over" or game.scoring_options(ctx.s):
            return
    elif isinstance(a, Pass):
        names = list_words([game.data.objectives[c].name for c in opts])
        ctx.note(f"{game.fname(sc.faction)} leaves its completed objective on {names} claimed, unscored.")
    else:
        raise IllegalActionError(
            "Score a completed objective: "
            + list_words([f"score {game.data.objectives[c].name}" for c in opts])
            + ", or pass to leave it claimed."
        )
    ctx.update(scoring=None)
    if game._check_victory(ctx):
        return
    if sc.start:
        game._after_start_scoring(ctx)
    else:
        game._after_end_scoring(ctx)


def score_card(game: Any, ctx: _Ctx, faction: str, card_id: str, points: int) -> None:
    """Score Objective Card ``card_id`` for ``faction``: its points, the claiming dice returned, the
    card replaced from the deck (Objective Cards)."""
    s = ctx.s
    card = game.data.objectives[card_id]
    for fid, i in game.claims(s, card_id).items():
        # the scorer's die is not rolled this turn (value 0); the others return to Spent
        ctx.set_die(
            fid,
            i,
            place="spent",
            on=None,
            seq=False,
            value=0 if fid == faction else ctx.f(fid).dice[i].value,
        )
    co = ctx.s.factions.get("coalition")
    if co is not None:
        back = [i for i, d in enumerate(co.dice) if d.place == "block" and d.on == card_id]
        for i in back:
            ctx.set_die(
                "coalition", i, place="unspent", on=None, target=None, seq=False, value=ctx.rng.die(6)
            )
        if back:
            ctx.note(
                "The Coalition's blocking dice return and are rolled: "
                + ", ".join(str(ctx.f("coalition").dice[i].value) for i in back)
                + "."
            )
            # rolled up to 3 times (RULINGS.md R18)
            game._offer_extra(ctx, "coalition", "block", tuple(back), "none")
    game._gain(ctx, faction, points, f"{game.fname(faction)} scored {card.name}")
    ctx.update(
        objectives=tuple(c for c in ctx.s.objectives if c != card_id),
        scored={**ctx.s.scored, faction: ctx.s.scored.get(faction, ()) + (card_id,)},
    )
    if ctx.s.objective_deck:
        new, rest = ctx.s.objective_deck[0], ctx.s.objective_deck[1:]
        ctx.update(objectives=ctx.s.objectives + (new,), objective_deck=rest)
        ctx.note(f"New Objective Card: {game.data.objectives[new].name}.")
    game._check_victory(ctx)


def gain(game: Any, ctx: _Ctx, faction: str, points: int, text: str) -> None:
    """``faction`` gains ``points`` (never below 0), with the reason ``text`` for the table."""
    total = max(0, ctx.f(faction).points + points)
    ctx.set_f(faction, points=total)
    sign = "+" if points >= 0 else "-"
    ctx.emit(
        Scored(
            faction=faction,
            points=points,
            total=total,
            text=f"{text}: {sign}{abs(points)} (now {total}).",
        )
    )


def score_markers(game: Any, ctx: _Ctx) -> None:
    """Scoring a Claimed Objective Point Marker: sole occupancy of its territory;
    a second marker of the same faction costs that faction 1 point and gives 1 more."""
    co = ctx.f("coalition")
    for i, d in enumerate(co.dice):
        if d.place != "marker":
            continue
        t = d.on
        m = game.marker_at(ctx.s, t)
        if m is None or not game.sole(ctx.s, t, "coalition"):
            continue
        second = m.owner in ctx.f("coalition").markers
        ctx.update(
            markers=tuple(
                x.model_copy(update={"territory": None}) if x.territory == t else x for x in ctx.s.markers
            )
        )
        ctx.set_f("coalition", markers=ctx.f("coalition").markers + (m.owner,))
        ctx.set_die("coalition", i, place="spent", on=None, value=0, seq=False)
        game._gain(
            ctx,
            "coalition",
            1,
            f"The Coalition took the {game.fname(m.owner)} Objective Point Marker in {game.tname(t)}",
        )
        if second:
            game._gain(ctx, "coalition", 1, f"A second {game.fname(m.owner)} marker")
            if m.owner in ctx.s.factions:
                game._gain(
                    ctx, m.owner, -1, f"{game.fname(m.owner)} lost a second Objective Point Marker"
                )
        if game._check_victory(ctx):
            return


def score_regions(game: Any, ctx: _Ctx) -> None:
    """Score Sole Occupancy of a Region (Coalition only): 1 point per region once a
    game; the Coalition takes 1 unit from the region to its faction board, from the territory
    it chooses, then may regroup (RULINGS.md R12)."""
    for rid, region in game.data.regions.items():
        if not region.empire or rid in ctx.f("coalition").regions_scored:
            continue
        ts = game.data.region_territories(rid)
        if not all(
            game.units(ctx.s, t, "coalition") > 0 and game.sole(ctx.s, t, "coalition") for t in ts
        ):
            continue
        game._gain(ctx, "coalition", 1, f"The Coalition holds every territory of {region.name}")
        if game._check_victory(ctx):
            return
        # "the Coalition player must take 1 unit from that region": asked where from; the region
        # counts as scored once its unit is on the faction board (one there per region scored)
        ctx.update(regroup=Regrouping(region=rid))
        return


def take_options(game: Any, s: State) -> list[TakeUnit]:
    """The territories of the region just scored the Coalition may take its unit from (each
    holds Coalition units: the region was held whole)."""
    ts = game.data.region_territories(s.regroup.region)
    return [TakeUnit(territory=t) for t in ts if game.units(s, t, "coalition") > 0]


def apply_take(game: Any, ctx: _Ctx, a: Any) -> None:
    """The Coalition takes 1 unit from a territory of the region it scored to its faction board
    (``pass``: from its largest stack there), then the regroup; the End Phase goes on if there is
    nothing to regroup."""
    opts = game.take_options(ctx.s)
    if isinstance(a, Pass):
        a = max(opts, key=lambda o: (game.units(ctx.s, o.territory, "coalition"), o.territory))
    if not isinstance(a, TakeUnit) or a not in opts:
        name = game.data.regions[ctx.s.regroup.region].name
        where = [game.tname(o.territory) for o in opts]
        raise IllegalActionError(
            f"The Coalition scored {name}: take 1 unit to the faction board from "
            + (", ".join(where[:-1]) + " or " + where[-1] if len(where) > 1 else where[0])
            + " (take <territory>)."
        )
    game._take_unit(ctx, a.territory)
    if ctx.s.regroup is None:
        game._after_regions(ctx)


def take_unit(game: Any, ctx: _Ctx, t: str) -> None:
    """1 Coalition unit of ``t`` goes to the faction board; the regroup question follows if there
    is anything to regroup (else ``regroup`` is cleared and the other regions are scored)."""
    ctx.add_units(t, "coalition", -1)
    rid = ctx.s.regroup.region
    ctx.set_f("coalition", regions_scored=ctx.f("coalition").regions_scored + (rid,))
    ctx.note(f"The Coalition takes 1 unit from {game.tname(t)} to its faction board.")
    ctx.update(regroup=ctx.s.regroup.model_copy(update={"taken": True}))
    if game.regroup_options(ctx.s):
        return
    ctx.update(regroup=None)
    game._score_regions(ctx)


def after_regions(game: Any, ctx: _Ctx) -> None:
    """Once no region waits for its unit or its regroup: the next turn."""
    if ctx.s.phase != "over" and ctx.s.regroup is None:
        game._next_turn(ctx)


def regroup_options(game: Any, s: State) -> list[Regroup]:
    """One regroup per target territory of the region: fill it up to 6 from the
    largest other Coalition stacks (name order on ties); the notation takes any."""
    ts = game.data.region_territories(s.regroup.region)
    out = []
    for t in ts:
        room = 6 - game.units(s, t, "coalition")
        sources: list[tuple[str, int]] = []
        for o in sorted((o for o in ts if o != t), key=lambda o: (-game.units(s, o, "coalition"), o)):
            k = min(room, game.units(s, o, "coalition"))
            if k > 0:
                sources.append((o, k))
                room -= k
        if sources:
            out.append(Regroup(territory=t, sources=tuple(sources)))
    return out


def apply_regroup(game: Any, ctx: _Ctx, a: Any) -> None:
    """The Coalition's regroup into a territory of the region it scored (up to 6 units from its
    other territories), or a pass."""
    s = ctx.s
    ts = game.data.region_territories(s.regroup.region)
    name = game.data.regions[s.regroup.region].name
    if isinstance(a, Regroup):
        if a.territory not in ts:
            raise IllegalActionError(
                f"Regroup into a territory of {name}: " + list_words([game.tname(t) for t in ts]) + "."
            )
        seen = set()
        for o, k in a.sources:
            if o not in ts or o == a.territory or o in seen:
                raise IllegalActionError(
                    f"Regroup from other territories of {name}, each named once: e.g. "
                    + (
                        game.format_action(s, game.regroup_options(s)[0])
                        if game.regroup_options(s)
                        else "pass"
                    )
                    + "."
                )
            seen.add(o)
            if k < 1 or k > game.units(s, o, "coalition"):
                raise IllegalActionError(
                    f"The Coalition has {count(game.units(s, o, 'coalition'), 'unit')} in {game.tname(o)}."
                )
        moved = sum(k for _, k in a.sources)
        if moved < 1 or game.units(s, a.territory, "coalition") + moved > 6:
            raise IllegalActionError(
                f"Regroup at most 6 units into one territory: {game.tname(a.territory)} has room for "
                f"{6 - game.units(s, a.territory, 'coalition')}."
            )
        for o, k in a.sources:
            ctx.add_units(o, "coalition", -k)
        ctx.add_units(a.territory, "coalition", moved)
        ctx.note(f"The Coalition regrouped {count(moved, 'unit')} into {game.tname(a.territory)}.")
    elif not isinstance(a, Pass):
        raise IllegalActionError(
            f"The Coalition scored {name}: regroup <territory>: <units> <from>, ... or pass."
        )
    ctx.update(regroup=None)
    game._score_regions(ctx)
    game._after_regions(ctx)
