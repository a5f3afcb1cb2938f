"""Combat (rule text: Combat): Combat Cards and Power Cards committed, the Elder, combat values and the lowest-wins cards, and the steps after the reveal."""

from __future__ import annotations

from itertools import chain
from typing import Any

from games.core import (
    IllegalActionError,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    Combat,
    Commit,
    Elder,
    Pass,
    State,
)
from .context import _Ctx

FACE_DOWN = frozenset({"pharaohs-fate", "guardian-angel"})
"""The Power Cards a side may keep face down at the reveal (Pharaoh's Fate, Guardian Angel)."""

COMBAT_STEPS = ("elder", "pharaoh", "grace", "angel", "crucify", "outcome")
"""The decisions after a combat's reveal, in order (Combat; RULINGS.md R9, R16)."""


def begin_combat(game: Any, ctx: _Ctx, attacker: str, defender: str, territory: str) -> None:
    """Initiate Combat between ``attacker`` and ``defender`` in ``territory``; the Elder is asked
    first."""
    ctx.update(combat=Combat(territory=territory, attacker=attacker, defender=defender, stage="elder"))
    ctx.note(f"{game.fname(attacker)} attacks {game.fname(defender)} in {game.tname(territory)}.")
    game._ask_elder(ctx)


def elder_card(game: Any, s: State, side: str) -> str | None:
    """The Elder card ``side`` may play face up now (RULINGS.md R9), or None."""
    return next((x for x in game._combat_powers(s, side) if game.data.card(x).id == "elder"), None)


def could_hold_elder(game: Any, s: State, side: str) -> bool:
    """Whether ``side`` may hold an Elder it could play now, as far as the table can
    tell (RULINGS.md R25): it may play a combat Power Card, holds cards, and an Elder is
    among its hand and deck together (what left them was seen). Its hand is never
    looked at alone, so who is asked says nothing about it."""
    c = s.combat
    if c.elder is not None:
        return False
    holder = game.hand_owner(side)
    if side == c.attacker and (s.second_turn or s.power_played >= s.power_limit):
        return False
    return game._could_hold(s, holder, "elder")


def could_hold(game: Any, s: State, holder: str, card_id: str) -> bool:
    """Whether ``holder``'s hand may hold a copy of ``card_id``, as far as the table can
    tell (RULINGS.md R25): the hand holds cards, and a copy is among hand and deck
    together (every card that left them was seen), or among the Coalition's salvaged cards, which
    the table cannot tell from the ones still in the hand."""
    f = s.factions[holder]
    if holder == "coalition":
        # its hand holds only salvaged cards, named to the Coalition and the loser alone:
        # any copy still in a hand or deck somewhere may be among them
        hidden = chain.from_iterable(g.hand + g.deck for g in s.factions.values())
        return bool(f.hand) and any(game.data.card(x).id == card_id for x in hidden)
    if game.data.card(card_id).faction != holder:
        return False  # a faction holds only its own deck's cards
    co = s.factions.get("coalition")
    hidden = f.hand + f.deck + (co.hand if co is not None else ())
    return bool(f.hand) and any(game.data.card(x).id == card_id for x in hidden)


def ask_elder(game: Any, ctx: _Ctx) -> None:
    """Before the secret choice, each side that could hold Elder (attacker first) is
    asked whether to play it face up, holding it or not (R9, R25); with nobody left to ask,
    the face-down Power Cards (rules.prepare), then the Combat Cards."""
    c = ctx.s.combat
    if c.elder is None:
        for side in (c.attacker, c.defender):
            if side not in c.elder_declined and game._could_hold_elder(ctx.s, side):
                ctx.update(combat=c.model_copy(update={"asking": side, "question": "elder_play"}))
                return
    game._ask_powers(ctx)


def combat_powers(game: Any, s: State, side: str) -> list[str]:
    """Combat Power Cards ``side`` may play in this combat: none once Elder is face
    up ("No other Power Cards affect this combat"; RULINGS.md R9)."""
    c = s.combat
    if c.elder is not None:
        return []
    holder = game.hand_owner(side)
    if side == c.attacker and (s.second_turn or s.power_played >= s.power_limit):
        return []
    return [x for x in game.distinct(s.factions[holder].hand) if "combat" in game.data.card(x).phases]


def conscript_max(game: Any, s: State, side: str) -> int:
    """How many captured units Conscription may add for ``side`` (Rome only, at most 2; none with
    the Elder face up)."""
    if side != "rome" or not game.durable(s, "rome", "conscription") or s.combat.elder is not None:
        return 0
    return min(2, sum(s.factions["rome"].captured.values()))


def commit_options(game: Any, s: State, side: str) -> list[Commit]:
    """Every Combat Card ``side`` may commit (Combat: "any unused Combat Card the faction desires")."""
    return [Commit(card=card) for card in game.combat_cards(s, side)]


