"""Plunder (the Coalition's combat victory): rampage, salvage and exploit (RULINGS.md R14)."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
    made_once,
)
from games.core.errors import list_words

from ..model import (
    CardsDrawn,
    Combat,
    Note,
    Plunder,
    State,
)
from ..queries import (
    RAGE_MIN,
)
from .context import _Ctx

_plunder = made_once(Plunder)  # the same few options after every Coalition victory


def plunder_options(game: Any, s: State) -> list[Plunder]:
    """No plunder, each rampage of the Coalition's units into an adjacent territory, salvage and
    each exploit (RULINGS.md R14)."""
    c = s.combat
    t = c.territory
    loser = c.defender if c.attacker == "coalition" else c.attacker
    out = [_plunder(option="none")]
    n = game.units(s, t, "coalition")
    for u in game.data.adjacent[t]:
        for k in range(1, min(n, game.room(s, u, "coalition")) + 1):
            out.append(_plunder(option="rampage", territory=u, count=k))
    holder = game.hand_owner(loser)
    if holder != "coalition" and holder in s.factions:
        out += game._salvage_options(s, holder)
        if s.factions[holder].hand:
            out.append(_plunder(option="exploit"))
        for d in s.factions[holder].durable:
            out.append(_plunder(option="exploit", card=d))
    return out


def salvage_options(game: Any, s: State, holder: str) -> list[Plunder]:
    """Salvage: "Randomly draw 1 Power Card from the defeated faction's hand ... If they
    do not have any Power Cards in their hand, you may select any Power Card from their
    discard pile. If there are no cards in their discard pile, draw two Power Cards from
    the top of their deck, select one to keep"."""
    source = game.salvage_source(s, holder)
    if source == "discard":
        return [_plunder(option="salvage", card=c) for c in game.salvage_pile(s, holder)]
    return [_plunder(option="salvage")] if source is not None else []


def salvage_pick_options(game: Any, s: State) -> list[Plunder]:
    """The cards Salvage may keep: each of the two drawn that may be taken (RULINGS.md R14)."""
    return [
        Plunder(option="salvage", card=c)
        for c in game.distinct(s.combat.salvage_drawn)
        if not game.data.card(c).no_steal
    ]


def plunder_refusal(game: Any, s: State, a: Any) -> str:
    """Why a plunder is not possible now, and what is (RULINGS.md R14)."""
    c = s.combat
    loser = c.defender if c.attacker == "coalition" else c.attacker
    holder = game.hand_owner(loser)
    name = game.fname(holder)
    legal = game._plunder_options(s)
    opts = []
    if any(o.option == "rampage" for o in legal):
        opts.append("rampage <count> to <territory>")
    if Plunder(option="salvage") in legal:
        opts.append("salvage")
    elif any(o.option == "salvage" for o in legal):
        opts.append("salvage <card of the discard pile>")
    if any(o.option == "exploit" for o in legal):
        opts.append("exploit [<Durable card>]")
    possible = "Plunder now: " + ", ".join(opts + ["or no plunder"]) + "."
    if isinstance(a, Plunder) and holder in s.factions and holder != "coalition":
        f = s.factions[holder]
        if a.option == "salvage" and game.salvage_source(s, holder) == "discard":
            return (
                f"Salvage: the {name} faction has no Power Card in hand, so select a card from its "
                "discard pile: "
                + list_words([f"salvage {game.card_name(c)}" for c in game.salvage_pile(s, holder)], 12)
                + "."
            )
        if a.option == "salvage" and a.card is not None:
            return (
                f"Salvage: a card is selected only from the discard pile of a faction with no Power "
                f"Card in hand; the {name} faction has "
                + (f"{len(f.hand)} in hand, so salvage draws one at random" if f.hand else "an empty discard pile")
                + ". "
                + possible
            )
        if a.option == "exploit" and a.card is None and not f.hand:
            durable = ", ".join(f"exploit {game.card_name(d)}" for d in f.durable)
            return (
                f"Exploit: the {name} faction has no Power Card in hand, so it would discard nothing"
                + (f"; name a face-up Durable card instead ({durable})." if durable else ". ")
                + ("" if durable else possible)
            )
        if a.option == "exploit" and a.card is not None and a.card not in f.durable:
            return (
                f"Exploit: {game.card_name(a.card)} is not a face-up Durable card of the {name} faction. "
                + possible
            )
        if a.option == "salvage" and game.salvage_source(s, holder) is None:
            return (
                f"Salvage: the {name} faction has no Power Card in hand, no card the Coalition may "
                "take in its discard pile, and no deck. " + possible
            )
    return possible


