"""The Time track: starting a Book (deal, secret discards), calling the next card, a Player
Turn's start (Reveal the Card and Take Units, a start-land conquered automatically) and
end, and Ending the Game.

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.english import count

from ..model import Attacked, CardRevealed, Combat, Discard, GameEnded, PrivateNote, Turn
from ..queries import ACTIONS, ARRAY_SIZE, BOOK_CARDS, DEAL
from .combat import conquer, settle_retreats
from .context import _Ctx


def start_book(game: Any, ctx: _Ctx, book: int) -> None:
    """Starting Book 2 and Book 3 (and Book 1): refill the array, deal the Book's cards."""
    s = ctx.s
    ctx.update(book=book)
    if book > 1:
        need = ARRAY_SIZE - len(s.array)
        drawn = s.bag[:need]
        ctx.update(array=s.array + drawn, bag=s.bag[len(drawn) :])
        ctx.note(f"Book {book}: {count(len(drawn), 'Artefact')} drawn to refill the array.")
    decks = list(ctx.s.decks)
    for side_i, side in enumerate(("heathen", "hebrew")):
        team = game.team(ctx.s, side)
        dealt, discard = DEAL[len(team)]
        di = (book - 1) * 2 + side_i
        deck = list(decks[di])
        for x in team:
            hand, deck = deck[:dealt], deck[dealt:]
            ctx.set_player(x, hand=tuple(sorted(hand)), to_discard=discard, discarded=())
            names = ", ".join(game.card_label(c) for c in sorted(hand))
            ctx.emit(PrivateNote(text=f"You are dealt: {names}.", visible_to=(x,)))
        decks[di] = tuple(deck)
    ctx.update(decks=tuple(decks), phase="discard", turn=None)
    ctx.note(f"Book {book}: Kingdom cards dealt; each player discards in secret.")


def apply_discard(game: Any, ctx: _Ctx, seat: Seat, a: Discard) -> None:
    """Starting a Book: a secret discard back to the Book's deck; the Time track starts once
    every player has discarded."""
    p = ctx.s.players[seat]
    di = (ctx.s.book - 1) * 2 + (0 if p.side == "heathen" else 1)
    decks = list(ctx.s.decks)
    decks[di] = decks[di] + a.cards
    ctx.set_player(seat, hand=tuple(c for c in p.hand if c not in a.cards), to_discard=0, discarded=a.cards)
    ctx.update(decks=tuple(decks))
    ctx.emit(
        PrivateNote(
            text=f"You discard {', '.join(game.card_label(c) for c in a.cards)}.", visible_to=(seat,)
        )
    )
    ctx.note(f"Seat {seat + 1} has discarded.")
    if not any(q.to_discard for q in ctx.s.players):
        ctx.update(phase="turn")
        call_next(game, ctx)


def call_next(game: Any, ctx: _Ctx) -> None:
    """Player Turns: call the next card on the Time track; a new Book after card 18/36;
    the end after the last card."""
    while True:
        s = ctx.s
        held = {c: x for x, p in enumerate(s.players) for c in p.hand}
        last = s.book * BOOK_CARDS
        nxt = next((c for c in range(s.time + 1, last + 1) if c in held), None)
        if nxt is None:
            ctx.update(time=last)
            if s.book < 3:
                start_book(game, ctx, s.book + 1)
                return
            end_game(game, ctx)
            return
        skipped = nxt - s.time - 1
        if skipped:
            ctx.note(
                f"No player holds cards {s.time + 1}-{nxt - 1}."
                if skipped > 1
                else f"No player holds card {s.time + 1}."
            )
        ctx.update(time=nxt)
        begin_turn(game, ctx, held[nxt], nxt)
        return


def begin_turn(game: Any, ctx: _Ctx, seat: Seat, number: int) -> None:
    """Reveal the Card and Take Units; then the automatic conquest of a start-land."""
    c = game.card(number)
    k = game.kingdom(c.kingdom)
    p = ctx.s.players[seat]
    ctx.set_player(seat, hand=tuple(x for x in p.hand if x != number), played=(*p.played, number))
    take = min(c.units, game.supply(ctx.s, k.counters))
    ctx.supply_add(k.counters, -take)
    team = game.team_size(ctx.s, seat)
    ctx.update(
        turn=Turn(
            card=number,
            seat=seat,
            kingdom=k.id,
            units=take,
            shortfall=c.units - take,
            actions=ACTIONS[team],
        )
    )
    lead = f"{c.name} leading the {k.name}" if c.side == "hebrew" else f"the {k.name}"
    ctx.emit(
        CardRevealed(
            seat=seat,
            card=number,
            text=f"Card {number}: seat {seat + 1} reveals {lead} and takes {count(take, 'unit')}"
            + (f" ({c.units - take} short: the supply is out)" if take < c.units else "")
            + ".",
        )
    )
    auto_start_land(game, ctx)


def auto_start_land(game: Any, ctx: _Ctx) -> None:
    """A Heathen kingdom not in its start-land, or a Hebrew kingdom (or the Canaanites)
    with no units on the map, first conquers its start-land automatically (Conquer)."""
    s = ctx.s
    t = s.turn
    assert t is not None
    k = game.kingdom(t.kingdom)
    if t.units < 1:
        return
    start: int | None = None
    if k.side == "heathen" and k.start_land is not None:
        i = game.idx[k.start_land]
        if s.lands[i].counters != k.counters:
            start = i
    elif not any(x.counters == k.counters for x in s.lands):
        land = k.start_land or k.fallback_start_land
        assert land is not None
        start = game.idx[land]
    if start is None:
        return
    conquer(game, ctx, start, keep_buildings=True)
    ctx.set_turn(units=ctx.s.turn.units - 1)  # type: ignore[union-attr]
    combat = Combat(
        kingdom=k.id,
        land=game.data.lands[start].id,
        method="start-land",
        text=f"The {k.name} conquer their start-land {game.land_name(start)} automatically.",
    )
    ctx.update(last_combat=combat)
    ctx.emit(Attacked(combat=combat))
    settle_retreats(game, ctx)


def end_turn(game: Any, ctx: _Ctx) -> None:
    """The Player Turn ends: the Time track calls the next card."""
    ctx.update(turn=None)
    call_next(game, ctx)


def end_game(game: Any, ctx: _Ctx) -> None:
    """Ending the Game: after the last card, the highest score wins, ties broken by remaining
    coins (joint winners when still tied)."""
    s = ctx.s
    sc = [sum(d.values()) for d in game.scores(s)]
    best = max(sc)
    top = [x for x in range(len(sc)) if sc[x] == best]
    coins = {x: sum(s.players[x].coins) for x in top}
    most = max(coins.values())
    winners = tuple(x for x in top if coins[x] == most)
    table = ", ".join(f"seat {x + 1} {v}" for x, v in enumerate(sc))
    who = " and ".join(f"seat {x + 1}" for x in winners)
    tie = " (tie broken by remaining coins)" if len(top) > 1 and len(winners) < len(top) else ""
    joint = " (joint winners)" if len(winners) > 1 else ""
    reason = f"Scores: {table}. Winner: {who}{tie}{joint}."
    ctx.update(phase="over", turn=None, winners=winners, end_reason=reason)
    ctx.emit(GameEnded(text="The last turn has been played. " + reason))