def apply_elder_play(game: Any, ctx: _Ctx, side: str, a: Any) -> None:
    """Elder, "Play face up before either Combat card is played" (RULINGS.md R9)."""
    s = ctx.s
    c = s.combat
    if isinstance(a, Pass):
        ctx.update(combat=c.model_copy(update={"elder_declined": c.elder_declined + (side,)}))
        ctx.note(f"{game.fname(side)} does not play Elder.")
        game._ask_elder(ctx)
        return
    if not isinstance(a, Elder) or a.choice != "play":
        raise IllegalActionError(
            "Before the Combat Cards are chosen: play Elder face up (elder), or pass."
        )
    card = game._elder_card(s, side)
    if card is None:
        raise IllegalActionError("You hold no Elder to play face up; pass.")
    holder = game.hand_owner(side)
    hand = list(s.factions[holder].hand)
    hand.remove(card)
    ctx.set_f(holder, hand=tuple(hand))
    if side == c.attacker:
        ctx.update(power_played=ctx.s.power_played + 1)
    line = f"{game.fname(side)} plays Elder face up: no other Power Cards affect this combat"
    ctx.update(
        combat=c.model_copy(
            update={
                "elder": side,
                "powers": {side: card},
                "stage": "choose",
                "asking": None,
                "question": None,
                "lines": (line,),
            }
        )
    )
    ctx.note(line + ".")


def apply_commit(game: Any, ctx: _Ctx, side: str, a: Any) -> None:
    """A side's secret Combat Card; a pass commits the first unused card (RULINGS.md R9). The
    reveal follows when both have chosen."""
    s = ctx.s
    cards = game.combat_cards(s, side)
    passed = isinstance(a, Pass)
    if passed:
        # no choice in time: the first unused card of the deck (RULINGS.md R9)
        a = Commit(card=cards[0])
    if not isinstance(a, Commit):
        raise IllegalActionError("Choose your Combat Card in secret: commit <card>.")
    if a.card not in cards:
        raise IllegalActionError(
            "Choose an unused Combat Card: " + list_words([game.data.combat[c].name for c in cards]) + "."
        )
    c = s.combat
    choices = {**c.choices, side: a}
    ctx.update(combat=c.model_copy(update={"choices": choices}))
    if passed:
        ctx.note(f"No choice made: {game.fname(side)} plays {game.data.combat[a.card].name}.")
    else:
        ctx.note(f"{game.fname(side)} chose a Combat Card face down.")
    if len(choices) == 2:
        game._resolve_combat(ctx)


def lowest_wins(game: Any, a: str, b: str) -> bool:
    """Resolving Combat: the lowest value wins when Romans or Jews (or the Gray)
    fight Christians; otherwise the highest."""
    return "christians" in (a, b) and ({a, b} - {"christians"}) <= {"rome", "jews", "gray"}


def combat_value(
    game: Any, s: State, territory: str, side: str, other: str, number: int, rage: bool = True
) -> int:
    """Combat Value = # Units + # on Combat Card + Rage (Coalition only), less the
    Christian units when the Coalition fights Rome or the Jews (Modifiers; 2-Player
    Rules 4). Card effects are applied by the caller."""
    v = game.side_units(s, territory, side) + number
    if side == "coalition":
        if rage:
            v += s.factions["coalition"].rage
        if other in ("rome", "jews", "gray") and not (
            s.players == 2 and game.same_player(s, "coalition", "christians")
        ):
            v -= game.units(s, territory, "christians")
    return v


def leader(game: Any, c: Combat, values: dict[str, int]) -> str:
    """The side winning on ``values`` (ties to the defender)."""
    att, dfn = c.attacker, c.defender
    if game.lowest_wins(att, dfn):
        return att if values[att] < values[dfn] else dfn
    return att if values[att] > values[dfn] else dfn


