"""Movement (Moving Units; RULINGS.md): routes within a move's budget, blocked territories and the unit limit, and the windows a move opens (Promised Land, Gospel)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from games.core import (
    IllegalActionError,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    Path,
    Shift,
    State,
    Window,
)
from ..queries import (
    UNIT_LIMIT,
)
from .context import _Ctx

PROMISED_LAND_HOLDERS = ("jews", "coalition")
"""Who may hold Promised Land: the Jews, or the Coalition with a salvaged copy (RULINGS.md R14)."""


def move_options(game: Any, s: State, faction: str, budget: int, revolt: str | None = None) -> list[Path]:
    """One group of units along one shortest route, within ``budget`` points
    (Gray units: only those of ``revolt`` when it is named)."""
    return game._move_options_by_budget(s, faction, (budget,), revolt)[budget]


@lru_cache(maxsize=4096)
def paths_along(route: tuple[str, ...]) -> tuple[Path, ...]:
    """The Paths of 1 to 6 units along ``route``: one object per group (models are frozen,
    and the legal moves of every state name the same few thousand groups)."""
    return tuple(Path(count=k, route=route) for k in range(1, UNIT_LIMIT + 1))


def move_groups(
    game: Any, s: State, faction: str, most: int, revolt: str | None = None
) -> list[tuple[tuple[str, ...], int, int]]:
    """(route, its steps, the most units that may go along it) for each shortest route
    ``faction`` may move units along within ``most`` points, in map order of the start
    and then by distance: from a territory its units may leave, to one with room
    (Moving Units; Gray units: only those of ``revolt`` when it is named). A group of k
    units along a route costs k x steps points."""
    out = []
    stuck = game.stuck(s, faction)
    board = s.board
    for t in game.territories_of(s, faction):
        if game.blocked_leave(s, t, faction):
            continue
        have = game.revolt_units(s, t, revolt) if faction == "gray" else game.units(s, t, faction)
        if have <= 0:
            continue
        for dest, route in game.reach(s, t, faction, most, stuck=stuck).items():
            cell = board.get(dest)
            cap = min(have, UNIT_LIMIT - cell.get(faction, 0) if cell else UNIT_LIMIT)  # the room there
            if cap > 0:
                out.append((route, len(route) - 1, cap))
    return out


def move_options_by_budget(
    game: Any, s: State, faction: str, budgets: Iterable[int], revolt: str | None = None
) -> dict[int, list[Path]]:
    """``_move_options`` for each of ``budgets`` at once: the routes are searched once,
    to the largest budget (``move_groups``; a shorter budget's routes are the first ones
    found, in the same order), and a group along a route is one Path object
    (``paths_along``)."""
    out: dict[int, list[Path]] = {b: [] for b in budgets}
    if not out:
        return out
    for route, steps, cap in game._move_groups(s, faction, max(out), revolt):
        paths = paths_along(route)
        for budget, got in out.items():
            n = min(cap, budget // steps)
            if n > 0:
                got += paths[:n]
    return out


def do_paths(
    game: Any, ctx: _Ctx, faction: str, paths: tuple[Path, ...], points: int, revolt: str | None = None
) -> None:
    """Move units along ``paths`` spending at most ``points`` movement points (1 per
    unit per territory). Checks adjacency (sea links count), the Coalition
    freezing rule, and the 6-unit limit once every unit has moved. ``revolt``: a
    yellow die moves only that revolt's Gray units (RULINGS.md R13).

    Raises IllegalActionError naming what was wrong."""
    if not paths:
        raise IllegalActionError("Name at least one route: move 3: 2 Rome-Italia.")
    cost = sum(p.count * (len(p.route) - 1) for p in paths)
    if cost > points:
        raise IllegalActionError(f"That movement costs {count(cost, 'point')}; you have {points} movement points.")
    grace_used = False
    for p in paths:
        if len(p.route) < 2:
            raise IllegalActionError("A route names at least two territories: Rome-Italia.")
        for t in p.route:
            if t not in game.data.territories:
                raise IllegalActionError(f"Unknown territory {t!r}.")
        start = p.route[0]
        if revolt is not None:
            have = game.revolt_units(ctx.s, start, revolt)
            if p.count > have:
                raise IllegalActionError(
                    f"The yellow die of {game.card_name(revolt)} moves only that revolt's units: it has "
                    f"{have} unit{'s' if have != 1 else ''} in {game.tname(start)}, not {p.count}."
                )
        have = game.units(ctx.s, start, faction)
        if p.count > have:
            raise IllegalActionError(
                f"{game.fname(faction)} has {have} unit{'s' if have != 1 else ''} in {game.tname(start)}, not {p.count}."
            )
        for a, b in zip(p.route, p.route[1:], strict=False):
            if b not in game.data.adjacent[a]:
                raise IllegalActionError(
                    f"{game.tname(b)} is not adjacent to {game.tname(a)}; adjacent: "
                    + list_words([game.tname(x) for x in game.data.adjacent[a]])
                    + "."
                )
        for i, t in enumerate(p.route[:-1]):
            if game.blocked_leave(ctx.s, t, faction):
                if faction == "christians" and game.grace_free(ctx.s, 1):
                    grace_used = True
                    continue
                why = (
                    "a Coalition unit freezes every other piece there"
                    if faction != "coalition"
                    else "a Coalition piece cannot move out of a territory occupied by another faction"
                )
                raise IllegalActionError(
                    f"Cannot move {'out of' if i == 0 else 'through'} {game.tname(t)}: {why}."
                )
        ctx.move_units(start, p.route[-1], faction, p.count, revolt)
    for p in paths:
        end = p.route[-1]
        if game.units(ctx.s, end, faction) > UNIT_LIMIT:
            raise IllegalActionError(
                f"At most {UNIT_LIMIT} {game.fname(faction)} units may be in {game.tname(end)}."
            )
    if grace_used:
        ctx.set_f("christians", grace_now=1)
        ctx.note("Grace: the Christians move through Coalition units.")
    ctx.note(
        f"{game.fname(faction)} moved "
        + "; ".join(f"{p.count} {'-'.join(game.tname(t) for t in p.route)}" for p in paths)
        + "."
    )


def after_move(game: Any, ctx: _Ctx, mover: str, paths: tuple[Path, ...]) -> None:
    """Open the response windows a move may trigger: Promised Land (movement from
    inside the blue region on another faction's turn) and Gospel."""
    blue = set(game.data.region_territories("blue"))
    from_blue = tuple(p for p in paths if p.route[0] in blue)
    if from_blue and game._promised_land_window(ctx, mover, from_blue):
        return
    game._gospel_window(ctx, mover)


def promised_land_window(
    game: Any, ctx: _Ctx, mover: str, moved: tuple[Path, ...], after: str | None = None
) -> bool:
    """Open the Promised Land window for the first faction after ``after`` (the Jews,
    then the Coalition with a salvaged copy, RULINGS.md R14, R22) that may hold the
    card as far as the table can tell (R25), on another player's move it could
    redirect. Returns whether a window opened."""
    s = ctx.s
    order = PROMISED_LAND_HOLDERS
    start = order.index(after) + 1 if after is not None else 0
    for holder in order[start:]:
        if holder not in s.factions or mover == holder or game.same_player(s, mover, holder):
            continue
        if holder == "jews" and mover == "gray":
            continue
        w = Window(kind="promised_land", faction=holder, mover=mover, moved=moved)
        if game._could_hold(s, holder, "promised-land") and game._redirect_options(s, w, "", 1):
            ctx.update(window=w)
            return True
    return False


def gospel_window(game: Any, ctx: _Ctx, mover: str) -> None:
    """Gospel: when the faction it names moves, its holder (the Christians, or the
    Coalition with a salvaged Gospel, RULINGS.md R14) may move 1 Christian unit 1
    territory."""
    s = ctx.s
    for holder in ("christians", "coalition"):
        hf = s.factions.get(holder)
        if (
            hf is not None
            and hf.gospel == mover
            and game.durable(s, holder, "gospel")
            and game._shift_options(s, "christians")
        ):
            ctx.update(window=Window(kind="gospel", faction=holder, mover=mover))
            return
    ctx.update(window=None)


def shift_options(game: Any, s: State, faction: str) -> list[Shift]:
    """Every move of 1 unit of ``faction`` to an adjacent territory with room (Help the Wounded,
    Gospel)."""
    out = []
    for t in game.territories_of(s, faction):
        if game.blocked_leave(s, t, faction):
            continue
        for u in game.data.adjacent[t]:
            if game.room(s, u, faction) > 0:
                out.append(Shift(faction=faction, source=t, destination=u))
    return out
