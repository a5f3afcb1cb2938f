"""Setting Up (rule text: shared/seeds/000): seats and factions (2-Player Rules; RULINGS.md R1), turn order, the Objective Point Markers and Rome's final units."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import (
    IllegalActionError,
    Rng,
    Seat,
    Step,
)
from games.core.errors import list_words

from ..data import FACTIONS
from ..model import (
    CardsDrawn,
    Die,
    FactionState,
    Marker,
    PlaceMarker,
    PlaceUnit,
    State,
)
from ..options import Options, faction_ids
from ..queries import (
    DICE,
    OBJECTIVES_FACE_UP,
    UNIT_LIMIT,
)
from .context import _Ctx


def seat_factions(game: Any, n: int, options: Options) -> tuple[tuple[str, ...], ...]:
    """Each seat's factions, from ``options.factions`` and the defaults, checked
    against Setup (3 players: Rome must be selected) and the 2-Player Rules (one
    seat Rome, the other the Coalition, each one of the Jewish or Christian).

    Raises IllegalActionError for a seat count or assignment the rules forbid."""
    if not game.min_players <= n <= game.max_players:
        raise IllegalActionError(f"Soul of the Empire takes 2 to 4 players, not {n}.")
    chosen = list(options.factions or ())
    if len(chosen) > n:
        raise IllegalActionError(f"{len(chosen)} factions named for {n} seats.")
    chosen += [None] * (n - len(chosen))
    try:
        groups = [list(faction_ids(x)) if x else [] for x in chosen]
    except ValueError as e:
        raise IllegalActionError(str(e)) from None
    taken = {f for grp in groups for f in grp}
    if n == 2:
        for grp in groups:
            if (
                len(grp) > 2
                or ({"rome", "coalition"} <= set(grp))
                or ({"jews", "christians"} <= set(grp))
            ):
                raise IllegalActionError(
                    "With 2 players each seat plays two factions: one seat Rome, the other the "
                    "Coalition, and each one of the Jewish or Christian factions."
                )
        for big in ("rome", "coalition"):
            if big not in taken:
                seat = next(
                    (i for i, grp in enumerate(groups) if not {"rome", "coalition"} & set(grp)),
                    None,
                )
                if seat is None:
                    raise IllegalActionError(
                        "With 2 players one seat plays Rome and the other the Coalition."
                    )
                groups[seat].insert(0, big)
                taken.add(big)
        for small in ("jews", "christians"):
            if small not in taken:
                seat = next(i for i, grp in enumerate(groups) if not {"jews", "christians"} & set(grp))
                groups[seat].append(small)
                taken.add(small)
        return tuple(tuple(sorted(g, key=FACTIONS.index)) for g in groups)
    if any(len(grp) > 1 for grp in groups):
        raise IllegalActionError("With 3 or 4 players each seat plays one faction.")
    pool = [f for f in ("rome", "coalition", "jews", "christians") if f not in taken]
    for grp in groups:
        if not grp:
            grp.append(pool.pop(0))
    if n == 3 and "rome" not in {grp[0] for grp in groups}:
        raise IllegalActionError("In a 3 player game the Roman faction must be selected.")
    return tuple(tuple(grp) for grp in groups)


def setup(game: Any, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
    """Setup (3 or 4 Player Setup; 2-Player Rules): shuffle the Objective Cards and
    turn up 4, faction boards and starting units, Power decks shuffled (the Jewish
    Revolt card starts in the Jewish hand), the Roman markers in Dacia and
    Armenia; then the seats place the other markers, Rome its final 8 units, and
    every faction rolls and readies its dice.

    Raises IllegalActionError for a seat count or options the rules do not allow.
    """
    options = options or Options()
    n = len(seats)
    if list(seats) != list(range(n)):
        raise IllegalActionError("Seats must be numbered 0 .. players - 1.")
    fs = game.seat_factions(n, options)
    d = game.data
    ctx = _Ctx(State(players=n, factions={}, order=()), rng)
    factions: dict[str, FactionState] = {}
    board: dict[str, dict[str, int]] = {}
    owner = {f: seat for seat, group in enumerate(fs) for f in group}
    for fid in FACTIONS:
        if fid not in owner:
            continue
        fb = d.factions[fid]
        placed = fb.placement
        for t, k in placed.items():
            board.setdefault(t, {})[fid] = k
        deck: tuple[str, ...] = ()
        hand: tuple[str, ...] = ()
        if fid != "coalition":
            cards = d.deck(fid)
            hand = tuple(c for c in cards if d.card(c).start_in_hand)
            deck = rng.shuffle([c for c in cards if c not in hand])
        factions[fid] = FactionState(
            id=fid,
            seat=owner[fid],
            supply=fb.units - sum(placed.values()),
            dice=tuple(Die() for _ in range(DICE)),
            hand=hand,
            deck=deck,
            captured={} if fid != "rome" else {},
            rage=fb.rage if fid == "coalition" else 0,
        )
    if "jews" in factions:
        factions["gray"] = FactionState(id="gray", seat=owner["jews"], supply=d.factions["gray"].units)
    order = game._order(fs)
    objective_deck = rng.shuffle(list(d.objectives))
    markers = (Marker(owner="rome", territory="dacia"), Marker(owner="rome", territory="armenia"))
    ctx.update(
        factions=factions,
        board=board,
        order=order,
        objective_deck=objective_deck[OBJECTIVES_FACE_UP:],
        objectives=objective_deck[:OBJECTIVES_FACE_UP],
        markers=markers,
        markers_to_place=game.markers_to_place(set(owner)),
        final_left=d.factions["rome"].final_placement,
        scored={f: () for f in factions},
        round_limit=options.round_limit,
        phase="markers",
    )
    ctx.note(
        "Objective Cards face up: " + ", ".join(d.objectives[c].name for c in ctx.s.objectives) + ". "
        "Rome's Objective Point Markers are in Dacia and Armenia."
    )
    for fid in factions:
        f = ctx.f(fid)
        if f.hand:
            ctx.emit(
                CardsDrawn(
                    faction=fid, names=tuple(game.card_name(c) for c in f.hand), visible_to=(f.seat,)
                )
            )
    if not ctx.s.markers_to_place:
        game._begin_final(ctx)
    return Step(state=ctx.s, events=tuple(ctx.events))


def order(game: Any, fs: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """Turn order. 3-4 players: Rome first, then left around the table (seating
    order). 2 players: Rome, then the Coalition, then the other two, alternating
    players (2-Player Rules; RULINGS.md R1)."""
    if len(fs) == 2:
        a = next(g for g in fs if "rome" in g)
        b = next(g for g in fs if "coalition" in g)
        a2 = next(f for f in a if f != "rome")
        b2 = next(f for f in b if f != "coalition")
        return ("rome", "coalition", a2, b2)
    seating = [g[0] for g in fs]
    i = seating.index("rome")
    return tuple(seating[i:] + seating[:i])


def begin_final(game: Any, ctx: _Ctx) -> None:
    """Setup: Rome places its final units, one at a time (none left: the setup rolls begin)."""
    ctx.update(phase="final")
    if ctx.s.final_left <= 0:
        game._begin_setup_rolls(ctx)


def begin_setup_rolls(game: Any, ctx: _Ctx) -> None:
    """Setup: every faction in turn order rolls and readies its dice."""
    ctx.update(phase="roll", roll_queue=ctx.s.order[1:])
    game._start_rolling(ctx, ctx.s.order[0], "setup")


def apply_marker(game: Any, ctx: _Ctx, a: Any) -> None:
    """Setup: an Objective Point Marker placed in the Roman Empire, not with or next to another
    marker."""
    s = ctx.s
    if not isinstance(a, PlaceMarker):
        raise IllegalActionError("Setup: place an Objective Point Marker: marker <territory>.")
    spots = game.marker_spots(s)
    if a.territory not in spots:
        raise IllegalActionError(
            "Objective Point Markers go in the Roman Empire, not with or next to another marker; free: "
            + list_words([game.tname(t) for t in spots], 40)
            + "."
        )
    owner = s.markers_to_place[0]
    ctx.update(
        markers=s.markers + (Marker(owner=owner, territory=a.territory),),
        markers_to_place=s.markers_to_place[1:],
    )
    ctx.note(f"The {game.fname(owner)} Objective Point Marker is placed in {game.tname(a.territory)}.")
    if not ctx.s.markers_to_place:
        game._begin_final(ctx)


def apply_final(game: Any, ctx: _Ctx, a: Any) -> None:
    """Setup: one of Rome's final units, where Rome has units or a marker lies (at most 6)."""
    s = ctx.s
    if not isinstance(a, PlaceUnit):
        raise IllegalActionError("Setup: place one of Rome's final units: place <territory>.")
    spots = game.final_spots(s)
    if a.territory not in spots:
        full = a.territory in game.data.territories and game.units(s, a.territory, "rome") >= UNIT_LIMIT
        why = (
            f"Rome already has {UNIT_LIMIT} units in {game.tname(a.territory)}, the most a territory holds"
            if full
            else f"{game.tname(a.territory)} holds no Roman unit and no Objective Point Marker"
            if a.territory in game.data.territories
            else "that is no territory"
        )
        raise IllegalActionError(
            f"{why}; Rome's final units go where Rome has units or a marker lies (at most {UNIT_LIMIT}); choose: "
            + list_words([game.tname(t) for t in spots], 40)
            + "."
        )
    ctx.from_supply(a.territory, "rome", 1)
    ctx.update(final_left=s.final_left - 1)
    ctx.note(f"Rome placed a unit in {game.tname(a.territory)}.")
    if ctx.s.final_left <= 0:
        game._begin_setup_rolls(ctx)