def resolve_combat(game: Any, ctx: _Ctx) -> None:
    """Reveal, apply the card effects (a cancelling card first, else the attacker's
    first), total the Combat Values and find who is winning (ties to the defender);
    then the decisions after the reveal (Elder, Pharaoh's Fate, Grace, Crucify) and
    the outcome (Initiate Combat; RULINGS.md R9, R16)."""
    s = ctx.s
    c = s.combat
    t = c.territory
    att, dfn = c.attacker, c.defender
    ca, cd = c.choices[att], c.choices[dfn]
    card = {att: game.data.combat[ca.card], dfn: game.data.combat[cd.card]}
    # the Power Cards played face down before the Combat Cards (Elder aside: it acts after the reveal)
    power = {x: p if p and c.elder is None else None for x in (att, dfn) for p in [c.powers.get(x)]}
    low = game.lowest_wins(att, dfn)

    def shown(p: str | None) -> str:
        if not p:
            return ""
        if game.data.card(p).id in FACE_DOWN:
            return " and keeps a Power Card face down"
        return f" with {game.card_name(p)}"

    lines = list(c.lines) + [
        f"{game.fname(att)} reveals {card[att].name} ({card[att].number})" + shown(power[att]),
        f"{game.fname(dfn)} reveals {card[dfn].name} ({card[dfn].number})" + shown(power[dfn]),
    ]
    mod, early_winner = card_effects(game, ctx, c, card, low, lines)
    for side in (att, dfn):
        p = power[side]
        if p and game.data.card(p).id in ("praetorian-guard", "hasmonean-valour", "martyrdom"):
            mod[side] += -2 if low else 2
            lines.append(
                f"{game.card_name(p)}: {game.fname(side)} "
                + ("-2 toward winning (lowest wins)" if low else "+2 toward winning")
            )
    val = {
        side: game.combat_value(ctx.s, t, side, dfn if side == att else att, card[side].number)
        + c.conscripted.get(side, 0)
        + mod[side]
        for side in (att, dfn)
    }
    winner = early_winner if early_winner is not None else game._leader(c, val)
    if early_winner is not None:
        lines.append(
            f"the last {game.fname(dfn if winner == att else att)} unit is gone before the combat is resolved"
        )
    lines.append(
        f"Combat Values: {game.fname(att)} {val[att]}, {game.fname(dfn)} {val[dfn]}"
        + (" (lowest wins)" if low else "")
    )
    ctx.update(
        combat=c.model_copy(
            update={
                "stage": "decide",
                "values": val,
                "winner": winner,
                "early": early_winner is not None,
                "lines": tuple(lines),
            }
        )
    )
    game._advance_combat(ctx, "elder")
    if ctx.s.combat is not None and ctx.s.combat.stage == "decide":
        # a decision is pending: everyone sees the reveal now (else the result tells it)
        ctx.note(
            f"Combat in {game.tname(t)}: "
            + "; ".join(lines[len(c.lines) :])
            + f"; {game.fname(winner)} is winning"
            + (" (a tie goes to the defender)." if val[att] == val[dfn] and early_winner is None else ".")
        )


def card_effects(
    game: Any, ctx: _Ctx, c: Any, card: dict[str, Any], low: bool, lines: list[str]
) -> tuple[dict[str, int], str | None]:
    """The Combat Cards' effects (a cancelling card first, else each in turn): the
    modifiers toward winning of each side, and the side whose kill removed the last enemy
    unit before the combat is resolved (Combat Cards; RULINGS.md R16)."""
    att, dfn = c.attacker, c.defender
    t = c.territory
    cancel = {x: card[x].effect == "cancel" for x in (att, dfn)}
    active = {
        att: not cancel[dfn] and card[att].effect not in ("none", "cancel"),
        dfn: not cancel[att] and card[dfn].effect not in ("none", "cancel"),
    }
    mod = {att: 0, dfn: 0}
    early_winner: str | None = None
    for side in (att, dfn):
        other = dfn if side == att else att
        sign = -1 if low else 1
        e = card[side]
        if not active[side]:
            if cancel[other] and card[side].effect not in ("none", "cancel"):
                lines.append(f"{card[other].name} cancels {e.name}")
            continue
        if e.effect == "edge":
            mod[side] += sign * e.n
        elif e.effect == "hinder":
            mod[other] -= sign * e.n
        elif e.effect == "reinforce":
            k = min(e.n, ctx.f(side).supply, game.room(ctx.s, t, side))
            ctx.from_supply(t, side, k)
            lines.append(f"{e.name}: {count(k, game.fname(side) + ' unit')} join" + ("s" if k == 1 else ""))
        elif e.effect == "kill":
            k = min(e.n, game.units(ctx.s, t, other))
            ctx.to_supply(t, other, k)
            lines.append(f"{e.name}: {k} {game.fname(other)} unit{'s' if k != 1 else ''} removed")
            if game.units(ctx.s, t, other) == 0 and early_winner is None:
                early_winner = side
    return mod, early_winner


def ask(game: Any, ctx: _Ctx, side: str, question: str) -> None:
    """Put ``question`` to ``side`` in the combat under way."""
    c = ctx.s.combat
    ctx.update(combat=c.model_copy(update={"asking": side, "question": question}))


def line(game: Any, ctx: _Ctx, text: str) -> None:
    """Add a line to the combat's report."""
    c = ctx.s.combat
    ctx.update(combat=c.model_copy(update={"lines": c.lines + (text,)}))


def loser(game: Any, c: Combat) -> str:
    """The side that lost combat ``c``."""
    return c.defender if c.winner == c.attacker else c.attacker


