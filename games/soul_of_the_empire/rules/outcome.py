"""The end of a combat (Combat; Crucify, Grace, Pharaoh's Fate, Guardian Angel): the decisions after the reveal, losses, captures and conversions by combat."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    Combat,
    CombatResolved,
    Conversion,
    Crucify,
    Elder,
    Keep,
    LastCombat,
    Pass,
    Reveal,
    State,
    UseGrace,
)
from ..queries import (
    CONVERT_WIN,
    RAGE_MAX,
    RAGE_MIN,
)
from .context import _Ctx


def decide_options(game: Any, s: State) -> list[Any]:
    """The answers to the pending combat decision (RULINGS.md R9, R16)."""
    q = s.combat.question
    if q == "elder_play":
        return [Elder(choice="play"), Pass()] if game._elder_card(s, s.combat.asking) else [Pass()]
    if q == "elder":
        return [Elder(choice="mine"), Elder(choice="theirs"), Elder(choice="none"), Pass()]
    if q == "pharaoh":
        # the Coalition's Guardian Angel, asked like Pharaoh's Fate (R25), can only be kept
        pf = game.data.card(s.combat.powers[s.combat.asking]).id == "pharaohs-fate"
        return [Reveal(), Keep(), Pass()] if pf else [Keep(), Pass()]
    if q == "grace":
        return [UseGrace(), Pass()]
    if q == "crucify":
        return [Crucify(faction=f) for f in game.crucify_options(s)] + [Pass()]
    return []


def apply_decide(game: Any, ctx: _Ctx, side: str, a: Any) -> None:
    """Answer the pending combat decision; Pass takes the option that changes
    nothing (Elder: neither; Pharaoh's Fate: keep; Grace, Crucify: not used)."""
    s = ctx.s
    c = s.combat
    q = c.question
    if q == "elder_play":
        game._apply_elder_play(ctx, side, a)
        return
    legal = game.decide_options(s)
    if a not in legal:
        raise IllegalActionError(game._decide_help(s))
    other = c.defender if side == c.attacker else c.attacker
    if q == "elder":
        choice = a.choice if isinstance(a, Elder) else "none"
        values = dict(c.values)
        if choice == "none":
            game._line(ctx, f"Elder: the {game.fname(side)} faction changes neither Combat Value")
        else:
            who = side if choice == "mine" else other
            values[who] -= 1
            winner = game._leader(c, values)
            game._line(
                ctx,
                f"Elder: -1 to the {game.fname(who)} Combat Value (Combat Values: "
                f"{game.fname(c.attacker)} {values[c.attacker]}, {game.fname(c.defender)} {values[c.defender]})",
            )
            c = ctx.s.combat
            ctx.update(combat=c.model_copy(update={"values": values, "winner": winner}))
        ctx.note(ctx.s.combat.lines[-1] + ".")
        game._advance_combat(ctx, "pharaoh")
        return
    if q == "pharaoh":
        p = c.powers[side]
        ctx.update(combat=c.model_copy(update={"reveal_answered": c.reveal_answered + (side,)}))
        if game.data.card(p).id != "pharaohs-fate":
            # Guardian Angel stays face down until the final result (R9 step 8)
            ctx.note(f"The {game.fname(side)} face-down Power Card stays face down.")
            game._advance_combat(ctx, "pharaoh")
            return
        game._drop_power(ctx, side)
        if isinstance(a, Reveal):
            game._to_discard(ctx, p)
            c = ctx.s.combat
            ctx.update(combat=c.model_copy(update={"winner": game._loser(c)}))
            game._line(ctx, "Pharaoh's Fate is revealed: the result is reversed")
        else:
            game._return_card(ctx, side, p, attacker=side == c.attacker)
            game._line(ctx, f"the {game.fname(side)} face-down Power Card returns to its hand")
        ctx.note(ctx.s.combat.lines[-1][0].upper() + ctx.s.combat.lines[-1][1:] + ".")
        game._advance_combat(ctx, "pharaoh")
        return
    if q == "grace":
        c = c.model_copy(update={"grace_answered": c.grace_answered + (side,)})
        ctx.update(combat=c)
        if isinstance(a, UseGrace):
            ctx.set_f(side, grace_now=2)
            ctx.update(combat=c.model_copy(update={"winner": game._loser(c)}))
            verb = "reverse" if side == "christians" else "reverses"
            game._line(ctx, f"Grace: {game.who_plural(side)} {verb} the combat result")
        else:
            verb = "do" if side == "christians" else "does"
            game._line(ctx, f"{game.who_plural(side)} {verb} not use Grace")
        ctx.note(ctx.s.combat.lines[-1][0].upper() + ctx.s.combat.lines[-1][1:] + ".")
        game._advance_combat(ctx, "grace")
        return
    # crucify
    if isinstance(a, Crucify):
        ctx.update(combat=c.model_copy(update={"crucify": a.faction}))
    else:
        game._line(ctx, "Rome does not use Crucify")
    game._advance_combat(ctx, "outcome")


def decide_help(game: Any, s: State) -> str:
    """What the pending combat decision accepts, in notation."""
    c = s.combat
    q = c.question
    if q == "elder":
        return "Elder: -1 to your own Combat Value (elder mine), to the other side's (elder theirs), or neither (elder none)."
    if q == "pharaoh":
        if game.data.card(c.powers[c.asking]).id != "pharaohs-fate":
            return "Guardian Angel stays face down until the combat result (keep); it cannot be revealed now."
        return "Pharaoh's Fate: reveal it to reverse the combat result (reveal), or return it to your hand (keep)."
    if q == "grace":
        return "Grace: reverse the combat result (grace), or pass."
    if q == "crucify":
        names = list_words([game.fname(f) for f in game.crucify_options(s)])
        return f"Crucify: return 1 captured unit instead of 1 Roman unit (crucify <faction>: {names}), or pass."
    return "Before the Combat Cards are chosen: play Elder face up (elder), or pass."


def decide_prompt(game: Any, s: State) -> str:
    """The question of the decision the combat waits for (Elder, Pharaoh's Fate, Grace, Crucify),
    with the combat's state."""
    c = s.combat
    q = c.question
    if q == "elder_play":
        other = c.defender if c.asking == c.attacker else c.attacker
        return (
            f"Combat in {game.tname(c.territory)}: {game.fname(c.asking)} against {game.fname(other)} — "
            "play Elder face up before the Combat Cards are chosen (no other Power Cards affect this "
            "combat; after the reveal you may -1 either Combat Value): elder, or pass."
        )
    status = game.combat_status(s)
    if q == "elder":
        ask = "Elder: -1 to your own Combat Value (elder mine), to the other side's (elder theirs), or neither (elder none)."
    elif q == "pharaoh":
        ask = (
            f"The {game.fname(c.asking)} face-down Power Card: reveal it (reveal), or take it back into "
            "the hand unrevealed (keep)."
        )  # R25: the public line never names a face-down card
    elif q == "grace":
        ask = "Grace: reverse the combat result (grace), or pass."
    else:
        cap = s.factions["rome"].captured
        ask = (
            f"Crucify: Rome loses {count(game._rome_losses(s), 'unit')} — return 1 captured unit instead of 1 Roman "
            "unit (crucify <faction>: "
            + ", ".join(f"{game.fname(f)} {cap[f]}" for f in game.crucify_options(s))
            + f"; capture track {s.factions['rome'].capture_track}), or pass."
        )
    return f"{status}. {ask}"


def combat_status(game: Any, s: State) -> str:
    """The combat so far, for the decision prompts: both cards, the Combat Values and
    who is winning."""
    c = s.combat
    att, dfn = c.attacker, c.defender
    cards = {x: game.data.combat[c.choices[x].card] for x in (att, dfn)}
    return (
        f"Combat in {game.tname(c.territory)}: {game.fname(att)} {cards[att].name} ({cards[att].number}), "
        f"{game.fname(dfn)} {cards[dfn].name} ({cards[dfn].number}); Combat Values "
        f"{game.fname(att)} {c.values[att]}, {game.fname(dfn)} {c.values[dfn]} "
        f"({'lowest' if game.lowest_wins(att, dfn) else 'highest'} wins) — {game.fname(c.winner)} is winning"
    )


def finish_combat(game: Any, ctx: _Ctx) -> None:
    """The outcome once no decision is left: captures / returns / conversion, Rage,
    Combat Cards face up, the result, then plunder."""
    c = ctx.s.combat
    t = c.territory
    att, dfn = c.attacker, c.defender
    for side in (att, dfn):
        p = c.powers.get(side)
        if p:
            game._to_discard(ctx, p)
    lines = list(c.lines)
    winner = c.winner
    loser = game._loser(c)
    val = c.values
    if val[att] == val[dfn] and winner == dfn and not c.early:
        lines.append(f"a tie goes to the defender, {game.fname(dfn)}")
    else:
        lines.append(f"{game.fname(winner)} wins")
    diff = abs(val[att] - val[dfn])
    plunder = game._combat_result(ctx, winner, loser, t, diff, c.early or c.no_losses, lines, c.crucify)
    # Combat Cards are discarded face up
    for side in (att, dfn):
        owner = game.hand_owner(side)
        used = ctx.f(owner).combat_used + (c.choices[side].card,)
        if len(used) >= len([x for x in game.data.combat.values() if x.faction == owner]):
            used = ()
        ctx.set_f(owner, combat_used=used)
    result = LastCombat(
        territory=t,
        attacker=att,
        defender=dfn,
        attacker_card=game.data.combat[c.choices[att].card].name,
        defender_card=game.data.combat[c.choices[dfn].card].name,
        attacker_value=val[att],
        defender_value=val[dfn],
        winner=winner,
        text=f"Combat in {game.tname(t)}: " + "; ".join(lines) + ".",
    )
    ctx.update(last_combat=result, combat=None)
    ctx.emit(CombatResolved(result=result))
    game._revolt_check(ctx)
    if game._check_victory(ctx):
        return
    if plunder:
        ctx.update(combat=Combat(territory=t, attacker=att, defender=dfn, choices={}, stage="plunder"))
        if len(game._plunder_options(ctx.s)) == 1:
            # nothing to plunder: no question (RULINGS.md R14)
            ctx.update(combat=None)


def combat_result(
    game: Any,
    ctx: _Ctx,
    winner: str,
    loser: str,
    t: str,
    diff: int,
    no_losses: bool,
    lines: list[str],
    crucify: str | None = None,
) -> bool:
    """Apply the outcome; returns whether the Coalition may now plunder."""
    n = game.units(ctx.s, t, loser)
    if loser == "coalition":
        rage = min(RAGE_MAX, ctx.f("coalition").rage + 1)
        ctx.set_f("coalition", rage=rage)
        lines.append(f"Coalition Rage rises to {rage}")
    if no_losses or n == 0:
        losses = 0
    elif winner == "rome":
        losses = n
        if losses:
            ctx.add_units(t, loser, -losses)
            cap = dict(ctx.f("rome").captured)
            cap[loser] = cap.get(loser, 0) + losses
            ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + losses)
            lines.append(
                f"Rome captures {losses} {game.fname(loser)} unit{'s' if losses != 1 else ''} "
                f"(capture track {ctx.f('rome').capture_track})"
            )
    elif winner == "christians":
        losses = game._crucify(ctx, loser, min(diff, n), crucify, lines)
        if losses:
            ctx.to_supply(t, loser, losses)
            removed = f"{losses} {game.fname(loser)} unit{' is' if losses == 1 else 's are'} removed"
            if game.convert_sources(ctx.s, t):
                ctx.update(conversion=Conversion(territory=t, count=losses))
                lines.append(f"{removed}; the Christians may convert up to {losses}")
            else:
                lines.append(f"{removed}; no Christian unit is left to convert them")
    else:
        losses = game._crucify(ctx, loser, n, crucify, lines)
        ctx.to_supply(t, loser, losses)
        lines.append(f"{losses} {game.fname(loser)} unit{' returns' if losses == 1 else 's return'} to supply")
    if winner == "coalition":
        co = ctx.f("coalition")
        rage = max(RAGE_MIN, co.rage - 1)
        ctx.set_f("coalition", rage=rage)
        lines.append(f"Coalition Rage falls to {rage}")
        return rage > RAGE_MIN and game.units(ctx.s, t, "coalition") > 0
    return False


