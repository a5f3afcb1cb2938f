"""Setting Up 1-9 and the Initial Placement of Patriarchs (placement order by most coins;
RULINGS R2).

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import Event, IllegalActionError, Rng, Seat, Step
from games.core.english import count
from games.core.errors import list_words

from ..model import DiceRolled, LandState, Note, OwnedArtefact, Patriarch, PlacePatriarch, PlayerState, State
from ..options import Options
from ..queries import (
    ARRAY_SIZE,
    CITIES,
    COIN_SUPPLY,
    HEATHEN_PLACEMENTS,
    START_COINS,
    TEMPLES,
    add_coins,
    coin_vec,
)
from .context import _Ctx
from .time import start_book


def start_lands(game: Any) -> tuple[list[LandState], dict[str, int]]:
    """Setting Up 1-2: the cities, temples and one unit in each land (the Hebrew tribes in
    Heshbon and Jabesh-Gilead, each Heathen kingdom in its start-land, a Canaanite unit in
    each remaining land); returns the lands and the units left in each supply."""
    d = game.data
    lands = []
    heathen_starts = {
        d.land_index[k.start_land]: k for k in d.kingdoms if k.side == "heathen" and k.start_land
    }
    supply = {c.id: c.supply for c in d.counters}
    for i, land in enumerate(d.lands):
        if land.id == "heshbon":
            counters = "southern"
        elif land.id == "jabesh-gilead":
            counters = "northern"
        elif i in heathen_starts:
            counters = heathen_starts[i].counters
        else:
            counters = "cab"  # a Canaanite unit in each remaining land
        supply[counters] -= 1
        lands.append(
            LandState(
                counters=counters,
                units=1,
                city=land.id in ("jericho", "megiddo", "hebron", "hazor", "tyre", "kir-haraseth"),
                temple=land.id in ("hebron", "hazor"),
            )
        )
    return lands, supply


def setup(game: Any, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
    """Setting Up 1-9, the placement order, and the start of Initial Placement."""
    options = options or Options()
    n = len(seats)
    if not game.min_players <= n <= game.max_players:
        raise IllegalActionError(f"Promised Land takes 2 to 6 players, not {n}.")
    hebrews = set(options.hebrews) if options.hebrews is not None else {x for x in range(n) if x % 2 == 1}
    if not hebrews or len(hebrews) == n or any(x not in range(n) for x in hebrews):
        raise IllegalActionError("Both teams need at least one player.")
    if abs(2 * len(hebrews) - n) > 1:
        raise IllegalActionError("The teams should be closely matched (e.g. two versus three).")
    events: list[Event] = []
    d = game.data
    lands, supply = start_lands(game)
    # 4: six Book decks; 5: the bag and the array; 6-7: the tracks.
    decks = []
    for book in (1, 2, 3):
        for side in ("heathen", "hebrew"):
            cards = [c.number for c in d.cards if c.book == book and c.side == side]
            decks.append(rng.shuffle(cards))
    bag = list(rng.shuffle(d.bag))
    array, bag = bag[:ARRAY_SIZE], bag[ARRAY_SIZE:]
    royal = rng.shuffle([t.id for t in d.royal])
    kingdom: list[str] = []
    for pts in (1, 2, 3):
        kingdom += rng.shuffle([t.id for t in d.kingdom_tokens if t.points == pts])
    # 8-9: teams; one Artefact and its coins each.
    coin_supply = (COIN_SUPPLY,) * 3
    players = []
    for x in range(n):
        art = bag.pop(0)
        a = d.artefacts[art]
        got = coin_vec(a.coin, START_COINS[a.points])
        coin_supply = add_coins(coin_supply, got, -1)
        players.append(
            PlayerState(
                side="hebrew" if x in hebrews else "heathen",
                coins=got,
                artefacts=(OwnedArtefact(id=art),),
            )
        )
        events.append(
            Note(
                text=f"Seat {x + 1} draws {a.display} and collects {count(START_COINS[a.points], a.coin + ' coin')}."
            )
        )
    s = State(
        no_dice=options.no_dice,
        players=tuple(players),
        lands=tuple(lands),
        ark=d.land_index["heshbon"],
        unit_supply=tuple(supply.items()),
        cities=CITIES - 6,
        temples=TEMPLES - 2,
        coin_supply=coin_supply,
        bag=tuple(bag),
        array=tuple(array),
        royal_track=royal,
        kingdom_track=tuple(kingdom),
        decks=tuple(decks),
    )
    events.append(
        Note(text="Initial placement of Patriarchs: each Heathen places six, then each Hebrew one.")
    )
    ctx = _Ctx(s, rng)
    ctx.events = events
    begin_order(game, ctx, "heathen")
    return Step(state=ctx.s, events=tuple(ctx.events))


def most_coins(game: Any, ctx: _Ctx, side: str) -> Seat:
    """The player of ``side`` with most coins; players tied roll a die each, again while
    tied on the highest roll (Initial Placement; RULINGS R2)."""
    team = list(game.team(ctx.s, side))
    most = max(sum(ctx.s.players[x].coins) for x in team)
    tied = [x for x in team if sum(ctx.s.players[x].coins) == most]
    while len(tied) > 1:
        rolls = {x: ctx.rng.die() for x in tied}
        ctx.emit(
            DiceRolled(
                purpose=f"{side.title()} placement order: most coins tied between "
                + list_words([f"seat {x + 1}" for x in tied]),
                dice=tuple(rolls[x] for x in tied),
            )
        )
        tied = [x for x in tied if rolls[x] == max(rolls.values())]
    return tied[0]


def begin_order(game: Any, ctx: _Ctx, side: str) -> None:
    """The owner of most coins of ``side`` determines its placement order (Initial
    Placement; RULINGS R2); a team of one places at once."""
    team = game.team(ctx.s, side)
    if len(team) == 1:
        set_order(game, ctx, side, tuple(team))
        return
    x = most_coins(game, ctx, side)
    ctx.update(phase="order", orderer=x)
    ctx.note(f"Seat {x + 1} holds most coins and determines the {side.title()} placement order.")


def set_order(game: Any, ctx: _Ctx, side: str, seats: tuple[Seat, ...]) -> None:
    """The placement order of ``side``'s team is ``seats`` (each Heathen places six
    Patriarchs, each Hebrew one; Initial Placement)."""
    each = HEATHEN_PLACEMENTS if side == "heathen" else 1
    ctx.update(phase="place", orderer=None, place_order=seats * each)
    if len(seats) > 1:
        ctx.note(f"{side.title()} placement order: " + ", ".join(f"seat {x + 1}" for x in seats) + ".")


def apply_initial(game: Any, ctx: _Ctx, seat: Seat, a: PlacePatriarch) -> None:
    """Initial Placement: place a Patriarch; after the Heathens the Hebrews determine their
    order, after the Hebrews Book 1 starts."""
    s = ctx.s
    land = game.idx[a.land]
    ctx.update(
        patriarchs=(*s.patriarchs, Patriarch(seat=seat, type=a.type, land=land)),
        place_order=s.place_order[1:],
    )
    ctx.note(f"Seat {seat + 1} places a {a.type.title()} in {game.land_name(land)}.")
    if not ctx.s.place_order:
        if ctx.s.players[seat].side == "heathen":
            begin_order(game, ctx, "hebrew")  # "Similarly the Hebrew players determine placement order"
        else:
            start_book(game, ctx, 1)