def drop_power(game: Any, ctx: _Ctx, side: str) -> None:
    """Take ``side``'s Power Card out of the combat (it returns to the hand or the discard pile
    elsewhere)."""
    c = ctx.s.combat
    ctx.update(combat=c.model_copy(update={"powers": {x: p for x, p in c.powers.items() if x != side}}))


def rome_losses(game: Any, s: State) -> int:
    """The Roman units the outcome would remove (0 unless Rome loses)."""
    c = s.combat
    if game._loser(c) != "rome" or c.early or c.no_losses:
        return 0
    n = game.units(s, c.territory, "rome")
    if c.winner == "christians":
        return min(abs(c.values[c.attacker] - c.values[c.defender]), n)
    return n


def crucify_options(game: Any, s: State) -> list[str]:
    """Factions whose captured unit Crucify may return now (RULINGS.md R16)."""
    c = s.combat
    if (
        c.elder is not None
        or "rome" not in (c.attacker, c.defender)
        or not game.durable(s, "rome", "crucify")
        or not game._rome_losses(s)
    ):
        return []
    return [f for f, k in sorted(s.factions["rome"].captured.items()) if k > 0]


def face_down(game: Any, c: Combat, card_id: str) -> list[tuple[str, str]]:
    """(side, card) for each combat side holding a Power Card of ``card_id`` face down."""
    return [
        (side, p)
        for side in (c.attacker, c.defender)
        if (p := c.powers.get(side)) and game.data.card(p).id == card_id
    ]


def reveal_asked(game: Any, s: State) -> list[str]:
    """The sides still to answer Pharaoh's Fate's "choose whether or not to reveal this card",
    winning or losing (RULINGS.md R9): a side holding it face down, and the Coalition holding
    Guardian Angel face down while a Pharaoh's Fate may still be hidden, since the table cannot
    tell its two face-down cards apart (R25; it can only keep that one)."""
    c = s.combat
    pf_hidden = any(
        game.data.card(x).id == "pharaohs-fate" for f in s.factions.values() for x in f.hand + f.deck
    ) or bool(game._face_down(c, "pharaohs-fate"))
    out = []
    for side in (c.attacker, c.defender):
        p = c.powers.get(side)
        if p is None or side in c.reveal_answered:
            continue
        cid = game.data.card(p).id
        if cid == "pharaohs-fate" or (cid == "guardian-angel" and side == "coalition" and pf_hidden):
            out.append(side)
    return out


def grace_asked(game: Any, s: State) -> list[str]:
    """The side still to answer Grace's "2) reverse a combat result" (RULINGS.md R9): the side
    holding Grace face up (the Christians, or the Coalition with a salvaged copy) with option 2
    free, winning or losing; not with Elder face up."""
    c = s.combat
    if c.elder is not None:
        return []
    return [
        side
        for side in (c.attacker, c.defender)
        if side in ("christians", "coalition") and side not in c.grace_answered and game.grace_free(s, 2, side)
    ]


def advance_combat(game: Any, ctx: _Ctx, step: str) -> None:
    """Run the steps after the reveal from ``step`` on: ask the one faction whose
    decision is due (only when it has a real choice), or do what needs no choice;
    the outcome once no decision is left (RULINGS.md R9, R16)."""
    for st in COMBAT_STEPS[COMBAT_STEPS.index(step) :]:
        c = ctx.s.combat
        if st == "elder" and c.elder is not None and not c.early:
            game._ask(ctx, c.elder, "elder")
            return
        if st == "pharaoh":
            side = next(iter(game._reveal_asked(ctx.s)), None)
            if side is not None:
                game._ask(ctx, side, "pharaoh")
                return
        c = ctx.s.combat
        if st == "grace":
            side = next(iter(game._grace_asked(ctx.s)), None)
            if side is not None:
                game._ask(ctx, side, "grace")
                return
        if st == "angel":
            for side, p in game._face_down(c, "guardian-angel"):
                game._drop_power(ctx, side)
                if side == game._loser(c):
                    game._to_discard(ctx, p)
                    c = ctx.s.combat
                    ctx.update(combat=c.model_copy(update={"no_losses": True}))
                    game._line(
                        ctx,
                        f"Guardian Angel is revealed: the {game.fname(side)} faction suffers no losses",
                    )
                else:
                    game._return_card(ctx, side, p, attacker=side == c.attacker)
                    game._line(ctx, f"the {game.fname(side)} face-down Power Card returns to its hand")
                c = ctx.s.combat
        if st == "crucify" and game.crucify_options(ctx.s):
            game._ask(ctx, "rome", "crucify")
            return
        if st == "outcome":
            c = ctx.s.combat
            ctx.update(combat=c.model_copy(update={"asking": None, "question": None}))
            game._finish_combat(ctx)