def crucify(game: Any, ctx: _Ctx, loser: str, n: int, crucify: str | None, lines: list[str]) -> int:
    """Crucify, as Rome chose: 1 captured unit of ``crucify`` returns to its supply
    instead of 1 Roman unit; returns the Roman units still lost (RULINGS.md R16)."""
    if loser != "rome" or crucify is None or n <= 0:
        return n
    game._release_captured(ctx, 1, crucify)
    lines.append(
        f"Crucify: a captured {game.fname(crucify)} unit returns to its supply instead of a Roman unit "
        f"(capture track {ctx.f('rome').capture_track})"
    )
    return n - 1


def release_captured(game: Any, ctx: _Ctx, k: int, who: str | None = None) -> None:
    """Return ``k`` captured units (of ``who``, else the largest group first) to their
    supplies; the capture track falls by ``k`` (Conscription, Crucify)."""
    for _ in range(k):
        cap = dict(ctx.f("rome").captured)
        if not any(cap.values()):
            return
        f = who if who is not None else max(sorted(cap), key=lambda x: cap[x])
        cap[f] -= 1
        if not cap[f]:
            del cap[f]
        ctx.set_f("rome", captured=cap, capture_track=max(0, ctx.f("rome").capture_track - 1))
        ctx.set_f(f, supply=ctx.f(f).supply + 1)


def convert_in(game: Any, ctx: _Ctx, t: str, k: int) -> int:
    """Holy Spirit's conversion (an authored card: "put 1 Christian unit from supply in
    its place"): Christian units from supply, then from the Roman Captured Unit Area,
    replace the ``k`` removed units; the tracker advances; units over the 6-unit limit
    move to adjacent territories. A combat's conversion is the Christians' choice
    instead (``_apply_conversion``, RULINGS.md R10). Returns the units converted."""
    from_supply = min(k, ctx.f("christians").supply)
    ctx.from_supply(t, "christians", from_supply)
    done = from_supply
    rest = k - from_supply
    if rest and "rome" in ctx.s.factions:
        cap = dict(ctx.f("rome").captured)
        take = min(rest, cap.get("christians", 0))
        if take:
            cap["christians"] -= take
            if not cap["christians"]:
                del cap["christians"]
            ctx.set_f("rome", captured=cap)
            ctx.add_units(t, "christians", take)
            done += take
    # the tracker stops at 18, the special victory's count (RULINGS.md R24)
    ctx.set_f("christians", converted=min(CONVERT_WIN, ctx.f("christians").converted + done))
    game._overflow(ctx, t, "christians")
    return done
