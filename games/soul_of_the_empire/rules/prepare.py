"""Combat, before the Combat Cards are chosen (rule text: Initiate Combat; Conscription): the combat
Power Cards played face down and Conscription's captured units, chosen in secret by both sides at
once and shown together (RULINGS.md R9, R16, R25)."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from games.core import IllegalActionError
from games.core.english import count
from games.core.errors import list_words

from ..model import Pass, Prepare, State
from .context import _Ctx


def face_down_ids(game: Any) -> frozenset[str]:
    """The combat Power Cards played face down before the Combat Cards (all but Elder, which is
    played face up first)."""
    return frozenset(c.id for c in game.data.power.values() if "combat" in c.phases and c.id != "elder")


def may_play_power(game: Any, s: State, side: str) -> bool:
    """Whether ``side`` may play a combat Power Card now, as far as the table can tell (R25): no
    Elder face up, the attacker with its Power Card play of the turn left, and a face-down combat
    card among what its hand could hold."""
    c = s.combat
    if c.elder is not None:
        return False
    if side == c.attacker and (s.second_turn or s.power_played >= s.power_limit):
        return False
    holder = game.hand_owner(side)
    return any(game._could_hold(s, holder, cid) for cid in face_down_ids(game))


def powers_asked(game: Any, s: State) -> list[str]:
    """The sides still to answer before the Combat Cards: those that may play a combat Power Card
    face down (judged on what the table sees) or add units with Conscription."""
    c = s.combat
    return [
        side
        for side in (c.attacker, c.defender)
        if side not in c.prepared and (may_play_power(game, s, side) or game._conscript_max(s, side) > 0)
    ]


def ask_powers(game: Any, ctx: _Ctx) -> None:
    """After Elder: the face-down Power Cards and Conscription, if any side may add one; else the
    Combat Cards are chosen at once."""
    c = ctx.s.combat
    ctx.update(combat=c.model_copy(update={"stage": "powers", "asking": None, "question": None}))
    if not game._powers_asked(ctx.s):
        ctx.update(combat=ctx.s.combat.model_copy(update={"stage": "choose"}))


def conscript_default(game: Any, s: State, k: int) -> tuple[tuple[str, int], ...]:
    """``k`` captured units from the largest captured groups (what ``conscript <k>`` names)."""
    cap = dict(s.factions["rome"].captured)
    out: dict[str, int] = {}
    for _ in range(k):
        f = max(sorted(x for x in cap if cap[x] > 0), key=lambda x: cap[x])
        cap[f] -= 1
        out[f] = out.get(f, 0) + 1
    return tuple(sorted(out.items()))


def conscript_choices(game: Any, s: State, side: str) -> list[tuple[tuple[str, int], ...]]:
    """Every choice of captured units Conscription may add for ``side``: 1 or 2 units, of any
    captured factions ("Add up to 2 units from your captured unit area")."""
    k = game._conscript_max(s, side)
    if k <= 0:
        return []
    cap = s.factions["rome"].captured
    groups = sorted(f for f, n in cap.items() if n > 0)
    out = []
    for n in range(1, k + 1):
        for pick in combinations_with_replacement(groups, n):
            if all(pick.count(f) <= cap[f] for f in set(pick)):
                out.append(tuple(sorted((f, pick.count(f)) for f in set(pick))))
    return out


def prepare_options(game: Any, s: State, side: str) -> list[Any]:
    """The answers before the Combat Cards: pass, a combat Power Card face down, captured units,
    or both."""
    powers = [p for p in game._combat_powers(s, side) if game.data.card(p).id != "elder"]
    out: list[Any] = [Pass()]
    for power in [None, *powers]:
        for units in [(), *conscript_choices(game, s, side)]:
            if power is not None or units:
                out.append(Prepare(power=power, conscript=units))
    return out


def prepare_help(game: Any, s: State, side: str) -> str:
    """What the question before the Combat Cards accepts, in notation."""
    powers = [p for p in game._combat_powers(s, side) if game.data.card(p).id != "elder"]
    parts = [
        "play a combat Power Card face down ("
        + (list_words([f"play {game.card_name(p)}" for p in powers]) if powers else "you hold none")
        + ")"
    ]
    k = game._conscript_max(s, side)
    if k:
        parts.append(f"add up to {count(k, 'captured unit')} with Conscription (conscript 1 Jewish, 1 Coalition)")
    return "Before the Combat Cards are chosen: " + ", ".join(parts) + ", or pass."


def apply_prepare(game: Any, ctx: _Ctx, side: str, a: Any) -> None:
    """A side's secret answer before the Combat Cards (pass: nothing); once every side asked has
    answered, the table sees who played a Power Card face down and the units Conscription adds."""
    s = ctx.s
    if isinstance(a, Pass):
        a = Prepare()
    if isinstance(a, Prepare) and a.power is not None and game.data.card(a.power).id == "elder":
        raise IllegalActionError("Elder is played face up, when asked before this; not face down.")
    if not isinstance(a, Prepare) or (a != Prepare() and a not in prepare_options(game, s, side)):
        raise IllegalActionError(prepare_help(game, s, side))
    c = s.combat
    ctx.update(combat=c.model_copy(update={"prepared": {**c.prepared, side: a}}))
    ctx.note(f"{game.fname(side)} made its choice before the Combat Cards.")
    if not game._powers_asked(ctx.s):
        reveal_prepared(game, ctx)


def reveal_prepared(game: Any, ctx: _Ctx) -> None:
    """The face-down Power Cards leave their hands for the table (their names stay hidden until the
    Combat Cards are revealed) and Conscription's units are added; then the Combat Cards."""
    c = ctx.s.combat
    powers, conscripted, said = dict(c.powers), dict(c.conscripted), []
    lines = list(c.lines)
    for side in (c.attacker, c.defender):
        a = c.prepared.get(side)
        if a is None or a == Prepare():
            continue
        if a.power is not None:
            holder = game.hand_owner(side)
            hand = list(ctx.f(holder).hand)
            hand.remove(a.power)
            ctx.set_f(holder, hand=tuple(hand))
            powers[side] = a.power
            if side == c.attacker:
                ctx.update(power_played=ctx.s.power_played + 1)
            said.append(f"{game.fname(side)} plays a Power Card face down")
        if a.conscript:
            k = sum(n for _, n in a.conscript)
            for f, n in a.conscript:
                game._release_captured(ctx, n, f)
            conscripted[side] = k
            who = ", ".join(f"{n} {game.fname(f)}" for f, n in a.conscript)
            line = (
                f"Conscription adds {count(k, 'captured unit')} ({who}) to {game.fname(side)} "
                f"(capture track {ctx.f('rome').capture_track})"
            )
            said.append(line)
            lines.append(line)
    ctx.note("Before the Combat Cards: " + ("; ".join(said) if said else "no Power Card is played") + ".")
    ctx.update(
        combat=ctx.s.combat.model_copy(
            update={"powers": powers, "conscripted": conscripted, "lines": tuple(lines), "stage": "choose"}
        )
    )
