"""Response windows after a move: Promised Land's redirect of the units just moved (RULINGS.md R14, R22) and Gospel's shift."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core import (
    IllegalActionError,
)
from games.core.errors import list_words

from ..model import (
    Pass,
    Raise,
    Redirect,
    Shift,
    State,
    Window,
)
from ..queries import (
    UNIT_LIMIT,
)
from .context import _Ctx


def redirect_goals(game: Any, s: State, w: Window, start: str, steps: int) -> set[str]:
    """Where Promised Land may send a unit that moved ``steps`` territories from
    ``start``: in or adjacent to the blue region, not its start, reachable from its
    start in ``steps`` moves along a route the mover may take (RULINGS.md R22)."""
    zone = game.redirect_zone()
    return {t for t in game.reach(s, start, w.mover, steps) if t in zone}


def redirect_goals_memo(game: Any, s: State, w: Window) -> Callable[[str, int], set[str]]:
    """``_redirect_goals`` of ``s`` and ``w`` as a function of (start, steps), each
    answer computed once (a fresh set handed out each time)."""
    known: dict[tuple[str, int], frozenset[str]] = {}

    def goals_of(start: str, steps: int) -> set[str]:
        got = known.get((start, steps))
        if got is None:
            got = known[(start, steps)] = frozenset(game._redirect_goals(s, w, start, steps))
        return set(got)

    return goals_of


def redirect_sends(game: Any, w: Window, a: Redirect, units: dict[str, list[tuple[str, int]]]) -> tuple[tuple[str, str, int], ...]:
    """The units ``a`` sends, as (from, to, count): all to one territory or named per
    territory, each from where the mover's units moved out (Promised Land; RULINGS.md R22).
    Raises IllegalActionError naming what was wrong."""
    mover = game.fname(w.mover)
    if a.territory is not None:
        if a.sends:
            raise IllegalActionError(
                "Redirect all the units to one territory (redirect to <territory>) or name "
                "units per territory (redirect 2 Samaria, 1 Galilaea), not both."
            )
        sends = tuple((t0, a.territory, len(us)) for t0, us in units.items())
    else:
        sends = a.sends
    if not sends:
        raise IllegalActionError(
            "Name where the units go: redirect to <territory>, or redirect 2 Samaria, 1 Galilaea."
        )
    for t0, t1, n in sends:
        for t in (t0, t1):
            if t not in game.data.territories:
                raise IllegalActionError(f"Unknown territory {t!r}.")
        if n < 1:
            raise IllegalActionError("Send at least 1 unit to each territory named.")
        if t0 not in units:
            raise IllegalActionError(
                f"{mover} moved no units out of {game.tname(t0)}; Promised Land redirects the units "
                "that moved out of " + list_words([game.tname(t) for t in units]) + "."
            )
        if t1 == t0:
            raise IllegalActionError(
                f"Promised Land makes the units move: they cannot stay in {game.tname(t0)}."
            )
    return sends


def out_of_reach(game: Any, s: State, w: Window, t0: str, t1: str, us: list[tuple[str, int]]) -> str:
    """Why the units from ``t0`` cannot be redirected to ``t1`` (Promised Land: in or next to
    the blue region, and no farther than they moved; RULINGS.md R22), and where they may go."""
    legal = sorted(game._redirect_goals(s, w, t0, max(k for _, k in us)))
    if t1 not in game.redirect_zone():
        why = "is neither in nor adjacent to the blue region"
    else:
        steps = max(k for _, k in us)
        why = (
            f"is out of reach: the units from {game.tname(t0)} moved {steps} "
            f"territor{'y' if steps == 1 else 'ies'} and go at most that far, along "
            "routes open to them"
        )
    return (
        f"{game.tname(t1)} {why}; the units from {game.tname(t0)} may go to "
        + list_words([game.tname(t) for t in legal] or ["nowhere"])
        + "."
    )


def redirect_delta(
    game: Any,
    s: State,
    w: Window,
    a: Redirect,
    goals_of: Callable[[str, int], set[str]] | None = None,
) -> dict[str, int]:
    """The change in the mover's units per territory that ``a`` makes: each unit named
    goes to its destination, the others keep their own move (RULINGS.md R22).
    ``goals_of(start, steps)``: ``_redirect_goals`` for ``s`` and ``w`` (a caller
    checking many redirects passes one that remembers its answers).

    Raises IllegalActionError naming what was wrong and what is legal."""
    if goals_of is None:
        goals_of = game._redirect_goals_memo(s, w)
    mover = game.fname(w.mover)
    units = game.redirect_units(w)
    sends = redirect_sends(game, w, a, units)
    delta: dict[str, int] = {}
    for t0, us in units.items():
        named = [t1 for x, t1, n in game.merge_sends(sends) if x == t0 for _ in range(n)]
        if not named:
            continue
        if len(named) > len(us):
            raise IllegalActionError(
                f"{mover} moved {len(us)} unit{'s' if len(us) != 1 else ''} out of {game.tname(t0)}, "
                f"not {len(named)}."
            )
        goals = [goals_of(t0, k) | {end} for end, k in us]
        every = set().union(*goals)
        for t1 in dict.fromkeys(named):
            if t1 in every:
                continue
            raise IllegalActionError(out_of_reach(game, s, w, t0, t1, us))
        match = game._redirect_match(us, goals, named)
        if match is None:
            groups: dict[tuple[str, int], int] = {}
            for u in us:
                groups[u] = groups.get(u, 0) + 1
            raise IllegalActionError(
                f"The units from {game.tname(t0)} cannot all reach those territories: a unit goes "
                "at most as far as it moved ("
                + "; ".join(
                    f"{n} moved {k} territor{'y' if k == 1 else 'ies'}, to {game.tname(e)}"
                    for (e, k), n in groups.items()
                )
                + ")."
            )
        for i, t1 in match.items():
            end = us[i][0]
            delta[end] = delta.get(end, 0) - 1
            delta[t1] = delta.get(t1, 0) + 1
    delta = {t: d for t, d in delta.items() if d}
    if not delta:
        raise IllegalActionError(
            "That leaves every unit where it moved; name other territories, or pass."
        )
    for t, d in sorted(delta.items()):
        now = game.units(s, t, w.mover) + d
        if now > UNIT_LIMIT:
            raise IllegalActionError(
                f"At most {UNIT_LIMIT} {mover} units may be in {game.tname(t)}; it would hold {now}."
            )
    return delta


def redirect_match(
    us: list[tuple[str, int]], goals: list[set[str]], named: list[str]
) -> dict[int, str] | None:
    """Unit index -> destination for every name in ``named`` (each unit at most once,
    only to its ``goals``), preferring units that already end there; None if impossible."""
    owner: dict[int, int] = {}  # unit -> named slot

    def order(t1: str) -> list[int]:
        return sorted(
            (i for i in range(len(us)) if t1 in goals[i]), key=lambda i: (us[i][0] != t1, us[i][1], i)
        )

    def place(j: int, seen: set[int]) -> bool:
        for i in order(named[j]):
            if i in seen:
                continue
            seen.add(i)
            if i not in owner or place(owner[i], seen):
                owner[i] = j
                return True
        return False

    for j in range(len(named)):
        if not place(j, set()):
            return None
    return {i: named[j] for i, j in owner.items()}


def redirect_options(game: Any, s: State, w: Window, card: str, limit: int = 40) -> list[Redirect]:
    """The redirects offered: every territory all the units may go to, then splits
    (two territories for one start, one territory per start); the notation takes any
    legal choice (RULINGS.md R22)."""
    out: list[Redirect] = []
    goals_of = game._redirect_goals_memo(s, w)

    def ok(a: Redirect) -> bool:
        try:
            game._redirect_delta(s, w, a, goals_of)
        except IllegalActionError:
            return False
        return True

    units = game.redirect_units(w)
    for t in sorted(game.redirect_zone()):
        a = Redirect(card=card, territory=t)
        if ok(a):
            out.append(a)
            if len(out) >= limit:
                return out
    goals = {t0: sorted(set().union(*(goals_of(t0, k) for _, k in us))) for t0, us in units.items()}
    splits: list[tuple[tuple[str, str, int], ...]] = []
    if len(units) == 1:
        ((t0, us),) = units.items()
        n = len(us)
        if n >= 2:
            for i, x in enumerate(goals[t0]):
                for y in goals[t0][i + 1 :]:
                    splits.append(game.merge_sends([(t0, x, n - n // 2), (t0, y, n // 2)]))
    else:
        combos: list[list[tuple[str, str, int]]] = [[]]
        for t0, us in units.items():
            combos = [c + [(t0, t1, len(us))] for c in combos for t1 in goals[t0]][:limit]
        splits = [game.merge_sends(c) for c in combos if len({t1 for _, t1, _ in c}) > 1]
    for sends in splits:
        a = Redirect(card=card, sends=sends)
        if ok(a):
            out.append(a)
            if len(out) >= limit:
                break
    return out


def window_options(game: Any, s: State) -> list[Any]:
    """The answers a response window offers besides pass: Give to Caesar's raises, Promised Land's
    redirects, Gospel's shifts."""
    w = s.window
    if w.kind == "caesar":
        return game._caesar_options(s, w.faction)
    if w.kind == "promised_land":
        cards = [
            c for c in dict.fromkeys(s.factions[w.faction].hand) if game.data.card(c).id == "promised-land"
        ][:1]
        return [a for c in cards for a in game._redirect_options(s, w, c)]
    return game._shift_options(s, "christians")


