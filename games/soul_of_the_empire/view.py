"""Soul of the Empire's views: what a seat (or a spectator) may see, the explained texts, and the hidden parts drawn anew for the secrecy checks (rule text: shared/seeds/000; RULINGS.md on hidden information)."""

from __future__ import annotations

import random
from typing import Any

from games.core import (
    Seat,
)
from games.core.english import count
from games.core.explain import Explanation
from games.core.secrets import redeal, redraw, shuffled

from .data import ObjectiveCard
from .model import (
    Commit,
    FactionView,
    ObjectiveView,
    Prepare,
    SeatView,
    State,
    View,
)


def explain_all(game: Any) -> tuple[Explanation, ...]:
    """The texts ``explain`` knows: every Power Card, Combat Card, Objective Card and faction, from
    the data."""
    phase = {"start": "Start Phase", "main": "Main Phase", "end": "End Phase", "combat": "combat",
             "another": "Another's Turn"}
    out = []
    for p in game.data.power.values():
        keep = ("Once: apply it and discard." if p.duration == "once"
                else "Durable: it stays face up next to the faction board.")
        out.append(Explanation(
            name=p.name, kind=f"{game.fname(p.faction)} Power Card", text=f"{p.text} {keep}",
            when="Play it in: " + ", ".join(phase.get(x, x) for x in p.phases) + ".",
        ))
    for c in game.data.combat.values():
        out.append(Explanation(name=c.name, kind=f"{game.fname(c.faction)} Combat Card",
                               text=f"Combat Value {c.text}."))
    for card in game.data.objectives.values():
        lines = [game.objective_text(card, f) for f in ("rome", "jews", "christians")]
        text = "; ".join(x for x in lines if x) + "."
        if not card.two_player:
            text += " Cannot be achieved in the 2-player game."
        out.append(Explanation(name=card.name, kind="Objective Card", text=text))
    for f in game.data.factions.values():
        where = (f"starts in {', '.join(game.tname(t) for t in f.placement)}" if f.placement else
                 "starts off the board: the Jewish Revolt Power Cards place its pieces, and the Jewish player"
                 " controls them (Jewish Revolt Power Cards)")
        out.append(Explanation(name=f.name, kind="faction", text=f"{count(f.units, 'unit')}; {where}."))
    return tuple(out)


def view(game: Any, s: State, viewer: Seat | None) -> View:
    """What ``viewer`` may see: hands only for the seat that controls the faction;
    combat choices only as "chosen"; decks as sizes."""
    factions = []
    for fid in list(s.order) + (["gray"] if "gray" in s.factions else []):
        f = s.factions[fid]
        factions.append(
            FactionView(
                id=fid,
                name=game.fname(fid),
                seat=f.seat,
                supply=f.supply,
                on_board=game.on_board(s, fid),
                points=f.points,
                dice=f.dice,
                hand_size=len(f.hand),
                deck_size=len(f.deck),
                discard=f.discard,
                durable=f.durable,
                combat_used=f.combat_used,
                captured=f.captured,
                capture_track=f.capture_track,
                converted=f.converted,
                rage=f.rage,
                markers=f.markers,
                regions_scored=f.regions_scored,
                hand=f.hand if viewer is not None and viewer == f.seat and fid != "gray" else None,
            )
        )
    objectives = []
    for c in s.objectives:
        card = game.data.objectives[c]
        lines = tuple(game.objective_text(card, o.faction) for o in card.objective)
        dice = []
        for fid, i in game.claims(s, c).items():
            dice.append(f"{game.fname(fid)} claimed (die {s.factions[fid].dice[i].value})")
        co = s.factions.get("coalition")
        if co:
            for d in co.dice:
                if d.place == "block" and d.on == c:
                    dice.append(f"Coalition blocks {game.fname(d.target)} (die {d.value})")
        objectives.append(ObjectiveView(id=c, name=card.name, lines=lines, dice=tuple(dice)))
    c = s.combat
    window = None
    if s.window is not None:
        window = game.faction_prompt(s, s.window.faction).text
    elif s.tribute is not None or s.giving is not None:
        window = game._tribute_prompt(s, game.tribute_chooser(s)).text
    return View(
        viewer=viewer,
        players=tuple(SeatView(seat=x, nation=game.seat_name(s, x)) for x in range(s.players)),
        round=s.round,
        phase=s.phase,
        active=s.active if s.phase in ("start", "main", "end", "discard") else None,
        order=s.order,
        factions=tuple(factions),
        board=s.board,
        markers=s.markers,
        objectives=tuple(objectives),
        objective_deck=len(s.objective_deck),
        revolts=s.revolts,
        yellow=s.yellow,
        rolling=s.rolling,
        combat_territory=c.territory if c else None,
        combat_sides=(c.attacker, c.defender) if c else (),
        combat_chosen=tuple(sorted(c.prepared if c.stage == "powers" else c.choices)) if c else (),
        combat_stage=c.stage if c and c.stage in ("powers", "choose") else None,
        window=window,
        waiting=tuple(sorted(game.to_act(s))),
        last_combat=s.last_combat,
        winners=s.winners,
        end_reason=s.end_reason,
    )


