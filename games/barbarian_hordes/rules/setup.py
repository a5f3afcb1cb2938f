"""SETUP and THE NATIONS (rule text: shared/seeds/004): tokens and cards dealt, turn order
by 1D10 (RULINGS R2), the nation draft, and re-entry after a wipe-out (DEFEAT; RULINGS R13)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import IllegalActionError, Rng, Seat, Step
from games.core.english import count as counted
from games.core.errors import list_words

from ..model import CardsDrawn, CardsReceived, Note, Pass, PickNation, PlayerState, State, TurnOrderRolled
from ..options import Options
from ..queries import START_ARMIES, START_CARDS, START_TERRITORIES
from .common import check_last_standing, draw
from .context import _Ctx
from .turn import begin_turn, fate, next_turn


def roll_turn_order(rng: Rng, n: int) -> tuple[list[list[int]], list[Seat]]:
    """SETUP: each seat rolls 1D10, highest first; tied seats reroll among themselves
    (RULINGS R2). Returns every seat's rolls and the turn order."""
    rolls: list[list[int]] = [[] for _ in range(n)]
    groups: list[list[Seat]] = [list(range(n))]
    order: list[Seat] = []
    while groups:
        group = groups.pop(0)
        if len(group) == 1:
            order.append(group[0])
            continue
        this = {x: rng.die(10) for x in group}
        for x in group:
            rolls[x].append(this[x])
        by_value: dict[int, list[Seat]] = {}
        for x in group:
            by_value.setdefault(this[x], []).append(x)
        groups = [by_value[v] for v in sorted(by_value, reverse=True)] + groups
    return rolls, order


def setup(game: Any, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
    """SETUP: 5 Territory Tokens, 10 Army Tokens, 5 random cards each; turn order by
    1D10, ties rerolled (RULINGS.md R2); then the nation draft unless
    ``options.nations`` assigns them.

    Raises IllegalActionError for a seat count or options the rules do not allow.
    """
    options = options or Options()
    n = len(seats)
    if list(seats) != list(range(n)):
        raise IllegalActionError("Seats must be numbered 0 .. players - 1.")
    if not game.min_players <= n <= game.max_players:
        raise IllegalActionError(f"Barbarian Hordes takes 2 to 12 players, not {n}.")
    if options.variant == "three-player" and n != 3:
        raise IllegalActionError(f"The three-player variant needs exactly 3 players, not {n}.")
    deck = rng.shuffle(list(game.data.cards))
    rolls, order = roll_turn_order(rng, n)
    players = []
    for _ in range(n):
        hand, deck = deck[:START_CARDS], deck[START_CARDS:]
        players.append(PlayerState(armies=START_ARMIES, territories=START_TERRITORIES, hand=tuple(hand)))
    s = State(
        variant=options.variant,
        players=tuple(players),
        seating=tuple(range(n)),
        turn_order=tuple(order),
        deck=tuple(deck),
        round_limit=options.round_limit,
    )
    ctx = _Ctx(s, rng)
    ctx.emit(TurnOrderRolled(rolls=tuple(tuple(r) for r in rolls), order=tuple(order)))
    for x in range(n):
        ctx.emit(CardsDrawn(seat=x, who=f"Seat {x + 1}", count=START_CARDS, reason="setup"))
        hand = s.players[x].hand
        ctx.emit(CardsReceived(seat=x, cards=hand, names=game.names(hand), visible_to=(x,)))
    if options.nations is not None:
        assign_nations(game, ctx, options.nations)
    return Step(state=ctx.s, events=tuple(ctx.events))


def assign_nations(game: Any, ctx: _Ctx, nations: Sequence[str]) -> None:
    """Options skipping the draft: seat by seat, each nation from the pool the draft
    would offer it (THE NATIONS); then the first turn. Raises IllegalActionError."""
    n = len(ctx.s.players)
    if len(nations) != n:
        raise IllegalActionError(f"Give one nation per seat: {n} needed.")
    for x, nation in enumerate(nations):
        pool = game.nation_pool(ctx.s, reentry=False)
        if nation not in pool:
            names = [game.data.nation(p).name for p in pool]
            raise IllegalActionError(f"Seat {x + 1} cannot take {nation!r} now; available: {list_words(names)}.")
        take_nation(game, ctx, x, nation)
    begin_turn(game, ctx)


def take_nation(game: Any, ctx: _Ctx, seat: Seat, nation: str) -> None:
    """``seat`` plays ``nation`` from now on (THE NATIONS)."""
    ctx.set_player(seat, nation=nation, status="in")
    ctx.update(nations_played=ctx.s.nations_played + (nation,))
    name = game.data.nation(nation).name
    ctx.emit(Note(text=f"Seat {seat + 1} plays the {name}. {game.data.ability_text(nation)}"))


def pick_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """THE NATIONS (draft) and DEFEAT (re-entry): a nation of the pool; at re-entry, pass too."""
    reentry = s.phase == "reentry"
    if reentry and isinstance(a, Pass):
        return None
    pool = game.nation_pool(s, reentry=reentry)
    if not isinstance(a, PickNation):
        return "Pick a nation first: " + list_words([game.data.nation(n).name for n in pool]) + "."
    if a.nation not in pool:
        names = [game.data.nation(n).name for n in pool]
        return f"You cannot pick that nation now; available: {list_words(names)}."
    return None


def apply_pick(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """A nation picked in the draft (the first turn begins once all have one), or at
    re-entry: back at its old place in the seating with the starting tokens and cards,
    its turn going on with the Fate Phase (DEFEAT; RULINGS R13)."""
    reentry = ctx.s.phase == "reentry"
    if reentry and isinstance(a, Pass):
        decline_reentry(game, ctx, seat)
        return
    take_nation(game, ctx, seat, a.nation)
    if reentry:
        p = ctx.player(seat)
        ring = list(ctx.s.seating)
        ring.insert(min(p.last_position, len(ring)), seat)
        ctx.set_player(seat, armies=START_ARMIES, territories=START_TERRITORIES)
        ctx.update(seating=tuple(ring))
        ctx.emit(
            Note(
                text=f"Re-entry: the {game.nation_name(ctx.s, seat)}, with {START_TERRITORIES} Territory and {counted(START_ARMIES, 'Army Token')}."
            )
        )
        draw(game, ctx, seat, START_CARDS, "re-entry")
        fate(game, ctx)
    elif all(p.nation is not None for p in ctx.s.players):
        begin_turn(game, ctx)


def decline_reentry(game: Any, ctx: _Ctx, seat: Seat) -> None:
    """DEFEAT: "He may renter the game" — declining is final: the player is out of the
    game for good (RULINGS R13), and the next turn begins."""
    ctx.set_player(seat, status="eliminated")
    ctx.emit(Note(text=f"Seat {seat + 1} does not re-enter and is out of the game."))
    if check_last_standing(game, ctx):
        return
    next_turn(game, ctx)