def apply_window(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """An answer to a response window (Give to Caesar, Promised Land, Gospel), or a pass; then the
    turn goes on."""
    w = ctx.s.window
    if w.kind == "caesar" and not isinstance(a, Pass):
        dice = ctx.f(w.faction).dice
        if not isinstance(a, Raise) or not (
            0 <= a.die < len(dice) and dice[a.die].place == "unspent" and dice[a.die].value < 6
        ):
            raise IllegalActionError(
                "Give to Caesar: raise one of your Unspent dice below 6 by 1 pip (raise <value>), or pass."
            )
        ctx.set_die(w.faction, a.die, value=dice[a.die].value + 1)
        ctx.note(f"Give to Caesar: a {game.fname(w.faction)} die rises to {dice[a.die].value + 1}.")
        ctx.update(window=None)
        return
    if isinstance(a, Pass):
        if w.kind == "promised_land":
            # the next holder who may have a copy is asked (R22); then Gospel
            if not game._promised_land_window(ctx, w.mover, w.moved, after=w.faction):
                game._gospel_window(ctx, w.mover)
        else:
            ctx.update(window=None)
        return
    if w.kind == "promised_land":
        if not isinstance(a, Redirect):
            raise IllegalActionError(
                "Play Promised Land to redirect the units (redirect to <territory>, or "
                "redirect 2 Samaria, 1 Galilaea), or pass."
            )
        if a.card not in ctx.s.factions[w.faction].hand or game.data.card(a.card).id != "promised-land":
            raise IllegalActionError("You need Promised Land in your hand.")
        delta = game._redirect_delta(ctx.s, w, a)
        for t, d in delta.items():
            ctx.add_units(t, w.mover, d)
        game._discard_card(ctx, w.faction, a.card)
        if a.territory is not None:
            where = f"to {game.tname(a.territory)}"
        else:
            sends = game.merge_sends(a.sends)
            several = len({p.route[0] for p in w.moved}) > 1
            where = list_words(
                [
                    f"{n}{f' from {game.tname(t0)}' if several else ''} to {game.tname(t1)}"
                    for t0, t1, n in sends
                ]
            )
        rest = ""
        if a.territory is None and sum(n for _, _, n in a.sends) < sum(p.count for p in w.moved):
            rest = " (the others keep their move)"
        who = "The Jews send" if w.faction == "jews" else "The Coalition sends"
        ctx.note(f"Promised Land! {who} the {game.fname(w.mover)} units {where} instead{rest}.")
        game._gospel_window(ctx, w.mover)
        return
    if not isinstance(a, Shift) or a not in game._shift_options(ctx.s, "christians"):
        raise IllegalActionError(
            "Gospel: move 1 Christian unit 1 territory (shift Christian <from>-<to>), or pass."
        )
    ctx.add_units(a.source, "christians", -1)
    ctx.add_units(a.destination, "christians", 1)
    ctx.note(f"Gospel: a Christian unit follows, {game.tname(a.source)} to {game.tname(a.destination)}.")
    ctx.update(window=None)
