"""Collect Tribute and Giving (Power Cards): the other factions lower a die or give one, each in turn."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
    Prompt,
)
from games.core.english import count

from ..model import (
    Done,
    Give,
    Lower,
    Pass,
    Raise,
    State,
)
from ..queries import (
    GIVING_PIPS,
    WHO,
)
from .context import _Ctx


def tribute_options(game: Any, s: State, f: str) -> list[Any]:
    """The answers to Collect Tribute or Giving: lower, raise or give one die, pass or done."""
    if s.giving is not None:
        return [Pass()] + [Give(die=i) for i in game.dice_where(s, f, lambda d: True)]
    if s.tribute.waiting:
        return [Pass()] + [Lower(die=i) for i in game.lower_choices(s, f)]
    return [Done()] + [Raise(die=i) for i in game.dice_where(s, f, lambda d: d.value < 6)]


def choices_text(game: Any, s: State, f: str, verb: str) -> str:
    """The dice ``f`` may ``verb`` now, as the notation names them."""
    dice = s.factions[f].dice
    acts = [a for a in game._tribute_options(s, f) if isinstance(a, Lower | Give | Raise)]
    acts.sort(key=lambda a: (dice[a.die].value, not dice[a.die].seq))
    return ", ".join(f"{verb} {game.die_word(dice[a.die])}" for a in acts)


def tribute_prompt(game: Any, s: State, f: str) -> Prompt:
    """The question of Collect Tribute (lower a die, or raise one) or Giving (give a die), to the
    faction choosing."""
    if s.giving is not None:
        given = s.giving.given
        return Prompt(
            kind="respond",
            text=f"Giving: the Christians take {GIVING_PIPS} pips from {WHO[f]} ({given} given so far) — "
            f"give one of your Unspent dice: {game._choices_text(s, f, 'give')}; or pass to give the "
            "least costly one.",
        )
    t = s.tribute
    if t.waiting:
        if all(s.factions[f].dice[i].value == 1 for i in game.lower_choices(s, f)):
            what = "you have only 1s Unspent: move one to your Spent Dice area"
        else:
            what = "lower one of your Unspent dice by 1 pip"
        return Prompt(
            kind="respond",
            text=f"Collect Tribute: {WHO[t.player]} collects from {WHO[f]} — {what}: "
            f"{game._choices_text(s, f, 'lower')}; or pass to lower the least costly one.",
        )
    left = t.collected - t.raised
    return Prompt(
        kind="turn",
        text=f"Collect Tribute: {WHO[f]} has {left} of the {count(t.collected, 'pip')} collected left — raise one "
        f"of your Unspent dice by 1 pip: {game._choices_text(s, f, 'raise')}; or done.",
    )


def tribute_next(game: Any, ctx: _Ctx) -> None:
    """Resolve what needs no choice: a faction without Unspent dice is skipped, one
    with a single choice lowers it; then the player raises, or it is over."""
    while True:
        t = ctx.s.tribute
        if not t.waiting:
            break
        g = t.waiting[0]
        choices = game.lower_choices(ctx.s, g)
        if not choices:
            ctx.note(f"Collect Tribute: {WHO[g]} has no Unspent dice to lower.")
            ctx.update(tribute=t.model_copy(update={"waiting": t.waiting[1:]}))
        elif len(choices) == 1:
            game._lower(ctx, g, choices[0], " (no other choice)")
        else:
            return
    t = ctx.s.tribute
    if t.raised < t.collected and game.dice_where(ctx.s, t.player, lambda d: d.value < 6):
        return
    game._tribute_finish(ctx, "" if t.raised == t.collected else "; no Unspent die below 6 is left")


def tribute_finish(game: Any, ctx: _Ctx, why: str) -> None:
    """Collect Tribute ends: what was collected and raised, told to the table."""
    t = ctx.s.tribute
    ctx.note(f"Collect Tribute: {WHO[t.player]} collected {count(t.collected, 'pip')} and raised {t.raised}{why}.")
    ctx.update(tribute=None)


def lower(game: Any, ctx: _Ctx, g: str, i: int, why: str = "") -> None:
    """``g`` pays its pip: die ``i`` is lowered by 1, or a 1 goes to Spent; either
    counts as 1 pip collected (RULINGS.md R15)."""
    t = ctx.s.tribute
    d = ctx.f(g).dice[i]
    where = "" if d.seq else " (outside its Dice Sequence)"
    if d.value > 1:
        ctx.set_die(g, i, value=d.value - 1)
        text = f"{WHO[g]} lowers a {d.value}{where} to {d.value - 1}"
    else:
        ctx.set_die(g, i, place="spent", seq=False)
        text = f"{WHO[g]} has only 1s Unspent and moves a 1{where} to its Spent Dice area"
    ctx.note(f"Collect Tribute: {text}{why}.")
    ctx.update(tribute=t.model_copy(update={"waiting": t.waiting[1:], "collected": t.collected + 1}))


def apply_tribute(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """An answer to Collect Tribute: the other factions lower a die in turn (a pass lowers the
    default), then the player raises its dice."""
    t = ctx.s.tribute
    dice = ctx.f(f).dice
    if t.waiting:
        legal = game._choices_text(ctx.s, f, "lower")
        if isinstance(a, Pass):
            game._lower(ctx, f, game.lower_default(ctx.s, f), " (passed)")
        elif not isinstance(a, Lower) or not (0 <= a.die < len(dice) and dice[a.die].place == "unspent"):
            raise IllegalActionError(
                f"Collect Tribute: lower one of your Unspent dice by 1 pip: {legal}; or pass."
            )
        elif dice[a.die].value == 1 and any(d.place == "unspent" and d.value > 1 for d in dice):
            raise IllegalActionError(
                f"Collect Tribute: a 1 cannot be lowered while you have a higher Unspent die: {legal}."
            )
        else:
            game._lower(ctx, f, a.die)
        game._tribute_next(ctx)
        return
    if isinstance(a, Done):
        game._tribute_finish(ctx, " (stopped)")
        return
    legal = game._choices_text(ctx.s, f, "raise")
    if not isinstance(a, Raise) or not (0 <= a.die < len(dice) and dice[a.die].place == "unspent"):
        raise IllegalActionError(
            f"Collect Tribute: raise one of your Unspent dice by 1 pip: {legal}; or done."
        )
    if dice[a.die].value >= 6:
        raise IllegalActionError(f"Collect Tribute: no die goes above 6; raise one of: {legal}; or done.")
    ctx.set_die(f, a.die, value=dice[a.die].value + 1)
    ctx.update(tribute=t.model_copy(update={"raised": t.raised + 1}))
    where = "" if dice[a.die].seq else " (outside its Dice Sequence)"
    ctx.note(
        f"Collect Tribute: {WHO[f]} raises a {dice[a.die].value}{where} to {dice[a.die].value + 1} "
        f"({t.raised + 1} of {count(t.collected, 'pip')})."
    )
    game._tribute_next(ctx)


def giving_next(game: Any, ctx: _Ctx) -> None:
    """Give what needs no choice (every Unspent die when they total 4 pips or less; the
    only kind of die left), then finish: the Christians draw 2 Power Cards."""
    while True:
        gv = ctx.s.giving
        need = GIVING_PIPS - gv.given
        dice = ctx.f(gv.giver).dice
        unspent = [i for i, d in enumerate(dice) if d.place == "unspent"]
        if need <= 0 or not unspent:
            break
        if sum(dice[i].value for i in unspent) <= need:
            for i in unspent:
                game._give(ctx, gv.giver, i)
            break
        choices = game.dice_where(ctx.s, gv.giver, lambda d: True)
        if len(choices) > 1:
            return
        game._give(ctx, gv.giver, choices[0])
    gv = ctx.s.giving
    ctx.update(giving=None)
    who, values = WHO[gv.giver], ", ".join(map(str, gv.values))
    if gv.given >= GIVING_PIPS:
        ctx.note(f"Giving: {who} gives the Christians {count(gv.given, 'pip')} ({values}).")
    elif gv.values:
        ctx.note(f"Giving: {who} has only {count(gv.given, 'pip')} Unspent and gives them all ({values}).")
    else:
        ctx.note(f"Giving: {who} has no Unspent dice to give.")
    game._draw(ctx, "christians", 2, "Giving")
    game._give_to_caesar(ctx, "christians")


def give(game: Any, ctx: _Ctx, g: str, i: int) -> None:
    """Faction ``g`` gives die ``i`` to Giving: it is spent and its pips are counted."""
    gv = ctx.s.giving
    v = ctx.f(g).dice[i].value
    ctx.set_die(g, i, place="spent", seq=False)
    ctx.update(giving=gv.model_copy(update={"given": gv.given + v, "values": gv.values + (v,)}))


def apply_giving(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """An answer to Giving: the faction named gives an Unspent die (a pass gives the least costly
    one)."""
    dice = ctx.f(f).dice
    if isinstance(a, Pass):
        i = game.give_default(ctx.s, f)
    elif isinstance(a, Give) and 0 <= a.die < len(dice) and dice[a.die].place == "unspent":
        i = a.die
    else:
        raise IllegalActionError(
            "Giving: give the Christians one of your Unspent dice: "
            f"{game._choices_text(ctx.s, f, 'give')}; or pass."
        )
    game._give(ctx, f, i)
    game._giving_next(ctx)