def apply_plunder(game: Any, ctx: _Ctx, a: Any) -> None:
    """Plunder (one of rampage, salvage, exploit) for 1 more Rage, or none."""
    s = ctx.s
    c = s.combat
    if not isinstance(a, Plunder) or a not in game._plunder_options(s):
        raise IllegalActionError(game._plunder_refusal(s, a))
    ctx.update(combat=None)
    if a.option == "none":
        ctx.note("The Coalition does not plunder.")
        return
    # "Plunder reduces Rage by 1 additional point."
    rage = max(RAGE_MIN, ctx.f("coalition").rage - 1)
    ctx.set_f("coalition", rage=rage)
    cost = f"Coalition Rage falls to {rage}"
    loser = c.defender if c.attacker == "coalition" else c.attacker
    holder = game.hand_owner(loser)
    if a.option == "rampage":
        ctx.add_units(c.territory, "coalition", -a.count)
        ctx.add_units(a.territory, "coalition", a.count)
        text = (
            f"Rampage! {a.count} Coalition unit{'s sweep' if a.count != 1 else ' sweeps'} "
            f"into {game.tname(a.territory)}"
        )
    elif a.option == "salvage":
        text = game._salvage(ctx, holder, a.card, c)
        if ctx.s.combat is not None:  # two cards drawn: the Coalition selects one
            ctx.update(combat=ctx.s.combat.model_copy(update={"lines": (cost,)}))
            ctx.note(f"{text}; {cost} (plunder costs 1 Rage).")
            return
    else:
        text = game._exploit(ctx, holder, a.card)
    ctx.note(f"{text}; {cost} (plunder costs 1 Rage).")
    last = ctx.s.last_combat
    if last is not None and last.territory == c.territory:
        ctx.update(last_combat=last.model_copy(update={"text": f"{last.text} Plunder: {text}; {cost}."}))


def salvage(game: Any, ctx: _Ctx, holder: str, card: str | None, combat: Combat) -> str:
    """Salvage: a random card from the hand (one that may be stolen; none if the hand
    holds only cards that may not be); else the discard pile's card ``card`` the
    Coalition selected; else draw the deck's top two: with two cards that may be
    stolen the Coalition selects one to keep (stage ``salvage``), with one it keeps
    that one, and the other goes to the bottom of the deck (RULINGS.md R14)."""
    f = ctx.f(holder)
    source = game.salvage_source(ctx.s, holder)
    got = None
    if source == "hand":
        hand = [x for x in f.hand if not game.data.card(x).no_steal]
        if hand:
            got = hand[ctx.rng.below(len(hand))]
            h = list(f.hand)
            h.remove(got)
            ctx.set_f(holder, hand=tuple(h))
    elif source == "discard":
        got = card
        d = list(f.discard)
        d.remove(got)
        ctx.set_f(holder, discard=tuple(d))
    else:
        two = tuple(f.deck[:2])
        ctx.set_f(holder, deck=tuple(f.deck[2:]))
        ctx.update(combat=combat.model_copy(update={"stage": "salvage", "salvage_drawn": two}))
        keep = game._salvage_pick_options(ctx.s)
        if len(keep) >= 2:
            ctx.emit(
                Note(
                    text="Salvage: you drew "
                    + " and ".join(game.card_name(x) for x in two)
                    + f" from the top of the {game.fname(holder)} deck; select one to keep.",
                    visible_to=(ctx.f("coalition").seat,),
                )
            )
            return (
                f"Salvage: the Coalition draws two cards from the top of the {game.fname(holder)} deck "
                "and selects one to keep"
            )
        ctx.update(combat=None)
        if not keep:
            ctx.set_f(holder, deck=ctx.f(holder).deck + two)
            return (
                f"Salvage: neither card drawn from the {game.fname(holder)} deck may be taken; "
                "both go to the bottom of the deck"
            )
        got = keep[0].card
        rest = list(two)
        rest.remove(got)
        ctx.set_f(holder, deck=ctx.f(holder).deck + tuple(rest))
    if got is None:
        return f"Salvage finds nothing the Coalition may take from the {game.fname(holder)} faction"
    return game._salvaged(ctx, holder, got, source)