def objective_text(game: Any, card: ObjectiveCard, faction: str) -> str:
    """One objective in words: "Rome (1, Start Phase): sole occupancy of Italia, Gallia"."""
    o = card.for_faction(faction)
    if o is None:
        return ""
    ts = ", ".join(game.tname(t) for t in o.territories)
    region = game.data.regions[o.region].name if o.region else ""
    what = {
        "hold": f"{o.n}+ units in " + (ts if len(o.territories) == 1 else f"each of {ts}"),
        "sole": f"sole occupancy of {ts}",
        "region_units": f"{o.n}+ units in {region}",
        "sole_count": f"sole occupancy of {count(o.n, 'territory', 'territories')} of {region}",
        "territories": f"units in {o.n}+ territories",
        "regions": f"units in {o.n}+ regions of the Empire",
        "units_on_board": f"{o.n}+ units on the board",
        "captured": f"{o.n}+ captured units",
        "converted": f"{o.n}+ units converted",
        "share": f"share {ts} with every other faction",
        "share_any": f"share {o.n}+ territories with 2 other factions",
    }[o.kind]
    when = ", Start Phase" if o.score_in_start else ""
    return f"{game.fname(faction)} ({o.points}{when}): {what}"


def perturb_hidden(game: Any, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
    """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
    Objective deck and every Power Card deck shuffled, and the hand of each faction
    whose seat is outside ``keep`` (the Gray faction's always) redealt with its deck
    (a Power Card chosen for the combat in progress, still in its hand until both sides have chosen, stays there);
    then the choices of those seats' combat sides made face down and not yet revealed drawn
    again among those each could have made (games.core.secrets.redraw)."""
    committed: dict[str, list[str]] = {}
    for side, choice in (s.combat.prepared if s.combat is not None else {}).items():
        if choice.power:
            committed.setdefault(game.hand_owner(side), []).append(choice.power)
    factions = dict(s.factions)
    for fid, f in s.factions.items():
        if fid == "gray" or (keep is not None and f.seat not in keep):
            fixed = [c for c in committed.get(fid, []) if c in f.hand]
            free = list(f.hand)
            for c in fixed:
                free.remove(c)
            hand, deck = redeal([free, f.deck], rand)
            factions[fid] = f.model_copy(update={"hand": tuple(fixed) + hand, "deck": deck})
        else:
            factions[fid] = f.model_copy(update={"deck": shuffled(f.deck, rand)})
    out = s.model_copy(update={"factions": factions, "objective_deck": shuffled(s.objective_deck, rand)})
    c = out.combat
    if c is None or keep is None or c.stage not in ("powers", "choose"):
        return out
    # the choices made face down and not yet revealed, drawn again among those the side
    # could have made (with its new hand): before the Combat Cards, then the Combat Card
    hidden = [x for x in (c.attacker, c.defender) if game.seat_of(out, x) not in keep]
    if c.stage == "powers":
        prepared = {x: redraw(p, game.prepare_options(out, x), rand, key=_prepared) if x in hidden else p
                    for x, p in c.prepared.items()}
        return out.model_copy(update={"combat": c.model_copy(update={"prepared": prepared})})
    choices = {x: redraw(p, [Commit(card=k) for k in game.combat_cards(out, x)], rand) if x in hidden else p
               for x, p in c.choices.items()}
    return out.model_copy(update={"combat": c.model_copy(update={"choices": choices})})


def sealed(game: Any, s: State) -> frozenset[Seat]:
    """The seats of the combat sides that have answered in secret and wait for the reveal:
    before the Combat Cards (a face-down Power Card, Conscription; RULINGS.md R16), then
    the Combat Card chosen (R9)."""
    c = s.combat
    if c is None or c.stage not in ("powers", "choose"):
        return frozenset()
    return frozenset(game.seat_of(s, x) for x in (c.prepared if c.stage == "powers" else c.choices))


def _prepared(a: Any) -> Prepare:
    """What an answer before the Combat Cards records (a pass: nothing, RULINGS.md R16)."""
    return a if isinstance(a, Prepare) else Prepare()
