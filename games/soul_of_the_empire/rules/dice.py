"""Rolling and readying the dice (Using Your Dice; The Dice Sequence): up to three rolls, the yellow dice of the Jewish Revolt cards, and the extra rolls of returned dice."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    DiceRolled,
    Die,
    ExtraRoll,
    Keep,
    Ready,
    Reroll,
    Rolling,
    State,
)
from ..queries import (
    is_sequence,
)
from .context import _Ctx


def start_rolling(game: Any, ctx: _Ctx, faction: str, reason: str) -> None:
    """Roll and ready (Using Your Dice): roll the dice in the Unspent and Spent
    areas (all five at setup and when passing); the faction may reroll any of
    them twice more, then readies them, choosing its Dice Sequence."""
    f = ctx.f(faction)
    if reason == "end":
        rolled = tuple(i for i, d in enumerate(f.dice) if d.place in ("unspent", "spent"))
    else:
        rolled = tuple(range(len(f.dice)))
    dice = list(f.dice)
    for i in rolled:
        dice[i] = Die(value=ctx.rng.die(6), place="unspent")
    ctx.set_f(faction, dice=tuple(dice))
    values = tuple(d.value if i in rolled else 0 for i, d in enumerate(dice))
    ctx.emit(
        DiceRolled(
            faction=faction,
            values=values,
            text=f"{game.fname(faction)} rolled "
            + (", ".join(str(dice[i].value) for i in rolled) or "no dice")
            + ".",
        )
    )
    if faction == "jews":
        game._roll_yellow(ctx)
    ctx.update(rolling=Rolling(faction=faction, dice=rolled, rerolls=2 if rolled else 0, reason=reason))
    if not rolled:
        game._finish_rolling(ctx, ())


def roll_yellow(game: Any, ctx: _Ctx) -> None:
    """The yellow dice return to their revolt cards and are rolled (RULINGS.md R13)."""
    revolts = []
    for r in ctx.s.revolts:
        revolts.append(
            r.model_copy(
                update={"dice": tuple(Die(value=ctx.rng.die(6), place="unspent") for _ in r.dice)}
            )
        )
    if revolts:
        ctx.update(revolts=tuple(revolts))
        ctx.note("Yellow dice rolled: " + ", ".join(str(d.value) for r in revolts for d in r.dice) + ".")


def ready_options(game: Any, s: State) -> list[tuple[int, ...]]:
    """Every Dice Sequence the rolling faction may ready: a set or a run among the
    rolled dice, canonical (lowest indices per value), largest first."""
    r = s.rolling
    dice = s.factions[r.faction].dice
    by_value: dict[int, list[int]] = {}
    for i in r.dice:
        by_value.setdefault(dice[i].value, []).append(i)
    out: list[tuple[int, ...]] = []
    for idx in by_value.values():
        for k in range(1, len(idx) + 1):
            out.append(tuple(idx[:k]))
    values = sorted(by_value)
    for a in range(len(values)):
        for b in range(a + 1, len(values)):
            run = values[a : b + 1]
            if all(y == x + 1 for x, y in zip(run, run[1:], strict=False)):
                out.append(tuple(sorted(by_value[v][0] for v in run)))
    out.sort(key=lambda t: (-len(t), t))
    return out


def reroll_options(game: Any, s: State) -> list[tuple[int, ...]]:
    """Non-empty subsets of the rolled dice to roll again (canonical by value
    multiset: which of two equal dice is rolled does not matter)."""
    r = s.rolling
    if r.rerolls <= 0:
        return []
    dice = s.factions[r.faction].dice
    by_value: dict[int, list[int]] = {}
    for i in r.dice:
        by_value.setdefault(dice[i].value, []).append(i)
    groups = sorted(by_value.items())
    out: list[tuple[int, ...]] = [()]
    for _, idx in groups:
        out = [prev + tuple(idx[:k]) for prev in out for k in range(len(idx) + 1)]
    return [tuple(sorted(o)) for o in out if o]


def apply_rolling(game: Any, ctx: _Ctx, faction: str, a: Any) -> None:
    """Roll and ready: reroll some dice (3 rolls at most) or ready the Dice Sequence, a set or a run
    (Using Your Dice)."""
    r = ctx.s.rolling
    if isinstance(a, Reroll):
        if r.rerolls <= 0:
            raise IllegalActionError(
                "You have used your 3 rolls: ready your dice and name your Dice Sequence."
            )
        if not a.dice or len(set(a.dice)) != len(a.dice) or set(a.dice) - set(r.dice):
            raise IllegalActionError("Reroll some of the dice you just rolled: name their values.")
        for i in a.dice:
            ctx.set_die(faction, i, value=ctx.rng.die(6))
        dice = ctx.f(faction).dice
        ctx.update(rolling=r.model_copy(update={"rerolls": r.rerolls - 1}))
        ctx.emit(
            DiceRolled(
                faction=faction,
                values=tuple(d.value if i in a.dice else 0 for i, d in enumerate(dice)),
                text=f"{game.fname(faction)} rerolled {len(a.dice)} {'die' if len(a.dice) == 1 else 'dice'}: now "
                + ", ".join(str(dice[i].value) for i in r.dice)
                + ".",
            )
        )
        return
    if isinstance(a, Ready):
        dice = ctx.f(faction).dice
        if not a.dice or set(a.dice) - set(r.dice) or len(set(a.dice)) != len(a.dice):
            raise IllegalActionError(
                "Name the rolled dice that form your Dice Sequence, e.g. ready 4 4 4."
            )
        if not is_sequence([dice[i].value for i in a.dice]):
            # each as the notation writes it (`ready 3 4`, help's order): values from low to high
            opts = [" ".join(str(v) for v in sorted(dice[i].value for i in o)) for o in game.ready_options(ctx.s)[:8]]
            raise IllegalActionError(
                "A Dice Sequence is a set (5 5 5) or a run (2 3 4); you could ready: "
                + list_words(opts)
                + "."
            )
        game._finish_rolling(ctx, a.dice)
        return
    raise IllegalActionError("You are rolling and readying your dice: reroll <values> or ready <values>.")


def finish_rolling(game: Any, ctx: _Ctx, seq: tuple[int, ...]) -> None:
    """Mark the readied Dice Sequence ``seq`` and tell the table; then the turn or setup goes on.

    A set readied with fewer dice than were rolled of its value is what was typed: ``ready 6``
    readies one 6 even when two 6s were rolled (``ready 6 6`` readies both; each is a legal
    action and ``ready 6`` is how the notation writes the first, so it cannot mean the second).
    The note then says how many dice the sequence holds and that the other dice of that value
    stay outside it, so a player who meant every 6 sees at once what was taken (and may ask to undo it)."""
    r = ctx.s.rolling
    for i in r.dice:
        ctx.set_die(r.faction, i, seq=i in seq)
    dice = ctx.f(r.faction).dice
    if seq:
        values = sorted(dice[i].value for i in seq)
        left = [i for i in r.dice if i not in seq and dice[i].value == values[0]] if len(set(values)) == 1 else []
        also = ""
        if left:
            many = {2: "two", 3: "three", 4: "four"}.get(len(left), str(len(left)))
            other = f"the other {values[0]} stays" if len(left) == 1 else f"{many} other {values[0]}s stay"
            also = f" ({count(len(seq), 'die', 'dice')}; {other} outside it)"
        ctx.note(f"{game.fname(r.faction)} readied the Dice Sequence " + " ".join(map(str, values)) + also + ".")
    ctx.update(rolling=None)
    if r.faction == "jews" and game.yellow_refs(ctx.s):
        # the yellow dice are rolled up to 3 times too (RULINGS.md R13)
        game._offer_extra(ctx, "jews", "yellow", tuple(range(len(game.yellow_refs(ctx.s)))), r.reason)
        return
    game._after_ready(ctx, r.reason)


def after_ready(game: Any, ctx: _Ctx, reason: str) -> None:
    """After a faction readies: the next faction's setup roll, or the first turn; or the turn's
    Start Phase."""
    if reason == "setup":
        if ctx.s.roll_queue:
            nxt, rest = ctx.s.roll_queue[0], ctx.s.roll_queue[1:]
            ctx.update(roll_queue=rest)
            game._start_rolling(ctx, nxt, "setup")
        else:
            game._begin_turn(ctx)
    elif reason == "end":
        game._end_scoring(ctx)
    else:
        game._next_turn(ctx)


def set_yellow(game: Any, ctx: _Ctx, k: int, value: int) -> None:
    """Set the value of yellow die ``k`` (counted over every revolt)."""
    r, j = game.yellow_refs(ctx.s)[k]
    revolts = list(ctx.s.revolts)
    dice = list(revolts[r].dice)
    dice[j] = dice[j].model_copy(update={"value": value})
    revolts[r] = revolts[r].model_copy(update={"dice": tuple(dice)})
    ctx.update(revolts=tuple(revolts))


def offer_extra(game: Any, ctx: _Ctx, faction: str, kind: str, dice: tuple[int, ...], resume: str) -> None:
    """Dice just rolled that their owner may roll again twice more ("up to 3 times")."""
    e = ctx.s.extra_roll
    if e is not None and e.kind == kind:
        ctx.update(extra_roll=e.model_copy(update={"dice": tuple(sorted(set(e.dice) | set(dice)))}))
        return
    ctx.update(extra_roll=ExtraRoll(faction=faction, kind=kind, dice=dice, resume=resume))


def extra_options(game: Any, s: State) -> list[Any]:
    """Keep, or reroll each selection of the yellow or returned dice while rolls are left."""
    e = s.extra_roll
    out: list[Any] = [Keep()]
    if e.rerolls <= 0:
        return out
    by_value: dict[int, list[int]] = {}
    for i, v in sorted(game.extra_values(s).items()):
        by_value.setdefault(v, []).append(i)
    subsets: list[tuple[int, ...]] = [()]
    for _, idx in sorted(by_value.items()):
        subsets = [prev + tuple(idx[:k]) for prev in subsets for k in range(len(idx) + 1)]
    return out + [Reroll(dice=tuple(sorted(o))) for o in subsets if o]


def apply_extra(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """The yellow or returned blocking dice: reroll some (3 rolls at most), or keep them and go on."""
    e = ctx.s.extra_roll
    what = "yellow dice" if e.kind == "yellow" else "returned blocking dice"
    if isinstance(a, Reroll):
        if e.rerolls <= 0:
            raise IllegalActionError(f"Your {what} have been rolled 3 times: keep them.")
        if not a.dice or len(set(a.dice)) != len(a.dice) or set(a.dice) - set(e.dice):
            raise IllegalActionError(f"Reroll some of your {what}: name their values, or keep.")
        for i in a.dice:
            if e.kind == "yellow":
                game._set_yellow(ctx, i, ctx.rng.die(6))
            else:
                ctx.set_die("coalition", i, value=ctx.rng.die(6))
        ctx.update(extra_roll=e.model_copy(update={"rerolls": e.rerolls - 1}))
        values = game.extra_values(ctx.s)
        ctx.note(
            f"{game.fname(f)} rerolled {len(a.dice)} of the {what}: now "
            + ", ".join(str(values[i]) for i in e.dice)
            + "."
        )
        return
    if isinstance(a, Keep):
        ctx.update(extra_roll=None)
        if e.resume in ("setup", "end", "pass"):
            game._after_ready(ctx, e.resume)
        elif e.resume == "end_scoring":
            game._end_scoring_rest(ctx)
        elif e.resume == "main":
            ctx.update(phase="main")
        return
    raise IllegalActionError(f"Reroll some of your {what} (reroll <values>) or keep them.")


def use_die(game: Any, ctx: _Ctx, f: str, die: int, place: str = "spent", **fields: Any) -> int:
    """Take a die from the Dice Sequence; returns its value. Raises
    IllegalActionError listing the dice that can be used."""
    dice = ctx.f(f).dice
    if not 0 <= die < len(dice) or dice[die].place != "unspent" or not dice[die].seq:
        vals = [str(d.value) for d in dice if d.place == "unspent" and d.seq]
        raise IllegalActionError(
            "Use a die from your Dice Sequence; you have: "
            + (", ".join(vals) or "none (end the Main Phase)")
            + "."
        )
    v = dice[die].value
    ctx.set_die(f, die, place=place, seq=False, **fields)
    return v


def use_extra(game: Any, ctx: _Ctx, f: str, die: int | None, place: str = "spent", **fields: Any) -> int:
    """The one extra die from outside the Dice Sequence (actions marked *)."""
    if die is None:
        return 0
    dice = ctx.f(f).dice
    if not 0 <= die < len(dice) or dice[die].place != "unspent" or dice[die].seq:
        vals = [str(d.value) for d in dice if d.place == "unspent" and not d.seq]
        raise IllegalActionError(
            "The second die must be an Unspent die from outside your Dice Sequence; you have: "
            + (", ".join(vals) or "none")
            + "."
        )
    v = dice[die].value
    ctx.set_die(f, die, place=place, seq=False, **fields)
    return v


def use_gray_die(game: Any, ctx: _Ctx, die: int, yellow: bool) -> int:
    """Spend the Jewish die or the yellow die ``die`` for a Gray action; its value. Raises
    IllegalActionError when it is not Unspent."""
    if yellow:
        k = 0
        revolts = []
        value = None
        for r in ctx.s.revolts:
            dice = list(r.dice)
            for j, d in enumerate(dice):
                if k == die and d.place == "unspent":
                    value = d.value
                    dice[j] = d.model_copy(update={"place": "spent"})
                k += 1
            revolts.append(r.model_copy(update={"dice": tuple(dice)}))
        if value is None:
            vals = [str(v) for _, v in game.yellow_dice(ctx.s)]
            raise IllegalActionError(
                "No such unspent yellow die; yellow dice: " + (", ".join(vals) or "none") + "."
            )
        ctx.update(revolts=tuple(revolts))
        return value
    if ctx.s.gray_die_used:
        raise IllegalActionError(
            "The Jewish Faction may spend only 1 die a turn on Gray actions; use a yellow die."
        )
    v = game._use_die(ctx, "jews", die)
    ctx.update(gray_die_used=True)
    return v