def salvaged(game: Any, ctx: _Ctx, holder: str, got: str, source: str) -> str:
    """The Coalition takes ``got``; its seat and the loser's seat see its name."""
    f = ctx.f(holder)
    where = {
        "hand": "from its hand",
        "discard": "from its discard pile (its hand is empty)",
        "deck": "from the top of its deck (its hand and discard pile are empty)",
    }[source]
    co = ctx.f("coalition")
    ctx.set_f("coalition", hand=co.hand + (got,))
    ctx.emit(CardsDrawn(faction="coalition", names=(game.card_name(got),), visible_to=(co.seat,)))
    if f.seat != co.seat:
        ctx.emit(
            Note(
                text=f"The Coalition took your {game.card_name(got)} {where.replace('its', 'your')}.",
                visible_to=(f.seat,),
            )
        )
    return f"Salvage: the Coalition takes a {game.fname(holder)} Power Card {where}"


def apply_salvage_pick(game: Any, ctx: _Ctx, a: Any) -> None:
    """The Coalition selects one of the two cards drawn to keep; the other goes to the
    bottom of its owner's deck (Salvage, RULINGS.md R14)."""
    c = ctx.s.combat
    opts = game._salvage_pick_options(ctx.s)
    if not isinstance(a, Plunder) or a not in opts:
        raise IllegalActionError(
            "Salvage: select one of the two cards drawn to keep: "
            + list_words([f"salvage {game.card_name(o.card)}" for o in opts])
            + "."
        )
    loser = c.defender if c.attacker == "coalition" else c.attacker
    holder = game.hand_owner(loser)
    rest = list(c.salvage_drawn)
    rest.remove(a.card)
    ctx.set_f(holder, deck=ctx.f(holder).deck + tuple(rest))
    ctx.update(combat=None)
    text = game._salvaged(ctx, holder, a.card, "deck")
    cost = c.lines[0] if c.lines else f"Coalition Rage is {ctx.f('coalition').rage}"
    ctx.note(f"{text}; the other card goes to the bottom of the deck; {cost} (plunder costs 1 Rage).")
    last = ctx.s.last_combat
    if last is not None and last.territory == c.territory:
        ctx.update(last_combat=last.model_copy(update={"text": f"{last.text} Plunder: {text}; {cost}."}))


def gospel_unit_home(game: Any, ctx: _Ctx, holder: str, card: str) -> None:
    """Gospel leaving play: the unit on it goes back to its faction's supply and no
    faction is named any more (RULINGS.md R26)."""
    named = ctx.f(holder).gospel
    if game.data.card(card).id != "gospel" or named is None:
        return
    ctx.set_f(named, supply=ctx.f(named).supply + 1)
    ctx.set_f(holder, gospel=None)
    ctx.note(f"The {game.fname(named)} unit on Gospel returns to its supply.")


def exploit(game: Any, ctx: _Ctx, holder: str, card: str | None) -> str:
    """Exploit: the defeated faction discards a Power Card: the face-up Durable card
    the Coalition names, or a random card from its hand (RULINGS.md R14)."""
    f = ctx.f(holder)
    if card is not None:
        ctx.set_f(holder, durable=tuple(x for x in f.durable if x != card))
        game._gospel_unit_home(ctx, holder, card)
        if game.data.card(card).revolt:
            # its Gray units stay on the board without a card or yellow die (R13, R14)
            back = sum(len(r.dice) for r in ctx.s.revolts if r.card == card)
            revolts = tuple(
                r.model_copy(update={"dice": (), "discarded": True}) if r.card == card else r
                for r in ctx.s.revolts
                if r.card != card or r.on_board > 0
            )
            ctx.update(revolts=revolts, yellow=ctx.s.yellow + back)
        game._to_discard(ctx, card)
        return f"Exploit: the {game.fname(holder)} faction discards {game.card_name(card)}"
    got = f.hand[ctx.rng.below(len(f.hand))]
    game._discard_card(ctx, holder, got)
    return f"Exploit: the {game.fname(holder)} faction discards {game.card_name(got)} from its hand"
